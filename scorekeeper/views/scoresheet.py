"""Classic Dummy to 500 and Gong Zhu: score sheets to a target.

The sheet (standings after every hand, the hands, the match's end), opening one, entering a hand
with its live preview, a hand's page and its void, the end of the night with Gong Zhu's money.
"""

import contextlib
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Count,
    F,
    Func,
    IntegerField,
    Q,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RowRange
from django.db.models.functions import Least, Mod, NullIf, RowNumber
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import charts
from scorekeeper.converters import Id
from scorekeeper.error_text import error_text
from scorekeeper.forms.groups import close_initial, sheet_initial
from scorekeeper.forms.scoresheet import (
    KIND_LABELS,
    PENALTY_LABELS,
    DummyHandForm,
    DummyOpenForm,
    GongZhuHandForm,
    GongZhuOpenForm,
    ScoresheetOpenForm,
)
from scorekeeper.forms.table import SettleForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import (
    Game,
    Membership,
    Night,
    Player,
    Transfer,
)
from scorekeeper.reads import sums
from scorekeeper.reads.costs import night_lines, settle_up_part
from scorekeeper.reads.money import for_money
from scorekeeper.reads.paging import page_asked
from scorekeeper.reads.pay import debt_rows, with_pay
from scorekeeper.reads.settle import carried_debts, transfer_rows
from scorekeeper.reads.sums import SumLine
from scorekeeper.reads.sums import context as sums_context
from scorekeeper.rules.dummy_points import Penalty
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.gong_zhu import Card
from scorekeeper.services import group_rules, nights, scoresheet
from scorekeeper.services.scoresheet import DUMMY, GONG_ZHU
from scorekeeper.templatetags.score import baht_text, date_text
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


def _card_label(code: str | None) -> str | None:
    return None if code is None else Card(code).label


# -- the score sheet -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One player on the sheet's standings."""

    player: Player
    total: int
    money: int | None  # Gong Zhu for money: what the pairwise settlement gives (+) or takes (−)
    baht: Decimal | None
    winner: bool
    pig: bool
    deals_next: bool
    to_go: int | None  # classic Dummy: the points still missing to the target


def target_text(night: Night) -> str:
    """The target as the table says it: 500, −500, +1,000, ±1,000."""
    target = night.scoresheet.get("target")
    if night.ruleset == DUMMY:
        return f"{int(target):,}"
    sign = {"down": "−", "up": "+", "either": "±"}[target["direction"]]
    return f"{sign}{int(target['points']):,}"


def _board(night: Night, state: scoresheet.ScoresheetState, dealer: Player | None) -> list[Row]:
    money = for_money(night)
    target = int(night.scoresheet["target"]) if night.ruleset == DUMMY else None
    return [
        Row(
            player=p,
            total=state.totals[p.name],
            money=state.money[p.name] if money else None,
            baht=night.baht(state.money[p.name]) if money else None,
            winner=p.name in state.winners,
            pig=p.name in state.pigs,
            deals_next=dealer is not None and dealer.pk == p.pk,
            to_go=max(target - state.totals[p.name], 0) if target is not None else None,
        )
        for p in state.players
    ]


def _facts(night: Night, hand: Game) -> list[str]:
    """What the sheet says about a hand beside its scores, in the table's words."""
    doc = hand.document
    facts = [_("%(name)s dealt") % {"name": hand.dealer.name}]
    if night.ruleset == GONG_ZHU:
        try:
            result = scoresheet.hand_result(doc)
        except RuleError:
            return facts
        pig = next((p for p, cards in doc["captured"].items() if "SQ" in cards), None)
        if result["big_shuan"]:
            facts.append(_("Big Shuan (บิ๊กช้วน): %(name)s") % {"name": result["big_shuan"]})
        elif result["shuan"]:
            facts.append(_("Shuan (ช้วน): %(name)s") % {"name": result["shuan"]})
        if pig:
            facts.append(_("Q♠ to %(name)s") % {"name": pig})
        if result["missing"]:
            facts.append(_("not dealt: %(card)s") % {"card": _card_label(result["missing"])})
        return facts
    knock = doc.get("knock")
    if knock:
        kind = str(KIND_LABELS.get(knock["kind"], knock["kind"]))
        facts.append(_("%(name)s knocked: %(kind)s") % {"name": knock["player"], "kind": kind})
    else:
        facts.append(_("the stock ran out"))
    if doc.get("fool"):
        facts.append(_("fool discard (ทิ้งโง่): %(name)s") % {"name": doc["fool"]})
    return facts


PER_PAGE = 20  # hands on a page of the sheet: a long match reads in pages
CHART_POINTS = 120  # the totals draw as well with 120 points as with 10,000
COUNTED = ~Q(status=Game.Status.VOIDED)


class ScoreOf(Func):
    """A player's score in a hand, read from its `scores` by the database: 0 if they sat it out.

    Not the key lookup `scores__<name>`: Django reads a name such as "7" as a list index, and
    SQLite's JSON paths miss a name with a quote in it.
    """

    output_field = IntegerField()

    def __init__(self, name: str) -> None:
        super().__init__(F("scores"))
        self.name = name

    def as_sqlite(
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, tuple[Any, ...]]:
        scores, params = compiler.compile(self.get_source_expressions()[0])
        sql = f"COALESCE((SELECT j.value FROM JSON_EACH({scores}) j WHERE j.key = %s), 0)"
        return sql, (*params, self.name)

    def as_postgresql(
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, tuple[Any, ...]]:
        scores, params = compiler.compile(self.get_source_expressions()[0])
        return f"COALESCE(({scores} ->> %s)::integer, 0)", (*params, self.name)


def _running(players: list[Player]) -> dict[str, Window]:
    """Each player's total after each hand, in the order they were played; a void adds nothing."""
    return {
        f"total_{i}": Window(
            Sum(Case(When(COUNTED, then=ScoreOf(p.name)), default=Value(0))),
            order_by=[F("number").asc(), F("pk").asc()],
            frame=RowRange(start=None, end=0),
        )
        for i, p in enumerate(players)
    }


def _hands(
    night: Night, players: list[Player], asked: str | None, *, newest_first: bool
) -> tuple[list[dict[str, Any]], Page[int]]:
    """One page of the hands, each with its scores and every player's running total after it.

    One statement however long the match: the database counts the hands and keeps the running
    totals, and a page past the last reads as the last.
    """
    order = (
        [F("number").desc(), F("pk").desc()] if newest_first else [F("number").asc(), F("pk").asc()]
    )
    last_page_start = (F("hands") - 1) / PER_PAGE * PER_PAGE
    start = Least(Value((page_asked(asked) - 1) * PER_PAGE), last_page_start)
    hands = list(
        night.games.select_related("dealer")
        .annotate(row=Window(RowNumber(), order_by=order), hands=Window(Count("pk")))
        .annotate(**_running(players))
        .filter(row__gt=start, row__lte=start + PER_PAGE)
        .order_by(*order)
    )
    number = (hands[0].row - 1) // PER_PAGE + 1 if hands else 1
    page = Paginator(range(hands[0].hands if hands else 0), PER_PAGE).page(number)
    rows = []
    for hand in hands:
        counted = hand.status != Game.Status.VOIDED
        scores = hand.scores or {}
        rows.append(
            {
                "hand": hand,
                "voided": not counted,
                "cells": [
                    {
                        "player": p.name,
                        "score": scores.get(p.name, 0),
                        "total": getattr(hand, f"total_{i}") if counted else None,
                    }
                    for i, p in enumerate(players)
                ],
                "facts": _facts(night, hand),
            }
        )
    return rows, page


def _sheet(night: Night) -> dict[str, Any]:
    """What every page of the sheet shows at its head: the target, the standings, the end."""
    state = scoresheet.scoresheet_state(night)
    dealer, step = None, 1
    if night.is_open and not state.ended:
        dealer, step = scoresheet.next_deal(night, state.players)
    return {
        "night": night,
        "gong_zhu": night.ruleset == GONG_ZHU,
        "money": for_money(night),
        "target": target_text(night),
        "state": state,
        "board": _board(night, state, dealer),
        "players": state.players,
        "next_dealer": dealer,
        "reversed": step == -1,
        **_running_settle_up(night, state),
    }


def _running_settle_up(night: Night, state: scoresheet.ScoresheetState) -> dict[str, Any]:
    """An open Gong Zhu night for money: who would pay whom now, and the fee and rounding that
    assumes (services.sums)."""
    if not (night.is_open and for_money(night)):
        return {"settle_now": []}
    usual = group_rules.usual_of(night.group).close
    money = sums.night_sums(
        night, state.players, state.money, state.money, state.costs, usual=usual
    )
    return {"settle_now": sums.settle_now(money, state.players), **sums_context(money)}


def sheet_context(night: Night, page: str | None = None) -> dict[str, Any]:
    context = _sheet(night)
    hands, shown = _hands(night, context["players"], page, newest_first=True)
    return {**context, "hands": hands, "page": shown}


def table(request: HtmxHttpRequest, night: Night) -> HttpResponse:
    """Show the score sheet; an htmx poll gets only the sheet, or 204 when nothing changed."""
    return live.polled(
        request,
        night,
        template="scoresheet/table.html",
        part="sheet",
        context=lambda: sheet_context(night, request.GET.get("page")),
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


def _preview(night: Night, state: scoresheet.ScoresheetState, form: HandForm) -> dict[str, Any]:
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
        "missing": _card_label(result.get("missing")),
        "reverse": result.get("reverse_next_deal", False),
    }


def _hand_page(
    request: HtmxHttpRequest,
    night: Night,
    state: scoresheet.ScoresheetState,
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
        "dealer": scoresheet.next_deal(night, state.players)[0],
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
    state = scoresheet.scoresheet_state(night)
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
            state = scoresheet.scoresheet_state(
                night
            )  # the save read the match afresh: so does the preview
        else:
            return redirect("table", night_id=night.pk)
    return _hand_page(request, night, state, form, status=422)


@require_POST
def hand_preview(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Score the hand form as it is filled in; writes nothing."""
    night = _scoresheet_night(request, night_id, PLAYER)
    state = scoresheet.scoresheet_state(night)
    return _hand_page(request, night, state, _hand_form(night, state.players, request.POST))


# -- one hand ------------------------------------------------------------------------------------


def _penalties(count: dict[str, Any]) -> list[str]:
    return [
        f"{PENALTY_LABELS[Penalty(kind)]} × {n}" for kind, n in count.get("penalties", {}).items()
    ]


def _hand_rows(night: Night, hand: Game) -> list[dict[str, Any]]:
    doc = hand.document
    try:
        result = scoresheet.hand_result(doc)
    except RuleError:
        result = {}
    detail = result.get("detail", {})
    rows = []
    for name in doc["players"]:
        row: dict[str, Any] = {"player": name, "score": (hand.scores or {}).get(name, 0)}
        if night.ruleset == GONG_ZHU:
            cards = doc["captured"].get(name, [])
            row["cards"] = [Card(c).label for c in cards]
        else:
            count = doc["counts"][name]
            row["count"] = count
            row["detail"] = detail.get(name)
            row["penalties"] = _penalties(count)
            row["dark"] = count.get("collected") is False
        rows.append(row)
    return rows


@require_GET
def hand(request: HtmxHttpRequest, night_id: int, game_id: int) -> HttpResponse:
    """One hand as recorded: what each player took or counted, and what the engine made of it."""
    game = _scoresheet_game(request, night_id, game_id, VIEWER)
    night = game.night
    doc = game.document
    result: dict[str, Any] = {}
    with contextlib.suppress(RuleError):
        result = scoresheet.hand_result(doc)
    knock = doc.get("knock")
    context = {
        "night": night,
        "game": game,
        "gong_zhu": night.ruleset == GONG_ZHU,
        "rows": _hand_rows(night, game),
        "facts": _facts(night, game),
        "knock_kind": KIND_LABELS.get(knock["kind"]) if knock else None,
        "result": result,
        "missing": _card_label(result.get("missing")),
        "membership": request.membership,
    }
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


def settle_context(
    night: Night, viewer: Membership | None = None, *, with_sums: bool = False
) -> dict[str, Any]:
    """The end of the match; `with_sums`: each player's sum of a closed night for money too."""
    context = _sheet(night)
    # Only scoresheet_close makes transfers, and only for Gong Zhu played for money.
    rows = transfer_rows(night) if context["money"] and not night.is_open else []
    rows = with_pay(rows, viewer)
    state: scoresheet.ScoresheetState = context["state"]
    pairwise = [
        {"payer": p.payer, "payee": p.payee, "points": p.points, "baht": night.baht(p.points)}
        for p in state.pairwise
    ]
    if with_sums and context["money"] and not night.is_open:  # as the close wrote it
        money = sums.night_sums(
            night, state.players, state.money, state.money, state.costs, usual=None
        )
        context.update(sums_context(money))
    return {
        **context,
        "transfers": rows,
        "pairwise": pairwise if context["money"] else [],
        "share": _share_text(night, state, rows, context.get("sums", [])),
    }


def _share_text(
    night: Night,
    state: scoresheet.ScoresheetState,
    rows: list[dict[str, Any]],
    money: list[SumLine],
) -> str:
    """The end of the match as plain text to paste into a LINE chat; for money, each player's
    sum (views.sums) before who pays whom."""
    lines = [
        f"{_('Scorekeeper')} · {night.group.name} · {date_text(night.started_at)}",
        f"{night.get_ruleset_display()} · {target_text(night)}",
    ]
    for p in state.players:
        total = state.totals[p.name]
        sign = "+" if total > 0 else "−" if total < 0 else ""
        lines.append(f"{p.name}: {sign}{abs(total):,}")
    if state.winners and state.ended:
        lines.append(_("Winner: %(names)s") % {"names": ", ".join(state.winners)})
    if state.pigs:
        lines.append(_("The pig (หมู): %(names)s") % {"names": ", ".join(state.pigs)})
    lines += [line.text for line in money]
    if rows:
        lines.append(_("Who pays whom:"))
    for paid in rows:
        t: Transfer = paid["transfer"]
        tick = " ✓" if paid["paid"] else ""
        lines.append(f"{t.payer.name} → {t.payee_name}: {baht_text(paid['baht'])} ฿{tick}")
    return "\n".join(lines)


@require_http_methods(["GET", "POST"])
def settle(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The end of the match: close the sheet (the host) and, for Gong Zhu's money, who pays whom."""
    night = _scoresheet_night(request, night_id)
    error, form = None, None
    if request.method == "POST":
        _scoresheet_night(request, night_id, HOST)  # closing the match is the host's
        players = scoresheet.scoresheet_state(night).players
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
    context = {
        **settle_context(night, request.membership, with_sums=True),
        "membership": request.membership,
        "error": error,
    }
    players = context["state"].players
    # The group's own rules are where the close starts, their players only if at the table.
    initial = close_initial(group_rules.usual_of(night.group), players)
    context["form"] = form or SettleForm(players=[p.name for p in players], initial=initial)
    if context["money"]:  # debts carried from earlier nights, beside tonight's transfers
        context["debts"] = debt_rows(carried_debts(night), request.membership)
        # and the night's costs, fee and rounding, with the form to add a cost while it is open
        context |= settle_up_part(night) | costs.form_part(night, players)
    return render(request, "scoresheet/settle.html", context, status=422 if error else 200)


@require_POST
def transfer_paid(request: HtmxHttpRequest, night_id: int, transfer_id: int) -> HttpResponse:
    """Mark a Gong Zhu payment made (or undo the mark), as a payment line of the ledger."""
    transfer = transfer_for(request, night_id, transfer_id, PLAYER, scoresheet=True)
    night = transfer.night
    refused = pay.transfer_step(request, transfer)
    if request.htmx:  # the transfers as they are now, and why a refused step was refused
        context = {
            **settle_context(night, request.membership),
            "membership": request.membership,
            "refused": refused,
        }
        status = 409 if refused else 200
        return render(request, "scoresheet/settle.html#transfers", context, status=status)
    if refused:
        messages.warning(request, refused)
    return redirect("scoresheet-settle", night_id=night_id)


def _chart(night: Night, players: list[Player]) -> tuple[list[str], dict[str, list[int]]]:
    """The totals after the hands that count, at most CHART_POINTS of them, evenly spread.

    One statement however long the match: the database keeps the running totals and picks the
    hands to draw, the first and the last always among them.
    """
    order = [F("number").asc(), F("pk").asc()]
    running = _running(players)
    spread = CHART_POINTS - 1
    points = list(
        night.games.counted()
        .annotate(at=Window(RowNumber(), order_by=order) - 1, hands=Window(Count("pk")))
        .annotate(**running)
        # Hand `at` is drawn when at × spread / (hands − 1) passes a whole number.
        .annotate(past=Mod(F("at") * spread, NullIf(F("hands") - 1, 0)))
        .filter(Q(hands__lte=CHART_POINTS) | Q(past__lt=spread))
        .order_by(*order)
        .values_list("number", *running)
    )
    labels = [str(point[0]) for point in points]
    return labels, {p.name: [point[i] for point in points] for i, p in enumerate(players, 1)}


@require_GET
def history(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The match as it reads later: the totals after every hand, drawn and listed; the money."""
    night = _scoresheet_night(request, night_id)
    context = settle_context(night, request.membership)
    players = context["players"]
    hands, page = _hands(night, players, request.GET.get("page"), newest_first=False)
    labels, running = _chart(night, players)
    legend = charts.series(running)
    context.update(
        {
            "chart": charts.line_chart(legend, labels=labels, title=_("Totals after every hand")),
            "legend": legend,
            "hands": hands,
            "page": page,
            "membership": request.membership,
            # A closed match for money: its table fee, shared costs and rounding, in baht.
            "money_lines": (night_lines(night) if context["money"] and not night.is_open else []),
        }
    )
    return render(request, "scoresheet/history.html", context)
