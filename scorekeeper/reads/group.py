"""A group's page: its nights, newest first, with each player's net; the debts still carried
across nights, each with how to pay it; the tab to settle and the latest settled tabs, each
transfer with how to pay it; who the visitor is at the table (the view adds its forms)."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q

from scorekeeper.models import (
    Game,
    Group,
    Membership,
    MoneyLine,
    Night,
    Player,
    Standing,
    Tab,
    TabTransfer,
    payee_name,
)
from scorekeeper.reads.debts import owed, replaced, tab_transfer_rows, totals
from scorekeeper.reads.pay import changed, debt_rows, pay
from scorekeeper.rules.settle_up import HOUSE


def group_page(group: Group, viewer: Membership) -> dict[str, Any]:
    """The group's page as `viewer` reads it."""
    players = list(group.players.order_by("name"))
    me = next((p for p in players if p.pk == viewer.player_id), None)
    debts = list(owed(group))
    return {
        "group": group,
        "nights": group_nights(group),
        "players": players,
        "owed": debt_rows(debts, viewer),
        # The tab to settle, and the latest settled tabs with their transfers.
        **tab_context(group, debts, viewer),
        "membership": viewer,
        "me": me,
    }


@dataclass(frozen=True)
class NightResult:
    """One night as the group's history lists it."""

    night: Night
    games: int
    hours: float | None
    nets: list[tuple[Player, int, Decimal]]


def group_nights(group: Group) -> list[NightResult]:
    """Return the group's nights, newest first, with their games and each player's net."""
    nights = list(
        group.nights.annotate(
            counted=Count("games", filter=~Q(games__status=Game.Status.VOIDED))
        ).order_by("-started_at")
    )
    nets: dict[int, list[Standing]] = {}
    for standing in Standing.objects.filter(night__group=group).select_related("player"):
        nets.setdefault(standing.night_id, []).append(standing)
    results = []
    for s in nights:
        rows = sorted(nets.get(s.pk, []), key=lambda st: -st.net)
        hours = (s.closed_at - s.started_at).total_seconds() / 3600 if s.closed_at else None
        results.append(
            NightResult(s, s.counted, hours, [(st.player, st.net, s.baht(st.net)) for st in rows])
        )
    return results


SHOWN_TABS = 3  # the latest settled tabs the page shows; older ones are in the audit and the export


def tab_context(group: Group, owed: list[MoneyLine], viewer: Membership | None) -> dict[str, Any]:
    """The tab to settle (each player's total across `owed`, the debts still carried) and the
    latest settled tabs, each transfer with how to pay it by PromptPay."""
    party_totals = [
        {"name": name if name != HOUSE else payee_name(None), "baht": baht}
        for name, baht in totals(owed).items()
    ]
    party_totals.sort(key=lambda row: (row["baht"], row["name"]))
    latest = Tab.objects.filter(group=group).with_taken_back().select_related("by")
    return {
        "tab_totals": party_totals,
        "tabs": [_tab(tab, tab.taken_back, viewer) for tab in latest.order_by("-pk")[:SHOWN_TABS]],
    }


def _tab(tab: Tab, taken_back: bool, viewer: Membership | None) -> dict[str, Any]:
    rows = [
        {
            **row,
            "pay": None if row["paid"] or taken_back else _pay(row["transfer"], viewer),
            "changed": changed(row["transfer"].payee, tab.recorded_at),
        }
        for row in tab_transfer_rows(tab)
    ]
    return {
        "tab": tab,
        "taken_back": taken_back,
        "transfers": rows,
        "replaced": list(replaced(tab)) if not taken_back else [],
        "may_undo": not taken_back and not any(row["paid"] for row in rows),
    }


def _pay(transfer: TabTransfer, viewer: Membership | None) -> dict | None:
    return pay(transfer.payer, transfer.payee, transfer.baht, viewer)
