"""Classic Dummy to 500 and Gong Zhu: score sheets to a target.

The sheet (standings after every hand, the hands, the match's end), opening one, entering a hand
with its live preview, a hand's page and its void, the end of the night with Gong Zhu's money;
what each page shows is read by reads.scoresheet, the forms added here.
"""

import re
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.converters import Id
from scorekeeper.error_text import error_text
from scorekeeper.forms.groups import close_initial, sheet_initial
from scorekeeper.forms.scoresheet import (
    DummyHandForm,
    DummyOpenForm,
    GongZhuHandForm,
    GongZhuOpenForm,
    ScoresheetOpenForm,
)
from scorekeeper.forms.table import SettleForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Game, Night, Player
from scorekeeper.reads.money import for_money
from scorekeeper.reads.paging import page_asked
from scorekeeper.reads.scoresheet import (
    DUMMY,
    GONG_ZHU,
    ScoresheetState,
    card_label,
    hand_page,
    next_deal,
    scoresheet_state,
    settle_context,
    settle_page,
    sheet_context,
    sheet_history,
    target_text,
)
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.gong_zhu import Card
from scorekeeper.services import group_rules, nights, scoresheet
from scorekeeper.views import costs, live, pay
from scorekeeper.views.access import (
    HOST,
    PLAYER,
    VIEWER,
    game_for,
    group_for,
    night_for,
    transfer_for,
)

OPEN_FORMS: dict[str, type[ScoresheetOpenForm]] = {DUMMY: DummyOpenForm, GONG_ZHU: GongZhuOpenForm}
type HandForm = GongZhuHandForm | DummyHandForm


def _scoresheet_night(request: HtmxHttpRequest, night_id: int, role: str = VIEWER) -> Night:
    """Fetch a score-sheet night for this visitor; a Knock Dummy night has no score sheet."""
    night = night_for(request, night_id, role, scoresheet=True)
    if not night.is_scoresheet:
        raise Http404("not a score sheet")
    return night


def _scoresheet_game(request: HtmxHttpRequest, night_id: int, game_id: int, role: str) -> Game:
    game = game_for(request, night_id, game_id, role, scoresheet=True)
    if not game.night.is_scoresheet:
        raise Http404("not a score sheet")
    return game


def table(request: HtmxHttpRequest, night: Night) -> HttpResponse:
    """Show the score sheet; an htmx poll gets only the sheet, or 204 when nothing changed."""
    usual = group_rules.usual_of(night.group).close
    return live.polled(
        request,
        night,
        template="scoresheet/table.html",
        part="sheet",
        context=lambda: sheet_context(night, usual, request.GET.get("page")),
        varies=(page_asked(request.GET.get("page")),),  # the page of hands it shows
    )


# -- opening a sheet -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def scoresheet_open(request: HtmxHttpRequest, group_id: int, ruleset: str) -> HttpResponse:
    """Open a score sheet of classic Dummy or Gong Zhu: players, target, house options."""
    group = group_for(request, group_id, PLAYER)
    if ruleset not in OPEN_FORMS:
        raise Http404("no such game")
    # The group's own rules are where the form starts (still changeable).
    usual = group_rules.usual_of(group)
    form = OPEN_FORMS[ruleset](request.POST or None, initial=sheet_initial(usual, ruleset))
    if request.method == "POST" and form.is_valid():
        try:
            night = scoresheet.scoresheet_open(
                group=group,
                ruleset=ruleset,
                players=form.names(),
                house=form.scoresheet_house(),
                target=form.scoresheet_target(),
                point_value=form.scoresheet_point_value(),
                first_dealer=form.dealer_index(),
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            form.add_error(None, error_text(e))
        else:
            return redirect("table", night_id=night.pk)
    context = {
        "group": group,
        "form": form,
        "ruleset": ruleset,
        "gong_zhu": ruleset == GONG_ZHU,
        "title": Night.Ruleset(ruleset).label,
        "names": list(group.players.order_by("name").values_list("name", flat=True)),
    }
    return render(request, "scoresheet/open.html", context, status=422 if form.errors else 200)


# -- entering a hand -----------------------------------------------------------------------------


def _hand_form(night: Night, players: list[Player], data: Any = None) -> HandForm:
    names = [p.name for p in players]
    if night.ruleset == GONG_ZHU:
        return GongZhuHandForm(data, players=names)
    return DummyHandForm(data, players=names, house=night.scoresheet["house"])


def _preview(night: Night, state: ScoresheetState, form: HandForm) -> dict[str, Any]:
    """Score what the form says as the next hand, without writing: scores, totals, the end."""
    if not night.is_open:
        return {"problem": _("This night is closed.")}
    if not form.is_bound:
        return {"left": len(Card)} if isinstance(form, GongZhuHandForm) else {}
    if not form.is_valid():
        if isinstance(form, GongZhuHandForm):
            return {"left": len(Card) - form.entered(), "shuan": form.shuan_so_far()}
        return {}
    try:
        result = scoresheet.hand_preview(night=night, hand=form.hand(), state=state)
    except RuleError as e:
        return {"problem": error_text(e)}
    detail = result.get("detail", {})
    return {
        "rows": [
            {
                "player": name,
                "score": result["scores"][name],
                "total": result["match"]["totals"][name],
                "detail": detail.get(name),
            }
            for name in form.players
        ],
        "match": result["match"],
        "shuan": result.get("shuan"),
        "big_shuan": result.get("big_shuan"),
        "missing": card_label(result.get("missing")),
        "reverse": result.get("reverse_next_deal", False),
    }


def _hand_page(
    request: HtmxHttpRequest,
    night: Night,
    state: ScoresheetState,
    form: HandForm,
    status: int = 200,
) -> HttpResponse:
    preview = _preview(night, state, form)
    context: dict[str, Any] = {"night": night, "form": form, "preview": preview}
    template = "scoresheet/hand_new.html"
    if request.htmx and request.htmx.target == "preview":  # the swap shows the preview alone
        return render(request, template + "#preview", context, status=status)
    context |= {
        "gong_zhu": night.ruleset == GONG_ZHU,
        "number": nights.next_game_number(night),
        "dealer": next_deal(night, state.players)[0],
        "target": target_text(night),
    }
    return render(request, template, context, status=status)


def _number(request: HtmxHttpRequest) -> int | None:
    """The number of the hand the form was opened for: a second phone's entry is not doubled."""
    number = request.POST.get("number", "")
    return int(number) if re.fullmatch(Id.regex, number) else None  # as an address's id


@require_http_methods(["GET", "POST"])
def hand_new(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Enter the next hand; saving scores it with the engine and updates the standings."""
    night = _scoresheet_night(request, night_id, PLAYER)
    if not night.is_open:
        return redirect("table", night_id=night.pk)
    state = scoresheet_state(night)
    if request.method == "GET" and state.ended:
        messages.warning(request, _("The match is over: close it, or void a hand to go on."))
        return redirect("table", night_id=night.pk)
    form = _hand_form(night, state.players, request.POST or None)
    if request.method == "GET":
        return _hand_page(request, night, state, form)
    if form.is_valid():
        try:
            scoresheet.hand_record(
                night=night,
                hand=form.hand(),
                number=_number(request),
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in ("hand-recorded", "night-closed"):  # another phone was first
                messages.warning(request, error_text(e))
                return redirect("table", night_id=night.pk)
            field = form.field_for(e)
            form.add_error(field if field in form.fields else None, error_text(e))
            state = scoresheet_state(night)  # the save read the match afresh: so does the preview
        else:
            return redirect("table", night_id=night.pk)
    return _hand_page(request, night, state, form, status=422)


@require_POST
def hand_preview(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Score the hand form as it is filled in; writes nothing."""
    night = _scoresheet_night(request, night_id, PLAYER)
    state = scoresheet_state(night)
    return _hand_page(request, night, state, _hand_form(night, state.players, request.POST))


# -- one hand ------------------------------------------------------------------------------------


@require_GET
def hand(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """One hand as recorded: what each player took or counted, and what the engine made of it."""
    game = _scoresheet_game(request, night_id, game_id, VIEWER)
    context = {**hand_page(game.night, game), "membership": request.membership}
    return render(request, "scoresheet/hand.html", context)


@require_http_methods(["GET", "POST"])
def hand_void(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Ask, then void: the hand's scores come off the totals; it stays on the sheet, struck out."""
    game = _scoresheet_game(request, night_id, game_id, HOST)
    if request.method == "POST":
        try:
            scoresheet.hand_void(
                game=game,
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code != "voided-twice":  # a second tap needs no word
                messages.warning(request, error_text(e))
        return redirect("scoresheet-hand", night_id=night_id, game_id=game.pk)
    return render(request, "scoresheet/void.html", {"night": game.night, "game": game})


# -- the end of the night ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def settle(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The end of the match: close the sheet (the host) and, for Gong Zhu's money, who pays whom."""
    night = _scoresheet_night(request, night_id)
    error, form = None, None
    if request.method == "POST":
        _scoresheet_night(request, night_id, HOST)  # closing the match is the host's
        players = scoresheet_state(night).players
        form = SettleForm(request.POST, players=[p.name for p in players])
        # A night for no money closes with nothing to choose; one for money, as the host chose.
        money = for_money(night)
        try:
            if money and not form.is_valid():
                error = _("Check the table fee and rounding below.")
            else:
                choices = form.choices(players) if money else None
                scoresheet.scoresheet_close(night=night, choices=choices, actor=request.membership)
        except RuleError as e:
            if e.code != "night-closed":  # a second tap finds it closed: show it so
                error = error_text(e)
        if error is None:
            return redirect("scoresheet-settle", night_id=night.pk)
    usual = group_rules.usual_of(night.group)
    context = {
        **settle_page(night, request.membership, usual.close),
        "membership": request.membership,
        "error": error,
    }
    players = context["state"].players
    # The group's own rules are where the close starts, their players only if at the table.
    initial = close_initial(usual, players)
    context["form"] = form or SettleForm(players=[p.name for p in players], initial=initial)
    if context["money"]:  # the form to add a shared cost while the night is open
        context |= costs.form_part(night, players)
    return render(request, "scoresheet/settle.html", context, status=422 if error else 200)


@require_POST
def transfer_paid(request: HtmxHttpRequest, night_id: int, transfer_id: int) -> HttpResponse:
    """Mark a Gong Zhu payment made (or undo the mark), as a payment line of the ledger."""
    transfer = transfer_for(request, night_id, transfer_id, PLAYER, scoresheet=True)
    night = transfer.night
    refused = pay.transfer_step(request, transfer)
    if request.htmx:  # the transfers as they are now, and why a refused step was refused
        context = {
            **settle_context(night, request.membership, group_rules.usual_of(night.group).close),
            "membership": request.membership,
            "refused": refused,
        }
        status = 409 if refused else 200
        return render(request, "scoresheet/settle.html#transfers", context, status=status)
    if refused:
        messages.warning(request, refused)
    return redirect("scoresheet-settle", night_id=night_id)


@require_GET
def history(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The match as it reads later: the totals after every hand, drawn and listed; the money."""
    night = _scoresheet_night(request, night_id)
    usual = group_rules.usual_of(night.group).close
    context = sheet_history(night, request.membership, usual, request.GET.get("page"))
    context["membership"] = request.membership
    return render(request, "scoresheet/history.html", context)
