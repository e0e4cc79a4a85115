"""A night's money as its settle-up reads it: what it is made of (read from the ledger), what the
host chooses at the close (`Choices`; the group's usual `Close`), and the plan of who pays whom in
baht with its shared costs, table fee and rounding (rules.settle_up). Both kinds of night for money
read it: Knock Dummy and Gong Zhu. The close writes the plan (services.settle_up); the pages read
it as it would be now (reads.sums)."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import DecimalField, OuterRef, Subquery, Sum

from scorekeeper.models import LedgerLine, MoneyLine, Night, Player, Transfer, in_id_order
from scorekeeper.rules import settle_up as rules

FEWEST, HUB = Transfer.Mode.FEWEST, Transfer.Mode.HUB


@dataclass(frozen=True, slots=True)
class Choices:
    """What the host chooses when the night closes."""

    mode: str = Transfer.Mode.FEWEST
    hub: Player | None = None
    fee: Decimal = Decimal(0)
    fee_per: str = Night.FeePer.GAME
    fee_to: Player | None = None  # None: the house
    rounding: int = 0
    rounding_by: Player | None = None  # None: the night's biggest winner

    @classmethod
    def of(cls, night: Night) -> "Choices":
        """The choices a closed night was closed with (the hub is its transfers')."""
        return cls(
            fee=night.fee, fee_per=night.fee_per, fee_to=night.fee_to,
            rounding=night.rounding, rounding_by=night.rounding_by,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Close:
    """How the group usually settles up at the close, its players named by id (the group's own
    rules: services.group_rules)."""

    mode: str = FEWEST
    hub: int | None = None
    fee: Decimal = Decimal(0)
    fee_per: str = Night.FeePer.GAME
    fee_to: int | None = None  # None: the house
    rounding: int = 0
    rounding_by: int | None = None  # None: the night's biggest winner

    def choices(self, players: Sequence[Player]) -> Choices:
        """The choices at a table of `players`: a player named who is not among them is left
        out, and so the close does what it does unless told (the house takes the fee, the
        biggest winner carries the rounding, the fewest transfers when the hub is away)."""
        by_id = {p.pk: p for p in players}
        hub = by_id.get(self.hub) if self.hub is not None else None
        return Choices(
            mode=FEWEST if self.mode == HUB and hub is None else self.mode,
            hub=hub,
            fee=self.fee,
            fee_per=self.fee_per,
            fee_to=by_id.get(self.fee_to) if self.fee_to is not None else None,
            rounding=self.rounding,
            rounding_by=by_id.get(self.rounding_by) if self.rounding_by is not None else None,
        )


@dataclass(frozen=True, slots=True)
class NightMoney:
    """What a night's settle-up is made of, read from the ledger."""

    players: list[Player]  # in the order a tie for a game's fee goes by
    points: dict[str, int]  # each player's points still to settle: won (+), lost (−)
    rate: Decimal
    games: list[tuple[int, dict[str, int]]]  # each counted game's number and nets, for the fee
    costs: dict[str, Decimal]  # what the shared costs make each owed (+) or owe (−)


@dataclass(frozen=True, slots=True)
class Plan:
    """The settle-up: each party's baht, the fee and rounding lines, the transfers."""

    held: dict[str, Decimal]  # after every line, rounding included
    lines: list[rules.Line]  # fee and rounding, the lines the close writes
    payments: list[rules.Payment]
    carrier: str | None


def night_money(
    night: Night,
    points: dict[str, int],
    players: Sequence[Player],
    *,
    costs: dict[str, Decimal] | None = None,
    games: bool = True,
) -> NightMoney:
    """Read the night: `points` each player's balance in points, `players` as the close orders
    them, `costs` what shared costs make each owed or owe if the caller read it (`costs_of`);
    `games`: read each game's nets too, which a table fee per game needs."""
    return NightMoney(
        players=list(players),
        points=points,
        rate=night.point_value,
        games=_game_nets(night, players) if games else [],
        costs=rules.nets(standing_lines(night, MoneyLine.Item.COST)) if costs is None else costs,
    )


def cost_annotations(night: Night, player: str = "player") -> dict[str, Any]:
    """Annotations of a query of the night's players (`player`: the field naming each) with
    what standing shared costs make them owe (`costs_owed`) and be owed (`costs_due`), so a
    page reads them with its players, in the same statement (`costs_of` sums them up)."""
    lines = MoneyLine.objects.standing().filter(night=night, item=MoneyLine.Item.COST)
    owed = lines.filter(payer=OuterRef(player)).values("payer").annotate(total=Sum("baht"))
    due = lines.filter(payee=OuterRef(player)).values("payee").annotate(total=Sum("baht"))
    money = DecimalField(max_digits=12, decimal_places=2)
    return {
        "costs_owed": Subquery(owed.values("total"), output_field=money),
        "costs_due": Subquery(due.values("total"), output_field=money),
    }


def costs_of(row: Any) -> Decimal:
    """A player's net from shared costs, from a row annotated by `cost_annotations`."""
    return (row.costs_due or Decimal(0)) - (row.costs_owed or Decimal(0))


def needs_games(choices: Choices) -> bool:
    """Whether the settle-up needs each game's nets: for a table fee per game."""
    return bool(choices.fee) and choices.fee_per == Night.FeePer.GAME


def plan(money: NightMoney, choices: Choices) -> Plan:
    """Who pays whom in baht, with the night's costs and the chosen fee and rounding."""
    names = [p.name for p in money.players]
    fee_to = rules.HOUSE if choices.fee_to is None else choices.fee_to.name
    fees = rules.table_fees(choices.fee, choices.fee_per, fee_to, names, money.games)
    held = rules.positions(money.points, money.rate, fees, money.costs)
    carrier = choices.rounding_by.name if choices.rounding_by else rules.biggest_winner(held)
    if carrier is None:
        return Plan(held, fees, [], None)
    rounding = rules.rounding(held, choices.rounding, carrier)
    held = rules.positions(money.points, money.rate, [*fees, *rounding], money.costs)
    hub = choices.hub.name if choices.hub else None
    payments = rules.plan(held, mode=choices.mode, hub=hub, carrier=carrier)
    return Plan(held, [*fees, *rounding], payments, carrier)


def standing_lines(night: Night, *items: str) -> list[rules.Line]:
    """The night's money lines of `items` that stand (reversals applied), as rules.settle_up
    reads them."""
    lines = MoneyLine.objects.standing().filter(night=night, item__in=items)
    return [
        rules.Line(
            _party(line.payer), _party(line.payee), line.baht, line.item, line.reason
        )  # fmt: skip
        for line in in_id_order(lines.select_related("payer", "payee"))
    ]


def _party(player: Player | None) -> str:
    return rules.HOUSE if player is None else player.name


def written(night: Night) -> list[rules.Line]:
    """The fee and rounding lines the close wrote, as they stand."""
    return standing_lines(night, MoneyLine.Item.FEE, MoneyLine.Item.ROUNDING)


def _game_nets(night: Night, players: Sequence[Player]) -> list[tuple[int, dict[str, int]]]:
    """Each counted game's number and what each player won or lost in it: a Knock Dummy game's
    standing nets, a score sheet hand's scores. A night closed by every line as booked
    (Night.NetsReading.BOOKED) is read so, as its fee lines were charged."""
    name = {p.pk: p.name for p in players}
    counted = night.games.counted()
    if night.is_scoresheet:
        hands = counted.order_by("number").values_list("number", "scores")
        return [(number, dict(scores or {})) for number, scores in hands]
    booked = not night.is_open and night.nets_reading == Night.NetsReading.BOOKED
    # One statement: a counted game's number is its own (one_standing_game_per_number); a game
    # with no line standing wins nothing, so pays no fee, and is left out.
    nets = LedgerLine.objects.game_nets(
        night, games=counted.values_list("pk", flat=True), by="game__number", booked=booked
    )
    return [
        (number, {name.get(p, str(p)): n for p, n in nets[number].items()})
        for number in sorted(nets)
    ]


def for_money(night: Night) -> bool:
    """Whether the night is for money: Knock Dummy (a point value of 0 settles nothing), or
    Gong Zhu with a point value; classic Dummy is a score sheet alone."""
    gong_zhu = night.ruleset == Night.Ruleset.GONG_ZHU
    return not night.is_scoresheet or (gong_zhu and bool(night.point_value))
