"""The group's audit trail: who did what, to which night or game, when."""

from typing import Any

from scorekeeper.models import AuditEntry, Game, Group, Membership, Night, Player
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_list,
    load_ref,
    load_when,
    malformed,
    renamed,
    renames,
    valid,
)


def dump_entry(
    entry: AuditEntry,
    *,
    night_at: dict[int, int],
    game_at: dict[int, int],
    member_at: dict[int, int],
) -> dict[str, Any]:
    return {
        "action": entry.action,
        "detail": entry.detail,
        "at": dump_time(entry.at),
        "session": night_at[entry.night_id] if entry.night_id else None,
        "game": game_at[entry.game_id] if entry.game_id else None,
        "membership": member_at[entry.membership_id] if entry.membership_id else None,
    }


def load_audit(
    data: dict[str, Any],
    group: Group,
    nights: list[Night],
    games: list[list[Game]],
    members: list[Membership],
    players: dict[str, Player],
) -> None:
    """Insert the audit trail, each entry naming the players as stored, as their games do."""
    stored_as = renames(players)
    entries = []
    for i, raw in enumerate(load_list(data, "audit", "")):
        where = f"audit[{i}]"
        night_at = load(raw, "session", int, where, null=True)
        game = None
        if night_at is not None:
            load_ref(raw, "session", nights, where)
            game = load_ref(raw, "game", games[night_at], where)
        elif load(raw, "game", int, where, null=True) is not None:
            raise malformed(f"{where}.game", "needs the night it belongs to")
        entries.append(
            valid(
                AuditEntry(
                    group=group,
                    night=nights[night_at] if night_at is not None else None,
                    game=game,
                    membership=load_ref(raw, "membership", members, where),
                    action=load(raw, "action", str, where),
                    detail=renamed(load(raw, "detail", dict, where), stored_as),
                    at=load_when(raw, "at", where),
                ),
                where,
            )
        )
    AuditEntry.objects.bulk_create(entries)
