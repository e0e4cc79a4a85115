"""The table of a Knock Dummy night, as every phone shows it: the scoreboard, the game in play with
its events, the result just saved that may be taken back, ties waiting, who deals next, the
running settle-up, the shared costs, and the latest games with each player's net in them."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import IntegerField, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scorekeeper.models import AuditEntry, Game, LedgerLine, Membership, Night, Player
from scorekeeper.reads import game as games
from scorekeeper.reads import sums
from scorekeeper.reads.board import Row, scoreboard
from scorekeeper.reads.costs import standing_costs
from scorekeeper.reads.money import Close
from scorekeeper.rules.errors import RuleError
from scorekeeper.templatetags.score import amount, baht_text, item_label, signed

EVENT_CHOICES = [
    ("head", gettext_lazy("Head picked up (เกิดหัว)")),
    ("speto", gettext_lazy("Speto collected or laid (เกิดสเปโต)")),
    ("dummy-discard", gettext_lazy("Dummy discard called (ตีดัมมี่)")),
    ("full-discard", gettext_lazy("Full discard called (ตีเต็ม)")),
    ("show-speto", gettext_lazy("Two Spetos shown (โชว์สเปโต)")),
    ("fine", gettext_lazy("Fine round the table (ปรับรอบวง)")),
]


SHOWN_GAMES = 20  # the table shows the latest games; the history page has them all


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
        return dealer or games.next_dealer(night)  # they left the table: read it afresh
    except RuleError:
        return None


def _next_number(shown: list[Game]) -> int:
    """The number the next game will have: the latest shown (voided or not) and one."""
    return max((g.number for g in shown), default=0) + 1


@dataclass(frozen=True, slots=True)
class PaidLine:
    """A line an event paid at once, written out once here rather than in the template: who
    pays whom, how many points, for what and by which rule."""

    payer: str
    payee: str
    points: str  # 1,200
    item: str  # what it pays for, in the page's language
    rule: str

    @classmethod
    def of(cls, line: LedgerLine) -> "PaidLine":
        return cls(
            line.payer.name, line.payee.name, amount(line.amount), item_label(line.item), line.rule
        )


@dataclass
class PlayedEvent:
    """An event of the game in play, with the lines it paid at once, and whether they were
    handed over at the table already; one taken back stays listed, with who took it back."""

    number: int
    label: str
    player: str
    lines: list[PaidLine]
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
            played[event.number].lines.append(PaidLine.of(line))
    return list(played.values())


@dataclass(frozen=True)
class Undo:
    """The result just saved, which this visitor may take back until `until` (rule of thumb:
    a minute; reads.game.UNDO_SECONDS)."""

    game: Game
    until: datetime


def undo_offer(night: Night, membership: Membership | None) -> Undo | None:
    """The undo this visitor is offered now, if any (what the table's region differs by for a
    minute after a save, views/live.py): a statement for the last game, and one for who saved it
    unless the visitor hosts."""
    if not night.is_open or membership is None or not membership.may_play:
        return None
    return _undo(night, night.games.order_by("-number", "-started_at").first(), membership)


def _undo(night: Night, last: Game | None, membership: Membership | None) -> Undo | None:
    """The last game, if its result was saved under a minute ago by this visitor or they host."""
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


def night_table(night: Night, membership: Membership | None, usual: Close | None) -> dict[str, Any]:
    """The table as `membership` sees it (the view adds its forms: `next_number` for the start's,
    the board for the cost's); `usual` the group's usual close, which the running settle-up
    assumes."""
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
        "undo": _undo(night, shown[0] if shown else None, membership) if night.is_open else None,
        "pending": pending,
        **_running(night, board, usual),
        "next_dealer": next_dealer,
        "games": [_game_row(g, [nets.get(g.pk, {}).get(p.pk, 0) for p in players]) for g in shown],
        "more_games": len(shown) >= SHOWN_GAMES,
        "players": players,
        "next_number": _next_number(shown),
        "event_types": EVENT_CHOICES,
        **_costs_now(night, board),
    }


def _game_row(game: Game, nets: list[int]) -> dict[str, Any]:
    """A latest game's row: each player's net in it, written once here rather than cell by cell
    in the template."""
    return {
        "game": game,
        "nets": nets,
        "cells": [signed(net) for net in nets],
        "voided": game.status == Game.Status.VOIDED,
    }


def _running(night: Night, board: list[Row], usual: Close | None) -> dict[str, Any]:
    """An open night: who would pay whom now, and the fee and rounding that assumes."""
    if not night.is_open:
        return {"settle_now": []}
    money = sums.board_sums(night, board, usual)
    players = [row.player for row in board]
    return {
        "settle_now": sums.settle_now(money, players),
        "sums_assumed": sums.assumed_text(money),
    }


@dataclass(frozen=True, slots=True)
class CostNow:
    """A shared cost that stands, as the table lists it: its baht written out once here."""

    reason: str
    baht_text: str  # 2,550 / 12.50
    paid_by: str
    shared_by: int  # how many share it


def _costs_now(night: Night, board: list[Row]) -> dict[str, Any]:
    """An open night's shared costs that stand (the view adds the form to add one)."""
    if not night.is_open:
        return {}
    # Every standing cost has a share someone owes: without one, no list to read.
    if not any(row.shares_costs for row in board):
        return {"costs_now": []}
    costs = [
        CostNow(cost.reason, baht_text(cost.baht), cost.paid_by.name, len(cost.among))
        for cost in standing_costs(night)
    ]
    return {"costs_now": costs}


def seating(night: Night) -> dict[str, Any]:
    """Who sat where since the night began, and who sits where now, in seat order."""
    seats = list(night.seats.select_related("player").order_by("since_game", "position"))
    return {
        "seats": seats,
        "current": sorted((s for s in seats if s.until_game is None), key=lambda s: s.position),
    }
