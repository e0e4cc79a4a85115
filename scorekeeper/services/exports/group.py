"""The file's group, its players and its memberships: each written beside where it is read."""

from typing import Any

from scorekeeper.models import Group, Membership, Player
from scorekeeper.names import unique_key
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_list,
    load_name,
    load_time,
    load_when,
    malformed,
    valid,
)


def dump_group(group: Group) -> dict[str, Any]:
    return {"name": group.name, "created_at": dump_time(group.created_at)}


def load_group(data: dict[str, Any]) -> Group:
    raw_group = load(data, "group", dict, "")
    group = valid(
        Group(
            name=load_name(raw_group, "group"),
            created_at=load_when(raw_group, "created_at", "group"),
        ),
        "group",
    )
    group.save()
    return group


def dump_players(players: list[Player]) -> list[dict[str, Any]]:
    return [{"name": p.name, "created_at": dump_time(p.created_at)} for p in players]


def load_players(data: dict[str, Any], group: Group) -> dict[str, Player]:
    """Insert the players, each by the name the rest of the file knows them by."""
    players: dict[str, Player] = {}
    keys: set[str] = set()  # names are imported as recorded, each with a key of its own
    for i, raw in enumerate(load_list(data, "players", "")):
        where = f"players[{i}]"
        who = load_name(raw, where)
        if who in players:
            raise malformed(f"{where}.name", f"repeats {who!r}")
        at = load_when(raw, "created_at", where)
        player = Player(group=group, name=who, key=unique_key(who, keys), created_at=at)
        players[who] = valid(player, where)
    Player.objects.bulk_create(players.values())
    return players


def dump_memberships(members: list[Membership]) -> list[dict[str, Any]]:
    return [
        {
            "name": m.name,
            "role": m.role,
            "joined_at": dump_time(m.joined_at),
            "revoked_at": dump_time(m.revoked_at),
        }
        for m in members
    ]


def load_memberships(data: dict[str, Any], group: Group) -> list[Membership]:
    members = []
    for i, raw in enumerate(load_list(data, "memberships", "")):
        where = f"memberships[{i}]"
        members.append(
            valid(
                Membership(  # no device and no account: it lets nobody in, it names the audit's who
                    group=group,
                    name=load(raw, "name", str, where),
                    role=load(raw, "role", str, where),
                    joined_at=load_when(raw, "joined_at", where),
                    revoked_at=load_time(raw, "revoked_at", where, null=True),
                ),
                where,
            )
        )
    Membership.objects.bulk_create(members)
    return members
