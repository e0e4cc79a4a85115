"""The settle contract's JSON document for one Knock Dummy game: read into a `Game`, written back.

Only the shape and types of the document are checked here; what the game means is checked by
`knock_dummy.validate` when it is settled.
"""

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.document import (
    invalid,
    only_fields,
    read_choice,
    read_counts,
    read_list,
    read_name,
    read_names,
    read_object,
    read_whole,
    shown,
)
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


def _stakes(doc: Mapping[str, Any]) -> Stakes:
    if ("level" in doc) == ("stakes" in doc):
        raise invalid("level", "give either a level (thep, sian, khot-sian) or stakes")
    if "level" in doc:
        if not isinstance(doc["level"], str) or doc["level"] not in STAKE_LEVELS:
            raise invalid("level", f"{shown(doc['level'])} is not one of {', '.join(STAKE_LEVELS)}")
        return STAKE_LEVELS[doc["level"]]
    rates = read_object(doc["stakes"], "stakes")
    only_fields(rates, {"less", "medium", "more"}, "stakes")
    for key in ("less", "medium", "more"):
        if key not in rates:
            raise invalid("stakes", f"{key} is missing")
    return Stakes(
        *(read_whole(rates[k], f"stakes.{k}", minimum=1) for k in ("less", "medium", "more"))
    )


def _knock(doc: Mapping[str, Any]) -> Knock | None:
    if "knock" not in doc:
        for field in ("knocker_speto", "face_down"):
            if field in doc:
                raise invalid(field, "needs a knock")
        return None
    knock = read_object(doc["knock"], "knock")
    only_fields(knock, {"player", "kind"}, "knock")
    if "player" not in knock or "kind" not in knock:
        raise invalid("knock", "needs a player and a kind")
    spetos = read_object(doc.get("knocker_speto", {}), "knocker_speto")
    only_fields(spetos, {"held", "picked"}, "knocker_speto")
    face_down = doc.get("face_down")
    return Knock(
        player=read_name(knock["player"], "knock.player"),
        kind=read_choice(knock["kind"], "knock.kind", KnockKind),
        speto_held=read_whole(spetos.get("held", 0), "knocker_speto.held", minimum=0),
        speto_picked=read_whole(spetos.get("picked", 0), "knocker_speto.picked", minimum=0),
        face_down=None if face_down is None else read_choice(face_down, "face_down", FaceDown),
    )


def _levels(value: Any) -> dict[str, Level]:
    return {
        read_name(k, "levels"): read_choice(v, f"levels.{k}", Level)
        for k, v in read_object(value, "levels").items()
    }


def _tie_break(value: Any) -> TieBreak | None:
    if value is None:
        return None
    if isinstance(value, dict):
        only_fields(value, {"head_color"}, "tie_break")
        if "head_color" not in value:
            raise invalid("tie_break", 'give a list of players or {"head_color": "red"}')
        return TieBreak(
            head_color=read_choice(value["head_color"], "tie_break.head_color", HeadColor)
        )
    return TieBreak(order=read_names(value, "tie_break"))


def _event(value: Any, i: int) -> Event:
    where = f"events[{i}]"
    raw = read_object(value, where)
    if "type" not in raw or "player" not in raw:
        raise invalid(where, "needs a type and a player")
    kind = read_choice(raw["type"], f"{where}.type", EventType)
    only_fields(raw, {"type", "player"} | EVENT_FIELDS[kind], where)
    reason = raw.get("reason")
    return Event(
        type=kind,
        player=read_name(raw["player"], f"{where}.player"),
        close=read_names(raw.get("close", []), f"{where}.close"),
        count=read_whole(raw.get("count", 1), f"{where}.count", minimum=1),
        reason=None if reason is None else read_choice(reason, f"{where}.reason", FineReason),
    )


def game_from_document(doc: Any) -> Game:
    """Read one game of the settle contract; raise RuleError naming the first bad field."""
    doc = read_object(doc, "game")
    only_fields(doc, FIELDS, "game")
    if doc.get("rules") != RULES:
        raise invalid("rules", f"must be {shown(RULES)}")
    stakes = _stakes(doc)
    if "players" not in doc:
        raise invalid("players", "is missing")
    levels = doc.get("levels")
    collected = doc.get("collected")
    return Game(
        players=read_names(doc["players"], "players"),
        stakes=stakes,
        fine=read_whole(doc.get("fine", stakes.medium), "fine", minimum=1),
        knock=_knock(doc),
        points=read_counts(doc.get("points", {}), "points"),
        levels=None if levels is None else _levels(levels),
        collected=None if collected is None else frozenset(read_names(collected, "collected")),
        color=frozenset(read_names(doc.get("color", []), "color")),
        fool=None if doc.get("fool") is None else read_name(doc["fool"], "fool"),
        speto_held=read_counts(doc.get("speto_held", {}), "speto_held", minimum=0),
        total=None if doc.get("total") is None else read_name(doc["total"], "total"),
        tie_break=_tie_break(doc.get("tie_break")),
        events=tuple(
            _event(e, i) for i, e in enumerate(read_list(doc.get("events", []), "events"))
        ),
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
