from decimal import Decimal

import pytest

from scorekeeper.models import Night, Player
from scorekeeper.services import access, nights

NAMES = ("Ann", "Bee", "Cat", "Dan")


def make_night(
    names: tuple[str, ...] = NAMES, stake_level: str = "sian", **kwargs: object
) -> Night:
    group = access.group_create(name="วงวันเสาร์")
    players = [nights.player_create(group=group, name=n) for n in names]
    return nights.night_open(
        group=group,
        players=players,
        stake_level=stake_level,
        point_value=kwargs.pop("point_value", Decimal("0.5")),  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )


def player(night: Night, name: str) -> Player:
    return Player.objects.get(group=night.group, name=name)


def nets(night: Night) -> dict[str, int]:
    return {s.player.name: s.net for s in night.standings.select_related("player")}


@pytest.fixture
def table(db: None) -> Night:
    """Ann, Bee, Cat and Dan at sian stakes (100/200/300), half a baht a point; Ann deals first."""
    return make_night()
