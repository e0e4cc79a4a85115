"""Classic Dummy to 500: every scoring rule and house option of docs/rules/other-games.md.

Every expected score is worked out by hand from the page's formula
(table − hand + bonuses − penalties) × multiplier.
"""

import json
import re
from pathlib import Path

import pytest

from scorekeeper.rules.dummy_points import (
    RANKS,
    SUITS,
    HouseRules,
    card_points,
    cards_points,
    play_match,
    standing,
)
from scorekeeper.rules.dummy_points_document import game_document_result, settle_document
from scorekeeper.rules.errors import RuleError

# Bee knocks; Ann 45 − 30, Bee 120 on the table, Cat −20 as a difference, Dan 35 left in hand.
COUNTS = {
    "Ann": {"table": 45, "hand": 30},
    "Bee": {"table": 120},
    "Cat": {"difference": -20},
    "Dan": {"hand": 35},
}
PLAIN = {"Ann": 15, "Bee": 170, "Cat": -20, "Dan": -35}


def make_doc(*, players=tuple(COUNTS), counts=None, house=None, **overrides):
    """Return a valid deal (four players unless told): Bee knocks (normal), a plain knock card.

    `counts` are merged into each player's count; an override of None leaves the field out.
    """
    merged = {p: COUNTS[p] | (counts or {}).get(p, {}) for p in players}
    doc = {
        "rules": "dummy-points",
        "players": list(players),
        "knock": {"player": "Bee", "kind": "normal"},
        "counts": merged,
    }
    if house is not None:
        doc["house"] = house
    doc.update(overrides)
    return {key: value for key, value in doc.items() if value is not None}


def scores(doc):
    return settle_document(doc)["scores"]


def knock(kind="normal", **card):
    return {"player": "Bee", "kind": kind, **card}


def penalised(kind, n=1, player="Ann"):
    return {player: {"penalties": {kind: n}}}


SCORE_ROWS = [
    ("a normal knock: table − hand, and 50 for the knock card", make_doc(), PLAIN),
    ("a dark knock doubles the knocker", make_doc(knock=knock("dark")), PLAIN | {"Bee": 340}),
    ("a color knock doubles the knocker", make_doc(knock=knock("color")), PLAIN | {"Bee": 340}),
    (
        "a dark color knock quadruples the knocker",
        make_doc(knock=knock("dark-color")),
        PLAIN | {"Bee": 680},
    ),
    ("a stock-out deal has no knock card", make_doc(knock=None), PLAIN | {"Bee": 120}),
    # the knock card's house options
    (
        "a Speto knock card is 50 without the house option",
        make_doc(knock=knock(speto=True)),
        PLAIN,
    ),
    (
        "a Speto knock card is 100 with the house option",
        make_doc(knock=knock(speto=True), house={"knock_card_speto_100": True}),
        PLAIN | {"Bee": 220},
    ),
    (
        "a knock card that could be laid off is 50 without the house option",
        make_doc(knock=knock(could_lay_off=True)),
        PLAIN,
    ),
    (
        "a knock card that could be laid off is 100 with the house option",
        make_doc(knock=knock(could_lay_off=True), house={"knock_card_lay_off_100": True}),
        PLAIN | {"Bee": 220},
    ),
    (
        "a Speto knock card that could be laid off is still 100 with both options",
        make_doc(
            knock=knock(speto=True, could_lay_off=True),
            house={"knock_card_speto_100": True, "knock_card_lay_off_100": True},
        ),
        PLAIN | {"Bee": 220},
    ),
    (
        "the lay-off option does not price a Speto knock card",
        make_doc(knock=knock(speto=True), house={"knock_card_lay_off_100": True}),
        PLAIN,
    ),
    (
        "a 100 knock card is doubled by a dark knock",
        make_doc(knock=knock("dark", speto=True), house={"knock_card_speto_100": True}),
        PLAIN | {"Bee": 440},
    ),
    # dark sleepers
    (
        "a dark sleeper's loss is doubled",
        make_doc(counts={"Dan": {"collected": False}}),
        PLAIN | {"Dan": -70},
    ),
    (
        "a dark sleeper's penalties are doubled with their hand",
        make_doc(counts={"Dan": {"collected": False, "penalties": {"dummy-discard": 1}}}),
        PLAIN | {"Dan": -170},
    ),
    (
        "a dark sleeper with nothing in hand scores 0, not doubled",
        make_doc(counts={"Dan": {"hand": 0, "collected": False}}),
        PLAIN | {"Dan": 0},
    ),
    (
        "a dark sleeper given as a difference is doubled",
        make_doc(counts={"Cat": {"collected": False}}),
        PLAIN | {"Cat": -40},
    ),
    (
        "a dark sleeper is doubled in a stock-out deal too",
        make_doc(knock=None, counts={"Dan": {"collected": False}}),
        PLAIN | {"Bee": 120, "Dan": -70},
    ),
    ("a collected player's loss is not doubled", make_doc(), PLAIN),
    # the fool discard
    ("a fool discard costs 50", make_doc(fool="Ann"), PLAIN | {"Ann": -35}),
    (
        "a dark sleeper's fool discard is doubled",
        make_doc(fool="Dan", counts={"Dan": {"collected": False}}),
        PLAIN | {"Dan": -170},
    ),
    # the house penalties, each 50 by default
    ("a dummy discard costs 50", make_doc(counts=penalised("dummy-discard")), PLAIN | {"Ann": -35}),
    ("a full discard costs 50", make_doc(counts=penalised("full-discard")), PLAIN | {"Ann": -35}),
    (
        "a close discard of the head costs 50 (Cat picked the head up: +50)",
        make_doc(counts=penalised("head-close"), head={"player": "Cat"}),
        PLAIN | {"Ann": -35, "Cat": 30},
    ),
    (
        "a close discard of a Speto costs 50",
        make_doc(counts=penalised("speto-close")),
        PLAIN | {"Ann": -35},
    ),
    (
        "a Speto-defence first discard costs 50",
        make_doc(counts=penalised("speto-defence")),
        PLAIN | {"Ann": -35},
    ),
    (
        "a meld that let another lay off a Speto costs 50",
        make_doc(counts=penalised("speto-laid-off")),
        PLAIN | {"Ann": -35},
    ),
    (
        "a discard both dummy and full costs 100",
        make_doc(counts={"Ann": {"penalties": {"dummy-discard": 1, "full-discard": 1}}}),
        PLAIN | {"Ann": -85},
    ),
    (
        "a discard both head close and Speto close costs 100",
        make_doc(
            counts={"Ann": {"penalties": {"head-close": 1, "speto-close": 1}}},
            head={"player": "Cat"},
        ),
        PLAIN | {"Ann": -85, "Cat": 30},
    ),
    (
        "two dummy discards cost 100",
        make_doc(counts=penalised("dummy-discard", 2)),
        PLAIN | {"Ann": -85},
    ),
    (
        "a penalty and a fool discard add up",
        make_doc(fool="Ann", counts=penalised("full-discard")),
        PLAIN | {"Ann": -85},
    ),
    (
        "a zero count of a penalty costs nothing",
        make_doc(counts=penalised("dummy-discard", 0)),
        PLAIN,
    ),
    (
        "the knocker's own penalty is multiplied with the rest",
        make_doc(knock=knock("dark"), counts=penalised("dummy-discard", player="Bee")),
        PLAIN | {"Bee": 240},
    ),
    (
        "a house amount of 100 for the dummy discard",
        make_doc(counts=penalised("dummy-discard"), house={"dummy_discard": 100}),
        PLAIN | {"Ann": -85},
    ),
    # the head card
    ("picking up the head is +50", make_doc(head={"player": "Cat"}), PLAIN | {"Cat": 30}),
    (
        "picking up a Speto head is +100",
        make_doc(head={"player": "Cat", "speto": True}),
        PLAIN | {"Cat": 80},
    ),
    (
        "the knocker's head bonus is doubled by a dark knock",
        make_doc(knock=knock("dark"), head={"player": "Bee"}),
        PLAIN | {"Bee": 440},
    ),
    (
        "a house amount of 30 for the head",
        make_doc(head={"player": "Cat"}, house={"head": 30}),
        PLAIN | {"Cat": 10},
    ),
    (
        "a house amount of 150 for a Speto head",
        make_doc(head={"player": "Cat", "speto": True}, house={"head_speto": 150}),
        PLAIN | {"Cat": 130},
    ),
    # two and three players
    (
        "two players",
        make_doc(players=("Ann", "Bee")),
        {"Ann": 15, "Bee": 170},
    ),
    (
        "three players",
        make_doc(players=("Ann", "Bee", "Dan"), counts={"Dan": {"collected": False}}),
        {"Ann": 15, "Bee": 170, "Dan": -70},
    ),
]


@pytest.mark.parametrize(
    ("doc", "expected"), [row[1:] for row in SCORE_ROWS], ids=[row[0] for row in SCORE_ROWS]
)
def test_a_deal_scores_by_the_pages_formula(doc, expected):
    assert scores(doc) == expected


def test_a_fool_discard_reverses_the_next_deal():
    assert settle_document(make_doc(fool="Ann"))["reverse_next_deal"] is True
    assert settle_document(make_doc())["reverse_next_deal"] is False


def test_the_detail_gives_each_term_of_the_formula():
    doc = make_doc(knock=knock("dark"), head={"player": "Bee"}, counts=penalised("full-discard"))

    detail = settle_document(doc)["detail"]

    assert detail["Bee"] == {"points": 120, "bonuses": 100, "penalties": 0, "multiplier": 2}
    assert detail["Ann"] == {"points": 15, "bonuses": 0, "penalties": 50, "multiplier": 1}


def test_game_document_result_is_the_settle_commands_entry_point():
    assert game_document_result(make_doc()) == settle_document(make_doc())


DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules" / "other-games.md"


def docs_example(rules):
    """Return the (document, result) JSON blocks docs/rules/other-games.md gives for `rules`."""
    blocks = [
        json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOCS.read_text("utf-8"), re.S)
    ]
    return next((doc, blocks[i + 1]) for i, doc in enumerate(blocks) if doc.get("rules") == rules)


def test_the_docs_example_settles_as_written():
    doc, result = docs_example("dummy-points")

    assert settle_document(doc) == result


@pytest.mark.parametrize(
    "kind",
    [
        "dummy-discard",
        "full-discard",
        "head-close",
        "speto-close",
        "speto-defence",
        "speto-laid-off",
    ],
)
def test_a_penalty_the_house_does_not_play_is_refused(kind):
    field = kind.replace("-", "_")
    doc = make_doc(counts=penalised(kind), head={"player": "Cat"}, house={field: 0})

    with pytest.raises(RuleError) as error:
        settle_document(doc)

    assert error.value.code == "house-not-played"


@pytest.mark.parametrize(
    ("head", "house"),
    [({"player": "Cat"}, {"head": 0}), ({"player": "Cat", "speto": True}, {"head_speto": 0})],
    ids=["head", "Speto head"],
)
def test_a_head_the_house_does_not_play_is_refused(head, house):
    with pytest.raises(RuleError) as error:
        settle_document(make_doc(head=head, house=house))

    assert error.value.code == "house-not-played"


# -- card values ---------------------------------------------------------------------------------

CARD_ROWS = [
    ("C3", False, False, 5),
    ("H9", False, False, 5),
    ("D2", False, False, 5),
    ("D10", False, False, 10),
    ("SJ", False, False, 10),
    ("HQ", False, False, 10),
    ("CK", False, False, 10),
    ("CQ", False, False, 10),
    ("HA", False, False, 15),
    ("C2", False, False, 50),
    ("SQ", False, False, 50),
    ("SQ", True, True, 50),
    ("HA", True, False, 15),
    ("HA", False, True, 15),
    ("HA", True, True, 10),
]


@pytest.mark.parametrize(
    ("card", "in_run", "option", "points"),
    CARD_ROWS,
    ids=[f"{c} in run={r} option={o}" for c, r, o, _ in CARD_ROWS],
)
def test_a_card_counts_its_pages_value(card, in_run, option, points):
    assert card_points(card, in_run=in_run, house=HouseRules(ace_in_run_10=option)) == points


def test_a_whole_deck_counts_465():
    deck = [suit + rank for suit in SUITS for rank in RANKS]

    assert cards_points(deck) == 465


def test_aces_in_runs_count_10_with_the_house_option():
    house = HouseRules(ace_in_run_10=True)

    assert cards_points(["HQ", "HK", "HA", "SA"], aces_in_runs=1, house=house) == 45


def test_cards_can_be_listed_instead_of_points():
    doc = make_doc(
        counts={
            "Ann": {"table": ["HQ", "HK", "HA", "C2"], "hand": ["D5", "S5"]},
            "Bee": {"table": ["S6", "S7", "S8", "D9", "C9", "H9"]},
        }
    )

    assert scores(doc) == PLAIN | {"Ann": 75, "Bee": 80}


def test_an_ace_in_a_run_counts_10_when_listed_with_aces_in_runs():
    doc = make_doc(
        counts={"Ann": {"table": ["HQ", "HK", "HA"], "hand": 30, "aces_in_runs": 1}},
        house={"ace_in_run_10": True},
    )

    assert scores(doc)["Ann"] == 0


# -- the match -----------------------------------------------------------------------------------

MATCH_ROWS = [
    ("nobody at the target", {"Ann": 495, "Bee": 200}, False, ()),
    ("exactly the target wins", {"Ann": 500, "Bee": 200}, True, ("Ann",)),
    ("past the target wins", {"Ann": 200, "Bee": 640}, True, ("Bee",)),
    ("two past the target: the higher total wins", {"Ann": 520, "Bee": 610}, True, ("Bee",)),
    ("two past the target on equal totals share", {"Ann": 600, "Bee": 600}, True, ("Ann", "Bee")),
    ("negative totals do not end the match", {"Ann": -900, "Bee": 10}, False, ()),
]


@pytest.mark.parametrize(
    ("totals", "ended", "winners"),
    [row[1:] for row in MATCH_ROWS],
    ids=[row[0] for row in MATCH_ROWS],
)
def test_the_first_to_reach_500_wins(totals, ended, winners):
    state = standing(totals)

    assert (state.ended, state.winners) == (ended, winners)


def test_a_match_adds_up_deals_to_the_agreed_target():
    state = play_match(["Ann", "Bee"], [{"Ann": 150, "Bee": -20}, {"Ann": 160, "Bee": 30}], 300)

    assert (dict(state.totals), state.ended, state.winners) == (
        {"Ann": 310, "Bee": 10},
        True,
        ("Ann",),
    )


def test_a_deal_after_the_match_has_ended_is_refused():
    with pytest.raises(RuleError) as error:
        play_match(["Ann", "Bee"], [{"Ann": 500, "Bee": 0}, {"Ann": 10, "Bee": 10}])

    assert error.value.code == "match-over"


def test_a_document_with_the_previous_totals_gives_the_new_totals_and_winner():
    doc = make_doc(match={"totals": {"Ann": 300, "Bee": 340, "Cat": 100, "Dan": 0}})

    assert settle_document(doc)["match"] == {
        "target": 500,
        "totals": {"Ann": 315, "Bee": 510, "Cat": 80, "Dan": -35},
        "ended": True,
        "winners": ["Bee"],
    }


def test_a_document_match_without_totals_starts_from_zero():
    match = settle_document(make_doc(match={"target": 100}))["match"]

    assert match == {"target": 100, "totals": PLAIN, "ended": True, "winners": ["Bee"]}


def test_a_document_without_a_match_gives_only_the_deal():
    assert "match" not in settle_document(make_doc())
