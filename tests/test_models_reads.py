"""The reads of recording a game that models.py writes as SQL give what the ORM reads they stand
for give: the seated players after seat changes, the latest game after a void and its
correction, the locked session, the game with its session and group and the visitor's
memberships (PostgreSQL's row lock itself: tests/test_deployment.py)."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.models import Game, Group, Membership, Player, Session
from scorekeeper.services import access, games, sessions
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


def values(instance: models.Model) -> dict[str, object]:
    """Every column's value as the model holds it: JSON as dicts, dates as aware datetimes."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_game_in_its_session_comes_with_both_as_the_orm_reads_them() -> None:
    table, other = make_session(point_value=Decimal("0.25")), make_session()
    game = games.game_finish(game=games.game_start(session=table), outcome=OUTCOME)
    orm = Game.objects.select_related("session__group").get(pk=game.pk)
    sql, mine = Game.objects.admitting(game.pk, table.pk, None, None)
    assert sql is not None and mine == []  # nobody's visit: the game, and no membership
    assert values(sql) == values(orm)
    assert values(sql.session) == values(orm.session)
    assert values(sql.session.group) == values(orm.session.group)
    assert sql.session.point_value == Decimal("0.25")
    assert sql.document["points"] == OUTCOME["points"]
    assert sql.finished_at is not None and sql.finished_at.tzinfo is not None
    with CaptureQueriesContext(connection) as queries:
        assert sql.session.group.name == table.group.name  # read with it: no query
    assert not queries.captured_queries
    assert Game.objects.admitting(game.pk, other.pk, None, None) == (None, [])  # not its game
    assert Game.objects.admitting(game.pk + 1000, table.pk, None, None) == (None, [])


def test_the_session_with_its_group_is_the_orm_read() -> None:
    table = make_session()
    orm = Session.objects.select_related("group").get(pk=table.pk)
    sql, mine = Session.objects.admitting(table.pk, None, None)
    assert sql is not None and values(sql) == values(orm) and mine == []
    assert isinstance(sql.group, Group) and values(sql.group) == values(orm.group)
    assert Session.objects.admitting(table.pk + 1000, None, None) == (None, [])


def test_the_visitors_memberships_come_with_the_session_and_the_game() -> None:
    """The device's and the account's live memberships of the session's group, as
    `Membership.objects.live_in` reads them: not a revoked one, not another group's."""
    table, other = make_session(), make_session()
    game = games.game_start(session=table)
    phone, tablet = access.device_create(), access.device_create()
    user = User.objects.create_user("somchai")
    by_phone = Membership.objects.create(group=table.group, role="player", device=phone)
    by_account = Membership.objects.create(group=table.group, role="host", device=tablet, user=user)
    Membership.objects.create(  # revoked: admits no one
        group=table.group, role="host", device=phone, revoked_at=timezone.now()
    )
    Membership.objects.create(group=other.group, role="host", device=phone)  # another group
    for device, user_id, expected in [
        (phone.pk, None, [by_phone]),
        (phone.pk, user.pk, [by_phone, by_account]),
        (None, user.pk, [by_account]),
        (access.device_create().pk, None, []),
    ]:
        live = Membership.objects.live_in(table.group.pk, device, user_id)
        session, in_session = Session.objects.admitting(table.pk, device, user_id)
        found, in_game = Game.objects.admitting(game.pk, table.pk, device, user_id)
        assert session == table and found == game
        for mine in (live, in_session, in_game):
            assert sorted(mine, key=lambda m: m.pk) == expected
            assert [values(m) for m in sorted(mine, key=lambda m: m.pk)] == [
                values(m) for m in expected
            ]
        for m in in_session + in_game:
            with CaptureQueriesContext(connection) as queries:
                assert m.group.name == table.group.name  # the group read with it: no query
            assert not queries.captured_queries


def test_the_locked_game_is_read_afresh_with_its_session() -> None:
    table = make_session()
    game = games.game_start(session=table)
    stale = Game.objects.get(pk=game.pk)
    games.game_finish(game=game, outcome=OUTCOME)  # behind the stale copy's back
    locked = Game.objects.locked(stale.pk)
    assert locked.status == Game.Status.SETTLED != stale.status
    orm = Game.objects.select_related("session").get(pk=game.pk)
    assert values(locked) == values(orm) and values(locked.session) == values(orm.session)
    with pytest.raises(Game.DoesNotExist):
        Game.objects.locked(game.pk + 1000)
