"""The reads of recording a game that models.py writes as SQL give what the ORM reads they stand
for give: the seated players after seat changes, the latest game after a void and its
correction, the locked session (PostgreSQL's row lock itself: tests/test_deployment.py)."""

import pytest

from scorekeeper.models import Game, Player, Session
from scorekeeper.services import games, sessions
from tests.services.conftest import make_session

OUTCOME = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2, "Dan": 3}}

pytestmark = pytest.mark.django_db


def orm_seated(session: Session) -> list[Player]:
    return [s.player for s in session.seats.current().select_related("player")]


def test_the_seated_players_in_seat_order_after_a_swap_and_a_newcomer() -> None:
    table, other = make_session(), make_session()
    assert [p.name for p in Player.objects.seated_at(table.pk)] == ["Ann", "Bee", "Cat", "Dan"]
    games.game_finish(game=games.game_start(session=table), outcome=OUTCOME)
    sessions.seat_change(session=table, position=0, player="Dan")  # Dan and Ann swap
    sessions.seat_change(session=table, position=2, player="Eve")  # Cat leaves, Eve sits
    seated = Player.objects.seated_at(table.pk)
    assert [p.name for p in seated] == ["Dan", "Bee", "Eve", "Ann"]
    assert seated == orm_seated(table)
    assert Player.objects.seated_at(other.pk) == orm_seated(other)  # only this table's seats


def test_the_latest_game_is_the_correction_after_its_voided_game() -> None:
    table = make_session()
    assert Game.objects.latest_of(table.pk) is None
    first = games.game_finish(game=games.game_start(session=table), outcome=OUTCOME)
    second = games.game_finish(game=games.game_start(session=table), outcome=OUTCOME)
    assert Game.objects.latest_of(table.pk) == second
    games.game_void(game=second)
    assert Game.objects.latest_of(table.pk) == second  # voided, still the latest
    corrected = games.game_correct(voided=second, events=[], outcome=OUTCOME)
    assert corrected.number == second.number
    latest = Game.objects.latest_of(table.pk)
    assert latest == corrected != first
    assert latest == table.games.order_by("-number", "-id").first()
    assert latest is not None and latest.document == corrected.document  # JSON read back


def test_the_locked_session_is_the_session_and_a_missing_one_is_refused() -> None:
    table = make_session()
    locked = Session.objects.locked(table.pk)
    assert locked == table
    assert (locked.point_value, locked.stake_level, locked.closed_at) == (
        table.point_value,
        table.stake_level,
        None,
    )
    with pytest.raises(Session.DoesNotExist):
        Session.objects.locked(table.pk + 1000)
