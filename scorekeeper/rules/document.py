"""Reading a JSON game document strictly: each helper names the field it refuses, clearly.

Shared by the document readers of every game, so all of them refuse bad input alike.
"""

import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from scorekeeper.rules import names
from scorekeeper.rules.errors import RuleError

# Far beyond any table's stakes or points, and small enough that every amount fits the ledger's
# 64-bit columns (a line is at most 2 × more × 64).
LARGEST = 10**9


def invalid(field: str, message: str) -> RuleError:
    return RuleError("document", "{where}: {problem}", field=field, where=field, problem=message)


def read_object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise invalid(field, "must be a JSON object")
    return value


def read_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise invalid(field, "must be a JSON list")
    return value


def shown(value: Any) -> str:
    """Show a value as it was written in JSON, for an error message."""
    return json.dumps(value, ensure_ascii=True)


def read_name(value: Any, field: str) -> str:
    # What a name may be is defined once (rules.names): an emoji's joiners or a flag's tags are
    # part of a name; control characters and lone surrogates cannot be shown on a phone.
    if not isinstance(value, str) or not names.acceptable(value):
        raise invalid(field, "must be a player's name")
    return value


def read_names(value: Any, field: str) -> tuple[str, ...]:
    return tuple(read_name(v, field) for v in read_list(value, field))


def read_whole(value: Any, field: str, *, minimum: int | None = None) -> int:
    # bool is an int in Python; true is not a number of points.
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(field, "must be a whole number")
    if minimum is not None and value < minimum:
        raise invalid(field, f"must be at least {minimum}")
    if abs(value) > LARGEST:
        raise invalid(field, f"must be at most {LARGEST:,} in size")
    return value


def read_choice[E: StrEnum](value: Any, field: str, enum: type[E]) -> E:
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise invalid(field, f"{shown(value)} is not one of {allowed}") from None


def read_counts(value: Any, field: str, *, minimum: int | None = None) -> dict[str, int]:
    return {
        read_name(k, field): read_whole(v, f"{field}.{k}", minimum=minimum)
        for k, v in read_object(value, field).items()
    }


def only_fields(doc: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise invalid(where, f"unknown field {shown(unknown[0])}")


def read_totals(match: dict[str, Any], players: tuple[str, ...]) -> dict[str, int]:
    """Read a match's totals before this deal; none given means a match starting from zero."""
    if "totals" not in match:
        return dict.fromkeys(players, 0)
    return {
        read_name(k, "match.totals"): read_whole(v, f"match.totals.{k}")
        for k, v in read_object(match["totals"], "match.totals").items()
    }
