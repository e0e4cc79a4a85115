"""PromptPay payloads: the published vectors of dtinth/promptpay-qr, the targets a Thai phone types,
the amounts a QR code cannot carry, and a CRC that checks for every payload."""

import binascii
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import promptpay
from scorekeeper.promptpay import PromptPayError, formatted, kind, masked, normalised, payload

# Every vector of index.test.js in github.com/dtinth/promptpay-qr (commit 904f90d), whole.
PUBLISHED = [
    pytest.param(
        "0801234567",
        None,
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197",
        id="local phone number",
    ),
    pytest.param(
        "080-123-4567",
        None,
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197",
        id="dashed local phone number",
    ),
    pytest.param(
        "+66-89-123-4567",
        None,
        "00020101021129370016A000000677010111011300668912345675802TH5303764630429C1",
        id="dashed +66 phone number",
    ),
    pytest.param(
        "1111111111111",
        None,
        "00020101021129370016A000000677010111021311111111111115802TH530376463047B5A",
        id="national id",
    ),
    pytest.param(
        "1-1111-11111-11-1",
        None,
        "00020101021129370016A000000677010111021311111111111115802TH530376463047B5A",
        id="dashed national id",
    ),
    pytest.param(
        "0123456789012",
        None,
        "00020101021129370016A000000677010111021301234567890125802TH530376463040CBD",
        id="tax id",
    ),
    pytest.param(
        "012345678901234",
        None,
        "00020101021129390016A00000067701011103150123456789012345802TH530376463049781",
        id="e-wallet id",
    ),
    pytest.param(
        "000-000-0000",
        Decimal("4.22"),
        "00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469",
        id="amount",
    ),
]


@pytest.mark.parametrize(("target", "amount", "expected"), PUBLISHED)
def test_the_payload_is_that_of_the_published_vectors(target, amount, expected):
    assert payload(target, amount) == expected


@pytest.mark.parametrize(
    "target",
    [
        "๐๘๐๑๒๓๔๕๖๗",
        "๐๘๐-๑๒๓-๔๕๖๗",
        "080 123 4567",
        " 080–123–4567 ",
        "+66 80 123 4567",
        "+66801234567",
        "+66 080 123 4567",  # +66 with the 0 kept
        "080\u00a0123\u00a04567",  # no-break spaces, as a copy from a chat may give
    ],
)
def test_a_mobile_number_is_read_as_a_thai_phone_types_it(target):
    assert normalised(target) == "0801234567"
    assert payload(target) == PUBLISHED[0].values[2]


def test_an_amount_makes_the_code_dynamic_with_two_decimals():
    static = payload("0801234567")
    dynamic = payload("0801234567", Decimal("150"))
    assert fields(static)["01"] == "11" and "54" not in fields(static)
    assert dynamic == (
        "00020101021229370016A000000677010111011300668012345675802TH5303764"
        "5406150.006304" + promptpay.crc(dynamic[:-4])
    )


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        ("4.225", "4.23"),  # half up, never to the even satang
        ("4.2249", "4.22"),
        ("0.005", "0.01"),
        ("1E+2", "100.00"),
        ("12.5", "12.50"),
        ("9999999999.99", "9999999999.99"),  # 13 characters, tag 54's most
        ("9999999999.994", "9999999999.99"),
    ],
)
def test_the_amount_is_rounded_half_up_to_the_satang(amount, text):
    assert promptpay.amount_text(Decimal(amount)) == text
    assert fields(payload("0801234567", Decimal(amount)))["54"] == text


@pytest.mark.parametrize(
    "target",
    [
        "",
        "   ",
        "abc",
        "080123456",  # nine digits
        "08012345678",  # eleven
        "8012345678",  # ten, not starting with 0
        "21234567",  # a Bangkok landline without its 0
        "021234567",  # a landline: PromptPay has none
        "11111111111111",  # fourteen
        "0123456789012345",  # sixteen
        "66801234567",  # 66 without its +
        "+66 2 123 4567",  # a landline after +66
        "+66 8012 345678 9",
        "+1 415 555 0100",
        "++66801234567",
        "080.123.4567",
        "(080) 123-4567",
        "0801234567x",
        "080/123/4567",
        "٠٨٠١٢٣٤٥٦٧",  # Arabic-Indic digits: a Thai phone never gives them
    ],
)
def test_a_target_that_is_not_a_mobile_number_id_or_e_wallet_is_refused(target):
    with pytest.raises(PromptPayError) as refused:
        payload(target)
    assert refused.value.code == "target"
    assert isinstance(refused.value, ValueError)
    for read in (normalised, kind, formatted, masked):
        with pytest.raises(ValueError):
            read(target)


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        ("0", "amount"),
        ("0.00", "amount"),
        ("-0.01", "amount"),
        ("-150", "amount"),
        ("0.004", "amount"),  # rounds to nothing
        ("NaN", "amount"),
        ("Infinity", "amount"),
        ("-Infinity", "amount"),
        ("10000000000", "amount-too-large"),  # "10000000000.00" is 14 characters
        ("9999999999.995", "amount-too-large"),  # rounds up to 14
        ("1E+30", "amount-too-large"),
    ],
)
def test_an_amount_that_is_not_positive_or_too_long_is_refused(amount, code):
    with pytest.raises(PromptPayError) as refused:
        payload("0801234567", Decimal(amount))
    assert refused.value.code == code


@pytest.mark.parametrize("amount", [4.22, 150, "4.22"])
def test_an_amount_is_a_decimal_never_a_float(amount):
    with pytest.raises(TypeError):
        payload("0801234567", amount)


@pytest.mark.parametrize(
    ("target", "what", "digits", "shown", "hidden"),
    [
        ("081-234-5678", "mobile", "0812345678", "081-234-5678", "08x-xxx-5678"),
        ("+66 81 234 5678", "mobile", "0812345678", "081-234-5678", "08x-xxx-5678"),
        ("1234567890123", "id", "1234567890123", "1-2345-67890-12-3", "x-xxxx-xxxx0-12-3"),
        ("๑-๒๓๔๕-๖๗๘๙๐-๑๒-๓", "id", "1234567890123", "1-2345-67890-12-3", "x-xxxx-xxxx0-12-3"),
        ("012345678901234", "ewallet", "012345678901234", "012345678901234", "xxxxxxxxxxx1234"),
    ],
)
def test_a_target_is_kept_as_digits_shown_grouped_and_masked_to_its_last_four(
    target, what, digits, shown, hidden
):
    assert kind(target) == what
    assert normalised(target) == digits
    assert formatted(target) == shown
    assert masked(target) == hidden
    assert normalised(shown) == digits  # what is shown reads back as the same target


def fields(data: str) -> dict[str, str]:
    """Read an EMVCo payload's data objects: tag, two-digit length, value, one after another."""
    read, at = {}, 0
    while at < len(data):
        tag, length = data[at : at + 2], int(data[at + 2 : at + 4])
        read[tag] = data[at + 4 : at + 4 + length]
        assert len(read[tag]) == length, data
        at += 4 + length
    return read


SEPARATOR = st.sampled_from(["", "", "", "-", " ", "–"])
THAI = str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")


@st.composite
def targets(draw):
    """A target as a phone may type it: its digits, with separators and maybe Thai digits."""
    size = draw(st.sampled_from([10, 13, 15]))
    digits = draw(st.text("0123456789", min_size=size, max_size=size))
    if size == 10:
        digits = "0" + digits[1:]
    typed = "".join(digit + draw(SEPARATOR) for digit in digits)
    if size == 10 and draw(st.booleans()):
        typed = "+66" + draw(SEPARATOR) + typed[1:].lstrip(" -–")
    return digits, typed.translate(THAI) if draw(st.booleans()) else typed


AMOUNTS = st.none() | st.decimals(min_value=Decimal("0.005"), max_value=Decimal("9999999999.99"))


@given(target=targets(), amount=AMOUNTS)
def test_every_payload_carries_its_target_and_amount_under_a_crc_that_checks(target, amount):
    digits, typed = target
    data = payload(typed, amount)
    assert binascii.crc_hqx(data[:-4].encode(), 0xFFFF) == int(data[-4:], 16)
    assert data[-4:] == data[-4:].upper()
    read = fields(data)
    assert list(read) == ["00", "01", "29", "58", "53", *(["54"] if amount else []), "63"]
    account = fields(read["29"])
    assert account["00"] == "A000000677010111"
    tag = {10: "01", 13: "02", 15: "03"}[len(digits)]
    assert account[tag] == ("0066" + digits[1:] if tag == "01" else digits)
    assert read["01"] == ("11" if amount is None else "12")
    if amount is not None:
        assert Decimal(read["54"]) == amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert len(read["54"]) <= 13 and read["54"][-3] == "."


@pytest.mark.parametrize(
    ("target", "code"),
    [
        ("0000000000", "all-zero"),
        ("000-000-0000", "all-zero"),
        ("0000000000000", "all-zero"),
        ("000000000000000", "all-zero"),
        ("0212345678", "mobile"),  # a Bangkok landline's ten digits
        ("0512345678", "mobile"),
        ("0712345678", "mobile"),
        ("1111111111111", "id-check"),  # the published test id: its check digit is 9
        ("1234567890123", "id-check"),
        ("12345", "target"),
    ],
)
def test_a_typed_number_no_bank_pays_to_is_refused_with_its_reason(target, code):
    with pytest.raises(PromptPayError) as refused:
        promptpay.typed(target)
    assert refused.value.code == code
    if code != "target":  # stored so before the checks, it still pays
        assert payload(target).startswith("000201")


@pytest.mark.parametrize(
    "target",
    ["0612345678", "0812345678", "0912345678", "+66 81 234 5678", "1111111111119",
     "1-2345-67890-12-1", "3-1012-34567-89-3", "012345678901234"],
)  # fmt: skip
def test_a_typed_number_that_passes_is_its_digits(target):
    assert promptpay.typed(target) == normalised(target)


@given(st.text(alphabet="0123456789", min_size=12, max_size=12))
def test_exactly_one_last_digit_makes_twelve_digits_an_id(first):
    passing = [d for d in "0123456789" if _typed_or_none(first + d)]
    assert passing == [str(promptpay.id_check_digit(first))]


def _typed_or_none(target: str) -> str | None:
    try:
        return promptpay.typed(target)
    except PromptPayError:
        return None
