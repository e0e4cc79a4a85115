"""The night's settle-up in baht: what each player won or lost in points at the
night's point value, with the night's baht lines (shared costs, the table fee ต๋ง, rounding), and
the transfers that settle it, to the satang.

Parties are player names; the house (which a table fee may go to) is `HOUSE`, a name no player can
have. Amounts are `Decimal` baht with two places; the transfers are planned in whole satang.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from scorekeeper.rules import transfers
from scorekeeper.rules.money import LEDGER_MOST, SATANG, baht, fits_ledger

HOUSE = ""  # the house: a player needs a name, so no player is called this

COST = "cost"  # a shared cost (ค่าใช้จ่ายร่วม): food, drinks
FEE = "fee"  # the table fee (ต๋ง)
ROUNDING = "rounding"  # the residue of rounding the transfers (เศษจากการปัด)

PER_GAME = "game"  # the fee: from each game's winner
PER_NIGHT = "night"  # the fee: from every player, once

STEPS = (0, 1, 5, 10, 20)  # rounding steps in whole baht; 0: exact, to the satang

FEWEST = "fewest"
HUB = "hub"


@dataclass(frozen=True, slots=True)
class Line:
    """A line of baht owed: payer → payee, for `item` (cost, fee or rounding), with its reason: a
    cost's what, a fee's game number (none: the night's fee)."""

    payer: str
    payee: str
    baht: Decimal
    item: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of the settle-up, in baht."""

    payer: str
    payee: str
    baht: Decimal


def shares(total: Decimal, paid_by: str, among: Sequence[str], reason: str) -> list[Line]:
    """Split a shared cost that `paid_by` paid among `among`: each owes them an equal share, to the
    satang; the one who paid bears the satang left over when it does not divide (as at a table).
    """
    _check_baht(total)
    if not among or len(set(among)) != len(among):
        raise ValueError("a shared cost is shared among one or more different players")
    share = (total / len(among)).quantize(SATANG, rounding=ROUND_DOWN)
    return [Line(p, paid_by, share, COST, reason) for p in among if p != paid_by and share > 0]


def table_fees(
    fee: Decimal,
    per: str,
    to: str,
    players: Sequence[str],
    game_nets: Iterable[tuple[int, Mapping[str, int]]],
) -> list[Line]:
    """The table fee (ต๋ง) to `to` (a player or HOUSE): once from every player, or from the winner
    of each game (`game_nets`: each game's number and net per player). A game's winner is who won
    the most points in it, the earliest in `players` on a tie; a game nobody won pays no fee. The
    fee's payee pays no fee to themselves."""
    if fee == 0:
        return []
    _check_baht(fee)
    if per == PER_NIGHT:
        return [Line(p, to, fee, FEE) for p in players if p != to]
    if per != PER_GAME:
        raise ValueError(f"a fee is per {PER_GAME!r} or per {PER_NIGHT!r}, not {per!r}")
    lines = []
    for number, nets in game_nets:
        best = max((nets.get(p, 0) for p in players), default=0)
        winner = next((p for p in players if nets.get(p, 0) == best), None)
        if best > 0 and winner is not None and winner != to:
            lines.append(Line(winner, to, fee, FEE, str(number)))
    return lines


def positions(
    points: Mapping[str, int],
    rate: Decimal,
    lines: Iterable[Line],
    start: Mapping[str, Decimal] | None = None,
) -> dict[str, Decimal]:
    """Each party's baht: won (+) or lost (−) in points at `rate`, `start` (baht already owed
    to (+) or by (−) each, as `nets` sums lines), and the lines' baht."""
    held = {name: baht(net, rate) for name, net in points.items()}
    for name, amount in (start or {}).items():
        held[name] = held.get(name, Decimal(0)) + amount
    for name, amount in nets(lines).items():
        held[name] = held.get(name, Decimal(0)) + amount
    return held


def past_ledger(
    points: Mapping[str, int], rate: Decimal, costs: Mapping[str, Decimal]
) -> str | None:
    """Return a party whose total the ledger could not hold, or None: their points in baht, their
    shared costs, or both together past a transfer's 12 digits. Shared costs may take half of it,
    so that games whose points stay within the other half need no look at the costs."""
    for name, net in points.items():
        if not fits_ledger(baht(net, rate)):
            return name
    for name, amount in costs.items():
        if abs(amount) > LEDGER_MOST / 2:
            return name
    held = positions(points, rate, [], costs)
    return next((name for name, amount in held.items() if not fits_ledger(amount)), None)


def nets(lines: Iterable[Line]) -> dict[str, Decimal]:
    """What the lines make each party owed (+) or owe (−)."""
    held: dict[str, Decimal] = {}
    for line in lines:
        held[line.payer] = held.get(line.payer, Decimal(0)) - line.baht
        held[line.payee] = held.get(line.payee, Decimal(0)) + line.baht
    return held


def biggest_winner(held: Mapping[str, Decimal]) -> str | None:
    """The player with the most baht to receive (the earliest name on a tie); None if nobody."""
    players = sorted(name for name in held if name != HOUSE)
    return max(players, key=lambda name: held[name], default=None)


def rounding(held: Mapping[str, Decimal], step: int, carrier: str) -> list[Line]:
    """Round every player's baht but the carrier's to `step` whole baht (half up, 0: leave it), each
    residue a line with the carrier, who so carries it all.

    The house is not rounded: a fee is paid as it is. When a point value of more than two places
    leaves the rounded points a satang or two from zero, the carrier takes that too (`plan`).
    """
    if step not in STEPS:
        raise ValueError(f"a rounding step is one of {STEPS}, not {step!r}")
    if not step:
        return []
    unit = Decimal(step)
    lines = []
    for name in sorted(held):
        if name in (carrier, HOUSE):
            continue
        kept = (held[name] / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * unit
        residue = held[name] - kept
        if residue > 0:
            lines.append(Line(name, carrier, residue, ROUNDING))
        elif residue < 0:
            lines.append(Line(carrier, name, -residue, ROUNDING))
    return lines


def plan(
    held: Mapping[str, Decimal], *, mode: str = FEWEST, hub: str | None = None, carrier: str
) -> list[Payment]:
    """The transfers that settle `held` (as `positions` returns it, rounding lines included): the
    fewest, or everyone with `hub`. The carrier's is what makes the night sum to zero."""
    satang = {name: _satang(amount) for name, amount in held.items()}
    if carrier not in satang:
        satang[carrier] = 0
    satang[carrier] -= sum(satang.values())
    if mode == HUB:
        if hub is None:
            raise ValueError("settling through one player needs the hub")
        chosen = transfers.hub_transfers(satang, hub)
    elif mode == FEWEST:
        chosen = transfers.fewest_transfers(satang)
    else:
        raise ValueError(f"unknown settle-up mode {mode!r}")
    return [Payment(t.payer, t.payee, Decimal(t.amount) * SATANG) for t in chosen]


@dataclass(frozen=True, slots=True)
class Sum:
    """One party's money of the night as a table checks it, in baht: the games (points at the
    night's value), what was handed over at the table already, the shared costs (what they paid
    for others less their own share), the fee, the rounding; `total` is what the transfers pay
    them (+) or have them pay (−). The house has a fee alone."""

    name: str
    game: Decimal
    at_table: Decimal
    costs: Decimal
    fee: Decimal
    rounding: Decimal

    @property
    def total(self) -> Decimal:
        return self.game + self.at_table + self.costs + self.fee + self.rounding


def sums(
    players: Sequence[str],
    won: Mapping[str, int],
    balances: Mapping[str, int],
    rate: Decimal,
    costs: Mapping[str, Decimal],
    lines: Iterable[Line],
    carrier: str | None,
) -> list[Sum]:
    """Each player's money of the night part by part (`Sum`), then the house if a fee goes to
    it: `won` what the games made each win or lose in points, `balances` what is left to settle
    after what was handed over at the table, `lines` the fee and rounding lines. The carrier's
    rounding takes the satang that the points' rounding leaves the night from zero, as `plan`
    has them pay it, so each total is what the transfers make it."""
    lines = list(lines)
    fee = nets(line for line in lines if line.item == FEE)
    rounded = nets(line for line in lines if line.item == ROUNDING)
    held = positions(balances, rate, lines, costs)
    left = -sum(_satang(amount) for amount in held.values()) * SATANG
    zero = Decimal("0.00")
    rows = []
    for name in players:
        game = baht(won.get(name, 0), rate)
        rows.append(
            Sum(
                name=name,
                game=game,
                at_table=baht(balances.get(name, 0), rate) - game,
                costs=costs.get(name, zero),
                fee=fee.get(name, zero),
                rounding=rounded.get(name, zero) + (left if name == carrier else zero),
            )
        )
    if fee.get(HOUSE):
        rows.append(Sum(HOUSE, zero, zero, zero, fee[HOUSE], zero))
    return rows


def left_over(held: Mapping[str, Decimal], paid: Iterable[Payment], carrier: str) -> list[str]:
    """The parties `paid` does not settle exactly (the audit's check of a closed night)."""
    after: Counter[str] = Counter({name: _satang(amount) for name, amount in held.items()})
    after[carrier] -= sum(after.values())
    for payment in paid:
        after[payment.payer] += _satang(payment.baht)
        after[payment.payee] -= _satang(payment.baht)
    return sorted(name for name, left in after.items() if left)


def _satang(amount: Decimal) -> int:
    return int((amount / SATANG).to_integral_value(rounding=ROUND_HALF_UP))


def _check_baht(amount: Decimal) -> None:
    if not isinstance(amount, Decimal):
        raise TypeError("baht are a Decimal, never a float")
    if amount <= 0 or amount != amount.quantize(SATANG):
        raise ValueError("an amount is more than 0 baht, to the satang")
