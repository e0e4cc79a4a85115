"""Classic Dummy to 500 and Gong Zhu as their pages show them: where the match stands (the totals,
who won, the pig, Gong Zhu's money pairwise) and who deals next, the sheet's hands a page at a time
with every player's running total after each, one hand as recorded, the end of the match with who
pays whom, and its history drawn. The writes read the standings and the deal through the same
readers (services.scoresheet).

The deal goes round the table one seat at a time, from the first dealer on, in seat order. In
classic Dummy a fool discard (ทิ้งโง่) turns the next deal the other way round (the engine's
`reverse_next_deal`), and it stays turned until another fool turns it back. A voided hand is left
out of both, as if it had not been played.
"""

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.paginator import Page
from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RowRange
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import Game, Membership, Night, Player, Standing, Transfer
from scorekeeper.reads import charts, sums
from scorekeeper.reads.charts import CHART_POINTS
from scorekeeper.reads.costs import night_lines, settle_up_part
from scorekeeper.reads.money import Close, cost_annotations, costs_of, for_money
from scorekeeper.reads.paging import page_asked, page_of
from scorekeeper.reads.pay import debt_rows, with_pay
from scorekeeper.reads.settle import carried_debts, transfer_rows
from scorekeeper.reads.sums import SumLine
from scorekeeper.reads.sums import context as sums_context
from scorekeeper.rules import dummy_points, gong_zhu
from scorekeeper.rules import scoresheet as scoresheet_rules
from scorekeeper.rules.dummy_points import KnockKind, Penalty
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.gong_zhu import Card
from scorekeeper.rules.hand import hand_result
from scorekeeper.templatetags.score import baht_text, date_text

DUMMY, GONG_ZHU = Night.Ruleset.DUMMY_POINTS, Night.Ruleset.GONG_ZHU
FOOL = Q(document__has_key="fool") & ~Q(document__fool=None)  # classic Dummy: it turns the deal
KIND_LABELS = {
    KnockKind.NORMAL: gettext_lazy("Knock (น็อก) ×1"),
    KnockKind.DARK: gettext_lazy("Dark knock (น็อกมืด) ×2"),
    KnockKind.COLOR: gettext_lazy("Colour knock (น็อกสี) ×2"),
    KnockKind.DARK_COLOR: gettext_lazy("Dark colour knock (น็อกมืดสี) ×4"),
}
PENALTY_LABELS = {
    Penalty.DUMMY_DISCARD: gettext_lazy("Dummy discard (ทิ้งมี่)"),
    Penalty.FULL_DISCARD: gettext_lazy("Full discard (ทิ้งเต็ม)"),
    Penalty.HEAD_CLOSE: gettext_lazy("Close discard of the head (ทิ้งปี้หัว)"),
    Penalty.SPETO_CLOSE: gettext_lazy("Close discard of a Speto (ทิ้งปี้สเปโต)"),
    Penalty.SPETO_DEFENCE: gettext_lazy("Speto-defence first discard (ตีอ้อน / ตีกร่าง)"),
    Penalty.SPETO_LAID_OFF: gettext_lazy("Let a Speto be laid off (ถูกฝากสเปโต)"),
}


@dataclass(frozen=True)
class ScoresheetState:
    """Where a score-sheet night stands: each seated player's total and, once over, who won."""

    players: list[Player]  # in seat order
    totals: dict[str, int]
    ended: bool
    winners: tuple[str, ...]
    pigs: tuple[str, ...]  # Gong Zhu's หมู, once the negative target is reached
    money: dict[str, int]  # Gong Zhu: what each receives (+) or pays (−) in points, pairwise
    pairwise: tuple[gong_zhu.Payment, ...]  # Gong Zhu: every pair's difference, lower pays
    costs: dict[str, Decimal]  # what the night's shared costs make each owed (+) or owe (−)


def scoresheet_state(night: Night) -> ScoresheetState:
    """Return the standings of a score-sheet night as its engine reads the running totals.

    One statement however long the match: the seats with each player's Standing, which every
    hand and void keeps in step.
    """
    net = Standing.objects.filter(night=night, player=OuterRef("player_id")).order_by()
    seats = list(
        night.seats.current()
        .select_related("player")
        .annotate(
            total=Coalesce(Subquery(net.values("net")), 0, output_field=BigIntegerField()),
            **cost_annotations(night),
        )
    )
    players = [s.player for s in seats]
    totals = {s.player.name: s.total for s in seats}
    costs = {s.player.name: costs_of(s) for s in seats}
    if night.ruleset == GONG_ZHU:
        state = gong_zhu.standing(totals, _gong_zhu_target(night))
        return ScoresheetState(
            players,
            totals,
            state.ended,
            state.winners,
            state.pigs,
            gong_zhu.pairwise_net(totals),
            gong_zhu.pairwise(totals),
            costs,
        )
    dummy = dummy_points.standing(totals, int(night.scoresheet["target"]))
    return ScoresheetState(players, totals, dummy.ended, dummy.winners, (), {}, (), costs)


def _gong_zhu_target(night: Night) -> gong_zhu.Target:
    target = night.scoresheet["target"]
    return gong_zhu.Target(int(target["points"]), gong_zhu.Direction(target["direction"]))


def next_deal(night: Night, players: Sequence[Player]) -> tuple[Player, int]:
    """Return who deals the next hand and which way the deal goes round (1, or −1 once turned).

    The dealer is the seat after the last hand's dealer among `players` (the seats, in order),
    either way round. One statement however long the match: only the last hand that counts is
    read, with the fool discards up to it counted by the database.
    """
    last = (
        night.games.counted()
        .annotate(fools=Window(Count("pk", filter=FOOL)))
        .order_by("-number")
        .values("dealer_id", "fools")
        .first()
    )
    seats = [p.pk for p in players]
    first = night.first_dealer_id
    turned = last is not None and night.ruleset == DUMMY and last["fools"] % 2 == 1
    dealer, step = scoresheet_rules.next_deal(
        seats, last and last["dealer_id"], first, turned=turned
    )
    if dealer not in seats:  # the first dealer left the table before the first hand
        return night.first_dealer, step
    return players[seats.index(dealer)], step


def next_dealer(night: Night) -> Player:
    """Return who deals the next hand: the seat after the last hand's dealer, either way round."""
    return next_deal(night, scoresheet_state(night).players)[0]


def card_label(code: str | None) -> str | None:
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


def _board(night: Night, state: ScoresheetState, dealer: Player | None) -> list[Row]:
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
            result = hand_result(doc)
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
            facts.append(_("not dealt: %(card)s") % {"card": card_label(result["missing"])})
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

    One statement however long the match (reads.paging): the database counts the hands and
    keeps the running totals, and a page past the last reads as the last.
    """
    order = (
        [F("number").desc(), F("pk").desc()] if newest_first else [F("number").asc(), F("pk").asc()]
    )
    with_totals = night.games.select_related("dealer").annotate(**_running(players))
    hands, page = page_of(with_totals, order, page_asked(asked), PER_PAGE)
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


def _sheet(night: Night, usual: Close | None) -> dict[str, Any]:
    """What every page of the sheet shows at its head: the target, the standings, the end;
    `usual` the group's usual close, which an open night's running settle-up assumes."""
    state = scoresheet_state(night)
    dealer, step = None, 1
    if night.is_open and not state.ended:
        dealer, step = next_deal(night, state.players)
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
        **_running_settle_up(night, state, usual),
    }


def _running_settle_up(night: Night, state: ScoresheetState, usual: Close | None) -> dict[str, Any]:
    """An open Gong Zhu night for money: who would pay whom now, and the fee and rounding that
    assumes (reads.sums)."""
    if not (night.is_open and for_money(night)):
        return {"settle_now": []}
    money = sums.night_sums(
        night, state.players, state.money, state.money, state.costs, usual=usual
    )
    return {"settle_now": sums.settle_now(money, state.players), **sums_context(money)}


def sheet_context(night: Night, usual: Close | None, page: str | None = None) -> dict[str, Any]:
    """The sheet as the table shows it: its head, and a page of the hands, the newest first."""
    context = _sheet(night, usual)
    hands, shown = _hands(night, context["players"], page, newest_first=True)
    return {**context, "hands": hands, "page": shown}


# -- one hand ------------------------------------------------------------------------------------


def _penalties(count: dict[str, Any]) -> list[str]:
    return [
        f"{PENALTY_LABELS[Penalty(kind)]} × {n}" for kind, n in count.get("penalties", {}).items()
    ]


def _hand_rows(night: Night, hand: Game) -> list[dict[str, Any]]:
    doc = hand.document
    try:
        result = hand_result(doc)
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


# -- the end of the night ------------------------------------------------------------------------


def settle_context(
    night: Night, viewer: Membership | None, usual: Close | None, *, with_sums: bool = False
) -> dict[str, Any]:
    """The end of the match; `with_sums`: each player's sum of a closed night for money too."""
    context = _sheet(night, usual)
    # Only scoresheet_close makes transfers, and only for Gong Zhu played for money.
    rows = transfer_rows(night) if context["money"] and not night.is_open else []
    rows = with_pay(rows, viewer)
    state: ScoresheetState = context["state"]
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
    state: ScoresheetState,
    rows: list[dict[str, Any]],
    money: list[SumLine],
) -> str:
    """The end of the match as plain text to paste into a LINE chat; for money, each player's
    sum (reads.sums) before who pays whom."""
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


# -- the history ---------------------------------------------------------------------------------


def _chart(night: Night, players: list[Player]) -> tuple[list[str], dict[str, list[int]]]:
    """The totals after the hands that count, at most CHART_POINTS of them, evenly spread, the
    first and the last always among them (charts.thinned).

    One statement however long the match: the database keeps the running totals.
    """
    order = [F("number").asc(), F("pk").asc()]
    running = _running(players)
    points = list(
        night.games.counted().annotate(**running).order_by(*order).values_list("number", *running)
    )
    labels = [str(point[0]) for point in points]
    totals = {p.name: [point[i] for point in points] for i, p in enumerate(players, 1)}
    return charts.thinned(labels, totals, most=CHART_POINTS)


def settle_page(night: Night, viewer: Membership | None, usual: Close | None) -> dict[str, Any]:
    """The end of the match as its settle-up page shows it (the view adds its forms): for money,
    the debts carried from earlier nights beside tonight's transfers, and the night's costs, fee
    and rounding."""
    context = settle_context(night, viewer, usual, with_sums=True)
    if context["money"]:
        context["debts"] = debt_rows(carried_debts(night), viewer)
        context |= settle_up_part(night)
    return context


def hand_page(night: Night, game: Game) -> dict[str, Any]:
    """One hand as recorded: what each player took or counted, and what the engine made of it."""
    doc = game.document
    result: dict[str, Any] = {}
    with contextlib.suppress(RuleError):
        result = hand_result(doc)
    knock = doc.get("knock")
    return {
        "night": night,
        "game": game,
        "gong_zhu": night.ruleset == GONG_ZHU,
        "rows": _hand_rows(night, game),
        "facts": _facts(night, game),
        "knock_kind": KIND_LABELS.get(knock["kind"]) if knock else None,
        "result": result,
        "missing": card_label(result.get("missing")),
    }


def sheet_history(
    night: Night, viewer: Membership | None, usual: Close | None, page: str | None
) -> dict[str, Any]:
    """The match as it reads later: the totals after every hand, drawn and listed; the money."""
    context = settle_context(night, viewer, usual)
    players = context["players"]
    hands, shown = _hands(night, players, page, newest_first=False)
    labels, running = _chart(night, players)
    legend = charts.series(running)
    context.update(
        {
            "chart": charts.line_chart(legend, labels=labels, title=_("Totals after every hand")),
            "legend": legend,
            "hands": hands,
            "page": shown,
            # A closed match for money: its table fee, shared costs and rounding, in baht.
            "money_lines": (night_lines(night) if context["money"] and not night.is_open else []),
        }
    )
    return context
