"""The night's settle-up in baht: read what the night holds, plan who pays
whom with its shared costs, table fee and rounding (rules.settle_up), and, at the close, write
the fee and rounding lines and the transfers. Both kinds of night for money use it: Knock Dummy
and Gong Zhu."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import DecimalField, OuterRef, Subquery, Sum

from scorekeeper.models import (
    LedgerLine,
    Membership,
    MoneyLine,
    Night,
    Player,
    Standing,
    Transfer,
)
from scorekeeper.rules import settle_up as rules
from scorekeeper.rules.money import BAHT_MOST, LEDGER_MOST, baht, fits_ledger
from scorekeeper.services.errors import ServiceError


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


CHOSEN = ["fee", "fee_per", "fee_to", "rounding", "rounding_by", "nets_reading"]  # `write` sets


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
        costs=rules.nets(_lines(night, MoneyLine.Item.COST)) if costs is None else costs,
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


def check(choices: Choices, players: Sequence[Player]) -> None:
    """Refuse choices that name someone not at the table, or a fee or step not allowed."""
    seated = {p.pk for p in players}
    if choices.mode == Transfer.Mode.HUB and (choices.hub is None or choices.hub.pk not in seated):
        raise ServiceError("hub", "choose who everyone settles with", field="hub")
    if choices.mode not in Transfer.Mode.values:
        raise ServiceError("mode", "unknown settle-up mode", field="mode")
    for who, name in ((choices.fee_to, "fee_to"), (choices.rounding_by, "rounding_by")):
        if who is not None and who.pk not in seated:
            raise ServiceError("not-seated", "{name} is not at this table", field=name, name=who)
    if choices.rounding not in rules.STEPS:
        raise ServiceError("rounding", "round to 1, 5, 10 or 20 baht, or not at all")
    if choices.fee_per not in Night.FeePer.values:
        raise ServiceError("fee-per", "a table fee is per game or per night", field="fee_per")
    if choices.fee < 0 or choices.fee != choices.fee.quantize(Decimal("0.01")):
        raise ServiceError("fee", "a table fee is 0 baht or more, to the satang", field="fee")
    if choices.fee > BAHT_MOST:  # what a real table charges: a night of it fits the ledger
        raise ServiceError(
            "fee-most", "a table fee is at most {n} baht", field="fee", n=f"{BAHT_MOST:,}"
        )


def write(
    night: Night,
    money: NightMoney,
    choices: Choices,
    actor: Membership | None,
) -> list[Transfer]:
    """At the close: store the fee and rounding lines and the transfers; set the choices on
    `night`, for the caller to save with its closing."""
    check(choices, money.players)
    settled = plan(money, choices)
    for who, amount in [*settled.held.items(), *((t.payer, t.baht) for t in settled.payments)]:
        if not fits_ledger(amount):  # a transfer holds 12 digits: the fee took a total past
            raise _past_ledger(who)
    by_name = {p.name: p for p in money.players}
    MoneyLine.objects.bulk_create(
        MoneyLine(
            group_id=night.group_id,
            night=night,
            payer=by_name[line.payer],
            payee=by_name.get(line.payee),
            baht=line.baht,
            item=line.item,
            reason=line.reason,
            by=actor,
        )  # fmt: skip
        for line in settled.lines
    )
    night.fee, night.fee_per, night.fee_to = choices.fee, choices.fee_per, choices.fee_to
    night.rounding = choices.rounding
    night.nets_reading = Night.NetsReading.STANDING  # the fee went by the standing nets
    night.rounding_by = by_name[settled.carrier] if choices.rounding and settled.carrier else None
    return Transfer.objects.bulk_create(
        Transfer(
            night=night,
            payer=by_name[t.payer],
            payee=by_name.get(t.payee),
            baht=t.baht,
            mode=choices.mode,
        )  # fmt: skip
        for t in settled.payments
    )


def ledger_check(night: Night, nets: Mapping[int, int] | None = None) -> None:
    """Refuse a write that takes a player's total past what the ledger holds (rules.settle_up:
    `past_ledger`), for the caller's transaction to roll back. `nets`: the running totals a
    game or hand just changed, which spare reading the night while they are far from it."""
    rate = night.point_value
    if nets is not None and (
        not rate or baht(max(map(abs, nets.values()), default=0), rate) <= LEDGER_MOST / 2
    ):
        return  # far from it: the costs may hold the other half
    standings = Standing.objects.filter(night=night).values_list("player__name", "net")
    who = rules.past_ledger(dict(standings), rate, rules.nets(_lines(night, MoneyLine.Item.COST)))
    if who is not None:
        raise _past_ledger(who)


def _past_ledger(who: str) -> ServiceError:
    return ServiceError(
        "ledger-full", "this would take {name}'s total past what the ledger holds ({most} baht)",
        name=who, most=f"{LEDGER_MOST:,}",
    )  # fmt: skip


def _lines(night: Night, *items: str) -> list[rules.Line]:
    lines = MoneyLine.objects.standing().filter(night=night, item__in=items)
    return [
        rules.Line(
            _party(line.payer), _party(line.payee), line.baht, line.item, line.reason
        )  # fmt: skip
        for line in lines.select_related("payer", "payee")
    ]


def _party(player: Player | None) -> str:
    return rules.HOUSE if player is None else player.name


def written(night: Night) -> list[rules.Line]:
    """The fee and rounding lines the close wrote, as they stand."""
    return _lines(night, MoneyLine.Item.FEE, MoneyLine.Item.ROUNDING)


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
