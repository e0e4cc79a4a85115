"""Nights whose every transfer is carried to next time (ติดไว้ก่อน), so that debts run both ways
between the same players: the tab the services, pages and browser tests settle."""

from decimal import Decimal

from scorekeeper.models import Group, Membership, MoneyLine, Night
from scorekeeper.reads.debts import owed
from scorekeeper.services import debts, games, nights

NAMES = ["Ann", "Bee", "Cat", "Dan"]


def carried_night(
    group: Group,
    knocker: str,
    point_value: str,
    actor: Membership | None = None,
    names: list[str] = NAMES,
) -> Night:
    """A night of one game that `knocker` knocks, closed, every transfer carried to next time."""
    night = nights.night_open(
        group=group, players=names, stake_level="sian", point_value=Decimal(point_value),
        actor=actor,
    )  # fmt: skip
    game = games.game_start(night=night, actor=actor)
    losers = [name for name in names if name != knocker]
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": knocker, "kind": "normal"},
            "points": dict(zip(losers, (10, 20, 30), strict=True)),
        },
        actor=actor,
    )
    for transfer in nights.night_close(night=night, actor=actor):
        debts.transfer_carry(transfer=transfer, actor=actor)
    return night


def two_way_tab(group: Group, actor: Membership | None = None) -> list[MoneyLine]:
    """Three nights carried, Ann, then Bee, then Ann knocking at different point values (one to
    the satang): nine debts running both ways between the same players."""
    carried_night(group, "Ann", "0.5", actor)
    carried_night(group, "Bee", "0.3333", actor)
    carried_night(group, "Ann", "0.25", actor)
    return list(owed(group))
