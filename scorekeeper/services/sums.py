"""A night's money summed up player by player (rules.settle_up.sums): the games at the night's
point value, what was handed over at the table, the shared costs, the table fee (ต๋ง) and the
rounding, adding up to what each pays or receives. The one reader every page that sums up a
night's money uses (the settle-up, the summary, its text, its card, the share link).

A closed night is read as its close wrote it: the standing fee and rounding lines. An open night
is planned as the close would plan it now, with the group's usual fee and rounding (กติกาประจำก๊วน),
which the pages say are assumed: the host chooses them at the close.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from scorekeeper.models import Night, Player
from scorekeeper.rules import settle_up as rules
from scorekeeper.services import group_rules, settle_up

PARTS = ("at_table", "costs", "fee", "rounding")  # the parts a night may have besides its games


@dataclass(frozen=True, slots=True)
class Sums:
    """Each party's sum (the house last, if a fee goes to it) and what the sums go by."""

    rows: list[rules.Sum]
    choices: settle_up.Choices  # the fee and rounding: as the close chose, or assumed
    assumed: bool  # an open night: the group's usual fee and rounding, charged at the close
    payments: list[rules.Payment]  # an open night's transfers if it closed now; closed: none

    @property
    def parts(self) -> list[str]:
        """The parts some party has (a part nobody has is left off the page)."""
        return [part for part in PARTS if any(getattr(row, part) for row in self.rows)]


def running_choices(night: Night, players: Sequence[Player]) -> settle_up.Choices:
    """The choices an open night's running settle-up assumes: the group's usual close, a player
    it names only if at this table; none kept, the close's own defaults."""
    close = group_rules.usual_of(night.group).close
    return settle_up.Choices() if close is None else close.choices(players)


def night_sums(
    night: Night,
    players: Sequence[Player],
    nets: Mapping[str, int],
    balances: Mapping[str, int],
    costs: Mapping[str, Decimal],
) -> Sums:
    """Sum up the night's money for each of `players` (in the order shown): `nets` what the
    games made each win or lose in points, `balances` what is left to settle in points (the
    nets less what was handed over at the table), `costs` what shared costs make each owed (+)
    or owe (−), as the scoreboard reads them from the standing ledger."""
    names = [p.name for p in players]
    if night.is_open:
        choices = running_choices(night, players)
        money = settle_up.night_money(
            night, dict(balances), players, costs=dict(costs),
            games=settle_up.needs_games(choices),
        )  # fmt: skip
        plan = settle_up.plan(money, choices)
        rows = rules.sums(names, nets, balances, night.point_value, costs, plan.lines, plan.carrier)
        return Sums(rows, choices, assumed=True, payments=plan.payments)
    lines = settle_up.written(night)
    by_id = {p.pk: p for p in players}
    carrier = by_id[night.rounding_by_id].name if night.rounding_by_id in by_id else None
    if carrier is None:  # as the close chose it: the biggest winner after the fee
        fees = [line for line in lines if line.item == rules.FEE]
        carrier = rules.biggest_winner(
            rules.positions(dict(balances), night.point_value, fees, costs)
        )
    rows = rules.sums(names, nets, balances, night.point_value, costs, lines, carrier)
    choices = settle_up.Choices(
        fee=night.fee, fee_per=night.fee_per, fee_to=by_id.get(night.fee_to_id or 0),
        rounding=night.rounding, rounding_by=by_id.get(night.rounding_by_id or 0),
    )  # fmt: skip
    return Sums(rows, choices, assumed=False, payments=[])
