"""The settle contract's JSON document for one Knock Dummy game: read into a `Game`, written back.

Only the shape and types of the document are checked here; what the game means is checked by
`knock_dummy.validate` when it is settled.
"""

import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy import (
    RULES,
    STAKE_LEVELS,
    Event,
    EventType,
    FaceDown,
    FineReason,
    Game,
    HeadColor,
    Knock,
    KnockKind,
    Level,
    Settlement,
    Stakes,
    TieBreak,
)

# Far beyond any table's stakes or points, and small enough that every amount fits the ledger's
# 64-bit columns (a line is at most 2 × more × 64).
LARGEST = 10**9

FIELDS = {
    "rules", "level", "stakes", "fine", "players", "knock", "points", "levels", "collected",
    "color", "fool", "speto_held", "knocker_speto", "face_down", "total", "tie_break", "events",
}  # fmt: skip
EVENT_FIELDS = {
    EventType.HEAD: {"close"},
    EventType.SPETO: {"count", "close"},
    EventType.DUMMY_DISCARD: set(),
    EventType.FULL_DISCARD: set(),
    EventType.SHOW_SPETO: set(),
    EventType.FINE: {"reason"},
}


def _fail(field: str, message: str) -> RuleError:
    return RuleError("document", "{where}: {problem}", field=field, where=field, problem=message)


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(field, "must be a JSON object")
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(field, "must be a JSON list")
    return value


def _shown(value: Any) -> str:
    """Show a value as it was written in JSON, for an error message."""
    return json.dumps(value, ensure_ascii=True)


def _name(value: Any, field: str) -> str:
    # Control characters and lone surrogates cannot be shown on a phone or written as UTF-8.
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise _fail(field, "must be a player's name")
    return value


def _names(value: Any, field: str) -> tuple[str, ...]:
    return tuple(_name(v, field) for v in _list(value, field))


def _whole(value: Any, field: str, *, minimum: int | None = None) -> int:
    # bool is an int in Python; true is not a number of points.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, "must be a whole number")
    if minimum is not None and value < minimum:
        raise _fail(field, f"must be at least {minimum}")
    if abs(value) > LARGEST:
        raise _fail(field, f"must be at most {LARGEST:,} in size")
    return value


def _choice[E: StrEnum](value: Any, field: str, enum: type[E]) -> E:
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise _fail(field, f"{_shown(value)} is not one of {allowed}") from None


def _counts(value: Any, field: str, *, minimum: int | None = None) -> dict[str, int]:
    return {
        _name(k, field): _whole(v, f"{field}.{k}", minimum=minimum)
        for k, v in _object(value, field).items()
    }


def _only(doc: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise _fail(where, f"unknown field {_shown(unknown[0])}")


def _stakes(doc: Mapping[str, Any]) -> Stakes:
    if ("level" in doc) == ("stakes" in doc):
        raise _fail("level", "give either a level (thep, sian, khot-sian) or stakes")
    if "level" in doc:
        if not isinstance(doc["level"], str) or doc["level"] not in STAKE_LEVELS:
            shown = _shown(doc["level"])
            raise _fail("level", f"{shown} is not one of {', '.join(STAKE_LEVELS)}")
        return STAKE_LEVELS[doc["level"]]
    rates = _object(doc["stakes"], "stakes")
    _only(rates, {"less", "medium", "more"}, "stakes")
    for key in ("less", "medium", "more"):
        if key not in rates:
            raise _fail("stakes", f"{key} is missing")
    return Stakes(*(_whole(rates[k], f"stakes.{k}", minimum=1) for k in ("less", "medium", "more")))


def _knock(doc: Mapping[str, Any]) -> Knock | None:
    if "knock" not in doc:
        for field in ("knocker_speto", "face_down"):
            if field in doc:
                raise _fail(field, "needs a knock")
        return None
    knock = _object(doc["knock"], "knock")
    _only(knock, {"player", "kind"}, "knock")
    if "player" not in knock or "kind" not in knock:
        raise _fail("knock", "needs a player and a kind")
    spetos = _object(doc.get("knocker_speto", {}), "knocker_speto")
    _only(spetos, {"held", "picked"}, "knocker_speto")
    face_down = doc.get("face_down")
    return Knock(
        player=_name(knock["player"], "knock.player"),
        kind=_choice(knock["kind"], "knock.kind", KnockKind),
        speto_held=_whole(spetos.get("held", 0), "knocker_speto.held", minimum=0),
        speto_picked=_whole(spetos.get("picked", 0), "knocker_speto.picked", minimum=0),
        face_down=None if face_down is None else _choice(face_down, "face_down", FaceDown),
    )


def _levels(value: Any) -> dict[str, Level]:
    return {
        _name(k, "levels"): _choice(v, f"levels.{k}", Level)
        for k, v in _object(value, "levels").items()
    }


def _tie_break(value: Any) -> TieBreak | None:
    if value is None:
        return None
    if isinstance(value, dict):
        _only(value, {"head_color"}, "tie_break")
        if "head_color" not in value:
            raise _fail("tie_break", 'give a list of players or {"head_color": "red"}')
        return TieBreak(head_color=_choice(value["head_color"], "tie_break.head_color", HeadColor))
    return TieBreak(order=_names(value, "tie_break"))


def _event(value: Any, i: int) -> Event:
    where = f"events[{i}]"
    raw = _object(value, where)
    if "type" not in raw or "player" not in raw:
        raise _fail(where, "needs a type and a player")
    kind = _choice(raw["type"], f"{where}.type", EventType)
    _only(raw, {"type", "player"} | EVENT_FIELDS[kind], where)
    reason = raw.get("reason")
    return Event(
        type=kind,
        player=_name(raw["player"], f"{where}.player"),
        close=_names(raw.get("close", []), f"{where}.close"),
        count=_whole(raw.get("count", 1), f"{where}.count", minimum=1),
        reason=None if reason is None else _choice(reason, f"{where}.reason", FineReason),
    )


def game_from_document(doc: Any) -> Game:
    """Read one game of the settle contract; raise RuleError naming the first bad field."""
    doc = _object(doc, "game")
    _only(doc, FIELDS, "game")
    if doc.get("rules") != RULES:
        raise _fail("rules", f"must be {_shown(RULES)}")
    stakes = _stakes(doc)
    if "players" not in doc:
        raise _fail("players", "is missing")
    levels = doc.get("levels")
    collected = doc.get("collected")
    return Game(
        players=_names(doc["players"], "players"),
        stakes=stakes,
        fine=_whole(doc.get("fine", stakes.medium), "fine", minimum=1),
        knock=_knock(doc),
        points=_counts(doc.get("points", {}), "points"),
        levels=None if levels is None else _levels(levels),
        collected=None if collected is None else frozenset(_names(collected, "collected")),
        color=frozenset(_names(doc.get("color", []), "color")),
        fool=None if doc.get("fool") is None else _name(doc["fool"], "fool"),
        speto_held=_counts(doc.get("speto_held", {}), "speto_held", minimum=0),
        total=None if doc.get("total") is None else _name(doc["total"], "total"),
        tie_break=_tie_break(doc.get("tie_break")),
        events=tuple(_event(e, i) for i, e in enumerate(_list(doc.get("events", []), "events"))),
    )


def settlement_to_document(settlement: Settlement) -> dict[str, Any]:
    """Write a settlement as the settle contract's output."""
    return {
        "net": settlement.net(),
        "levels": {p: str(level) for p, level in settlement.levels.items()},
        "winners": list(settlement.winners),
        "lines": [
            {
                "payer": line.payer,
                "payee": line.payee,
                "amount": line.amount,
                "item": str(line.item),
                "rule": line.rule,
                "due": str(line.due),
                **({"instead_of": line.instead_of} if line.instead_of else {}),
            }
            for line in settlement.lines
        ],
    }
