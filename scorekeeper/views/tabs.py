"""Settling the tab on the group's page (เคลียร์ยอดค้าง): a host's tap that nets the debts carried
across nights into the fewest transfers, its taking back, and those transfers paid and received
as a night's are (what the page shows of the tab: reads.group)."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from scorekeeper.error_text import error_text
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Group, Tab, TabTransfer
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import tabs
from scorekeeper.views.access import HOST, PLAYER, group_for


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
