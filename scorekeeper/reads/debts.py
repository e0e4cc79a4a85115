"""Debts carried across nights (ติดไว้ก่อน): those still owed, those a night's settle-up shows
beside its own transfers, each party's total across them; and the settled tabs that replaced them
(เคลียร์ยอดค้าง), each with its transfers and the debts it replaced. The tab's settle reads the
debts it replaces through the same reader (services.tabs)."""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from scorekeeper.models import Group, MoneyLine, Night, Player, Tab
from scorekeeper.rules import tab as rules
from scorekeeper.rules.settle_up import HOUSE


def owed(group: Group) -> QuerySet[MoneyLine]:
    """What the group's players still owe each other across nights: each debt carried and not
    paid, oldest first, with its night and who owes whom. The group's page lists them; a settle
    of the tab replaces them."""
    lines = MoneyLine.objects.filter(group=group).open_debts()
    return lines.select_related("payer", "payee", "night").order_by("id")


def carried_debts(night: Night) -> QuerySet[MoneyLine]:
    """The debts the night's settle-up shows beside its own transfers: those carried from an
    earlier night and still owed, and those paid at this night (`paid_at`, `paid_by` say when
    and who tapped). One statement."""
    settles = MoneyLine.objects.standing().filter(carried=OuterRef("pk"))
    here = settles.filter(night=night).order_by("-id")
    lines = (
        MoneyLine.objects.standing()
        .filter(group_id=night.group_id, item=MoneyLine.Item.CARRY)
        .exclude(night=night)
        .annotate(
            paid=Exists(settles),
            paid_at=Subquery(here.values("recorded_at")[:1]),
            paid_by=Subquery(here.values("by__name")[:1]),
        )
        .filter(Q(paid_at__isnull=False) | Q(paid=False, night__started_at__lt=night.started_at))
    )
    return lines.select_related("payer", "payee", "night").order_by("id")


def totals(debts: Iterable[MoneyLine]) -> dict[str, Decimal]:
    """Each party's total across `debts`: owed (+) or owing (−), by name (HOUSE the house)."""
    return rules.nets(as_debts(debts))


def as_debts(lines: Iterable[MoneyLine]) -> list[rules.Debt]:
    """The carried debts as the rules read them, each party by name (HOUSE the house; a group's
    players have names of their own): the fewest transfers are planned in the order the players
    read, the same whatever ids the database gave them."""
    return [rules.Debt(_party(line.payer), _party(line.payee), line.baht) for line in lines]


def _party(player: Player | None) -> str:
    return HOUSE if player is None else player.name


def replaced(tab: Tab) -> QuerySet[MoneyLine]:
    """The carried debts the tab replaced, each with its night and who owed whom."""
    return (
        MoneyLine.objects.filter(settles__tab=tab, settles__reverses__isnull=True)
        .select_related("payer", "payee", "night")
        .order_by("id")
    )


def tab_transfer_rows(tab: Tab) -> list[dict[str, Any]]:
    """The tab's transfers, each paid or not by the payment that stands, with who tapped "paid"
    and when. One statement."""
    paid = (
        MoneyLine.objects.standing()
        .filter(tab_transfer=OuterRef("pk"), item=MoneyLine.Item.PAID)
        .order_by("-id")
    )
    transfers = (
        tab.transfers.select_related("payer", "payee", "received_by")
        .annotate(
            paid_at=Subquery(paid.values("recorded_at")[:1]),
            paid_by=Subquery(paid.values("by__name")[:1]),
        )
        .order_by("id")
    )
    return [
        {"transfer": t, "paid": t.paid_at is not None, "paid_at": t.paid_at, "paid_by": t.paid_by}
        for t in transfers
    ]
