"""Pay as you go on the phone (rule 80): the night is opened to pay at the table, or an
event or a game is marked paid at the table; the table's settle-up leaves them out."""

import re

from scorekeeper.models import Night
from scorekeeper.services import games


def settle_now(body: str) -> list[str]:
    return re.findall(r'data-payer="([^"]+)" data-payee="([^"]+)"', body)


def test_a_night_opened_to_pay_at_the_table_asks_nobody_to_pay_at_the_end(en, group):
    data = {
        "seat_1": "Ann", "seat_2": "Bee", "seat_3": "Cat", "seat_4": "Dan",
        "first_dealer": "1", "stake_level": "sian", "point_value": "1", "pays": "table",
    }  # fmt: skip
    answer = en.post(f"/g/{group.pk}/sessions/new", data)
    assert answer.status_code == 302
    night = Night.objects.get()
    assert night.pays_at_table
    game = games.game_start(night=night)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert settle_now(body) == [] and "paid at the table" in body
    assert "Nobody owes anybody yet." in body


def test_an_event_marked_paid_at_the_table_leaves_the_running_settle_up(en, in_play):
    night = in_play.night
    games.event_add(game=in_play, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert settle_now(body) == [("Dan", "Bee")]
    answer = en.post(f"/s/{night.pk}/games/{in_play.pk}/paid", {"event": "1"})
    assert answer.status_code == 302
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert settle_now(body) == []
    assert f"/games/{in_play.pk}/paid" not in body  # nothing left to mark for that event
    again = en.post(f"/s/{night.pk}/games/{in_play.pk}/paid", {"event": "1"})
    assert again.status_code == 409
    assert "nothing left to pay at the table" in again.content.decode()


def test_an_event_that_is_no_number_is_refused_not_read_as_the_whole_game(en, in_play):
    night = in_play.night
    games.event_add(game=in_play, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    for event in ("²", "9" * 4301, "9" * 19, "x"):  # "9" * 4301 overflowed int(): a 500
        answer = en.post(f"/s/{night.pk}/games/{in_play.pk}/paid", {"event": event})
        assert answer.status_code == 409, event
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert settle_now(body) == [("Dan", "Bee")]  # nothing was marked paid
