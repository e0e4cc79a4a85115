"""A night as it is shared: its summary (each player's sum, who pays whom and where they are paid,
the number of games), the same as plain text for the group's chat, and as the card's data."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.card import NightCard
from scorekeeper.models import Night
from scorekeeper.reads import pay, sums
from scorekeeper.reads.board import scoreboard
from scorekeeper.reads.money import Close
from scorekeeper.reads.settle import transfer_rows
from scorekeeper.templatetags.score import baht_text, date_text, signed_baht


def night_summary(night: Night, usual: Close | None) -> dict[str, Any]:
    """What a shared night shows: the nets, who pays whom (fixed once closed, else as it would
    be now, with `usual`, the group's usual close), the number of games, and the same as plain
    text and as a card."""
    board = scoreboard(night)
    money = sums.board_sums(night, board, usual)  # each player's money, part by part
    if night.is_open:
        transfers = [
            {**t, "paid": False, "carried": False, "changed": None}
            for t in sums.settle_now(money, [r.player for r in board])
        ]
    else:
        transfers = [
            {
                "payer": row["transfer"].payer.name,
                "payee": row["transfer"].payee_name,
                "baht": row["baht"],
                "paid": row["paid"],
                "carried": row["carried"],
                # The payee's number changed since the close: everyone is told, here too.
                "changed": pay.changed(row["transfer"].payee, row["transfer"].created_at),
            }
            for row in transfer_rows(night)
        ]
    players = {r.player.name: r.player for r in board}
    for t in transfers:  # where the payee is paid, as anyone may read it (an id masked)
        payee = players.get(t["payee"])
        t["promptpay"] = pay.shown_target(payee, None) if payee and payee.promptpay else ""
    games = night.games.counted().count()
    shown = sums.context(money)
    return {
        "night": night,
        "board": board,
        **shown,
        "transfers": transfers,
        "games": games,
        "share": share_text(night, shown, transfers, games),
    }


def games_text(games: int) -> str:
    return ngettext("%(n)s game", "%(n)s games", games) % {"n": games}


def share_text(
    night: Night, shown: dict[str, Any], transfers: list[dict[str, Any]], games: int
) -> str:
    """The night as plain text for the group's chat: the date in the Buddhist Era, the games,
    each player's sum (reads.sums: the games, costs, fee and rounding, what they pay or
    receive) and who pays whom, in whole baht where they are whole."""
    lines = [
        f"{_('Scorekeeper')} · {night.group.name}",
        f"{date_text(night.started_at)} · {games_text(games)}",
    ]
    lines += [line.text for line in shown["sums"]]
    if shown["sums_assumed"]:
        lines.append(shown["sums_assumed"])
    if transfers:
        lines.append(_("Who pays whom:"))
    for t in transfers:
        tick = " ✓" if t["paid"] else f" ({_('carried to next time')})" if t["carried"] else ""
        to = f" · {_('PromptPay')} {t['promptpay']}" if t["promptpay"] else ""
        lines.append(f"{t['payer']} → {t['payee']}: {baht_text(t['baht'])} ฿{to}{tick}")
    return "\n".join(lines)


def night_card(context: dict[str, Any]) -> NightCard:
    """The summary (`night_summary`) as the card draws it."""
    night: Night = context["night"]
    return NightCard(
        title=night.group.name,
        date_text=date_text(night.started_at),
        games_text=games_text(context["games"]),
        nets_heading=_("What each pays or receives"),
        nets=tuple(
            (line.name, f"{signed_baht(line.total)} ฿", (*line.parts, f"= {line.total_text}"))
            for line in context["sums"]
        ),
        nets_note=context["sums_assumed"],  # an open night's totals take the usual fee as due
        transfers_heading=_("Who pays whom"),
        transfers=tuple(
            (t["payer"], t["payee"], f"{baht_text(t['baht'])} ฿") for t in context["transfers"]
        ),
        footer=_("Scorekeeper"),
    )
