"""The file's group, its players and its memberships: each written beside where it is read. Every
name is read cleaned as a name typed at the table is (rules.names)."""

from typing import Any

from scorekeeper.models import Group, Membership, Player
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
    """Insert the players, each by the name the rest of the file knows them by, stored cleaned:
    a name recorded before names were cleaned (a zero-width space pasted in it) comes in as it
    would be typed today, and the file's documents are read naming it so (fields.renamed)."""
    players: dict[str, Player] = {}
    cleaned_from: dict[str, str] = {}  # each name as stored: the file's name it was read from
    for i, raw in enumerate(load_list(data, "players", "")):
        where = f"players[{i}]"
        recorded: str = load(raw, "name", str, where)
        who = load_name(raw, where)
        if recorded in players:
            raise malformed(f"{where}.name", f"repeats {recorded!r}")
        if who in cleaned_from:
            raise malformed(
                f"{where}.name",
                f"is {recorded!r}, which reads as {cleaned_from[who]!r} does ({who!r}): typed "
                "today, the two would be one player",
            )
        cleaned_from[who] = recorded
        at = load_when(raw, "created_at", where)
        players[recorded] = valid(Player(group=group, name=who, key=who, created_at=at), where)
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
                    name=load_name(raw, where, blank=True),  # left empty, as the join form lets it
                    role=load(raw, "role", str, where),
                    joined_at=load_when(raw, "joined_at", where),
                    revoked_at=load_time(raw, "revoked_at", where, null=True),
                ),
                where,
            )
        )
    Membership.objects.bulk_create(members)
    return members
