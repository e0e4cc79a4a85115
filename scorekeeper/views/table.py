"""The table: scoreboard, the game in play, the games of the night, seats and the settle-up."""

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, push_url

from scorekeeper import charts, stats
from scorekeeper.error_text import error_text
from scorekeeper.forms.costs import CostForm
from scorekeeper.forms.games import EventForm
from scorekeeper.forms.groups import close_initial
from scorekeeper.forms.table import SeatForm, SettleForm, StartForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import AuditEntry, Event, Game, LedgerLine, Membership, Night, Player
from scorekeeper.reads import sums
from scorekeeper.reads.board import Row, scoreboard
from scorekeeper.reads.money import Close
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import debts, games, group_rules, nights
from scorekeeper.views import costs, live, pay, scoresheet
from scorekeeper.views.access import HOST, PLAYER, VIEWER, game_for, night_for, transfer_for
from scorekeeper.views.paging import page_asked

EVENT_CHOICES = [
    ("head", gettext_lazy("Head picked up (เกิดหัว)")),
    ("speto", gettext_lazy("Speto collected or laid (เกิดสเปโต)")),
    ("dummy-discard", gettext_lazy("Dummy discard called (ตีดัมมี่)")),
    ("full-discard", gettext_lazy("Full discard called (ตีเต็ม)")),
    ("show-speto", gettext_lazy("Two Spetos shown (โชว์สเปโต)")),
    ("fine", gettext_lazy("Fine round the table (ปรับรอบวง)")),
]


SHOWN_GAMES = 20  # the table shows the latest games; the history page has them all
HISTORY_PAGE = 50  # games a history page lists: a night of thousands reads in pages
CHART_POINTS = 120  # the running balance draws as well with 120 points as with 10,000


def _shown_games(night: Night) -> list[Game]:
    """The latest games, and any still in play or waiting for a tie, newest first."""
    latest = night.games.order_by("-number", "-started_at").values("pk")[:SHOWN_GAMES]
    open_ = [Game.Status.IN_PLAY, Game.Status.PENDING_TIE]
    return list(
        night.games.filter(Q(pk__in=Subquery(latest)) | Q(status__in=open_))
        .select_related("dealer")
        .order_by("-number", "-started_at")
    )


def _next_dealer(night: Night, shown: list[Game], board: list[Row]) -> Player | None:
    """Who deals next, from the games already fetched (rules 9-11, 16)."""
    last = next((g for g in shown if g.status != Game.Status.VOIDED), None)
    seated = {row.player.pk: row.player for row in board if row.seat is not None}
    try:
        if last is None and shown:  # every shown game voided: the last standing one is older
            return games.next_dealer(night)
        dealer = seated.get(games.dealer_after(last, night.first_dealer_id))
        return dealer or games.next_dealer(night)  # they left the table: ask the service
    except RuleError:
        return None


def _next_number(shown: list[Game]) -> int:
    """The number the next game will have: the latest shown (voided or not) and one."""
    return max((g.number for g in shown), default=0) + 1


@dataclass
class PlayedEvent:
    """An event of the game in play, with the lines it paid at once, and whether they were
    handed over at the table already; one taken back stays listed, with who took it back."""

    number: int
    label: str
    player: str
    lines: list[LedgerLine]
    paid_at_table: bool = False
    taken_back: bool = False
    taken_back_by: str = ""


def taken_back_by(game: str = "game", number: str = "number") -> Subquery:
    """Who took an event back (its audit entry's member), for a query whose rows name the
    event's game and number by the fields `game` and `number`: one statement with its rows."""
    entries = AuditEntry.objects.filter(game=OuterRef(game), action="event-remove")
    entries = entries.annotate(event=Cast(KT("detail__number"), IntegerField()))
    return Subquery(entries.filter(event=OuterRef(number)).values("membership__name")[:1])


def _played_events(game: Game) -> list[PlayedEvent]:
    """The events of the game in play, each with its lines, those taken back too (struck
    through): one query, through the lines (every event pays something at once, rule 80)."""
    lines = (
        LedgerLine.objects.filter(game=game, event__isnull=False, reverses__isnull=True)
        .select_related("event", "payer", "payee")
        .annotate(taken_back_by=taken_back_by("event__game", "event__number"))
        .order_by("event__number", "id")
    )
    labels = dict(EVENT_CHOICES)
    played: dict[int, PlayedEvent] = {}
    for line in lines:
        event = line.event
        assert event is not None  # filtered above
        if event.number not in played:
            document = event.document
            played[event.number] = PlayedEvent(
                event.number, str(labels.get(document["type"], document["type"])),
                document.get("player", ""), [], taken_back=event.removed_at is not None,
                taken_back_by=line.taken_back_by or "",  # type: ignore[attr-defined]
            )  # fmt: skip
        if line.item == LedgerLine.PAYMENT:  # handed over at the table
            played[event.number].paid_at_table = True
        else:
            played[event.number].lines.append(line)
    return list(played.values())


@dataclass(frozen=True)
class Undo:
    """The result just saved, which this visitor may take back until `until` (rule of thumb:
    a minute; services.games.UNDO_SECONDS)."""

    game: Game
    until: datetime


def _undo(night: Night, shown: list[Game], membership: Membership | None) -> Undo | None:
    """The last game, if its result was saved under a minute ago by this visitor or they host."""
    last = shown[0] if shown else None
    if last is None or membership is None or not membership.may_play:
        return None
    until = games.undo_until(last)
    if until is None or until < timezone.now():
        return None
    if not membership.may_host:
        saver = games.saved_by(last)
        if saver is None or saver.pk != membership.pk:
            return None
    return Undo(last, until)


def table_context(night: Night, membership: Membership | None = None) -> dict[str, Any]:
    board = scoreboard(night)
    players = [row.player for row in board]
    shown = _shown_games(night)
    in_play = next((g for g in shown if g.status == Game.Status.IN_PLAY), None)
    pending = [g for g in shown if g.status == Game.Status.PENDING_TIE]
    next_dealer = None
    if night.is_open and in_play is None:
        next_dealer = _next_dealer(night, shown, board)
    nets = LedgerLine.objects.game_nets(night, games=[g.pk for g in shown])
    return {
        "night": night,
        "board": board,
        "in_play": in_play,
        "play_events": _played_events(in_play) if in_play is not None else [],
        "undo": _undo(night, shown, membership) if night.is_open else None,
        "pending": pending,
        **_running(night, board, group_rules.usual_of(night.group).close),
        "next_dealer": next_dealer,
        "games": [
            {"game": g, "nets": [nets.get(g.pk, {}).get(p.pk, 0) for p in players]} for g in shown
        ],
        "more_games": len(shown) >= SHOWN_GAMES,
        "players": players,
        "start_form": StartForm(initial={"fool_swap": True, "number": _next_number(shown)}),
        "event_types": EVENT_CHOICES,
        **_costs_now(night, board, membership),
    }


def _running(night: Night, board: list[Row], usual: Close | None) -> dict[str, Any]:
    """An open night: who would pay whom now, and the fee and rounding that assumes."""
    if not night.is_open:
        return {"settle_now": []}
    money = sums.board_sums(night, board, usual)
    players = [row.player for row in board]
    return {
        "settle_now": scoresheet.settle_now(money, players),
        "sums_assumed": sums.assumed_text(money),
    }


def _costs_now(night: Night, board: list[Row], membership: Membership | None) -> dict[str, Any]:
    """An open night's shared costs that stand, and the form to add one at the table: paid by
    this phone's own player if it claimed one, shared by everyone seated now."""
    if not night.is_open:
        return {}
    own = membership.player_id if membership is not None else None
    form = CostForm(
        players=[row.player.name for row in board],
        seated=[row.player.name for row in board if row.seat is not None],
        payer=next((row.player.name for row in board if row.player.pk == own), ""),
        prefix="cost",
    )
    # Every standing cost has a share someone owes: without one, no list to read.
    shared = any(row.shares_costs for row in board)
    return {"cost_form": form, "costs_now": costs.standing_costs(night) if shared else []}


@require_GET
def table(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Show the table; an htmx poll gets only the live part, or 204 when nothing changed."""
    night = night_for(request, night_id)
    if night.is_scoresheet:  # classic Dummy and Gong Zhu keep a score sheet, not a ledger
        return scoresheet.table(request, night)
    return live.polled(
        request,
        night,
        template="table/night.html",
        part="live",
        # A poll leaves the cost form as the phone has it: no need to send it (_costs_now.html).
        context=lambda: {
            **table_context(night, request.membership),
            "poll": bool(request.htmx) and request.htmx.target == "live",
        },
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
    response = render(request, "table/night.html", context, status=409 if refused else 200)
    return push_url(response, reverse("table", kwargs={"night_id": night.pk}))


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
                return table_now(request, night, refused=e)
            form.add_error(None, error_text(e))
        else:
            return _back_to_table(request, night)
    # Only a refusal shows the table again: read it after the attempt, as it now stands.
    context = {
        **table_context(night, request.membership),
        **live.page_version(request, night),
        "start_form": form,
    }
    return render(request, "table/night.html", context, status=422)


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
    players = games.seat_order(game) if request.method == "GET" else game.document["players"]
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
                return table_now(request, night, refused=e)
            form.add_error(None, error_text(e))
        else:
            return _back_to_table(request, night)
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
        return table_now(request, game.night, refused=e)
    return _back_to_table(request, game.night)


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
    seats = list(night.seats.select_related("player").order_by("since_game", "position"))
    context = {
        "night": night,
        "form": form,
        "seats": seats,
        "current": sorted((s for s in seats if s.until_game is None), key=lambda s: s.position),
    }
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
        **_settle_context(night, request.membership, board),
        # Debts carried from earlier nights, beside tonight's transfers.
        "debts": pay.debt_rows(debts.for_night(night), request.membership),
        "form": form,
        # Shared costs, the table fee and rounding, in baht.
        **costs.context(night, [row.player for row in board]),
        # Each player's money part by part, adding up to what they pay or receive.
        **sums.context(sums.board_sums(night, board, usual.close)),
    }
    return render(request, "table/settle.html", context, status=422 if form.errors else 200)


def _settle_context(
    night: Night, viewer: Membership | None, board: list[Row] | None = None
) -> dict[str, Any]:
    board = scoreboard(night) if board is None else board
    # One reader of transfers for both kinds of night, each with how to pay it by PromptPay.
    rows = pay.with_pay(scoresheet.transfer_rows(night), viewer)
    return {
        "night": night,
        "board": board,
        "transfers": rows,
        "summary_url": reverse("summary", kwargs={"night_id": night.pk}),  # shared there
    }


@require_POST
def transfer_paid(request: HtmxHttpRequest, night_id: int, transfer_id: int) -> HttpResponse:
    transfer = transfer_for(request, night_id, transfer_id, PLAYER, scoresheet=False)
    refused = pay.transfer_step(request, transfer)
    if request.htmx:  # the transfers as they are now, and why a refused step was refused
        context = {**_settle_context(transfer.night, request.membership), "refused": refused}
        status = 409 if refused else 200
        return render(request, "table/settle.html#transfers", context, status=status)
    if refused:
        messages.warning(request, refused)
    return redirect("settle", night_id=night_id)


@require_GET
def history(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The night as it reads later: its games in order, a page at a time, and the settle-up."""
    night = night_for(request, night_id, scoresheet=False)
    page = page_asked(request.GET.get("page"))
    start = (page - 1) * HISTORY_PAGE
    in_order = night.games.order_by("number", "started_at", "pk")
    shown = list(
        in_order.select_related("dealer")
        # Every game's count rides on the page's rows: no separate COUNT(*).
        .annotate(in_all=Window(Count("pk")))[start : start + HISTORY_PAGE]
    )
    if not shown and page > 1:  # past the last page (a bookmark, a typo): go to the last one
        last = max(1, math.ceil(in_order.count() / HISTORY_PAGE))
        return redirect(f"{reverse('history', kwargs={'night_id': night.pk})}?page={last}")
    # A subquery, not the ids fetched: with no game an empty list would skip the query, and the
    # page must cost the same statements on the first night as on the longest.
    on_page = in_order.values("pk")[start : start + HISTORY_PAGE]
    events: defaultdict[int, list[Event]] = defaultdict(list)
    taken_back = taken_back_by()  # an event taken back stays listed, struck through, with who
    on_page_events = Event.objects.filter(game__in=on_page).annotate(taken_back_by=taken_back)
    for event in on_page_events.order_by("game_id", "number"):
        events[event.game_id].append(event)
    pages = math.ceil(shown[0].in_all / HISTORY_PAGE) if shown else 1
    context = _settle_context(night, request.membership)
    players = sorted((row.player for row in context["board"]), key=lambda p: p.name)
    labels, running = charts.thinned(*stats.night_running(night, players), most=CHART_POINTS)
    legend = charts.series(running)
    context.update(
        {
            "money_lines": costs.night_lines(night) if not night.is_open else [],
            "games": [{"game": g, "events": events[g.pk]} for g in shown],
            "page": page,
            "pages": pages,
            "earlier": page - 1 if page > 1 else None,
            "later": page + 1 if page < pages else None,
            "chart": charts.line_chart(legend, labels=labels, title=_("Running balance")),
            "legend": legend,
            "names": list(running),
            "rows": list(zip(labels, zip(*running.values(), strict=True), strict=True)),
        }
    )
    return render(request, "table/history.html", context)
