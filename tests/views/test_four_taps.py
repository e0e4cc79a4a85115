"""An ordinary game in four taps: the players in seat order on every screen,
points read however a Thai phone types them, and rows that name the same players wherever the
form was made."""

import json
import re

import pytest

from scorekeeper.models import Game, Invite, Membership
from scorekeeper.numbers import read_digits
from scorekeeper.services import access, games
from tests.views.conftest import finish_data, member

OUTCOME = {
    "knock": {"player": "Ann", "kind": "normal"},
    "points": {"Bee": 10, "Cat": 20, "Dan": 30},
}


def rows(body: str) -> list[str]:
    """The players the end-of-game form lists, top to bottom."""
    return re.findall(r'<tr data-player="([^"]+)">', body)


@pytest.mark.parametrize(
    ("typed", "read"),
    [("๑๒๐", "120"), ("−๒๐", "-20"), ("-20", "-20"), ("1,200", "1200"), (" ๑ ๒ ", "12")],
    ids=["thai digits", "thai digits with a real minus", "ascii", "thousands comma", "spaces"],
)
def test_numbers_are_read_as_a_thai_phone_types_them(typed, read):
    assert read_digits(typed) == read


def test_points_typed_in_thai_digits_with_a_minus_are_recorded(en, in_play):
    data = finish_data(points_1="๑๐", points_2="−๒๐", points_3="1,200")
    assert en.post(f"/s/{in_play.night_id}/games/{in_play.pk}/finish", data).status_code == 302
    game = Game.objects.get(pk=in_play.pk)
    assert game.document["points"] == {"Bee": 10, "Cat": -20, "Dan": 1200}


def test_the_players_are_listed_in_seat_order_whoever_deals(en, table):
    first = games.game_start(night=table)
    games.game_finish(game=first, outcome={**OUTCOME, "knock": {"player": "Cat", "kind": "normal"},
                                           "points": {"Ann": 1, "Bee": 2, "Dan": 3}})  # fmt: skip
    second = games.game_start(night=table, fool_swap=False)
    assert second.document["players"][0] == "Cat"  # the knocker deals: turn order starts there
    finish = en.get(f"/s/{table.pk}/games/{second.pk}/finish").content.decode()
    assert rows(finish) == ["Ann", "Bee", "Cat", "Dan"]
    assert re.findall(r'name="knocker" value="([^"]+)"', finish) == ["Ann", "Bee", "Cat", "Dan"]
    event = en.get(f"/s/{table.pk}/games/{second.pk}/events/head").content.decode()
    assert re.findall(r'<option value="([^"]+)"', event)[:4] == ["Ann", "Bee", "Cat", "Dan"]


def test_after_a_swap_by_rule_17_the_rows_follow_the_new_seats(en, table):
    first = games.game_start(night=table)
    games.game_finish(game=first, outcome={**OUTCOME, "fool": "Cat"})  # Ann knocks, Cat fools
    second = games.game_start(night=table)  # rule 17: Ann and Cat swap seats
    finish = en.get(f"/s/{table.pk}/games/{second.pk}/finish").content.decode()
    assert rows(finish) == ["Cat", "Bee", "Ann", "Dan"]


def test_rows_are_read_in_the_order_the_page_listed_them(en, table):
    first = games.game_start(night=table)
    games.game_finish(game=first, outcome={**OUTCOME, "knock": {"player": "Cat", "kind": "normal"},
                                           "points": {"Ann": 1, "Bee": 2, "Dan": 3}})  # fmt: skip
    second = games.game_start(night=table, fool_swap=False)
    listed = ["Ann", "Bee", "Cat", "Dan"]  # seat order; the game's own order starts with Cat
    data = finish_data(knocker="Cat", listed=json.dumps(listed), points_0="5", points_1="6",
                       points_2="", points_3="7")  # fmt: skip
    assert en.post(f"/s/{table.pk}/games/{second.pk}/finish", data).status_code == 302
    assert Game.objects.get(pk=second.pk).document["points"] == {"Ann": 5, "Bee": 6, "Dan": 7}


def test_a_form_listing_other_players_than_the_games_is_refused_and_says_why(en, in_play):
    data = finish_data(listed=json.dumps(["Ann", "Bee", "Cat", "Eve"]))
    answer = en.post(f"/s/{in_play.night_id}/games/{in_play.pk}/finish", data)
    assert answer.status_code == 422
    assert "The players at the table changed" in answer.content.decode()
    assert Game.objects.get(pk=in_play.pk).status == Game.Status.IN_PLAY


def test_a_form_made_offline_before_the_deal_names_the_right_players(en, table):
    first = games.game_start(night=table)
    games.game_finish(game=first, outcome={**OUTCOME, "knock": {"player": "Cat", "kind": "normal"},
                                           "points": {"Ann": 1, "Bee": 2, "Dan": 3}})  # fmt: skip
    page = en.get(f"/s/{table.pk}/games/key/_/finish").content.decode()  # kept by the phone
    listed = json.loads(re.search(r'name="listed" value="([^"]+)"', page)[1].replace("&quot;", '"'))  # type: ignore[index]
    assert listed == ["Ann", "Bee", "Cat", "Dan"]
    games.game_start(night=table, fool_swap=False, idempotency_key="phone-key")  # Cat deals
    data = finish_data(knocker="Dan", listed=json.dumps(listed), points_0="1", points_1="2",
                       points_2="3", points_3="")  # fmt: skip
    assert en.post(f"/s/{table.pk}/games/key/phone-key/finish", data).status_code == 302
    landed = Game.objects.get(status=Game.Status.SETTLED, number=2)
    assert landed.document["points"] == {"Ann": 1, "Bee": 2, "Cat": 3}


def test_an_invite_code_typed_with_thai_digits_joins(client, table):
    host = member(client, table.group, Membership.Role.HOST)
    invite = access.invite_create(group=table.group, role=Membership.Role.PLAYER, by=host)
    Invite.objects.filter(pk=invite.pk).update(code="AB12CD34")  # digits to type in Thai
    thai = "ab๑๒ cd๓๔"
    guest = access.device_create()
    joined = access.invite_join(device=guest, code=thai, name="เอ๋")
    assert joined.group == table.group
