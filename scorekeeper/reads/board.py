"""The scoreboard of a Knock Dummy night: each standing and seat, as every page shows it."""

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.db.models import OuterRef, Subquery

from scorekeeper.models import Night, Player, Seat
from scorekeeper.reads.money import cost_annotations, costs_of
from scorekeeper.templatetags.score import signed, signed_baht


@dataclass(frozen=True)
class Row:
    """One player on the scoreboard, with its figures written once for every page that shows
    them (`net_text`, `baht_text`, `costs_text`, and `tone`: the cells' class, "pos", "neg" or
    "")."""

    player: Player
    seat: int | None
    net: int
    baht: Decimal
    balance: int
    costs: Decimal  # what the night's shared costs make them owed (+) or owe (−), in baht
    shares_costs: bool = False  # owes a share of a standing cost: the night has one

    @cached_property
    def net_text(self) -> str:
        return signed(self.net)

    @cached_property
    def baht_text(self) -> str:
        return signed_baht(self.baht)

    @property
    def tone(self) -> str:
        return "pos" if self.net > 0 else "neg" if self.net < 0 else ""

    @cached_property
    def costs_text(self) -> str:
        return signed_baht(self.costs)

    @property
    def costs_tone(self) -> str:
        return "neg" if self.costs < 0 else "pos"


def _shares_costs(standing: Any) -> bool:
    """Whether a standing annotated by `cost_annotations` owes a share of a standing cost."""
    return standing.costs_owed is not None


def scoreboard(night: Night) -> list[Row]:
    """Each player's standing and current seat, and their net from shared costs, in one query."""
    seat = Seat.objects.filter(
        night=night, player=OuterRef("player"), until_game__isnull=True
    ).values("position")[:1]
    standings = (
        night.standings.select_related("player")
        .annotate(seat=Subquery(seat), **cost_annotations(night))
        .order_by()  # sorted below: an ORDER BY would only cost (models.in_id_order)
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
