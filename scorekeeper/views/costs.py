"""Shared costs of the night (ค่าใช้จ่ายร่วม): added at the settle-up while the night is open,
taken back by a visible reversal; the settle-up's form to add one (what it shows of them:
reads.costs)."""

from typing import Any

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from scorekeeper.error_text import error_text
from scorekeeper.forms.costs import CostForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Cost, Night
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import costs
from scorekeeper.views.access import PLAYER, night_for


def form_part(night: Night, players: list[Any]) -> dict[str, Any]:
    """The settle-up's form to add a shared cost, while the night is open (its costs and lines
    in baht: reads.costs)."""
    if not night.is_open:
        return {}
    return {"cost_form": CostForm(players=[p.name for p in players], prefix="cost")}


def _back(night: Night) -> Any:
    name = "scoresheet-settle" if night.is_scoresheet else "settle"
    return redirect(name, night_id=night.pk)


def cost_form(request: HtmxHttpRequest, night: Night) -> CostForm:
    """The cost form as sent, naming the night's players (those with a standing)."""
    players = night.group.players.filter(standings__night=night).order_by("name")
    return CostForm(request.POST, players=[p.name for p in players], prefix="cost")


def cost_save(request: HtmxHttpRequest, night: Night, form: CostForm) -> RuleError | None:
    """Add the cost a valid form names, once for its idempotency key; a refusal becomes the
    form's error, in the visitor's language, and is returned."""
    data = form.cleaned_data
    named = {data["paid_by"], *data["among"]}
    by_name = {p.name: p for p in night.group.players.filter(name__in=named)}
    try:
        costs.cost_add(
            night=night, reason=data["reason"], baht=data["baht"],
            paid_by=by_name[data["paid_by"]], among=[by_name[n] for n in data["among"]],
            actor=request.membership, idempotency_key=request.POST.get("idempotency_key"),
        )  # fmt: skip
    except RuleError as e:
        form.add_error(None, error_text(e))
        return e
    return None


@require_POST
def cost_add(request: HtmxHttpRequest, night_id: int) -> Any:
    """Add a shared cost; a refusal or a form error comes back as a message, nothing lost of
    what the night holds."""
    night = night_for(request, night_id, PLAYER)
    form = cost_form(request, night)
    if not form.is_valid() or cost_save(request, night, form) is not None:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else str(error))
    return _back(night)


@require_POST
def cost_remove(request: HtmxHttpRequest, night_id: int, cost_id: int) -> Any:
    night = night_for(request, night_id, PLAYER)
    cost = get_object_or_404(Cost, pk=cost_id, night=night)
    try:
        costs.cost_remove(cost=cost, actor=request.membership)
    except RuleError as e:
        messages.error(request, error_text(e))
    return _back(night)
