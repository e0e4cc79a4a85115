"""A group's ledger as CSV for people, and the whole group as versioned JSON to move or restore.

The JSON names players by name and links rows by their position in the export, never by database
id, so it imports into an empty instance and exports again unchanged. Devices, invites, accounts,
idempotency keys and join attempts stay behind: they belong to the instance, not to the group.
"""

import csv
import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone, translation

from scorekeeper.models import (
    AuditEntry,
    Cost,
    Event,
    Game,
    Group,
    LedgerLine,
    Membership,
    MoneyLine,
    Player,
    Seat,
    Session,
    Standing,
    Tab,
    TabTransfer,
    Transfer,
)
from scorekeeper.names import unique_key
from scorekeeper.rules import names
from scorekeeper.rules.money import BAHT_MOST, POINT_VALUE_MOST, STAKE_MOST, baht
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import session_audit

FORMAT = "scorekeeper-group"
VERSION = 4  # 2: a session's score-sheet settings under "scoresheet" (1: "race"), and a game's
# events in its "events" only (1 repeated them in its document); 3: the settle-up in baht, a
# transfer's "baht" (2: its points, "amount") and its payment a money line (2: a points line);
# 4: settled tabs under "tabs", and a money line's "tab" and "tab_transfer" (3 has neither)

CSV_HEADER = (
    "line",
    "session",
    "started",
    "game",
    "game status",
    "event",
    "item",
    "rule",
    "due",
    "payer",
    "payee",
    "points",
    "baht",
    "unit",
    "reversal of",
    "recorded at",
)


# -- CSV ------------------------------------------------------------------------------------------


def session_csv(*, session: Session) -> str:
    """Return the session's ledger as CSV: a header, then one row per line in the order written,
    the points ledger's and then the money ledger's (ids "m…", in baht)."""
    with _snapshot():
        return _csv(
            LedgerLine.objects.filter(session=session), MoneyLine.objects.filter(session=session)
        )


def group_csv(*, group: Group) -> str:
    """Return every ledger line of the group as CSV, in the order written, the points ledger's
    and then the money ledger's (a carried debt paid between nights has no session)."""
    with _snapshot():
        return _csv(
            LedgerLine.objects.filter(session__group=group), MoneyLine.objects.filter(group=group)
        )


def _cell(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(lines: models.QuerySet[LedgerLine], money: models.QuerySet[MoneyLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    rows = lines.select_related("session", "game", "event", "payer", "payee").order_by("pk")
    for line in rows:
        game = line.game
        writer.writerow(
            (
                line.pk,
                line.session_id,
                timezone.localdate(line.session.started_at).isoformat(),
                game.number if game else "",
                game.status if game else "",
                line.event.number if line.event else "",
                line.item,
                line.rule,
                line.due,
                _cell(line.payer.name),
                _cell(line.payee.name),
                line.amount,
                line.session.baht(line.amount),
                "points",
                line.reverses_id or "",
                timezone.localtime(line.recorded_at).isoformat(),
            )
        )
    for m in money.select_related("session", "payer", "payee").order_by("pk"):
        writer.writerow(
            (
                f"m{m.pk}",
                m.session_id or "",
                timezone.localdate(m.session.started_at).isoformat() if m.session else "",
                "",
                "",
                "",
                m.item,
                "",
                "",
                _cell(m.payer_name),
                _cell(m.payee_name),
                "",
                m.baht,
                MoneyLine.UNIT,
                f"m{m.reverses_id}" if m.reverses_id else "",
                timezone.localtime(m.recorded_at).isoformat(),
            )  # fmt: skip
        )
    return out.getvalue()


# -- JSON export ----------------------------------------------------------------------------------


def session_json(*, session: Session) -> dict[str, Any]:
    """Return one session as a group export: its group's players, the session and its audit."""
    with _snapshot():
        return _export(session.group, Session.objects.filter(pk=session.pk), whole_group=False)


def group_json(*, group: Group) -> dict[str, Any]:
    """Return the whole group as a versioned export that `group_import` reads back."""
    with _snapshot():
        return _export(group, Session.objects.filter(group=group), whole_group=True)


@contextmanager
def _snapshot() -> Iterator[None]:
    """Read from one snapshot, so that a write landing mid-export cannot tear the ledger."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":  # read committed would see new rows
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _at(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def _export(group: Group, chosen: models.QuerySet[Session], *, whole_group: bool) -> dict[str, Any]:
    sessions = list(chosen.select_related("first_dealer").order_by("pk"))
    session_at = {s.pk: i for i, s in enumerate(sessions)}
    players = list(group.players.order_by("pk"))
    name = {p.pk: p.name for p in players}
    members = list(group.memberships.order_by("pk"))
    member_at = {m.pk: i for i, m in enumerate(members)}

    games = list(Game.objects.filter(session__in=sessions).order_by("pk"))
    game_at = _positions(games, lambda g: g.session_id)
    events = list(Event.objects.filter(game__session__in=sessions).order_by("pk"))
    event_at = _positions(events, lambda e: e.game_id)
    transfers = list(Transfer.objects.filter(session__in=sessions).order_by("pk"))
    transfer_at = _positions(transfers, lambda t: t.session_id)
    lines = list(LedgerLine.objects.filter(session__in=sessions).order_by("pk"))
    line_at = {line.pk: i for i, line in enumerate(lines)}

    exported: list[dict[str, Any]] = [
        {
            "ruleset": s.ruleset,
            "stake_level": s.stake_level,
            "stakes": {"less": s.stake_less, "medium": s.stake_medium, "more": s.stake_more},
            "fine": s.fine,
            "point_value": str(s.point_value),
            "first_dealer": s.first_dealer.name,
            "scoresheet": s.scoresheet,
            "started_at": _at(s.started_at),
            "closed_at": _at(s.closed_at),
            "pays_at_table": s.pays_at_table,
            "fee": str(s.fee),
            "fee_per": s.fee_per,
            "fee_to": name[s.fee_to_id] if s.fee_to_id else None,
            "rounding": s.rounding,
            "rounding_by": name[s.rounding_by_id] if s.rounding_by_id else None,
            "nets_reading": s.nets_reading,
            "costs": [],
            "seats": [],
            "games": [],
            "transfers": [],
            "standings": [],
        }
        for s in sessions
    ]
    for seat in Seat.objects.filter(session__in=sessions).order_by("pk"):
        exported[session_at[seat.session_id]]["seats"].append(
            {
                "player": name[seat.player_id],
                "position": seat.position,
                "since_game": seat.since_game,
                "until_game": seat.until_game,
            }
        )
    by_game: dict[int, dict[str, Any]] = {}
    for game in games:
        by_game[game.pk] = {
            "number": game.number,
            "status": game.status,
            "dealer": name[game.dealer_id],
            "seating": [name[pk] for pk in game.seating],
            "document": game.document,
            "tie": game.tie,
            "scores": game.scores,
            "last_drawer": name[game.last_drawer_id] if game.last_drawer_id else None,
            "replaces": game_at[game.replaces_id] if game.replaces_id else None,
            "started_at": _at(game.started_at),
            "finished_at": _at(game.finished_at),
            "voided_at": _at(game.voided_at),
            "events": [],
        }
        exported[session_at[game.session_id]]["games"].append(by_game[game.pk])
    for event in events:
        by_game[event.game_id]["events"].append(
            {
                "number": event.number,
                "document": event.document,
                "recorded_at": _at(event.recorded_at),
                # Only when taken back as a mistake: exports of before that read as they did.
                **({"removed_at": _at(event.removed_at)} if event.removed_at else {}),
            }
        )
    for transfer in transfers:
        exported[session_at[transfer.session_id]]["transfers"].append(
            {
                "payer": name[transfer.payer_id],
                "payee": name[transfer.payee_id] if transfer.payee_id else None,  # None: the house
                "baht": str(transfer.baht),
                "mode": transfer.mode,
                "created_at": _at(transfer.created_at),
            }
        )
    for standing in Standing.objects.filter(session__in=sessions).order_by("pk"):
        exported[session_at[standing.session_id]]["standings"].append(
            {"player": name[standing.player_id], "net": standing.net, "settled": standing.settled}
        )

    costs = list(Cost.objects.filter(session__in=sessions).order_by("pk"))
    cost_at = _positions(costs, lambda c: c.session_id)
    for cost in costs:
        exported[session_at[cost.session_id]]["costs"].append(
            {
                "reason": cost.reason,
                "baht": str(cost.baht),
                "paid_by": name[cost.paid_by_id],
                "among": [name[pk] for pk in cost.among],
                "recorded_at": _at(cost.recorded_at),
            }
        )

    # The money ledger in baht (shared costs, fee, rounding, transfers paid or carried): a
    # session's export holds its own lines; payments of debts carried across nights are the group's.
    money = list(MoneyLine.objects.filter(group=group).order_by("pk"))
    if not whole_group:
        money = [m for m in money if m.session_id in session_at and m.item != MoneyLine.Item.SETTLE]
    money_at = {m.pk: i for i, m in enumerate(money)}
    # Settled tabs are the group's, of no night: a session's export has none.
    tabs = list(Tab.objects.filter(group=group).order_by("pk")) if whole_group else []
    tab_at = {tab.pk: i for i, tab in enumerate(tabs)}
    tab_transfers = list(TabTransfer.objects.filter(tab__in=tabs).order_by("pk"))
    tab_transfer_at = _positions(tab_transfers, lambda t: t.tab_id)

    audit = AuditEntry.objects.filter(group=group).order_by("pk")
    if not whole_group:
        audit = audit.filter(session__in=sessions)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _at(timezone.now()),
        "group": {"name": group.name, "created_at": _at(group.created_at)},
        "players": [{"name": p.name, "created_at": _at(p.created_at)} for p in players],
        "memberships": [
            {
                "name": m.name,
                "role": m.role,
                "joined_at": _at(m.joined_at),
                "revoked_at": _at(m.revoked_at),
            }
            for m in members
        ],
        "sessions": exported,
        "tabs": [
            {
                "by": member_at[tab.by_id] if tab.by_id else None,
                "recorded_at": _at(tab.recorded_at),
                "transfers": [
                    {
                        "payer": name[t.payer_id],
                        "payee": name[t.payee_id] if t.payee_id else None,  # None: the house
                        "baht": str(t.baht),
                        "unit": MoneyLine.UNIT,
                        "received_by": member_at[t.received_by_id] if t.received_by_id else None,
                        "received_at": _at(t.received_at),
                    }
                    for t in tab_transfers
                    if t.tab_id == tab.pk
                ],
            }
            for tab in tabs
        ],
        "lines": [
            {
                "session": session_at[line.session_id],
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
                "recorded_at": _at(line.recorded_at),
            }
            for line in lines
        ],
        "money_lines": [
            {
                "session": session_at[m.session_id] if m.session_id else None,
                "transfer": transfer_at[m.transfer_id] if m.transfer_id else None,
                "carried": money_at[m.carried_id] if m.carried_id else None,
                "cost": cost_at[m.cost_id] if m.cost_id else None,
                "tab": tab_at[m.tab_id] if m.tab_id else None,
                "tab_transfer": tab_transfer_at[m.tab_transfer_id] if m.tab_transfer_id else None,
                "payer": name[m.payer_id] if m.payer_id else None,  # None: the house
                "payee": name[m.payee_id] if m.payee_id else None,
                "baht": str(m.baht),
                "unit": MoneyLine.UNIT,
                "item": m.item,
                "reason": m.reason,
                "reverses": money_at[m.reverses_id] if m.reverses_id else None,
                "recorded_at": _at(m.recorded_at),
            }
            for m in money
        ],
        "audit": [
            {
                "action": entry.action,
                "detail": entry.detail,
                "at": _at(entry.at),
                "session": session_at[entry.session_id] if entry.session_id else None,
                "game": game_at[entry.game_id] if entry.game_id else None,
                "membership": member_at[entry.membership_id] if entry.membership_id else None,
            }
            for entry in audit
        ],
    }


def _positions[T: models.Model](rows: Iterable[T], owner: Any) -> dict[int, int]:
    """Number each row within its owner (a game within its session …), in the order given."""
    counts: dict[int, int] = {}
    at = {}
    for row in rows:
        key = owner(row)
        at[row.pk] = counts.get(key, 0)
        counts[key] = at[row.pk] + 1
    return at


# -- JSON import ----------------------------------------------------------------------------------


@transaction.atomic
def group_import(*, data: dict[str, Any]) -> Group:
    """Recreate an exported group in an empty instance, then audit every session it brought.

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
        group, sessions, tabs = _import(_upgraded(data))
    except ServiceError:
        raise
    except (IntegrityError, DataError) as error:  # what the database's own constraints refuse
        raise ServiceError(
            "import-malformed",
            "malformed export: it breaks a rule of the database ({error})",
            field="data",
            error=error,
        ) from error
    for at, session in enumerate(sessions):
        problems = session_audit(session)
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


def _malformed(where: str, problem: str) -> ServiceError:
    return ServiceError(
        "import-malformed", "malformed export: {where} {problem}", field="data", where=where,
        problem=problem,
    )  # fmt: skip


def _get(raw: Any, key: str, kind: type | tuple[type, ...], where: str, null: bool = False) -> Any:
    """Return raw[key], refusing a missing field or one of the wrong JSON type."""
    if not isinstance(raw, dict):
        raise _malformed(where or "the export", "should be an object")
    field = f"{where}.{key}" if where else key
    if key not in raw:
        raise _malformed(field, "is missing")
    value = raw[key]
    if value is None and null:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise _malformed(field, f"should be {names}, not {value!r}")
    return value


def _baht(raw: Any, key: str, where: str) -> Decimal:
    """An amount of baht, written as a string to keep every satang."""
    try:
        return Decimal(_get(raw, key, str, where))
    except InvalidOperation:
        raise _malformed(f"{where}.{key}", "must be an amount of baht") from None


def _list(raw: Any, key: str, where: str) -> list[Any]:
    value: list[Any] = _get(raw, key, list, where)
    return value


def _time(raw: Any, key: str, where: str, null: bool = False) -> datetime | None:
    text = _get(raw, key, str, where, null)
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise _malformed(f"{where}.{key}", f"is not an ISO-8601 time: {text!r}") from None
    if timezone.is_naive(moment):
        raise _malformed(f"{where}.{key}", f"needs a time zone: {text!r}")
    return moment


def _when(raw: Any, key: str, where: str) -> datetime:
    moment = _time(raw, key, where)
    assert moment is not None
    return moment


def _ref[T](raw: Any, key: str, rows: list[T], where: str, null: bool = True) -> T | None:
    """Return the row of `rows` an index names (a link within one table: only rows before)."""
    at = _get(raw, key, int, where, null)
    if at is None:
        return None
    if not 0 <= at < len(rows):
        raise _malformed(f"{where}.{key}", f"refers to {at}: no such row comes before it")
    return rows[at]


def _player(raw: Any, key: str, players: dict[str, Player], where: str, null: bool = False) -> Any:
    who = _get(raw, key, str, where, null)
    if who is None:
        return None
    if who not in players:
        raise _malformed(f"{where}.{key}", f"names {who!r}, who is not among the players")
    return players[who]


def _name(raw: Any, where: str) -> str:
    """Return a name as recorded, refusing one that no name typed at the table could be: the
    definition the forms and the rules use (rules.names)."""
    name: str = _get(raw, "name", str, where)
    if names.fault(name) is not None:
        raise _malformed(f"{where}.name", f"is not a name a phone can show: {name!r}")
    return name


def _bounded(session: Session, where: str) -> None:
    """Refuse a night above what a real table plays, as the forms do (rules.money)."""
    _at_most(session.point_value, POINT_VALUE_MOST, f"{where}.point_value")
    _at_most(session.stake_more, STAKE_MOST, f"{where}.stakes.more")
    _at_most(session.fine, STAKE_MOST, f"{where}.fine")
    _at_most(session.fee, BAHT_MOST, f"{where}.fee")


def _at_most[N: (int, Decimal)](value: N, most: N, where: str) -> N:
    if value > most:
        raise _malformed(where, f"is {value:,}, above what a real table plays (at most {most:,})")
    return value


def _valid[M: models.Model](row: M, where: str) -> M:
    """Check the row's own fields (lengths, choices, ranges) before the database sees it."""
    # Relations are checked by the database; JSON fields by type above ({} is a fine detail).
    skip = [
        f.name
        for f in row._meta.concrete_fields
        if f.is_relation or f.get_internal_type() == "JSONField"
    ]
    with translation.override("en"):  # the rest of the message is English
        try:
            row.clean_fields(exclude=skip)
        except ValidationError as error:
            problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())
            raise _malformed(where, f"has values that do not fit ({problems})") from None
    return row


def _import(data: dict[str, Any]) -> tuple[Group, list[Session], list[Tab]]:
    raw_group = _get(data, "group", dict, "")
    group = _valid(
        Group(
            name=_name(raw_group, "group"),
            created_at=_when(raw_group, "created_at", "group"),
        ),
        "group",
    )
    group.save()

    players: dict[str, Player] = {}
    keys: set[str] = set()  # names are imported as recorded, each with a key of its own
    for i, raw in enumerate(_list(data, "players", "")):
        where = f"players[{i}]"
        who = _name(raw, where)
        if who in players:
            raise _malformed(f"{where}.name", f"repeats {who!r}")
        at = _when(raw, "created_at", where)
        player = Player(group=group, name=who, key=unique_key(who, keys), created_at=at)
        players[who] = _valid(player, where)
    Player.objects.bulk_create(players.values())

    members = []
    for i, raw in enumerate(_list(data, "memberships", "")):
        where = f"memberships[{i}]"
        members.append(
            _valid(
                Membership(  # no device and no account: it lets nobody in, it names the audit's who
                    group=group,
                    name=_get(raw, "name", str, where),
                    role=_get(raw, "role", str, where),
                    joined_at=_when(raw, "joined_at", where),
                    revoked_at=_time(raw, "revoked_at", where, null=True),
                ),
                where,
            )
        )
    Membership.objects.bulk_create(members)

    sessions: list[Session] = []
    games: list[list[Game]] = []
    events: list[list[list[Event]]] = []
    transfers: list[list[Transfer]] = []
    costs: list[list[Cost]] = []
    for i, raw in enumerate(_list(data, "sessions", "")):
        where = f"sessions[{i}]"
        session, its_games, its_events, its_transfers, its_costs = _session_import(
            group, players, raw, where
        )
        sessions.append(session)
        games.append(its_games)
        events.append(its_events)
        transfers.append(its_transfers)
        costs.append(its_costs)

    _lines_import(_list(data, "lines", ""), players, sessions, games, events, transfers)
    # An export made before tabs could be settled (version 3) has none.
    tabs = _tabs_import(_list(data, "tabs", "") if "tabs" in data else [], group, players, members)
    # An export made before debts could be carried has none.
    money = _list(data, "money_lines", "") if "money_lines" in data else []
    _money_import(money, group, players, sessions, transfers, costs, tabs)

    entries = []
    for i, raw in enumerate(_list(data, "audit", "")):
        where = f"audit[{i}]"
        session_at = _get(raw, "session", int, where, null=True)
        game = None
        if session_at is not None:
            _ref(raw, "session", sessions, where)
            game = _ref(raw, "game", games[session_at], where)
        elif _get(raw, "game", int, where, null=True) is not None:
            raise _malformed(f"{where}.game", "needs the session it belongs to")
        entries.append(
            _valid(
                AuditEntry(
                    group=group,
                    session=sessions[session_at] if session_at is not None else None,
                    game=game,
                    membership=_ref(raw, "membership", members, where),
                    action=_get(raw, "action", str, where),
                    detail=_get(raw, "detail", dict, where),
                    at=_when(raw, "at", where),
                ),
                where,
            )
        )
    AuditEntry.objects.bulk_create(entries)
    return group, sessions, [tab for tab, _ in tabs]


def _document_without_events(raw_game: Any, at: str) -> dict[str, Any]:
    """The game's document as stored today: its events are kept in their rows only. An export
    of version 1 repeats them in the document; the two copies must agree."""
    document = _get(raw_game, "document", dict, at)
    if "events" not in document:
        return document
    listed = [
        e.get("document") if isinstance(e, dict) else e for e in _list(raw_game, "events", at)
    ]
    if document["events"] != listed:
        raise _malformed(f"{at}.document.events", "differ from the game's events")
    return {k: v for k, v in document.items() if k != "events"}


def _upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """Return an export of an earlier version in today's shape: version 1 named a session's
    score-sheet settings "race"; before version 3 a transfer was in points and paid by a points
    line, now it is in baht (at its night's point value, as migration 0019 restates it) and paid
    by a money line, which is added beside the points line that stays in the night's history."""
    if data["version"] == 3:  # today's shape, without settled tabs
        return {**data, "version": VERSION}
    if data["version"] == VERSION or not isinstance(data.get("sessions"), list):
        return data
    sessions = [
        _transfers_in_baht({("scoresheet" if k == "race" else k): v for k, v in s.items()})
        if isinstance(s, dict)
        else s
        for s in data["sessions"]
    ]
    money = data.get("money_lines", [])
    if isinstance(money, list) and isinstance(data.get("lines"), list):
        money = [*money, *_payments_in_baht(data["lines"], sessions, start=len(money))]
    return {**data, "version": VERSION, "sessions": sessions, "money_lines": money}


def _transfers_in_baht(session: dict[str, Any]) -> dict[str, Any]:
    transfers = session.get("transfers")
    try:
        rate = Decimal(session["point_value"])
    except (KeyError, TypeError, InvalidOperation):
        return session  # malformed: the import says where
    if not isinstance(transfers, list):
        return session
    return {
        **session,
        "transfers": [
            {**t, "baht": str(baht(t.pop("amount"), rate))}
            if isinstance(t, dict) and type(t.get("amount")) is int
            else t
            for t in (dict(t) if isinstance(t, dict) else t for t in transfers)
        ],
    }


def _payments_in_baht(lines: list[Any], sessions: list[Any], *, start: int) -> list[dict[str, Any]]:
    """The money lines that pay, in baht, the transfers an earlier version paid by points lines."""
    mirrors: list[dict[str, Any]] = []
    mirror_at: dict[int, int] = {}  # a points line's position: its money line's
    for i, line in enumerate(lines):
        try:
            if line["item"] != LedgerLine.PAYMENT or line["transfer"] is None:
                continue
            transfer = sessions[line["session"]]["transfers"][line["transfer"]]
            if Decimal(transfer["baht"]) == 0:
                continue
        except (KeyError, IndexError, TypeError, InvalidOperation):
            continue  # malformed: the import of the points line says where
        mirror_at[i] = start + len(mirrors)
        mirrors.append(
            {
                "session": line["session"],
                "transfer": line["transfer"],
                "carried": None,
                "payer": line.get("payer"),
                "payee": line.get("payee"),
                "baht": transfer["baht"],
                "unit": MoneyLine.UNIT,
                "item": MoneyLine.Item.PAID,
                "reverses": mirror_at.get(line.get("reverses")),
                "recorded_at": line.get("recorded_at"),
            }  # fmt: skip
        )
    return mirrors


def _session_import(
    group: Group, players: dict[str, Player], raw: Any, where: str
) -> tuple[Session, list[Game], list[list[Event]], list[Transfer], list[Cost]]:
    stakes = _get(raw, "stakes", dict, where)
    point_value = _get(raw, "point_value", str, where)
    try:
        value = Decimal(point_value)
    except InvalidOperation:
        raise _malformed(f"{where}.point_value", f"is not a number: {point_value!r}") from None
    closed_at = _time(raw, "closed_at", where, null=True)
    # Which nets the close charged a per-game fee by: an export of before it was recorded
    # closed its nights by every line as booked.
    booked = Session.NetsReading.BOOKED if closed_at else Session.NetsReading.STANDING
    session = _valid(
        Session(
            group=group,
            ruleset=_get(raw, "ruleset", str, where),
            stake_level=_get(raw, "stake_level", str, where),
            stake_less=_get(stakes, "less", int, f"{where}.stakes"),
            stake_medium=_get(stakes, "medium", int, f"{where}.stakes"),
            stake_more=_get(stakes, "more", int, f"{where}.stakes"),
            fine=_get(raw, "fine", int, where),
            point_value=value,
            first_dealer=_player(raw, "first_dealer", players, where),
            scoresheet=_get(raw, "scoresheet", dict, where),
            started_at=_when(raw, "started_at", where),
            closed_at=closed_at,
            # Exports of before the settle-up in baht have none of these: their defaults.
            pays_at_table=_get(raw, "pays_at_table", bool, where)
            if "pays_at_table" in raw
            else False,
            fee=_baht(raw, "fee", where) if "fee" in raw else Decimal(0),
            fee_per=_get(raw, "fee_per", str, where) if "fee_per" in raw else Session.FeePer.GAME,
            fee_to=_player(raw, "fee_to", players, where, null=True) if "fee_to" in raw else None,
            rounding=_get(raw, "rounding", int, where) if "rounding" in raw else 0,
            rounding_by=(
                _player(raw, "rounding_by", players, where, null=True)
                if "rounding_by" in raw
                else None
            ),
            nets_reading=(
                _get(raw, "nets_reading", str, where) if "nets_reading" in raw else booked
            ),
        ),
        where,
    )
    _bounded(session, where)
    session.save()

    seats = []
    for i, seat in enumerate(_list(raw, "seats", where)):
        at = f"{where}.seats[{i}]"
        seats.append(
            _valid(
                Seat(
                    session=session,
                    player=_player(seat, "player", players, at),
                    position=_get(seat, "position", int, at),
                    since_game=_get(seat, "since_game", int, at),
                    until_game=_get(seat, "until_game", int, at, null=True),
                ),
                at,
            )
        )
    Seat.objects.bulk_create(seats)

    games: list[Game] = []
    events: list[list[Event]] = []
    for i, raw_game in enumerate(_list(raw, "games", where)):
        at = f"{where}.games[{i}]"
        seating = _list(raw_game, "seating", at)
        if not all(isinstance(who, str) and who in players for who in seating):
            raise _malformed(f"{at}.seating", f"names someone who is not a player: {seating!r}")
        document = _document_without_events(raw_game, at)
        game = _valid(
            Game(
                session=session,
                number=_get(raw_game, "number", int, at),
                dealer=_player(raw_game, "dealer", players, at),
                seating=[players[who].pk for who in seating],
                status=_get(raw_game, "status", str, at),
                document=document,
                tie=_get(raw_game, "tie", dict, at, null=True),
                scores=_get(raw_game, "scores", dict, at, null=True),
                last_drawer=_player(raw_game, "last_drawer", players, at, null=True),
                replaces=_ref(raw_game, "replaces", games, at),
                started_at=_when(raw_game, "started_at", at),
                finished_at=_time(raw_game, "finished_at", at, null=True),
                voided_at=_time(raw_game, "voided_at", at, null=True),
            ),
            at,
        )
        game.save()  # one by one: a correction refers to the voided game before it
        games.append(game)
        events.append(
            [
                _valid(
                    Event(
                        game=game,
                        number=_get(event, "number", int, f"{at}.events[{k}]"),
                        document=_get(event, "document", dict, f"{at}.events[{k}]"),
                        recorded_at=_when(event, "recorded_at", f"{at}.events[{k}]"),
                        removed_at=_time(event, "removed_at", f"{at}.events[{k}]", null=True)
                        if isinstance(event, dict) and "removed_at" in event
                        else None,
                    ),
                    f"{at}.events[{k}]",
                )
                for k, event in enumerate(_list(raw_game, "events", at))
            ]
        )
    Event.objects.bulk_create(e for its in events for e in its)

    transfers = []
    for i, transfer in enumerate(_list(raw, "transfers", where)):
        at = f"{where}.transfers[{i}]"
        transfers.append(
            _valid(
                Transfer(
                    session=session,
                    payer=_player(transfer, "payer", players, at),
                    payee=_player(transfer, "payee", players, at, null=True),
                    baht=_baht(transfer, "baht", at),
                    mode=_get(transfer, "mode", str, at),
                    created_at=_when(transfer, "created_at", at),
                ),
                at,
            )
        )
    Transfer.objects.bulk_create(transfers)

    standings = []
    for i, standing in enumerate(_list(raw, "standings", where)):
        at = f"{where}.standings[{i}]"
        standings.append(
            _valid(
                Standing(  # the exported totals: the import's audit checks them against the ledger
                    session=session,
                    player=_player(standing, "player", players, at),
                    net=_get(standing, "net", int, at),
                    settled=_get(standing, "settled", int, at),
                ),
                at,
            )
        )
    Standing.objects.bulk_create(standings)

    costs = []
    for i, cost in enumerate(_list(raw, "costs", where) if "costs" in raw else []):
        at = f"{where}.costs[{i}]"
        among = [_player({"p": p}, "p", players, f"{at}.among") for p in _list(cost, "among", at)]
        costs.append(
            _valid(
                Cost(
                    session=session,
                    reason=_get(cost, "reason", str, at),
                    baht=_at_most(_baht(cost, "baht", at), BAHT_MOST, f"{at}.baht"),
                    paid_by=_player(cost, "paid_by", players, at),
                    among=[p.pk for p in among],
                    recorded_at=_when(cost, "recorded_at", at),
                ),
                at,
            )
        )
    Cost.objects.bulk_create(costs)
    return session, games, events, transfers, costs


def _money_import(
    raw_lines: list[Any],
    group: Group,
    players: dict[str, Player],
    sessions: list[Session],
    transfers: list[list[Transfer]],
    costs: list[list[Cost]],
    tabs: list[tuple[Tab, list[TabTransfer]]],
) -> None:
    """Insert the money ledger in its original order: a settle or a reversal names a line
    before it, so each is inserted before the next is read."""
    written: list[MoneyLine] = []
    for i, raw in enumerate(raw_lines):
        where = f"money_lines[{i}]"
        session_at = _get(raw, "session", int, where, null=True)
        session = _ref(raw, "session", sessions, where)
        transfer = None
        if _get(raw, "transfer", int, where, null=True) is not None:
            if session_at is None:
                raise _malformed(f"{where}.transfer", "needs the session it belongs to")
            transfer = _ref(raw, "transfer", transfers[session_at], where)
        cost = None
        if raw.get("cost") is not None:
            if session_at is None:
                raise _malformed(f"{where}.cost", "needs the session it belongs to")
            cost = _ref(raw, "cost", costs[session_at], where)
        if _get(raw, "unit", str, where) != MoneyLine.UNIT:
            raise _malformed(f"{where}.unit", f"must be {MoneyLine.UNIT!r}")
        tab, tab_transfer = None, None
        if raw.get("tab") is not None:
            tab, its_transfers = _ref(raw, "tab", tabs, where) or (None, [])
            tab_transfer = _ref(raw, "tab_transfer", its_transfers, where)
        elif raw.get("tab_transfer") is not None:
            raise _malformed(f"{where}.tab_transfer", "needs the tab it belongs to")
        line = _valid(
            MoneyLine(
                group=group,
                session=session,
                transfer=transfer,
                carried=_ref(raw, "carried", written, where),
                cost=cost,
                tab=tab,
                tab_transfer=tab_transfer,
                payer=_player(raw, "payer", players, where, null=True),
                payee=_player(raw, "payee", players, where, null=True),
                baht=_baht(raw, "baht", where),
                item=_get(raw, "item", str, where),
                reason=_get(raw, "reason", str, where) if "reason" in raw else "",
                reverses=_ref(raw, "reverses", written, where),
                recorded_at=_when(raw, "recorded_at", where),
            ),
            where,
        )
        line.save()
        written.append(line)


def _tabs_import(
    raw_tabs: list[Any], group: Group, players: dict[str, Player], members: list[Membership]
) -> list[tuple[Tab, list[TabTransfer]]]:
    """Insert the settled tabs and their transfers; the money lines that name them come after."""
    tabs = []
    for i, raw in enumerate(raw_tabs):
        where = f"tabs[{i}]"
        tab = _valid(
            Tab(
                group=group,
                by=_ref(raw, "by", members, where),
                recorded_at=_when(raw, "recorded_at", where),
            ),
            where,
        )
        tab.save()
        transfers = []
        for k, transfer in enumerate(_list(raw, "transfers", where)):
            at = f"{where}.transfers[{k}]"
            if _get(transfer, "unit", str, at) != MoneyLine.UNIT:
                raise _malformed(f"{at}.unit", f"must be {MoneyLine.UNIT!r}")
            transfers.append(
                _valid(
                    TabTransfer(
                        tab=tab,
                        payer=_player(transfer, "payer", players, at),
                        payee=_player(transfer, "payee", players, at, null=True),
                        baht=_baht(transfer, "baht", at),
                        received_by=_ref(transfer, "received_by", members, at),
                        received_at=_time(transfer, "received_at", at, null=True),
                    ),
                    at,
                )
            )
        tabs.append((tab, TabTransfer.objects.bulk_create(transfers)))
    return tabs


def _lines_import(
    raw_lines: list[Any],
    players: dict[str, Player],
    sessions: list[Session],
    games: list[list[Game]],
    events: list[list[list[Event]]],
    transfers: list[list[Transfer]],
) -> None:
    """Insert the ledger in its original order; a reversal links to the recreated original."""
    written: list[LedgerLine] = []
    waiting: list[LedgerLine] = []
    for i, raw in enumerate(raw_lines):
        where = f"lines[{i}]"
        session_at = _get(raw, "session", int, where)
        session = _ref(raw, "session", sessions, where, null=False)
        game_at = _get(raw, "game", int, where, null=True)
        game = _ref(raw, "game", games[session_at], where)
        event = None
        if _get(raw, "event", int, where, null=True) is not None:
            if game_at is None:
                raise _malformed(f"{where}.event", "needs the game it belongs to")
            event = _ref(raw, "event", events[session_at][game_at], where)
        reverses = _ref(raw, "reverses", written + waiting, where)
        if reverses is not None and reverses.pk is None:  # its original is still to be inserted
            LedgerLine.objects.bulk_create(waiting)  # in order, each row learning its new id
            written += waiting
            waiting = []
        waiting.append(
            _valid(
                LedgerLine(
                    session=session,
                    game=game,
                    event=event,
                    transfer=_ref(raw, "transfer", transfers[session_at], where),
                    payer=_player(raw, "payer", players, where),
                    payee=_player(raw, "payee", players, where),
                    amount=_get(raw, "amount", int, where),
                    item=_get(raw, "item", str, where),
                    rule=_get(raw, "rule", str, where),
                    due=_get(raw, "due", str, where),
                    instead_of=_player(raw, "instead_of", players, where, null=True),
                    reverses=reverses,
                    recorded_at=_when(raw, "recorded_at", where),
                ),
                where,
            )
        )
    LedgerLine.objects.bulk_create(waiting)
