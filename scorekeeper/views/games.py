"""One game: the end-of-game screen with its live preview, the record, voids and corrections."""

import re
from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.converters import Id
from scorekeeper.error_text import error_text
from scorekeeper.forms.games import FinishForm, TieForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Game, Player
from scorekeeper.reads.game import game_page, seat_order, undone_outcome
from scorekeeper.rules.errors import RuleError, TieUnresolved
from scorekeeper.rules.knock_dummy import Due, level_warnings
from scorekeeper.rules.knock_dummy_formulas import handovers
from scorekeeper.services import games
from scorekeeper.views.access import HOST, PLAYER, game_for
from scorekeeper.views.table import STALE, answered, table_now


def _player_named(game: Game, name: str) -> Player | None:
    for doc_name, pk in zip(game.document["players"], game.seating, strict=True):
        if doc_name == name:
            return Player.objects.get(pk=pk)
    return None


def _preview(game: Game, form: FinishForm) -> dict[str, Any]:
    """Settle what the form says, without writing: levels, lines, what each hands the knocker."""
    if not form.is_valid():
        return {"problem": None}
    try:
        parsed, settlement = games.game_preview(game=game, outcome=form.outcome())
    except TieUnresolved as tie:
        return {"tie": error_text(tie)}
    except RuleError as e:
        return {"problem": error_text(e)}
    return {
        "warnings": [error_text(w) for w in level_warnings(parsed)],
        "settlement": settlement,
        "after": [line for line in settlement.lines if line.due is Due.AFTER_GAME],
        "handovers": handovers(parsed, settlement),
        "net": settlement.net(),
    }


def _finish_page(
    request: HtmxHttpRequest, game: Game, form: FinishForm, status: int = 200
) -> HttpResponse:
    context = {
        "night": game.night,
        "game": game,
        "form": form,
        "preview": _preview(game, form),
        "action": reverse("game-finish", args=[game.night_id, game.pk]),
        "preview_url": reverse("game-preview", args=[game.night_id, game.pk]),
    }
    template = "games/finish.html"
    if request.htmx and request.htmx.target == "preview":
        template += "#preview"
    return render(request, template, context, status=status)


@never_cache  # back after a save must ask again (and be shown the saved game), not a copy
@require_http_methods(["GET", "POST"])
def finish(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """The end-of-game screen; saving writes the after-game lines (or leaves a tie pending)."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    if request.method == "GET" and game.status != Game.Status.IN_PLAY:
        return redirect("game", night_id=night_id, game_id=game.pk)
    if request.method == "GET":
        players = seat_order(game)
        undone = undone_outcome(game)  # a save just taken back: start from it
        initial = FinishForm.initial_from(undone, players) if undone is not None else None
        return _finish_page(request, game, FinishForm(players=players, initial=initial))
    # Its rows are numbered as the page listed them (FinishForm.listed): no need to ask again.
    form = FinishForm(request.POST, players=game.document["players"])
    if form.is_valid():
        drawer = _player_named(game, form.cleaned_data["last_drawer"] or "")
        try:
            games.game_finish(
                game=game,
                outcome=form.outcome(),
                last_drawer=drawer,
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in STALE:  # another phone was first: nothing booked, the table as it is
                return answered(request, game.night, refused=e)
            form.add_error(form.field_for(e.field), error_text(e))
        else:
            return answered(request, game.night)
    return _finish_page(request, game, form, status=422)


@require_POST
def undo(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Take back the result just saved (a minute, by its saver or a host): the game is in play
    again, its end-of-game form filled in with what was saved."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    try:
        games.game_undo(
            game=game, actor=request.membership, idempotency_key=request.POST.get("idempotency_key")
        )
    except RuleError as e:  # too late, not theirs, or the table has moved on
        return answered(request, game.night, refused=e)
    if request.htmx:  # the game in play again, in place; its end-of-game form starts from it
        return answered(request, game.night)
    return redirect("game-finish", night_id=night_id, game_id=game.pk)


@require_POST
def paid_at_table(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Note that the game's lines so far (or one event's, `event`) were handed over at the table:
    they leave the settle-up (rule 80: paid as the game goes)."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    number = request.POST.get("event")
    try:
        games.game_paid_at_table(
            game=game,
            # No event: the whole game. One that is no event's number (0) is refused as such.
            event_number=(int(number) if re.fullmatch(Id.regex, number) else 0) if number else None,
            actor=request.membership,
            idempotency_key=request.POST.get("idempotency_key"),
        )
    except RuleError as e:  # paid already on another phone, voided, or the night closed
        return answered(request, game.night, refused=e)
    if request.POST.get("back") == "game":  # sent from the game's page: back to it
        return redirect("game", night_id=night_id, game_id=game.pk)
    return answered(request, game.night)


@require_POST
def preview(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Preview the settlement of the end-of-game form as it is filled in; writes nothing."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    form = FinishForm(request.POST, players=game.document["players"])
    return _finish_page(request, game, form)


@require_GET
def detail(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """One game as recorded: its events, every ledger line with its rule, the 86-87 view."""
    game = game_for(request, night_id, game_id, scoresheet=False)
    context = {**game_page(game), "tie_form": TieForm()}
    return render(request, "games/detail.html", context)


@require_http_methods(["GET", "POST"])
def void(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Ask, then void: every line reversed, the game kept and struck through."""
    game = game_for(request, night_id, game_id, HOST, scoresheet=False)
    if request.method == "POST":
        try:
            games.game_void(
                game=game,
                status=request.POST.get("status"),  # the state the asking page showed
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:  # voided by another phone, or finished since the page was read
            return answered(request, game.night, refused=e)
        if request.htmx:  # the table as it now is, in the one response
            return answered(request, game.night)
        return redirect("game", night_id=night_id, game_id=game.pk)
    return render(request, "games/void.html", {"night": game.night, "game": game})


@require_POST
def resolve_tie(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    form = TieForm(request.POST)
    error = None
    if form.is_valid():
        order = [n.strip() for n in form.cleaned_data["order"].split(",") if n.strip()]
        color = form.cleaned_data["head_color"] or None
        try:
            games.game_resolve_tie(
                game=game,
                order=order or None,
                head_color=color,
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in STALE:  # another phone settled it, or the game was voided
                return answered(request, game.night, refused=e)
            error = error_text(e)
        else:
            return answered(request, game.night)
    context = {**game_page(game), "tie_form": form, "tie_error": error}
    return render(request, "games/detail.html", context, status=422)


@require_http_methods(["GET", "POST"])
def correct(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """Enter a voided game again, corrected, in its place."""
    voided = game_for(request, night_id, game_id, HOST, scoresheet=False)
    if request.method == "GET" and (
        voided.status != Game.Status.VOIDED or hasattr(voided, "replaced_by")
    ):
        return redirect("game", night_id=night_id, game_id=voided.pk)
    events = [e for e in voided.events.all() if e.removed_at is None]  # taken back: gone
    players = seat_order(voided) if request.method == "GET" else voided.document["players"]
    initial = FinishForm.initial_from(voided.outcome, players)  # start from what was entered
    form = FinishForm(request.POST or None, players=players, initial=initial)
    kept = request.POST.getlist("keep") if request.method == "POST" else [str(e.pk) for e in events]
    if request.method == "POST" and form.is_valid():
        drawer = _player_named(voided, form.cleaned_data["last_drawer"] or "")
        fined = any(e.document["type"] == "fine" for e in events if str(e.pk) in kept)
        try:
            game = games.game_correct(
                voided=voided,
                events=[e.document for e in events if str(e.pk) in kept],
                outcome=None if fined else form.outcome(),
                last_drawer=drawer,
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in STALE:  # another phone corrected it first
                return table_now(request, voided.night, refused=e)
            form.add_error(form.field_for(e.field), error_text(e))
        else:
            return redirect("game", night_id=night_id, game_id=game.pk)
    context = {
        "night": voided.night,
        "game": voided,
        "form": form,
        "events": events,
        "kept": kept,
    }
    return render(request, "games/correct.html", context, status=422 if form.errors else 200)
