"""One field of the export: a time written and read back, and the strict readers of the import.

The readers name the field they refuse with its path in the file (`sessions[0].games[2].dealer`),
as "import-malformed", in English (the command prints it; the page shows it by its code). They
are not the rules' document readers (rules.document): those read a game's JSON for the rules and
say "must be" of a value, these read the file, where a field may be missing, null or a link.
"""

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone, translation

from scorekeeper.models import Player
from scorekeeper.rules import names
from scorekeeper.services.errors import ServiceError


def dump_time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def load_time(raw: Any, key: str, where: str, null: bool = False) -> datetime | None:
    text = load(raw, key, str, where, null)
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise malformed(f"{where}.{key}", f"is not an ISO-8601 time: {text!r}") from None
    if timezone.is_naive(moment):
        raise malformed(f"{where}.{key}", f"needs a time zone: {text!r}")
    return moment


def load_when(raw: Any, key: str, where: str) -> datetime:
    moment = load_time(raw, key, where)
    assert moment is not None
    return moment


def positions[T: models.Model](rows: Iterable[T], owner: Callable[[T], Any]) -> dict[int, int]:
    """Number each row within its owner (a game within its night …), in the order given."""
    counts: dict[int, int] = {}
    at = {}
    for row in rows:
        key = owner(row)
        at[row.pk] = counts.get(key, 0)
        counts[key] = at[row.pk] + 1
    return at


def malformed(where: str, problem: str) -> ServiceError:
    return ServiceError(
        "import-malformed", "malformed export: {where} {problem}", field="data", where=where,
        problem=problem,
    )  # fmt: skip


def load(raw: Any, key: str, kind: type | tuple[type, ...], where: str, null: bool = False) -> Any:
    """Return raw[key], refusing a missing field or one of the wrong JSON type."""
    if not isinstance(raw, dict):
        raise malformed(where or "the export", "should be an object")
    field = f"{where}.{key}" if where else key
    if key not in raw:
        raise malformed(field, "is missing")
    value = raw[key]
    if value is None and null:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise malformed(field, f"should be {names}, not {value!r}")
    return value


def load_baht(raw: Any, key: str, where: str) -> Decimal:
    """An amount of baht, written as a string to keep every satang."""
    try:
        return Decimal(load(raw, key, str, where))
    except InvalidOperation:
        raise malformed(f"{where}.{key}", "must be an amount of baht") from None


def load_list(raw: Any, key: str, where: str) -> list[Any]:
    value: list[Any] = load(raw, key, list, where)
    return value


def load_ref[T](raw: Any, key: str, rows: list[T], where: str, null: bool = True) -> T | None:
    """Return the row of `rows` an index names (a link within one table: only rows before)."""
    at = load(raw, key, int, where, null)
    if at is None:
        return None
    if not 0 <= at < len(rows):
        raise malformed(f"{where}.{key}", f"refers to {at}: no such row comes before it")
    return rows[at]


def load_player(
    raw: Any, key: str, players: dict[str, Player], where: str, null: bool = False
) -> Any:
    who = load(raw, key, str, where, null)
    if who is None:
        return None
    if who not in players:
        raise malformed(f"{where}.{key}", f"names {who!r}, who is not among the players")
    return players[who]


def load_name(raw: Any, where: str, *, blank: bool = False) -> str:
    """Return a name cleaned as a typed one is, refusing one that no name typed at the table
    could be: the definition the forms and the rules use (rules.names). A `blank` name may be
    left empty, as a member's is on the join form."""
    name: str = load(raw, "name", str, where)
    if blank and not name.strip():
        return ""
    if names.fault(name) is not None:
        raise malformed(f"{where}.name", f"is not a name a phone can show: {name!r}")
    return names.cleaned(name)


def renames(players: dict[str, Player]) -> dict[str, str]:
    """The names the import cleaned (group.load_players): as the file records them, as stored."""
    return {recorded: p.name for recorded, p in players.items() if p.name != recorded}


def renamed(value: Any, renames: dict[str, str]) -> Any:
    """Return `value` (JSON: a game's document, its tie or scores, an audit entry's detail) with
    every player the import renamed named as stored, as a value or a key. Only a text that
    cleaning changes is replaced, and none of the rules' own words is one (plain ASCII, which
    cleaning leaves as it is): what is not a name stays as written."""
    if not renames:
        return value  # the common case: every name in the file was stored as it was typed
    if isinstance(value, str):
        return renames.get(value, value)
    if isinstance(value, list):
        return [renamed(v, renames) for v in value]
    if isinstance(value, dict):
        return {renamed(k, renames): renamed(v, renames) for k, v in value.items()}
    return value


def at_most[N: (int, Decimal)](value: N, most: N, where: str) -> N:
    if value > most:
        raise malformed(where, f"is {value:,}, above what a real table plays (at most {most:,})")
    return value


def valid[M: models.Model](row: M, where: str) -> M:
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
            raise malformed(where, f"has values that do not fit ({problems})") from None
    return row
