"""A night's money summed up player by player (rules.settle_up.sums): the games at the night's
point value, what was handed over at the table, the shared costs, the table fee (ต๋ง) and the
rounding, adding up to what each pays or receives; and the same in words a table checks at a
glance: "เกม +800 ฿ − ต๋ง 100 ฿ − ปัดเศษ 20 ฿ = รับ 680 ฿". The one reader every page that sums up a
night's money uses (the settle-up, the summary, its share text, its card, the share link).

A closed night is read as its close wrote it: the standing fee and rounding lines. An open night
is planned as the close would plan it now, with the group's usual fee and rounding (กติกาประจำก๊วน,
as services.group_rules reads them: the caller passes them in), which the pages say are assumed:
the host chooses them at the close.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper.models import Night, Player, payee_name
from scorekeeper.reads.board import Row
from scorekeeper.reads.money import Choices, Close, needs_games, night_money, plan, written
from scorekeeper.rules import settle_up as rules
from scorekeeper.templatetags.score import baht_text, signed_baht

PARTS = ("at_table", "costs", "fee", "rounding")  # the parts a night may have besides its games


@dataclass(frozen=True, slots=True)
class Sums:
    """Each party's sum (the house last, if a fee goes to it) and what the sums go by."""

    rows: list[rules.Sum]
    choices: Choices  # the fee and rounding: as the close chose, or assumed
    assumed: bool  # an open night: the group's usual fee and rounding, charged at the close
    payments: list[rules.Payment]  # an open night's transfers if it closed now; closed: none

    @property
    def parts(self) -> list[str]:
        """The parts some party has (a part nobody has is left off the page)."""
        return [part for part in PARTS if any(getattr(row, part) for row in self.rows)]


def running_choices(usual: Close | None, players: Sequence[Player]) -> Choices:
    """The choices an open night's running settle-up assumes: the group's usual close (`usual`),
    a player it names only if at this table; none kept, the close's own defaults."""
    return Choices() if usual is None else usual.choices(players)


def night_sums(
    night: Night,
    players: Sequence[Player],
    nets: Mapping[str, int],
    balances: Mapping[str, int],
    costs: Mapping[str, Decimal],
    *,
    usual: Close | None,
) -> Sums:
    """Sum up the night's money for each of `players` (in the order shown): `nets` what the
    games made each win or lose in points, `balances` what is left to settle in points (the
    nets less what was handed over at the table), `costs` what shared costs make each owed (+)
    or owe (−), as the scoreboard reads them from the standing ledger; `usual` the group's usual
    close, which an open night assumes."""
    names = [p.name for p in players]
    if night.is_open:
        choices = running_choices(usual, players)
        money = night_money(
            night, dict(balances), players, costs=dict(costs),
            games=needs_games(choices),
        )  # fmt: skip
        planned = plan(money, choices)
        rows = rules.sums(
            names, nets, balances, night.point_value, costs, planned.lines, planned.carrier
        )
        return Sums(rows, choices, assumed=True, payments=planned.payments)
    lines = written(night)
    by_id = {p.pk: p for p in players}
    carrier = by_id[night.rounding_by_id].name if night.rounding_by_id in by_id else None
    if carrier is None:  # as the close chose it: the biggest winner after the fee
        fees = [line for line in lines if line.item == rules.FEE]
        carrier = rules.biggest_winner(
            rules.positions(dict(balances), night.point_value, fees, costs)
        )
    rows = rules.sums(names, nets, balances, night.point_value, costs, lines, carrier)
    choices = Choices(
        fee=night.fee, fee_per=night.fee_per, fee_to=by_id.get(night.fee_to_id or 0),
        rounding=night.rounding, rounding_by=by_id.get(night.rounding_by_id or 0),
    )  # fmt: skip
    return Sums(rows, choices, assumed=False, payments=[])


def board_sums(night: Night, board: list[Row], usual: Close | None) -> Sums:
    """The night's sums for the scoreboard's players, in its order."""
    return night_sums(
        night,
        [row.player for row in board],
        {row.player.name: row.net for row in board},
        {row.player.name: row.balance for row in board},
        {row.player.name: row.costs for row in board},
        usual=usual,
    )


def settle_now(money: Sums, players: list[Player]) -> list[dict[str, Any]]:
    """Who would pay whom if the night closed now: the transfers of the night's sums so far,
    with the group's usual fee and rounding assumed. Closing the night stores them, with the
    table fee and rounding the host chooses then."""
    by_name = {p.name: p for p in players}
    return [
        {
            "payer": t.payer,
            "payee": payee_name(by_name.get(t.payee)),
            "baht": t.baht,
            "baht_text": baht_text(t.baht),  # written once, for its text and its data attribute
        }
        for t in money.payments
    ]


def _labels() -> dict[str, str]:
    return {
        "at_table": pgettext("money sum", "at the table"),
        "costs": pgettext("money sum", "shared costs"),
        "fee": pgettext("money sum", "fee"),
        "rounding": pgettext("money sum", "rounding"),
    }


def total_text(total: Decimal) -> str:
    """What a party pays or receives in all: "รับ 680 ฿", "จ่าย 240 ฿", "0 ฿"."""
    if total > 0:
        return pgettext("money sum", "receives %(baht)s ฿") % {"baht": baht_text(total)}
    if total < 0:
        return pgettext("money sum", "pays %(baht)s ฿") % {"baht": baht_text(-total)}
    return "0 ฿"


@dataclass(frozen=True)
class SumLine:
    """One party's sum in words: its name, its parts in order, what it comes to."""

    name: str
    house: bool
    parts: list[str]
    total: Decimal
    total_text: str

    @property
    def equation(self) -> str:
        """The parts and the total: "เกม +800 ฿ − ต๋ง 100 ฿ = รับ 680 ฿"."""
        return f"{' '.join(self.parts)} = {self.total_text}"

    @property
    def text(self) -> str:
        return f"{self.name}: {self.equation}"


def sum_line(row: rules.Sum) -> SumLine:
    """Write a party's sum: the games (a player's) with their sign, then each other part it
    has, with + or −, every figure in baht."""
    labels = _labels()
    house = row.name == rules.HOUSE
    games = pgettext("money sum", "games %(baht)s ฿") % {"baht": signed_baht(row.game)}
    parts = [] if house else [games]
    for part in PARTS:
        amount: Decimal = getattr(row, part)
        if not amount:
            continue
        sign = "+" if amount > 0 else "−"
        figure = f"{labels[part]} {baht_text(abs(amount))} ฿"
        parts.append(f"{sign} {figure}" if parts or amount < 0 else figure)
    name = payee_name(None) if house else row.name
    return SumLine(name, house, parts, row.total, total_text(row.total))


def assumed_text(money: Sums) -> str:
    """Say which fee and rounding an open night's running settle-up assumes, and that the close
    settles them: the group's usual ones (กติกาประจำก๊วน)."""
    choices = money.choices
    if choices.fee:
        to = payee_name(choices.fee_to)
        fee = (
            _("table fee %(baht)s ฿ a game from its winner, to %(to)s")
            if choices.fee_per == Night.FeePer.GAME
            else _("table fee %(baht)s ฿ a night from each player, to %(to)s")
        ) % {"baht": baht_text(choices.fee), "to": to}
    else:
        fee = _("no table fee")
    if choices.rounding:
        who = choices.rounding_by.name if choices.rounding_by else _("the night's biggest winner")
        rounding = _("rounded to %(step)s ฿, what is left to %(who)s") % {
            "step": choices.rounding,
            "who": who,
        }
    else:
        rounding = _("not rounded")
    return _(
        "Table fee and rounding as the group's own rules: %(fee)s; %(rounding)s. "
        "They are settled at the close."
    ) % {"fee": fee, "rounding": rounding}


def context(money: Sums) -> dict[str, Any]:
    """The sums for a template: each party's line, and on an open night what they assume."""
    return {
        "sums": [sum_line(row) for row in money.rows],
        "sums_assumed": assumed_text(money) if money.assumed else "",
    }
