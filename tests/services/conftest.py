from decimal import Decimal

import pytest

from scorekeeper.models import Player, Session
from scorekeeper.services import access, sessions

NAMES = ("Ann", "Bee", "Cat", "Dan")


def make_session(
    names: tuple[str, ...] = NAMES, stake_level: str = "sian", **kwargs: object
) -> Session:
    group = access.group_create(name="วงวันเสาร์")
    players = [sessions.player_create(group=group, name=n) for n in names]
    return sessions.session_open(
        group=group,
        players=players,
        stake_level=stake_level,
        point_value=kwargs.pop("point_value", Decimal("0.5")),  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )


def player(session: Session, name: str) -> Player:
    return Player.objects.get(group=session.group, name=name)


def nets(session: Session) -> dict[str, int]:
    return {s.player.name: s.net for s in session.standings.select_related("player")}


@pytest.fixture
def table(db: None) -> Session:
    """Ann, Bee, Cat and Dan at sian stakes (100/200/300), half a baht a point; Ann deals first."""
    return make_session()
