"""A night's shared costs (ค่าใช้จ่ายร่วม), each with whether it was taken back, and its money
lines in baht beside its games (the costs' shares, the table fee, the rounding), as the table, the
settle-up and the history show them."""

from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from scorekeeper.models import Cost, MoneyLine, Night

SHOWN = (MoneyLine.Item.COST, MoneyLine.Item.FEE, MoneyLine.Item.ROUNDING)


def night_costs(night: Night) -> QuerySet[Cost]:
    """The night's shared costs, each with whether it was taken back (`removed`)."""
    reversed_ = MoneyLine.objects.filter(cost=OuterRef("pk"), reverses__isnull=False)
    return night.costs.select_related("paid_by").annotate(removed=Exists(reversed_))


def standing_costs(night: Night) -> QuerySet[Cost]:
    """The night's shared costs not taken back, as the running settle-up counts them."""
    reversed_ = MoneyLine.objects.filter(cost=OuterRef("pk"), reverses__isnull=False)
    return night.costs.select_related("paid_by").exclude(Exists(reversed_))


def night_lines(night: Night) -> list[MoneyLine]:
    """The night's lines in baht beside its games: the shares of its costs, the table fee, the
    rounding; reversals too, so a cost taken back shows as such."""
    lines = MoneyLine.objects.filter(night=night, item__in=SHOWN)
    return list(lines.select_related("payer", "payee").order_by("id"))


def settle_up_part(night: Night) -> dict[str, Any]:
    """The settle-up's part: while the night is open, its shared costs (the view adds the form
    to add one); once closed, its lines in baht (the costs' shares, the fee, the rounding)."""
    if night.is_open:
        return {"costs": night_costs(night)}
    return {"money_lines": night_lines(night)}
