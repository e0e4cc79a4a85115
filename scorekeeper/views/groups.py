"""Groups (วง): the list on the home page, one group's page, and opening a night in it."""

import re
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.converters import Id
from scorekeeper.error_text import error_text
from scorekeeper.forms.groups import (
    GroupForm,
    MeForm,
    NightOpenForm,
    PromptPayForm,
    open_initial,
    rules_forms,
    usual_from,
)
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Group, MoneyLine
from scorekeeper.reads.group import group_page
from scorekeeper.reads.player import player_page
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access, debts, group_rules, nights, payments
from scorekeeper.views.access import (
    HOST,
    PLAYER,
    client_address,
    device_bind,
    group_for,
    player_for,
    visitor_memberships,
)


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """List the visitor's groups, newest first, with a form to start one."""
    return render(request, "groups/index.html", {"groups": _mine(request), "form": GroupForm()})


def _mine(request: HtmxHttpRequest) -> list[Group]:
    groups = {m.group for m in visitor_memberships(request)}
    return sorted(groups, key=lambda g: g.created_at, reverse=True)


@require_POST
def create(request: HtmxHttpRequest) -> HttpResponse:
    form = GroupForm(request.POST)
    if form.is_valid():
        account = request.user.pk if request.user.is_authenticated else None
        try:
            access.group_create_attempt(address=client_address(request), account=account)
        except RuleError as e:
            form.add_error(None, error_text(e))
    if not form.is_valid():
        context = {"groups": _mine(request), "form": form}
        return render(request, "groups/index.html", context, status=422)
    group = access.group_create(
        name=form.cleaned_data["name"],
        device=device_bind(request),
        user=request.user,
        host_name=form.cleaned_data["host_name"],
    )
    return redirect("group", group_id=group.pk)


@require_GET
def detail(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    group = group_for(request, group_id)
    return render(request, "groups/detail.html", _detail_context(request, group))


def _detail_context(request: HtmxHttpRequest, group: Group, **forms: Any) -> dict[str, Any]:
    """The group's page (reads.group) with its forms: "this is me", the PromptPay number and, a
    host's to change, the group's own rules."""
    context = group_page(group, request.membership)
    players, me = context["players"], context["me"]
    initial = {"promptpay": me.promptpay, "promptpay_public": me.promptpay_public} if me else {}
    return {
        **context,
        "me_form": MeForm(players=[(p.pk, p.name) for p in players]),
        "promptpay_form": PromptPayForm(initial=initial),
        # The group's own rules: a host's to change, so only a host is shown the form.
        **(
            rules_forms(None, players, group_rules.usual_of(group))
            if request.membership.may_host
            else {}
        ),
        **forms,
    }


@require_POST
def me(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The member says which player they are ("this is me")."""
    group = group_for(request, group_id)
    players = list(group.players.order_by("name"))
    form = MeForm(request.POST, players=[(p.pk, p.name) for p in players])
    if form.is_valid():
        player = next(p for p in players if str(p.pk) == form.cleaned_data["player"])
        try:
            payments.member_is(membership=request.membership, player=player)
        except RuleError as e:  # another member is that player; a viewer is none
            form.add_error("player", error_text(e))
        else:
            return redirect("group", group_id=group.pk)
    context = _detail_context(request, group, me_form=form)
    return render(request, "groups/detail.html", context, status=422)


@require_POST
def promptpay(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The member saves where they are paid: their PromptPay number."""
    group = group_for(request, group_id)
    form = PromptPayForm(request.POST)
    me = request.membership.player
    if me is not None and form.is_valid():
        try:
            payments.promptpay_set(
                player=me,
                target=form.cleaned_data["promptpay"],
                public=form.cleaned_data["promptpay_public"],
                actor=request.membership,
            )
        except RuleError as e:
            form.add_error("promptpay", error_text(e))
        else:
            return redirect("group", group_id=group.pk)
    context = _detail_context(request, group, promptpay_form=form)
    return render(request, "groups/detail.html", context, status=422)


@require_POST
def rules(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """A host keeps the group's own rules: the usual choices a night opens and closes with."""
    group = group_for(request, group_id, HOST)
    players = list(group.players.order_by("name"))
    forms = rules_forms(request.POST, players, group_rules.usual_of(group))
    valid = [form.is_valid() for form in forms.values()]  # every part's errors, all at once
    if all(valid):
        try:
            group_rules.group_rules_set(
                group=group, usual=usual_from(forms), actor=request.membership
            )
        except RuleError as e:  # said beside the field it is about, or above the form
            form = next((f for f in forms.values() if e.field in f.fields), forms["stakes_form"])
            form.add_error(e.field if e.field in form.fields else None, error_text(e))
        else:
            return redirect(reverse("group", kwargs={"group_id": group.pk}) + "#rules")
    context = _detail_context(request, group, rules_open=True, **forms)
    return render(request, "groups/detail.html", context, status=422)


@require_POST
def debt_paid(request: HtmxHttpRequest, group_id: int, debt_id: int) -> HttpResponse:
    """A debt carried across nights is paid (`undo`: not after all), at the night whose page it
    was tapped on (`night`), else between nights. Tapped twice, or on two
    phones, the second is refused and the page says so."""
    group = group_for(request, group_id, PLAYER)
    debt = get_object_or_404(MoneyLine, pk=debt_id, group=group, item=MoneyLine.Item.CARRY)
    asked = request.POST.get("night", "")
    # An id as the addresses take one (converters.Id): a longer number finds no night.
    night = group.nights.filter(pk=int(asked)).first() if re.fullmatch(Id.regex, asked) else None
    try:
        if request.POST.get("undo"):
            debts.debt_settle_undo(debt=debt, actor=request.membership)
        else:
            debts.debt_settle(debt=debt, night=night, actor=request.membership)
    except RuleError as e:
        messages.warning(request, error_text(e))
    if night is None:
        return redirect("group", group_id=group.pk)
    return redirect("scoresheet-settle" if night.is_scoresheet else "settle", night_id=night.pk)


@require_GET
def player(request: HtmxHttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """One player's lifetime at the group's tables."""
    member = player_for(request, group_id, player_id)
    context = player_page(member)
    return render(request, "groups/player.html", context)


@require_http_methods(["GET", "POST"])
def night_open(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Open a night: four players in seat order, the first dealer, the stakes."""
    group = group_for(request, group_id, PLAYER)
    # The group's own rules are where the form starts (still changeable).
    form = NightOpenForm(request.POST or None, initial=open_initial(group_rules.usual_of(group)))
    if request.method == "POST" and form.is_valid():
        try:
            night = nights.night_open(
                group=group,
                players=form.names(),
                stake_level=form.cleaned_data["stake_level"],
                stakes=form.stakes(),
                fine=form.cleaned_data["fine"],
                point_value=form.cleaned_data["point_value"],
                pays_at_table=form.cleaned_data["pays"] == "table",
                first_dealer=form.cleaned_data["first_dealer"] - 1,
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            form.add_error(None, error_text(e))
        else:
            return redirect("table", night_id=night.pk)
    names = list(group.players.order_by("name").values_list("name", flat=True))
    status = 422 if form.errors else 200
    return render(
        request,
        "groups/night_open.html",
        {"group": group, "form": form, "names": names},
        status=status,
    )
