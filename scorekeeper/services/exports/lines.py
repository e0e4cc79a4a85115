"""The points ledger: every line of every night, in the order written."""

from typing import Any

from scorekeeper.models import Event, Game, LedgerLine, Night, Player, Transfer
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_player,
    load_ref,
    load_when,
    malformed,
    valid,
)


def dump_line(
    line: LedgerLine,
    name: dict[int, str],
    *,
    night_at: dict[int, int],
    game_at: dict[int, int],
    event_at: dict[int, int],
    transfer_at: dict[int, int],
    line_at: dict[int, int],
) -> dict[str, Any]:
    return {
        "session": night_at[line.night_id],
        "game": game_at[line.game_id] if line.game_id else None,
        "event": event_at[line.event_id] if line.event_id else None,
        "transfer": transfer_at[line.transfer_id] if line.transfer_id else None,
        "payer": name[line.payer_id],
        "payee": name[line.payee_id],
        "amount": line.amount,
        "item": line.item,
        "rule": line.rule,
        "due": line.due,
        "instead_of": name[line.instead_of_id] if line.instead_of_id else None,
        "reverses": line_at[line.reverses_id] if line.reverses_id else None,
        "recorded_at": dump_time(line.recorded_at),
    }


def load_lines(
    raw_lines: list[Any],
    players: dict[str, Player],
    nights: list[Night],
    games: list[list[Game]],
    events: list[list[list[Event]]],
    transfers: list[list[Transfer]],
) -> None:
    """Insert the ledger in its original order; a reversal links to the recreated original."""
    written: list[LedgerLine] = []
    waiting: list[LedgerLine] = []
    for i, raw in enumerate(raw_lines):
        where = f"lines[{i}]"
        night_at = load(raw, "session", int, where)
        night = load_ref(raw, "session", nights, where, null=False)
        game_at = load(raw, "game", int, where, null=True)
        game = load_ref(raw, "game", games[night_at], where)
        event = None
        if load(raw, "event", int, where, null=True) is not None:
            if game_at is None:
                raise malformed(f"{where}.event", "needs the game it belongs to")
            event = load_ref(raw, "event", events[night_at][game_at], where)
        reverses = load_ref(raw, "reverses", written + waiting, where)
        if reverses is not None and reverses.pk is None:  # its original is still to be inserted
            LedgerLine.objects.bulk_create(waiting)  # in order, each row learning its new id
            written += waiting
            waiting = []
        waiting.append(
            valid(
                LedgerLine(
                    night=night,
                    game=game,
                    event=event,
                    transfer=load_ref(raw, "transfer", transfers[night_at], where),
                    payer=load_player(raw, "payer", players, where),
                    payee=load_player(raw, "payee", players, where),
                    amount=load(raw, "amount", int, where),
                    item=load(raw, "item", str, where),
                    rule=load(raw, "rule", str, where),
                    due=load(raw, "due", str, where),
                    instead_of=load_player(raw, "instead_of", players, where, null=True),
                    reverses=reverses,
                    recorded_at=load_when(raw, "recorded_at", where),
                ),
                where,
            )
        )
    LedgerLine.objects.bulk_create(waiting)
