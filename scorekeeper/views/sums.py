"""A night's money summed up per player, as words a table checks at a glance (services.sums):
"เกม +800 ฿ − ต๋ง 100 ฿ − ปัดเศษ 20 ฿ = รับ 680 ฿". The settle-up, the summary, its share text,
its card and the share link all write the sums through these."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper.models import Night, payee_name
from scorekeeper.rules import settle_up as rules
from scorekeeper.services import sums
from scorekeeper.templatetags.score import baht_text, signed_baht
from scorekeeper.views.board import Row


def board_sums(night: Night, board: list[Row]) -> sums.Sums:
    """The night's sums for the scoreboard's players, in its order (services.sums)."""
    return sums.night_sums(
        night,
        [row.player for row in board],
        {row.player.name: row.net for row in board},
        {row.player.name: row.balance for row in board},
        {row.player.name: row.costs for row in board},
    )


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
    for part in sums.PARTS:
        amount: Decimal = getattr(row, part)
        if not amount:
            continue
        sign = "+" if amount > 0 else "−"
        figure = f"{labels[part]} {baht_text(abs(amount))} ฿"
        parts.append(f"{sign} {figure}" if parts or amount < 0 else figure)
    name = payee_name(None) if house else row.name
    return SumLine(name, house, parts, row.total, total_text(row.total))


def assumed_text(money: sums.Sums) -> str:
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


def context(money: sums.Sums) -> dict[str, Any]:
    """The sums for a template: each party's line, and on an open night what they assume."""
    return {
        "sums": [sum_line(row) for row in money.rows],
        "sums_assumed": assumed_text(money) if money.assumed else "",
    }
