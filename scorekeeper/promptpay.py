"""PromptPay (พร้อมเพย์): the target a member is paid to, and the EMVCo payload of its QR code.

Pure Python, no Django, as rules/ is. A target is a mobile number, a national or tax id, or an
e-wallet id, typed as a Thai phone types it: with dashes or spaces, Thai digits (๐-๙), a +66 in
front of a mobile number. Every function here reads the target the same way and raises
`PromptPayError` (a `ValueError`) with a short English message and a stable code for one it
cannot read; the caller translates it by the code.

The payload is that of dtinth/promptpay-qr, which every Thai bank app scans: tag 29 with the
PromptPay AID, the country and currency, the amount when there is one, and a CRC-16/CCITT.
"""

import binascii
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from scorekeeper.rules.money import SATANG

Kind = Literal["mobile", "id", "ewallet"]
KINDS: dict[int, Kind] = {10: "mobile", 13: "id", 15: "ewallet"}  # by the number of digits

AID = "A000000677010111"  # PromptPay's application id, Bank of Thailand
TAG = {"mobile": "01", "id": "02", "ewallet": "03"}  # the target's tag inside tag 29
AMOUNT_LONGEST = 13  # EMVCo: tag 54 holds at most 13 characters ("1234567890.12")

# Thai digits as ASCII ones; spaces and the dashes a keyboard, autocorrect or a chat may give.
_READ = str.maketrans({chr(0x0E50 + d): str(d) for d in range(10)})
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—−]+")
_TARGET = re.compile(r"(?P<plus66>\+66)?(?P<digits>[0-9]+)")


class PromptPayError(ValueError):
    """A target or an amount a PromptPay QR code cannot carry; `code` says which, for the UI.

    Codes: "target" (not a mobile number, id or e-wallet id), "amount" (not more than zero),
    "amount-too-large" (more than tag 54's 13 characters).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def normalised(target: str) -> str:
    """Return the target's digits as they are stored: a mobile number as 0xxxxxxxxx.

    Mobile: ten digits starting with 0 (+66 8x… is read as 08x…). National or tax id: 13
    digits. E-wallet id: 15 digits. A number stored reads so whatever it is (the published test
    vectors fail the id's check digit); one being typed is checked further by `typed`.
    """
    match = _TARGET.fullmatch(_SEPARATORS.sub("", target.translate(_READ)))
    if match is None:
        raise PromptPayError(
            "target", "a PromptPay target is digits, with dashes or spaces at most"
        )
    digits = match["digits"]
    if match["plus66"]:
        # +66 stands for the leading 0 of a mobile number; some also keep the 0: +66 081…
        local = digits if len(digits) == 10 and digits.startswith("0") else "0" + digits
        if len(local) != 10:
            raise PromptPayError("target", "a +66 number is a mobile number: nine digits after +66")
        return local
    if (len(digits) == 10 and digits.startswith("0")) or len(digits) in (13, 15):
        return digits
    raise PromptPayError(
        "target",
        "a PromptPay target is a 10-digit mobile number starting with 0,"
        " a 13-digit national or tax id, or a 15-digit e-wallet id",
    )


MOBILE_PREFIXES = ("06", "08", "09")  # Thai mobile numbers; 02-05 and 07 are landlines


def id_check_digit(first_twelve: str) -> int:
    """Return the check digit of a national or tax id: 11 less the sum of each of the first
    twelve digits times its weight (13 down to 2), modulo 11, then modulo 10."""
    total = sum(int(d) * (13 - i) for i, d in enumerate(first_twelve))
    return (11 - total % 11) % 10


def typed(target: str) -> str:
    """Return the target's digits as `normalised` does, refusing what a member should not type.

    Checked only where a number is typed, never where a stored one is read: a number all zeros
    ("all-zero"), a mobile number not starting 06, 08 or 09 ("mobile"), and a national or tax
    id whose last digit is not its check digit ("id-check"). E-wallet ids have no check here.
    """
    digits = normalised(target)
    if not digits.strip("0"):
        raise PromptPayError("all-zero", "a PromptPay number is never all zeros")
    what = kind(digits)
    if what == "mobile" and not digits.startswith(MOBILE_PREFIXES):
        raise PromptPayError("mobile", "a mobile number starts with 06, 08 or 09")
    if what == "id" and int(digits[12]) != id_check_digit(digits[:12]):
        raise PromptPayError("id-check", "the id's last digit is not its check digit")
    return digits


def kind(target: str) -> Kind:
    """Return what the target is: "mobile", "id" (national or tax id) or "ewallet"."""
    return KINDS[len(normalised(target))]


def formatted(target: str) -> str:
    """Return the target grouped as Thais write it: 081-234-5678, 1-2345-67890-12-3."""
    digits = normalised(target)
    groups = {"mobile": (3, 3, 4), "id": (1, 4, 5, 2, 1), "ewallet": (15,)}[kind(digits)]
    parts, start = [], 0
    for size in groups:
        parts.append(digits[start : start + size])
        start += size
    return "-".join(parts)


def masked(target: str) -> str:
    """Return the target for others to see: an x for each digit but the last four, and a
    mobile number's first two: x-xxxx-xxxx0-12-3, 08x-xxx-4567, xxxxxxxxxxx1234.

    A national or tax id is always shown so to anyone but its owner; a mobile number as its
    owner chooses. The grouping stays that of `formatted`, so it still reads as an id.
    """
    shown = formatted(target)
    keep_first = 2 if kind(shown) == "mobile" else 0
    positions = [i for i, c in enumerate(shown) if c.isdigit()]
    hidden = set(positions[keep_first:-4])
    return "".join("x" if i in hidden else c for i, c in enumerate(shown))


def amount_text(amount: Decimal) -> str:
    """Return the amount as tag 54 holds it: baht rounded half up to the satang, two decimals."""
    if not isinstance(amount, Decimal):
        raise TypeError("an amount is a Decimal, never a float")
    if not amount.is_finite() or amount <= 0:
        raise PromptPayError("amount", "the amount must be more than zero")
    if amount.adjusted() >= AMOUNT_LONGEST - 3:  # more whole digits than tag 54 can hold
        raise PromptPayError("amount-too-large", "the amount is too large for a PromptPay QR code")
    rounded = amount.quantize(SATANG, rounding=ROUND_HALF_UP)
    if rounded <= 0:
        raise PromptPayError("amount", "the amount must be at least 0.01 baht")
    text = f"{rounded:f}"
    if len(text) > AMOUNT_LONGEST:  # 9999999999.995 rounds up to eleven whole digits
        raise PromptPayError("amount-too-large", "the amount is too large for a PromptPay QR code")
    return text


def _field(tag: str, value: str) -> str:
    """One EMVCo data object: its tag, its value's length in two digits, the value."""
    return f"{tag}{len(value):02d}{value}"


def crc(data: str) -> str:
    """Return the CRC-16/CCITT (initial 0xFFFF) of `data` as four upper-case hex digits."""
    return f"{binascii.crc_hqx(data.encode('ascii'), 0xFFFF):04X}"


def payload(target: str, amount: Decimal | None = None) -> str:
    """Return the EMVCo payload of a PromptPay QR code paying `target`, with `amount` if given.

    Without an amount the code is static (010211) and the payer types the amount; with one it
    is dynamic (010212) and tag 54 carries it. Raises PromptPayError, a ValueError, for a target
    it cannot read or an amount that is not positive or too long.
    """
    digits = normalised(target)
    what = kind(digits)
    account = "0066" + digits[1:] if what == "mobile" else digits
    fields = [
        _field("00", "01"),  # payload format indicator
        _field("01", "11" if amount is None else "12"),  # point of initiation: static, dynamic
        _field("29", _field("00", AID) + _field(TAG[what], account)),
        _field("58", "TH"),
        _field("53", "764"),  # Thai baht, ISO 4217
    ]
    if amount is not None:
        fields.append(_field("54", amount_text(amount)))
    data = "".join(fields) + "6304"  # the CRC covers its own tag and length
    return data + crc(data)
