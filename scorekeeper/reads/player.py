"""A player's page: their lifetime at the group's Knock Dummy tables (nights, games, money, knocks,
fools, sleeps, best and worst night, months, head to head) and their net over time drawn."""

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Case, F, Q, Sum, When
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import Game, LedgerLine, Night, Player, Standing
from scorekeeper.reads import charts
from scorekeeper.rules.money import baht

KNOCK_DUMMY = Night.Ruleset.KNOCK_DUMMY


@dataclass
class Month:
    """A player's nights of one month, and what they came to in baht."""

    first_day: date
    nights: int = 0
    baht: Decimal = Decimal(0)


@dataclass
class Record:
    """A player's lifetime at the group's Knock Dummy tables (the score sheets keep their own)."""

    player: Player
    net: int = 0  # points, summed across nights: only for a group that kept one point value
    baht: Decimal = Decimal(0)  # each night at its own point value, rounded per night
    nights: int = 0
    games: int = 0
    knocks: Counter[str] = field(default_factory=Counter)
    fools_discarded: int = 0
    fools_received: int = 0
    dark_sleeps: int = 0
    spetos_held: int = 0
    best: Standing | None = None
    worst: Standing | None = None
    # The other's name and what the player won (+) or lost (−) against them, in baht.
    head_to_head: list[tuple[str, Decimal]] = field(default_factory=list)
    over_time: list[Decimal] = field(default_factory=list)  # the running baht after each night
    dates: list[str] = field(default_factory=list)
    months: list["Month"] = field(default_factory=list)

    @property
    def over_time_rows(self) -> list[tuple[str, Decimal]]:
        """The chart's numbers as text: each night's date and the running baht after it."""
        return list(zip(self.dates, self.over_time, strict=True))

    @property
    def best_baht(self) -> Decimal | None:
        return self.best.night.baht(self.best.net) if self.best else None

    @property
    def worst_baht(self) -> Decimal | None:
        return self.worst.night.baht(self.worst.net) if self.worst else None

    @property
    def over_time_whole(self) -> list[int]:
        """The running baht in whole baht, for the chart to draw (its numbers are listed exact)."""
        return [int(v.to_integral_value(rounding=ROUND_HALF_UP)) for v in self.over_time]

    @property
    def rival(self) -> tuple[str, Decimal] | None:
        """Whom the player wins most from (คู่ปรับที่กินได้), if they win from anyone."""
        best = max(self.head_to_head, key=lambda r: r[1], default=None)
        return best if best is not None and best[1] > 0 else None

    @property
    def nemesis(self) -> tuple[str, Decimal] | None:
        """Whom the player loses most to (ขาประจำที่เสียให้), if they lose to anyone."""
        worst = min(self.head_to_head, key=lambda r: r[1], default=None)
        return worst if worst is not None and worst[1] < 0 else None

    @property
    def knocks_by_kind(self) -> list[tuple[str, int]]:
        """Each kind of knock, in the visitor's language, and how many."""
        # A list, not the Counter: a template's `.items` would look up the key "items" first.
        return [(Game.knock_kind_label(kind), n) for kind, n in sorted(self.knocks.items())]


def _winners(doc: dict[str, Any]) -> set[str]:
    if "knock" in doc:
        return {doc["knock"]["player"]}
    points = doc.get("points", {})
    if not points:
        return set()
    top = max(points.values())
    tied = [p for p in doc["players"] if points.get(p) == top]
    if len(tied) <= 2:
        return set(tied)
    tie_break = doc.get("tie_break")
    order: list[str] = tie_break if isinstance(tie_break, list) else []
    return {min(tied, key=lambda p: order.index(p) if p in order else len(order))}


# The games a player's record counts: those with a result, or ended by a fine.
COUNTED = (Game.Status.SETTLED, Game.Status.FINED)


def player_record(player: Player) -> Record:
    """Gather one player's record from the standings, the games' documents and the ledger.

    A night is one of the player's nights (their nights, best and worst night, months and chart)
    only if at least one game they sat in counted in it (`COUNTED`): a night they sat at where
    no game counted, or none was played, is no night of theirs, never a "worst night" of 0 ฿.
    This is the one place that says so."""
    record = Record(player)
    games = Game.objects.filter(
        night__group=player.group_id, night__ruleset=KNOCK_DUMMY, status__in=COUNTED
    )
    # Each field the loop below reads: one deferred would cost a statement per game.
    fields = ("night_id", "document", "seating", "status")
    played = [g for g in games.only(*fields) if player.pk in g.seating]
    nights = {g.night_id for g in played}
    standings = [
        st
        for st in Standing.objects.filter(player=player, night__ruleset=KNOCK_DUMMY)
        .select_related("night")
        .order_by("night__started_at")
        if st.night_id in nights
    ]
    record.nights = len(standings)
    months: dict[tuple[int, int], Month] = {}
    for st in standings:
        night = st.night.baht(st.net)  # each night at its own point value
        record.net += st.net
        record.baht += night
        record.over_time.append(record.baht)
        local = timezone.localtime(st.night.started_at)
        record.dates.append(f"{local:%d/%m}")
        month = months.setdefault((local.year, local.month), Month(local.date().replace(day=1)))
        month.nights += 1
        month.baht += night
        if record.best is None or night > record.best.night.baht(record.best.net):
            record.best = st
        if record.worst is None or night < record.worst.night.baht(record.worst.net):
            record.worst = st
    record.months = sorted(months.values(), key=lambda m: m.first_day, reverse=True)
    for game in played:
        record.games += 1
        doc = game.document
        name = doc["players"][game.seating.index(player.pk)]
        knock = doc.get("knock")
        if knock and knock["player"] == name:
            record.knocks[knock["kind"]] += 1
            record.fools_received += bool(doc.get("fool"))
        record.fools_discarded += doc.get("fool") == name
        record.spetos_held += doc.get("speto_held", {}).get(name, 0)
        collected = doc.get("collected")
        lost = name not in _winners(doc) and game.status == Game.Status.SETTLED
        record.dark_sleeps += lost and collected is not None and name not in collected
    record.head_to_head = _head_to_head(player)
    return record


def _head_to_head(player: Player) -> list[tuple[str, Decimal]]:
    """Return what the player won (+) or lost (−) against each other player, over every game,
    in baht: each night's points at that night's value, rounded once a night.

    One query: each standing line between the player and another (reversals applied), signed
    from the player's side and summed by the other player's name (names are unique in a group)
    and the night. Not LedgerLine.objects.game_nets, the reader of a game's standing nets: it
    reads one night at a time (a statement a night here) and sums each player's net, where head
    to head needs who paid whom. What it counts is the same: a voided game's lines are all
    reversed, so standing lines are those of the games that stand, as game_nets reads them.
    """
    mine = Q(payer=player) | Q(payee=player)
    lines = LedgerLine.objects.standing().filter(mine, night__group=player.group_id)
    lines = lines.filter(night__ruleset=KNOCK_DUMMY).exclude(item=LedgerLine.PAYMENT)
    paid_me = Q(payee=player)
    rows = (
        lines.annotate(
            other=Case(When(paid_me, then=F("payer__name")), default=F("payee__name")),
            signed=Case(When(paid_me, then=F("amount")), default=-F("amount")),
        )
        .order_by()
        .values("other", "night__point_value")
        .annotate(net=Sum("signed"))
    )
    against: dict[str, Decimal] = {}
    for row in rows:
        night = baht(row["net"], row["night__point_value"])
        against[row["other"]] = against.get(row["other"], Decimal(0)) + night
    return sorted(against.items(), key=lambda r: (-r[1], r[0]))


def player_page(player: Player) -> dict[str, Any]:
    """The player's page: their record and their net over time, drawn."""
    record = player_record(player)
    chart = charts.line_chart(
        charts.series({player.name: record.over_time_whole}),
        labels=record.dates,
        title=_("Net over time, in baht"),
    )
    return {"group": player.group, "record": record, "chart": chart}
