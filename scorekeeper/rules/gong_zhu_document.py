"""The settle contract's JSON document for one deal of Gong Zhu (docs/rules/other-games.md).

Only the shape and types of the document are checked here; what the deal means is checked by
`gong_zhu.validate` when it is scored. The readers are Knock Dummy's, so the three games refuse a
bad document alike.
"""

from typing import Any

from scorekeeper.rules.document import (
    invalid,
    only_fields,
    read_choice,
    read_list,
    read_name,
    read_names,
    read_object,
    read_totals,
    read_whole,
    shown,
)
from scorekeeper.rules.gong_zhu import (
    PAGE_HOUSE,
    PAGE_TARGET,
    RULES,
    Card,
    Deal,
    DealScore,
    Direction,
    HouseRules,
    Standing,
    Target,
    next_standing,
    pairwise,
    score_deal,
)

FIELDS = {"rules", "players", "house", "captured", "match"}


def _house(value: Any) -> HouseRules:
    house = read_object(value, "house")
    only_fields(house, {"no_point_cards", "pig_in_shuan"}, "house")
    return HouseRules(
        no_point_cards=read_whole(house.get("no_point_cards", -50), "house.no_point_cards"),
        pig_in_shuan=read_whole(house.get("pig_in_shuan", -100), "house.pig_in_shuan"),
    )


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    return tuple(read_choice(v, field, Card) for v in read_list(value, field))


def deal_from_document(doc: Any) -> Deal:
    """Read one deal of the settle contract; raise RuleError naming the first bad field."""
    doc = read_object(doc, "deal")
    only_fields(doc, FIELDS, "deal")
    if doc.get("rules") != RULES:
        raise invalid("rules", f"must be {shown(RULES)}")
    for key in ("players", "captured"):
        if key not in doc:
            raise invalid(key, "is missing")
    captured = read_object(doc["captured"], "captured")
    return Deal(
        players=read_names(doc["players"], "players"),
        captured={
            read_name(k, "captured"): _cards(v, f"captured.{k}") for k, v in captured.items()
        },
        house=PAGE_HOUSE if "house" not in doc else _house(doc["house"]),
    )


def _target(value: Any) -> Target:
    target = read_object(value, "match.target")
    only_fields(target, {"points", "direction"}, "match.target")
    return Target(
        points=read_whole(
            target.get("points", PAGE_TARGET.points), "match.target.points", minimum=1
        ),
        direction=read_choice(
            target.get("direction", PAGE_TARGET.direction), "match.target.direction", Direction
        ),
    )


def match_from_document(doc: Any, players: tuple[str, ...]) -> tuple[dict[str, int], Target] | None:
    """Read the optional `match` field: the totals before this deal (zero if left out), target."""
    if "match" not in doc:
        return None
    match = read_object(doc["match"], "match")
    only_fields(match, {"totals", "target"}, "match")
    totals = read_totals(match, players)
    return totals, PAGE_TARGET if "target" not in match else _target(match["target"])


def score_to_document(score: DealScore) -> dict[str, Any]:
    """Write a deal's scores, with its Shuan, Big Shuan and missing card (null when none)."""
    return {
        "rules": RULES,
        "scores": dict(score.scores),
        "shuan": score.shuan,
        "big_shuan": score.big_shuan,
        "missing": None if score.missing is None else str(score.missing),
    }


def standing_to_document(state: Standing) -> dict[str, Any]:
    """Write where the match stands; once it has ended, the pairwise differences to pay."""
    result: dict[str, Any] = {
        "target": {"points": state.target.points, "direction": str(state.target.direction)},
        "totals": dict(state.totals),
        "ended": state.ended,
        "winners": list(state.winners),
        "pigs": list(state.pigs),
    }
    if state.ended:
        result["pairwise"] = [
            {"payer": p.payer, "payee": p.payee, "points": p.points} for p in pairwise(state.totals)
        ]
    return result


def settle_document(doc: Any) -> dict[str, Any]:
    """Score one deal given as a document, and the match's new totals when it carries them."""
    deal = deal_from_document(doc)
    score = score_deal(deal)
    result = score_to_document(score)
    match = match_from_document(doc, deal.players)
    if match is not None:
        totals, target = match
        result["match"] = standing_to_document(next_standing(totals, score.scores, target))
    return result


def game_document_result(doc: Any) -> dict[str, Any]:
    """Settle a `"rules": "gong-zhu"` document for `manage.py settle`; RuleError if bad."""
    return settle_document(doc)
