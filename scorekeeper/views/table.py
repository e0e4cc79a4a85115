"""The table: scoreboard, the game in play, the games of the night, seats and the settle-up;
what each shows is read in reads/ (table, settle, history), the forms added here."""

import hashlib
import json
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, push_url

from scorekeeper.error_text import error_text
from scorekeeper.forms.costs import CostForm
from scorekeeper.forms.games import EventForm
from scorekeeper.forms.groups import close_initial
from scorekeeper.forms.table import SeatForm, SettleForm, StartForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Game, Membership, Night
from scorekeeper.reads.board import Row, scoreboard
from scorekeeper.reads.game import seat_order
from scorekeeper.reads.history import PastTheEnd, night_history
from scorekeeper.reads.paging import page_asked
from scorekeeper.reads.settle import settle_transfers
from scorekeeper.reads.settle import settle_up as settle_up_page
from scorekeeper.reads.table import EVENT_CHOICES, night_table, seating, undo_offer
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import games, group_rules, nights
from scorekeeper.views import costs, live, pay, scoresheet
from scorekeeper.views.access import HOST, PLAYER, VIEWER, game_for, night_for, transfer_for


def table_context(night: Night, membership: Membership | None = None) -> dict[str, Any]:
    """The table as `membership` sees it (reads.table), with the forms to start the next game
    and, while the night is open, to add a shared cost: paid by this phone's own player if it
    claimed one, shared by everyone seated now."""
    context = night_table(night, membership, group_rules.usual_of(night.group).close)
    context["start_form"] = StartForm(initial={"fool_swap": True, "number": context["next_number"]})
    if night.is_open:
        board: list[Row] = context["board"]
        own = membership.player_id if membership is not None else None
        context["cost_form"] = CostForm(
            players=[row.player.name for row in board],
            seated=[row.player.name for row in board if row.seat is not None],
            payer=next((row.player.name for row in board if row.player.pk == own), ""),
            prefix="cost",
        )
    return context


@require_GET
def table(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Show the table; an htmx poll gets only the live part, or 204 when nothing changed."""
    night = night_for(request, night_id)
    if night.is_scoresheet:  # classic Dummy and Gong Zhu keep a score sheet, not a ledger
        return scoresheet.table(request, night)
    if request.htmx and request.htmx.target == "live":
        return region(request, night)
    context = {**table_context(night, request.membership), **live.page_version(request, night)}
    return render(request, "table/night.html", context)


def region(request: HtmxHttpRequest, night: Night) -> HttpResponse:
    """The table's live part as it now is, built once for each version and kind of visitor
    (views/live.py): the answer to a poll and to a tap made in it. It leaves the cost form as
    the phone has it (_costs_now.html). Besides the night's version it differs by the undo
    offer, and by the group's usual close, which the running settle-up assumes: a change to the
    group's rules is the group's, not the night's, and moves no version."""
    undo = undo_offer(night, request.membership)
    usual = hashlib.sha256(json.dumps(night.group.usual, sort_keys=True, default=str).encode())
    rules = usual.hexdigest()[:16]
    # The players who did not save see it without the undo offer: after a save they are the
    # phones that ask next, so theirs is rendered from the same read.
    player = Membership(group=night.group, role=Membership.Role.PLAYER)
    return live.built_once(
        request,
        night,
        "table/night.html#live",
        lambda: table_context(night, request.membership),
        varies=(undo.game.pk if undo is not None else None, rules),
        also=(live.Kind(player, (None, rules), {"undo": None}),),
    )


# Refusals that mean the phone's page is out of date: the game it names has ended, was voided,
# corrected or changed since, or another phone already started the game it meant to start.
STALE = (
    "game-recorded", "game-voided", "game-started", "game-in-play", "game-changed",
    "voided-twice", "corrected-twice",
)  # fmt: skip


def table_now(
    request: HtmxHttpRequest, night: Night, refused: RuleError | None = None
) -> HttpResponse:
    """Answer with the table page as it is now, at the table's address: after an htmx save (the
    round trip of a redirect saved), or, with 409 and the reason, for a write made from a page
    that is out of date: nothing was booked."""
    if refused is not None:
        messages.warning(request, error_text(refused))
    context = {**table_context(night, request.membership), **live.page_version(request, night)}
    if request.htmx and request.htmx.target == "main":  # a page of its own: its main part only
        context["base"] = "main.html"
    response = render(request, "table/night.html", context, status=409 if refused else 200)
    return push_url(response, reverse("table", kwargs={"night_id": night.pk}))


def table_region(
    request: HtmxHttpRequest, night: Night, refused: RuleError | None = None
) -> HttpResponse:
    """Answer a tap made in the table's region (#live) with the region as it now is, swapped in
    place: the one request of the tap. A refusal (409) says why inside the region it swaps in."""
    if refused is None:
        return region(request, night)
    context = {**table_context(night, request.membership), **live.page_version(request, night)}
    context["refused"] = error_text(refused)
    return render(request, "table/night.html#live", context, status=409)


def answered(
    request: HtmxHttpRequest, night: Night, refused: RuleError | None = None
) -> HttpResponse:
    """The answer to a tap that wrote, or was refused as out of date, in one response: through
    htmx, the region in place when the tap was made in it, else the table page at its address;
    without JavaScript, a redirect to the table as before (a refusal: the page, with why)."""
    if request.htmx and request.htmx.target == "live":
        return table_region(request, night, refused)
    if request.htmx or refused is not None:
        return table_now(request, night, refused)
    return redirect("table", night_id=night.pk)


def _back_to_table(request: HtmxHttpRequest, night: Night) -> HttpResponse:
    url = reverse("table", kwargs={"night_id": night.pk})
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
def game_start(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    night = night_for(request, night_id, PLAYER, scoresheet=False)
    form = StartForm(request.POST)
    if form.is_valid():
        try:
            games.game_start(
                night=night,
                fool_swap=form.cleaned_data["fool_swap"],
                head_color=form.cleaned_data["head_color"] or None,
                number=form.cleaned_data["number"],
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in STALE:
                return answered(request, night, refused=e)
            form.add_error(None, error_text(e))
        else:
            return answered(request, night)
    # Only a refusal shows the table again: read it after the attempt, as it now stands.
    context = {
        **table_context(night, request.membership),
        **live.page_version(request, night),
        "start_form": form,
    }
    template = "table/night.html#live" if request.htmx else "table/night.html"
    return render(request, template, context, status=422)


@require_POST
def cost_add(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Add a shared cost from the table while games go on (ค่าใช้จ่ายร่วม): back at the table,
    its running settle-up showing it; a refusal shows the form again as typed, with why."""
    night = night_for(request, night_id, PLAYER, scoresheet=False)
    form = costs.cost_form(request, night)
    refused = costs.cost_save(request, night, form) if form.is_valid() else None
    if form.is_valid():
        if request.htmx:  # the table as it now is, in place: no round trip of a redirect
            context = table_context(night, request.membership)
            context.update(live.page_version(request, night))
            return render(request, "table/night.html#live", context)
        return redirect("table", night_id=night.pk)
    if refused is not None and refused.code == "night-closed":  # no form to show it in
        messages.warning(request, error_text(refused))
        return _back_to_table(request, night)
    context = {
        **table_context(night, request.membership),
        **live.page_version(request, night),
        "cost_form": form,
        "cost_refused": True,
    }
    template = "table/night.html#live" if request.htmx else "table/night.html"
    return render(request, template, context, status=422)


@require_http_methods(["GET", "POST"])
def event_add(
    request: HtmxHttpRequest, night_id: int, game_id: int, event_type: str
) -> HttpResponse:
    """Record one immediate event of the game the page names: its lines are paid at once.

    Sent from a page that is out of date (the game has ended or was voided since), it is
    refused with 409 and the table as it is: never booked on another game."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    night = game.night
    labels = dict(EVENT_CHOICES)
    if event_type not in labels or (request.method == "GET" and game.status != Game.Status.IN_PLAY):
        return _back_to_table(request, night)
    players = seat_order(game) if request.method == "GET" else game.document["players"]
    form = EventForm(request.POST or None, players=players, event_type=event_type)
    if request.method == "POST" and form.is_valid():
        try:
            games.event_add(
                game=game,
                event=form.event(),
                actor=request.membership,
                idempotency_key=request.POST.get("idempotency_key"),
            )
        except RuleError as e:
            if e.code in STALE:
                return answered(request, night, refused=e)
            form.add_error(None, error_text(e))
        else:
            return answered(request, night)
    context = {
        "night": night,
        "game": game,
        "form": form,
        "label": labels[event_type],
        "back": reverse("table", kwargs={"night_id": night.pk}),
    }
    return render(request, "table/event.html", context, status=422 if form.errors else 200)


@require_POST
def event_remove(
    request: HtmxHttpRequest, night_id: int, game_id: int, number: int
) -> HttpResponse:
    """Take back an event entered by mistake: its lines reversed, the game still in play."""
    game = game_for(request, night_id, game_id, PLAYER, scoresheet=False)
    try:
        games.event_remove(
            game=game,
            number=number,
            actor=request.membership,
            idempotency_key=request.POST.get("idempotency_key"),
        )
    except RuleError as e:  # taken back by another phone, or the game has a result since
        return answered(request, game.night, refused=e)
    return answered(request, game.night)


@require_http_methods(["GET", "POST"])
def seats(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Change who sits where between games (or hands: the score sheets seat players too)."""
    night = night_for(request, night_id, HOST)
    form = SeatForm(request.POST or None, seats=4)
    if request.method == "POST" and form.is_valid():
        try:
            nights.seat_change(
                night=night,
                position=form.cleaned_data["position"],
                player=form.cleaned_data["name"],
                actor=request.membership,
            )
        except RuleError as e:
            form.add_error(None, error_text(e))
        else:
            return _back_to_table(request, night)
    context = {"night": night, "form": form, **seating(night)}
    return render(request, "table/seats.html", context, status=422 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def settle_up(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Close the night and show who pays whom; mark each transfer paid as it is made."""
    closing = request.method == "POST"  # closing the night is the host's
    night = night_for(request, night_id, HOST if closing else VIEWER, scoresheet=False)
    board = scoreboard(night)
    players = [row.player for row in board]
    # The group's own rules are where the close starts, their players only if at the table.
    usual = group_rules.usual_of(night.group)
    initial = close_initial(usual, players)
    form = SettleForm(request.POST or None, players=[p.name for p in players], initial=initial)
    if closing and night.is_open and form.is_valid():
        choices = form.choices([row.player for row in board])
        try:
            nights.night_close(night=night, choices=choices, actor=request.membership)
        except RuleError as e:
            form.add_error(None, error_text(e))
        else:
            return redirect("settle", night_id=night.pk)
    context = {
        **settle_up_page(night, request.membership, board, usual.close),
        "form": form,
        **costs.form_part(night, players),
    }
    return render(request, "table/settle.html", context, status=422 if form.errors else 200)


@require_POST
def transfer_paid(request: HtmxHttpRequest, night_id: int, transfer_id: int) -> HttpResponse:
    transfer = transfer_for(request, night_id, transfer_id, PLAYER, scoresheet=False)
    refused = pay.transfer_step(request, transfer)
    if request.htmx:  # the transfers as they are now, and why a refused step was refused
        context = {
            **settle_transfers(transfer.night, request.membership),
            "refused": refused,
        }
        status = 409 if refused else 200
        return render(request, "table/settle.html#transfers", context, status=status)
    if refused:
        messages.warning(request, refused)
    return redirect("settle", night_id=night_id)


@require_GET
def history(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The night as it reads later: its games in order, a page at a time, and the settle-up."""
    night = night_for(request, night_id, scoresheet=False)
    try:
        context = night_history(night, request.membership, page_asked(request.GET.get("page")))
    except PastTheEnd as past:  # a bookmark, a typo: go to the last page
        return redirect(f"{reverse('history', kwargs={'night_id': night.pk})}?page={past.last}")
    return render(request, "table/history.html", context)
