"""The scoreboard of a Knock Dummy night: each standing and seat, as every page shows it."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import OuterRef, Subquery

from scorekeeper.models import Night, Player, Seat
from scorekeeper.reads.money import cost_annotations, costs_of


@dataclass(frozen=True)
class Row:
    """One player on the scoreboard."""

    player: Player
    seat: int | None
    net: int
    baht: Decimal
    balance: int
    costs: Decimal  # what the night's shared costs make them owed (+) or owe (−), in baht
    shares_costs: bool = False  # owes a share of a standing cost: the night has one


def _shares_costs(standing: Any) -> bool:
    """Whether a standing annotated by `cost_annotations` owes a share of a standing cost."""
    return standing.costs_owed is not None


def scoreboard(night: Night) -> list[Row]:
    """Each player's standing and current seat, and their net from shared costs, in one query."""
    seat = Seat.objects.filter(
        night=night, player=OuterRef("player"), until_game__isnull=True
    ).values("position")[:1]
    standings = night.standings.select_related("player").annotate(
        seat=Subquery(seat), **cost_annotations(night)
    )
    rows = [
        Row(
            s.player,
            s.seat,
            s.net,
            night.baht(s.net),
            s.balance,
            costs_of(s),
            shares_costs=_shares_costs(s),
        )
        for s in standings
    ]
    return sorted(rows, key=lambda r: (r.seat is None, r.seat, r.player.name))
