"""The one definition of a player's name (rules.names), as the forms, services, readers, the import
and the audit all use it: emoji sequences and flags are names; what no phone can show is not."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.names import Fault, cleaned, escaped, fault
from tests.rules.support import make_doc, settle_doc

FAMILY = "👨\u200d👩\u200d👧"
DOCTOR = "👩\u200d⚕\ufe0f"
DOCTOR_TONED = "👩\U0001f3fd\u200d⚕\ufe0f"
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize(
    "name",
    [FAMILY, DOCTOR, DOCTOR_TONED, ENGLAND, f"{FAMILY} ครอบครัว", "น้ำ", "Ann", "❤\ufe0f"],
    ids=["family", "profession", "skin tone", "England", "emoji and Thai", "Thai", "Latin", "VS16"],
)
def test_an_emoji_sequence_or_a_flag_is_a_name_kept_whole(name):
    assert cleaned(name) == name
    assert fault(name) is None


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("a\u200db", "ab"),  # a joiner between letters
        ("👨\u200d", "👨"),  # a joiner at the end joins nothing
        ("\u200d👨", "👨"),
        ("🏴\U000e0067\U000e0062", "🏴"),  # tags with no cancel tag are no flag
        ("A\U000e0067\U000e007f", "A"),  # tags after a letter
        ("e\u200b\u0301", "\u00e9"),  # the accent meets its letter once the space goes
    ],
    ids=["letters", "trailing", "leading", "unfinished flag", "tags on a letter", "NFC after"],
)
def test_format_characters_outside_an_emoji_sequence_are_stripped(typed, stored):
    assert cleaned(typed) == stored


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u200b\u200d\u2060", Fault.EMPTY),
        ("\ufeff", Fault.EMPTY),
        ("  ", Fault.EMPTY),
        ("Ann\x07", Fault.HIDDEN),
        ("Ann\x1b[31m", Fault.HIDDEN),
        ("Bee\ue000", Fault.HIDDEN),
        ("Cat\U0010ffff", Fault.HIDDEN),
        ("Dan\ud800", Fault.HIDDEN),
    ],
    ids=[
        "format only",
        "BOM",
        "spaces",
        "bell",
        "escape",
        "private use",
        "unassigned",
        "surrogate",
    ],
)
def test_a_name_with_nothing_visible_or_a_hidden_character_is_refused(name, why):
    assert fault(name) is why


@pytest.mark.parametrize("name", [FAMILY, DOCTOR, ENGLAND])
def test_a_game_with_an_emoji_sequence_for_a_name_settles(name):
    doc = make_doc(
        players=["Ann", name, "Cat", "Dan"],
        knock={"player": name, "kind": "normal"},
        events=[{"type": "head", "player": name, "close": ["Cat"]}],
    )
    settled = settle_doc(doc)
    assert sum(line.amount for line in settled.lines if line.payee == name) > 0


def test_a_game_naming_a_player_with_a_control_character_is_refused():
    with pytest.raises(RuleError) as refused:
        settle_doc(make_doc(players=["Ann", "Bee\x1b", "Cat", "Dan"]))
    assert refused.value.code == "document"


@given(st.text(max_size=30))
def test_a_cleaned_name_is_clean_and_either_acceptable_or_refused_for_a_reason(name):
    once = cleaned(name)
    assert cleaned(once) == once
    assert fault(once) in (None, Fault.HIDDEN) if once else fault(name) is not None


def test_diagnostics_write_control_characters_out_so_no_line_is_faked():
    assert escaped("Ann\nline 2: all paid\x1b[0m") == "Ann\\nline 2: all paid\\x1b[0m"
    assert escaped(f"{FAMILY} {ENGLAND} น้ำ") == f"{FAMILY} {ENGLAND} น้ำ"
    assert escaped("\u2028\r") == "\\u2028\\r"
