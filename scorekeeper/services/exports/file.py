"""The group's versioned JSON file whole: the export that writes every part in the file's order,
and the import that reads them back in an order where each link names a row already inserted."""

from typing import Any

from django.db import DataError, IntegrityError, models
from django.utils import timezone

from scorekeeper.models import (
    AuditEntry,
    Cost,
    Event,
    Game,
    Group,
    LedgerLine,
    MoneyLine,
    Night,
    Seat,
    Standing,
    Tab,
    TabTransfer,
    Transfer,
)
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.exports.audit import dump_entry, load_audit
from scorekeeper.services.exports.costs import dump_cost, load_costs
from scorekeeper.services.exports.fields import dump_time, load_list, positions
from scorekeeper.services.exports.games import dump_event, dump_game, load_games
from scorekeeper.services.exports.group import (
    dump_group,
    dump_memberships,
    dump_players,
    load_group,
    load_memberships,
    load_players,
    load_usual,
)
from scorekeeper.services.exports.lines import dump_line, load_lines
from scorekeeper.services.exports.money import dump_money_line, load_money_lines
from scorekeeper.services.exports.nights import (
    dump_night,
    dump_seat,
    dump_standing,
    load_night,
    load_standings,
)
from scorekeeper.services.exports.snapshot import snapshot
from scorekeeper.services.exports.tabs import dump_tabs, load_tabs
from scorekeeper.services.exports.transfers import dump_transfer, load_transfers
from scorekeeper.services.exports.upgrade import VERSION, upgraded
from scorekeeper.services.ledger_audit import night_audit
from scorekeeper.services.writing import writing

FORMAT = "scorekeeper-group"


def night_json(*, night: Night) -> dict[str, Any]:
    """Return one night as a group export: its group's players, the night and its audit."""
    with snapshot():
        return _export(night.group, Night.objects.filter(pk=night.pk), whole_group=False)


def group_json(*, group: Group) -> dict[str, Any]:
    """Return the whole group as a versioned export that `group_import` reads back."""
    with snapshot():
        return _export(group, Night.objects.filter(group=group), whole_group=True)


def _export(group: Group, chosen: models.QuerySet[Night], *, whole_group: bool) -> dict[str, Any]:
    group = Group.objects.get(pk=group.pk)  # as this snapshot reads it, whatever the caller holds
    nights = list(chosen.select_related("first_dealer").order_by("pk"))
    night_at = {s.pk: i for i, s in enumerate(nights)}
    players = list(group.players.order_by("pk"))
    name = {p.pk: p.name for p in players}
    members = list(group.memberships.order_by("pk"))
    member_at = {m.pk: i for i, m in enumerate(members)}

    games = list(Game.objects.filter(night__in=nights).order_by("pk"))
    game_at = positions(games, lambda g: g.night_id)
    events = list(Event.objects.filter(game__night__in=nights).order_by("pk"))
    event_at = positions(events, lambda e: e.game_id)
    transfers = list(Transfer.objects.filter(night__in=nights).order_by("pk"))
    transfer_at = positions(transfers, lambda t: t.night_id)
    lines = list(LedgerLine.objects.filter(night__in=nights).order_by("pk"))
    line_at = {line.pk: i for i, line in enumerate(lines)}

    exported = [dump_night(s, name) for s in nights]
    for seat in Seat.objects.filter(night__in=nights).order_by("pk"):
        exported[night_at[seat.night_id]]["seats"].append(dump_seat(seat, name))
    by_game: dict[int, dict[str, Any]] = {}
    for game in games:
        by_game[game.pk] = dump_game(game, name, game_at)
        exported[night_at[game.night_id]]["games"].append(by_game[game.pk])
    for event in events:
        by_game[event.game_id]["events"].append(dump_event(event))
    for transfer in transfers:
        exported[night_at[transfer.night_id]]["transfers"].append(dump_transfer(transfer, name))
    for standing in Standing.objects.filter(night__in=nights).order_by("pk"):
        exported[night_at[standing.night_id]]["standings"].append(dump_standing(standing, name))

    costs = list(Cost.objects.filter(night__in=nights).order_by("pk"))
    cost_at = positions(costs, lambda c: c.night_id)
    for cost in costs:
        exported[night_at[cost.night_id]]["costs"].append(dump_cost(cost, name))

    # The money ledger in baht (shared costs, fee, rounding, transfers paid or carried): a
    # night's export holds its own lines; payments of debts carried across nights are the group's.
    money = list(MoneyLine.objects.filter(group=group).order_by("pk"))
    if not whole_group:
        money = [m for m in money if m.night_id in night_at and m.item != MoneyLine.Item.SETTLE]
    money_at = {m.pk: i for i, m in enumerate(money)}
    # Settled tabs are the group's, of no night: a night's export has none.
    tabs = list(Tab.objects.filter(group=group).order_by("pk")) if whole_group else []
    tab_at = {tab.pk: i for i, tab in enumerate(tabs)}
    tab_transfers = list(TabTransfer.objects.filter(tab__in=tabs).order_by("pk"))
    tab_transfer_at = positions(tab_transfers, lambda t: t.tab_id)

    audit = AuditEntry.objects.filter(group=group).order_by("pk")
    if not whole_group:
        audit = audit.filter(night__in=nights)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": dump_time(timezone.now()),
        "group": dump_group(group, players),
        "players": dump_players(players),
        "memberships": dump_memberships(members),
        "sessions": exported,
        "tabs": dump_tabs(tabs, tab_transfers, name, member_at),
        "lines": [
            dump_line(
                line,
                name,
                night_at=night_at,
                game_at=game_at,
                event_at=event_at,
                transfer_at=transfer_at,
                line_at=line_at,
            )
            for line in lines
        ],
        "money_lines": [
            dump_money_line(
                m,
                name,
                night_at=night_at,
                transfer_at=transfer_at,
                money_at=money_at,
                cost_at=cost_at,
                tab_at=tab_at,
                tab_transfer_at=tab_transfer_at,
            )
            for m in money
        ],
        "audit": [
            dump_entry(entry, night_at=night_at, game_at=game_at, member_at=member_at)
            for entry in audit
        ],
    }


@writing()
def group_import(*, data: dict[str, Any]) -> Group:
    """Recreate an exported group in an empty instance, then audit every night it brought.

    Refuses (writing nothing) an instance that has a group, an unknown format or version, data
    that does not fit, and a ledger that does not add up.
    """
    if Group.objects.exists():
        raise ServiceError(
            "import-not-empty",
            "this instance already has a group: import into an empty database",
            field="data",
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ServiceError("import-format", "this is not a Scorekeeper group export", field="data")
    if data.get("version") not in (1, 2, 3, VERSION):
        raise ServiceError(
            "import-version",
            "unknown export version {version!r}: this Scorekeeper reads versions 1 to {known}",
            field="data",
            version=data.get("version"),
            known=VERSION,
        )
    try:
        group, nights, tabs = _import(upgraded(data))
    except ServiceError:
        raise
    except (IntegrityError, DataError) as error:  # what the database's own constraints refuse
        raise ServiceError(
            "import-malformed",
            "malformed export: it breaks a rule of the database ({error})",
            field="data",
            error=error,
        ) from error
    for at, night in enumerate(nights):
        problems = night_audit(night)
        if problems:
            raise ServiceError(
                "import-audit",
                "sessions[{at}] does not add up: {problem}",
                field="data",
                at=at,
                problem=problems[0],  # the first reason: what comes after may follow from it
            )
    for at, tab in enumerate(tabs):
        problems = tab_audit(tab)
        if problems:
            raise ServiceError(
                "import-tab-audit",
                "tabs[{at}] does not add up: {problem}",
                field="data",
                at=at,
                problem=problems[0],
            )
    return group


def _import(data: dict[str, Any]) -> tuple[Group, list[Night], list[Tab]]:
    group = load_group(data)
    players = load_players(data, group)
    load_usual(data, group, players)
    members = load_memberships(data, group)

    nights: list[Night] = []
    games: list[list[Game]] = []
    events: list[list[list[Event]]] = []
    transfers: list[list[Transfer]] = []
    costs: list[list[Cost]] = []
    for i, raw in enumerate(load_list(data, "sessions", "")):
        where = f"sessions[{i}]"
        night = load_night(group, players, raw, where)
        its_games, its_events = load_games(night, players, raw, where)
        its_transfers = load_transfers(night, players, raw, where)
        load_standings(night, players, raw, where)
        nights.append(night)
        games.append(its_games)
        events.append(its_events)
        transfers.append(its_transfers)
        costs.append(load_costs(night, players, raw, where))

    load_lines(load_list(data, "lines", ""), players, nights, games, events, transfers)
    # An export made before tabs could be settled (version 3) has none.
    tabs = load_tabs(load_list(data, "tabs", "") if "tabs" in data else [], group, players, members)
    # An export made before debts could be carried has none.
    money = load_list(data, "money_lines", "") if "money_lines" in data else []
    load_money_lines(money, group, players, nights, transfers, costs, tabs)
    load_audit(data, group, nights, games, members, players)
    return group, nights, [tab for tab, _ in tabs]
