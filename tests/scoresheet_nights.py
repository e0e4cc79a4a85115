"""Score-sheet nights for tests that look at every page: a classic Dummy sheet with a hand, and a
Gong Zhu sheet for money with a hand and a voided hand (left open, for the caller to close)."""

from decimal import Decimal
from typing import NamedTuple

from scorekeeper.models import Game, Group, Membership, Night
from scorekeeper.services import scoresheet

HEARTS = [f"H{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


class Sheets(NamedTuple):
    dummy: Night
    hand: Game
    gong: Night
    gong_hand: Game


def score_sheets(group: Group, host: Membership, players: list[str]) -> Sheets:
    """Classic Dummy for the first three `players` with one hand; Gong Zhu for all four, a baht
    a point, with one hand and one voided."""
    a, b, c, d = players
    dummy = scoresheet.scoresheet_open(
        group=group, ruleset="dummy-points", players=players[:3], house={}, target=500, actor=host
    )
    hand = scoresheet.hand_record(
        night=dummy,
        hand={
            "knock": {"player": a, "kind": "normal"},
            "counts": {a: {"difference": 40}, b: {"difference": -15}, c: {"difference": 5}},
        },
        actor=host,
    )
    gong = scoresheet.scoresheet_open(
        group=group,
        ruleset="gong-zhu",
        players=players,
        house={},
        target={"points": 300, "direction": "down"},
        point_value=Decimal(1),
        actor=host,
    )
    gong_hand = scoresheet.hand_record(
        night=gong,
        hand={"captured": {b: ["SQ", "H2"], c: [*HEARTS[1:], "DJ", "C10"]}},
        actor=host,
    )
    scoresheet.hand_void(
        game=scoresheet.hand_record(
            night=gong, hand={"captured": {a: ["SQ", "H2"], d: [*HEARTS[1:], "DJ", "C10"]}}
        ),
        actor=host,
    )
    return Sheets(dummy, hand, gong, gong_hand)
