"""Settling the tab on the group's page (เคลียร์ยอดค้าง): each player's total across the debts
carried across nights, a host's tap that nets them into the fewest transfers, and those
transfers paid and received as a night's are."""

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from scorekeeper.error_text import error_text
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Group, Membership, MoneyLine, Player, Tab, TabTransfer, payee_name
from scorekeeper.reads.pay import changed, pay
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import tabs
from scorekeeper.views.access import HOST, PLAYER, group_for

SHOWN = 3  # the latest settled tabs the page shows; older ones are in the audit and the export


def context(
    group: Group, owed: list[MoneyLine], players: list[Player], viewer: Membership | None
) -> dict[str, Any]:
    """The tab to settle (each player's total across `owed`, the debts still carried) and the
    latest settled tabs, each transfer with how to pay it by PromptPay."""
    by_id = {str(p.pk): p for p in players}
    totals = [
        {"name": by_id[key].name if key in by_id else payee_name(None), "baht": baht}
        for key, baht in tabs.totals(owed).items()
    ]
    totals.sort(key=lambda row: (row["baht"], row["name"]))
    latest = Tab.objects.filter(group=group).with_taken_back().select_related("by")
    return {
        "tab_totals": totals,
        "tabs": [_tab(tab, tab.taken_back, viewer) for tab in latest.order_by("-pk")[:SHOWN]],
    }


def _tab(tab: Tab, taken_back: bool, viewer: Membership | None) -> dict[str, Any]:
    rows = [
        {
            **row,
            "pay": None if row["paid"] or taken_back else _pay(row["transfer"], viewer),
            "changed": changed(row["transfer"].payee, tab.recorded_at),
        }
        for row in tabs.transfer_rows(tab)
    ]
    return {
        "tab": tab,
        "taken_back": taken_back,
        "transfers": rows,
        "replaced": list(tabs.replaced(tab)) if not taken_back else [],
        "may_undo": not taken_back and not any(row["paid"] for row in rows),
    }


def _pay(transfer: TabTransfer, viewer: Membership | None) -> dict | None:
    return pay(transfer.payer, transfer.payee, transfer.baht, viewer)


def _back(group: Group) -> HttpResponse:
    return redirect(reverse("group", kwargs={"group_id": group.pk}) + "#tab")


@require_POST
def tab_settle(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """A host settles the tab: every carried debt netted into the fewest transfers."""
    group = group_for(request, group_id, HOST)
    try:
        tabs.tab_settle(group=group, actor=request.membership)
    except RuleError as e:  # a second tap, or another phone first: nothing left to settle
        messages.warning(request, error_text(e))
    return _back(group)


@require_POST
def tab_undo(request: HtmxHttpRequest, group_id: int, tab_id: int) -> HttpResponse:
    """A host takes a settled tab back: the debts it replaced are owed again."""
    group = group_for(request, group_id, HOST)
    tab = get_object_or_404(Tab, pk=tab_id, group=group)
    try:
        tabs.tab_undo(tab=tab, actor=request.membership)
    except RuleError as e:
        messages.warning(request, error_text(e))
    return _back(group)


@require_POST
def tab_transfer_paid(request: HtmxHttpRequest, group_id: int, transfer_id: int) -> HttpResponse:
    """A transfer of the tab is paid, received, or not paid after all, as a night's is."""
    group = group_for(request, group_id, PLAYER)
    transfer = get_object_or_404(TabTransfer, pk=transfer_id, tab__group=group)
    actor = request.membership
    try:
        if request.POST.get("undo"):
            tabs.tab_payment_undo(transfer=transfer, actor=actor)
        elif request.POST.get("received"):
            tabs.tab_payment_receive(transfer=transfer, actor=actor)
        else:
            tabs.tab_payment_record(transfer=transfer, actor=actor)
    except RuleError as e:
        messages.warning(request, error_text(e))
    return _back(group)
