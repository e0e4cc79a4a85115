"""Names are cleaned so that the same name is the same text."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.names import cleaned

NAM = "น้ำ"  # น + ้ + ำ, as a Thai keyboard writes it
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # a flag's tags


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Ann   Bee ", "Ann Bee"),
        ("An\u200bn", "Ann"),  # a zero-width space pasted from a chat
        ("\u200eBee\u200f", "Bee"),  # direction marks
        ("\ufeffCat", "Cat"),  # a byte-order mark
        ("Dan\u2060", "Dan"),  # a word joiner
        ("น\u0e4d\u0e49\u0e32", NAM),  # ํ + tone + า
        ("น\u0e49\u0e4d\u0e32", NAM),  # tone + ํ + า
        ("ก\u0e48\u0e34ง", "ก\u0e34\u0e48ง"),  # tone typed before the vowel above: กิ่ง
        ("e\u0301", "\u00e9"),  # NFC
        ("👨\u200d👩\u200d👧 ครอบครัว", "👨\u200d👩\u200d👧 ครอบครัว"),  # an emoji's joiners stay
        (ENGLAND, ENGLAND),
        ("a\u200db", "ab"),  # a joiner between letters goes
        ("\u200b \u200b", ""),
    ],
    ids=[
        "spaces", "zero-width space", "direction marks", "BOM", "word joiner", "nikhahit first",
        "tone first", "tone before vowel", "NFC", "emoji joiners", "flag tags", "stray joiner",
        "nothing visible",
    ],
)  # fmt: skip
def test_a_name_is_stored_as_it_is_cleaned(typed, stored):
    assert cleaned(typed) == stored


@given(st.text(max_size=30))
def test_cleaning_twice_changes_nothing_more(name):
    assert cleaned(cleaned(name)) == cleaned(name)


def test_a_name_pasted_with_a_zero_width_space_is_the_same_player_and_the_night_goes_on(db):
    """A zero-width space pasted with a name from a chat is cleaned away: the night the group
    opens takes every later write instead of refusing them all."""
    from scorekeeper.services import access, games, nights

    group = access.group_create(name="วง\u200bเสาร์")
    assert group.name == "วงเสาร์"
    night = nights.night_open(
        group=group,
        players=["An\u200bn", "Bee", "Cat", "น\u0e4d\u0e49\u0e32"],
        stake_level="sian",
        point_value=Decimal(1),
    )
    again = nights.player_create(group=group, name="Ann")
    assert again.pk == night.seats.get(position=0).player_id
    assert nights.player_create(group=group, name="น้ำ").name == NAM
    game = games.game_start(night=night)
    games.event_add(game=game, event={"type": "head", "player": "Ann"})
    knock = {"knock": {"player": NAM, "kind": "normal"}, "points": {"Ann": 5, "Bee": 15, "Cat": 10}}
    assert games.game_finish(game=game, outcome=knock).status == "settled"


def test_a_name_with_nothing_visible_is_refused(db):
    from scorekeeper.services import access, nights
    from scorekeeper.services.errors import ServiceError

    group = access.group_create(name="Saturday")
    with pytest.raises(ServiceError) as refused:
        nights.player_create(group=group, name="\u200b \u200e")
    assert refused.value.code == "player-name"
    with pytest.raises(ServiceError):
        access.group_create(name="\ufeff")


def test_names_recorded_before_cleaning_stay_as_they_were_each_with_a_key_of_its_own():
    from scorekeeper.names import unique_key

    taken: set[str] = set()
    assert unique_key("Ann", taken) == "Ann"
    assert unique_key("An\u200bn", taken) == " 1 Ann"  # recorded earlier as another player
    assert unique_key("Bee", taken) == "Bee"
