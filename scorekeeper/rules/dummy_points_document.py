"""The settle contract's JSON document for one deal of Dummy to 500 (docs/rules/other-games.md).

Only the shape and types of the document are checked here; what the deal means is checked by
`dummy_points.validate` when it is scored. The readers are Knock Dummy's, so the three games refuse
a bad document alike.
"""

from typing import Any

from scorekeeper.rules.document import (
    invalid,
    only_fields,
    read_choice,
    read_name,
    read_names,
    read_object,
    read_totals,
    read_whole,
    shown,
)
from scorekeeper.rules.dummy_points import (
    PAGE_HOUSE,
    RULES,
    TARGET,
    Count,
    Deal,
    DealScore,
    Head,
    HouseRules,
    Knock,
    KnockKind,
    Penalty,
    Standing,
    cards_points,
    next_standing,
    score_deal,
)
from scorekeeper.rules.errors import RuleError

DECK_CARDS = 52  # no player makes more penalties of a kind in a deal than there are cards

FIELDS = {"rules", "players", "house", "knock", "fool", "head", "counts", "match"}
COUNT_FIELDS = {"table", "hand", "difference", "aces_in_runs", "collected", "penalties"}
HOUSE_FLAGS = ("knock_card_speto_100", "knock_card_lay_off_100", "ace_in_run_10")
HOUSE_AMOUNTS = (
    "dummy_discard", "full_discard", "head_close", "speto_close", "speto_defence",
    "speto_laid_off", "head", "head_speto",
)  # fmt: skip


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise invalid(field, "must be true or false")
    return value


def _house(value: Any) -> HouseRules:
    house = read_object(value, "house")
    only_fields(house, set(HOUSE_FLAGS) | set(HOUSE_AMOUNTS), "house")
    settings: dict[str, Any] = {k: _flag(house[k], f"house.{k}") for k in HOUSE_FLAGS if k in house}
    for k in HOUSE_AMOUNTS:
        if k in house:
            settings[k] = read_whole(house[k], f"house.{k}", minimum=0)
    return HouseRules(**settings)


def _knock(value: Any) -> Knock:
    knock = read_object(value, "knock")
    only_fields(knock, {"player", "kind", "speto", "could_lay_off"}, "knock")
    if "player" not in knock or "kind" not in knock:
        raise invalid("knock", "needs a player and a kind")
    return Knock(
        player=read_name(knock["player"], "knock.player"),
        kind=read_choice(knock["kind"], "knock.kind", KnockKind),
        speto=_flag(knock.get("speto", False), "knock.speto"),
        could_lay_off=_flag(knock.get("could_lay_off", False), "knock.could_lay_off"),
    )


def _head(value: Any) -> Head:
    head = read_object(value, "head")
    only_fields(head, {"player", "speto"}, "head")
    if "player" not in head:
        raise invalid("head", "needs a player")
    return Head(
        read_name(head["player"], "head.player"), _flag(head.get("speto", False), "head.speto")
    )


class _Cards:
    """Cards listed anywhere in the deal, so that none is listed twice (one deck)."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def points(self, value: Any, field: str, house: HouseRules, aces_in_runs: int = 0) -> int:
        if not isinstance(value, list):
            return read_whole(value, field)
        cards = [_card(v, field) for v in value]
        for card in cards:
            if card in self.seen:
                raise RuleError(
                    "card-repeated",
                    "{card} is listed twice ({first} and {second}): a deck has one of each",
                    field="counts",
                    card=card,
                    first=self.seen[card],
                    second=field,
                )
            self.seen[card] = field
        return cards_points(cards, aces_in_runs=aces_in_runs, house=house)


def _card(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise invalid(field, f"{shown(value)} is not a card code like C2, SQ, H10 or DA")
    return value


def _count(value: Any, field: str, house: HouseRules, cards: _Cards) -> Count:
    raw = read_object(value, field)
    only_fields(raw, COUNT_FIELDS, field)
    if "difference" in raw and ("table" in raw or "hand" in raw):
        raise invalid(field, "give table and hand, or difference, not both")
    if "aces_in_runs" in raw and not isinstance(raw.get("table"), list):
        raise invalid(f"{field}.aces_in_runs", "needs the table given as a list of cards")
    aces_in_runs = read_whole(raw.get("aces_in_runs", 0), f"{field}.aces_in_runs", minimum=0)
    penalties = read_object(raw.get("penalties", {}), f"{field}.penalties")
    difference = raw.get("difference")
    return Count(
        table=cards.points(raw.get("table", 0), f"{field}.table", house, aces_in_runs),
        hand=cards.points(raw.get("hand", 0), f"{field}.hand", house),
        # Given, it must be a number: a null difference is not a count of nothing.
        difference=read_whole(difference, f"{field}.difference") if "difference" in raw else None,
        collected=_flag(raw.get("collected", True), f"{field}.collected"),
        penalties={
            read_choice(k, f"{field}.penalties", Penalty): _penalty_count(
                v, f"{field}.penalties.{k}"
            )
            for k, v in penalties.items()
        },
    )


def _penalty_count(value: Any, field: str) -> int:
    n = read_whole(value, field, minimum=0)
    if n > DECK_CARDS:
        raise invalid(field, f"must be at most {DECK_CARDS}")
    return n


def deal_from_document(doc: Any) -> Deal:
    """Read one deal of the settle contract; raise RuleError naming the first bad field."""
    doc = read_object(doc, "deal")
    only_fields(doc, FIELDS, "deal")
    if doc.get("rules") != RULES:
        raise invalid("rules", f"must be {shown(RULES)}")
    for key in ("players", "counts"):
        if key not in doc:
            raise invalid(key, "is missing")
    house = PAGE_HOUSE if "house" not in doc else _house(doc["house"])
    cards = _Cards()
    counts = read_object(doc["counts"], "counts")
    return Deal(
        players=read_names(doc["players"], "players"),
        counts={
            read_name(k, "counts"): _count(v, f"counts.{k}", house, cards)
            for k, v in counts.items()
        },
        knock=None if doc.get("knock") is None else _knock(doc["knock"]),
        fool=None if doc.get("fool") is None else read_name(doc["fool"], "fool"),
        head=None if doc.get("head") is None else _head(doc["head"]),
        house=house,
    )


def match_from_document(doc: Any, players: tuple[str, ...]) -> tuple[dict[str, int], int] | None:
    """Read the optional `match` field: the totals before this deal (zero if left out), target."""
    if "match" not in doc:
        return None
    match = read_object(doc["match"], "match")
    only_fields(match, {"totals", "target"}, "match")
    totals = read_totals(match, players)
    return totals, read_whole(match.get("target", TARGET), "match.target", minimum=1)


def score_to_document(score: DealScore) -> dict[str, Any]:
    """Write a deal's scores, each with the terms of the page's formula."""
    return {
        "rules": RULES,
        "scores": score.by_player(),
        "detail": {
            s.player: {
                "points": s.points,
                "bonuses": s.bonuses,
                "penalties": s.penalties,
                "multiplier": s.multiplier,
            }
            for s in score.scores
        },
        "reverse_next_deal": score.reverse_next_deal,
    }


def standing_to_document(state: Standing) -> dict[str, Any]:
    """Write where the match stands after the deal."""
    return {
        "target": state.target,
        "totals": dict(state.totals),
        "ended": state.ended,
        "winners": list(state.winners),
    }


def settle_document(doc: Any) -> dict[str, Any]:
    """Score one deal given as a document, and the match's new totals when it carries them."""
    deal = deal_from_document(doc)
    score = score_deal(deal)
    result = score_to_document(score)
    match = match_from_document(doc, deal.players)
    if match is not None:
        totals, target = match
        result["match"] = standing_to_document(next_standing(totals, score.by_player(), target))
    return result


def game_document_result(doc: Any) -> dict[str, Any]:
    """Settle a `"rules": "dummy-points"` document for `manage.py settle`; RuleError if bad."""
    return settle_document(doc)
