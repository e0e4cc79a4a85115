"""The file's group, its own rules, its players and its memberships: each written beside where it
is read. Every name is read cleaned as a name typed at the table is (rules.names)."""

from typing import Any

from scorekeeper.models import Group, Membership, Player
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_list,
    load_name,
    load_player,
    load_time,
    load_when,
    malformed,
    valid,
)
from scorekeeper.services.group_rules import NOT_PASSING, PARTS, part_checked

CLOSE_PLAYERS = ("hub", "fee_to", "rounding_by")  # the close's players: by id stored, by name here


def dump_group(group: Group, players: list[Player]) -> dict[str, Any]:
    return {
        "name": group.name,
        "created_at": dump_time(group.created_at),
        "usual": _dump_usual(group, players),
    }


def _dump_usual(group: Group, players: list[Player]) -> dict[str, Any]:
    """The group's own rules as it keeps them, each part that passes its checks (services/
    group_rules.py: the nights start from no other), the close's players by name."""
    stored = group.usual if isinstance(group.usual, dict) else {}
    usual = {}
    for part in PARTS:
        if part not in stored:
            continue
        try:
            usual[part] = part_checked(part, stored[part], players)
        except NOT_PASSING:  # no longer passing: the nights' own defaults stand in for it
            continue
    if "close" in usual:
        usual["close"] = _close_named(usual["close"], {p.pk: p.name for p in players})
    return usual


def _close_named(close: dict[str, Any], name: dict[int, str]) -> dict[str, Any]:
    return {**close, **{k: name[close[k]] for k in CLOSE_PLAYERS if close[k] is not None}}


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


def load_usual(data: dict[str, Any], group: Group, players: dict[str, Player]) -> None:
    """Keep the group's own rules, each part checked as a host's change is (services/
    group_rules.py) and written as an export writes it; an export of before they were kept
    (version 3 or earlier) has none."""
    usual = load(data["group"], "usual", dict, "group") if "usual" in data["group"] else {}
    unknown = sorted(set(usual) - set(PARTS))
    if unknown:
        raise malformed("group.usual", f"has parts a group's rules do not have: {unknown!r}")
    name = {p.pk: recorded for recorded, p in players.items()}  # as the file names them
    stored = {}
    for part in usual:
        where = f"group.usual.{part}"
        written = load(usual, part, dict, "group.usual")
        by_id = written
        if part == "close":  # its players by id, as the group keeps them
            named = {k: load_player(written, k, players, where, null=True) for k in CLOSE_PLAYERS}
            by_id = {**written, **{k: p.pk for k, p in named.items() if p is not None}}
        try:
            stored[part] = part_checked(part, by_id, list(players.values()))
        except KeyError as error:
            raise malformed(where, f"has no {error.args[0]!r}") from None
        except NOT_PASSING as error:
            raise malformed(where, f"is refused: {error}") from None
        read = _close_named(stored[part], name) if part == "close" else stored[part]
        if read != written:  # a field unknown, or a value in another form than the export's
            raise malformed(where, f"is not as an export writes it: {read!r}")
    group.usual = stored
    group.save(update_fields=["usual"])


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
