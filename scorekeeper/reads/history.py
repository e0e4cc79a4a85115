"""A Knock Dummy night as it reads later: its games in order with their events, a page at a time,
the running balance after every game drawn and listed, its transfers and its money lines."""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import F
from django.utils.translation import gettext as _

from scorekeeper.models import Event, Game, LedgerLine, Membership, Night, Player
from scorekeeper.reads import charts
from scorekeeper.reads.charts import CHART_POINTS
from scorekeeper.reads.costs import night_lines
from scorekeeper.reads.paging import page_of
from scorekeeper.reads.settle import settle_transfers
from scorekeeper.reads.table import taken_back_by

HISTORY_PAGE = 50  # games a history page lists: a night of thousands reads in pages


def night_running(
    night: Night, players: Sequence[Player]
) -> tuple[list[str], dict[str, list[int]]]:
    """Return game labels and each player's running net after every game that stands, by the
    games' standing nets (LedgerLine.objects.game_nets).

    One aggregate over the night's lines, whatever its length; games that paid nothing yet
    (the one in play, a tie waiting) have no point of their own.
    """
    counted = LedgerLine.objects.exclude(game__status=Game.Status.VOIDED)
    per_game = counted.game_nets(night, by="game__number")
    running = dict.fromkeys((p.pk for p in players), 0)
    series: dict[str, list[int]] = {p.name: [] for p in players}
    numbers = sorted(per_game)
    for number in numbers:
        for p in players:
            running[p.pk] += per_game[number].get(p.pk, 0)
            series[p.name].append(running[p.pk])
    return [str(number) for number in numbers], series


class PastTheEnd(Exception):
    """A page of the history past its last was asked for (a bookmark, a typo): `last` is the
    last page."""

    def __init__(self, last: int) -> None:
        super().__init__(last)
        self.last = last


def night_history(night: Night, viewer: Membership | None, page: int) -> dict[str, Any]:
    """The history's page `page` as `viewer` reads it; past its last page, PastTheEnd."""
    start = (page - 1) * HISTORY_PAGE
    order = [F("number").asc(), F("started_at").asc(), F("pk").asc()]
    shown, games_page = page_of(night.games.select_related("dealer"), order, page, HISTORY_PAGE)
    if games_page.number != page:
        raise PastTheEnd(games_page.number)
    # A subquery, not the ids fetched: with no game an empty list would skip the query, and the
    # page must cost the same statements on the first night as on the longest.
    on_page = night.games.order_by(*order).values("pk")[start : start + HISTORY_PAGE]
    events: defaultdict[int, list[Event]] = defaultdict(list)
    taken_back = taken_back_by()  # an event taken back stays listed, struck through, with who
    on_page_events = Event.objects.filter(game__in=on_page).annotate(taken_back_by=taken_back)
    for event in on_page_events.order_by("game_id", "number"):
        events[event.game_id].append(event)
    pages = games_page.paginator.num_pages
    context = settle_transfers(night, viewer)
    players = sorted((row.player for row in context["board"]), key=lambda p: p.name)
    labels, running = charts.thinned(*night_running(night, players), most=CHART_POINTS)
    legend = charts.series(running)
    context.update(
        {
            "money_lines": night_lines(night) if not night.is_open else [],
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
    return context
