"""Gong Zhu: every scoring rule and house option of docs/rules/other-games.md, the match, money.

Every expected score is worked out by hand from the page's table.
"""

from decimal import Decimal

import pytest

from scorekeeper.rules.gong_zhu import (
    Direction,
    Payment,
    Target,
    pairwise,
    pairwise_net,
    play_match,
    standing,
)
from scorekeeper.rules.gong_zhu_document import game_document_result, settle_document
from scorekeeper.rules.money import baht
from tests.rules.test_dummy_points import docs_example

PLAYERS = ("Ann", "Bee", "Cat", "Dan")
HEARTS = ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA"]
SMALL_HEARTS = HEARTS[:9]  # ♥2-♥10: −54
HONOURS = HEARTS[9:]  # J♥ Q♥ K♥ A♥: −140


def make_doc(captured, *, players=PLAYERS, house=None, **overrides):
    """Return a deal in the settle contract with these captures; a player left out took none."""
    doc = {"rules": "gong-zhu", "players": list(players), "captured": captured}
    if house is not None:
        doc["house"] = house
    return doc | overrides


def hearts_but(*cards):
    return [c for c in HEARTS if c not in cards]


def scores(doc):
    return settle_document(doc)["scores"]


SCORE_ROWS = [
    (
        "hearts count their face value, the honours 20 to 50",
        make_doc({"Ann": SMALL_HEARTS, "Bee": HONOURS, "Cat": ["SQ", "DJ"], "Dan": ["C10"]}),
        {"Ann": -54, "Bee": -140, "Cat": 0, "Dan": 50},
    ),
    (
        "the pig is −100 and the jack of diamonds +100",
        make_doc({"Ann": hearts_but("HA"), "Bee": ["HA", "C10"], "Cat": ["SQ"], "Dan": ["DJ"]}),
        {"Ann": -144, "Bee": -100, "Cat": -100, "Dan": 100},
    ),
    (
        "the glass alone is +50",
        make_doc({"Ann": HEARTS[:12], "Bee": ["HA", "DJ"], "Cat": ["SQ"], "Dan": ["C10"]}),
        {"Ann": -144, "Bee": 50, "Cat": -100, "Dan": 50},
    ),
    (
        "the glass doubles a loss",
        make_doc(
            {
                "Ann": ["H2", "H3", "C10"],
                "Bee": hearts_but("H2", "H3"),
                "Cat": ["SQ"],
                "Dan": ["DJ"],
            }
        ),
        {"Ann": -10, "Bee": -189, "Cat": -100, "Dan": 100},
    ),
    (
        "the glass doubles a gain",
        make_doc({"Ann": hearts_but("HA"), "Bee": ["HA"], "Cat": ["SQ"], "Dan": ["DJ", "C10"]}),
        {"Ann": -144, "Bee": -50, "Cat": -100, "Dan": 200},
    ),
    (
        "the glass doubles a pig and a jack that cancel to 0",
        make_doc(
            {
                "Ann": ["SQ", "DJ", "C10"],
                "Bee": SMALL_HEARTS,
                "Cat": ["HJ", "HQ"],
                "Dan": ["HK", "HA"],
            }
        ),
        {"Ann": 0, "Bee": -54, "Cat": -50, "Dan": -90},
    ),
    (
        "no point card at all is −50",
        make_doc({"Bee": hearts_but("H2"), "Cat": ["H2", "SQ"], "Dan": ["DJ", "C10"]}),
        {"Ann": -50, "Bee": -192, "Cat": -102, "Dan": 200},
    ),
    (
        "no point card at all is 0 with the house option",
        make_doc(
            {"Bee": hearts_but("H2"), "Cat": ["H2", "SQ"], "Dan": ["DJ", "C10"]},
            house={"no_point_cards": 0},
        ),
        {"Ann": 0, "Bee": -192, "Cat": -102, "Dan": 200},
    ),
    (
        "an empty list is no point card",
        make_doc({"Ann": [], "Bee": hearts_but("H2"), "Cat": ["H2", "SQ"], "Dan": ["DJ", "C10"]}),
        {"Ann": -50, "Bee": -192, "Cat": -102, "Dan": 200},
    ),
    (
        "twelve hearts are no Shuan",
        make_doc({"Ann": hearts_but("H2"), "Bee": ["H2"], "Cat": ["SQ"], "Dan": ["DJ", "C10"]}),
        {"Ann": -192, "Bee": -2, "Cat": -100, "Dan": 200},
    ),
    # Shuan (ช้วน)
    (
        "a Shuan's hearts count +194, the pig elsewhere −100",
        make_doc({"Ann": HEARTS, "Bee": ["SQ"], "Cat": ["DJ"], "Dan": ["C10"]}),
        {"Ann": 194, "Bee": -100, "Cat": 100, "Dan": 50},
    ),
    (
        "the pig elsewhere in a Shuan deal is +100 with the house option",
        make_doc(
            {"Ann": HEARTS, "Bee": ["SQ"], "Cat": ["DJ"], "Dan": ["C10"]},
            house={"pig_in_shuan": 100},
        ),
        {"Ann": 194, "Bee": 100, "Cat": 100, "Dan": 50},
    ),
    (
        "the pig with the Shuan counts +100",
        make_doc({"Ann": [*HEARTS, "SQ"], "Bee": ["DJ"], "Cat": ["C10"]}),
        {"Ann": 294, "Bee": 100, "Cat": 50, "Dan": -50},
    ),
    (
        "the pig with the Shuan counts +100 whatever the house option",
        make_doc(
            {"Ann": [*HEARTS, "SQ"], "Bee": ["DJ"], "Cat": ["C10"]}, house={"pig_in_shuan": 100}
        ),
        {"Ann": 294, "Bee": 100, "Cat": 50, "Dan": -50},
    ),
    (
        "a Shuan with the jack of diamonds",
        make_doc({"Ann": [*HEARTS, "DJ"], "Bee": ["SQ"], "Cat": ["C10"]}),
        {"Ann": 294, "Bee": -100, "Cat": 50, "Dan": -50},
    ),
    (
        "the glass doubles a Shuan",
        make_doc({"Ann": [*HEARTS, "C10"], "Bee": ["SQ"], "Cat": ["DJ"]}),
        {"Ann": 388, "Bee": -100, "Cat": 100, "Dan": -50},
    ),
    (
        "the glass doubles a Shuan with the pig",
        make_doc({"Ann": [*HEARTS, "SQ", "C10"], "Bee": ["DJ"]}),
        {"Ann": 588, "Bee": 100, "Cat": -50, "Dan": -50},
    ),
    (
        "the glass doubles the pig elsewhere in a Shuan deal",
        make_doc({"Ann": HEARTS, "Bee": ["SQ", "C10"], "Cat": ["DJ"]}),
        {"Ann": 194, "Bee": -200, "Cat": 100, "Dan": -50},
    ),
    (
        "the glass doubles the pig elsewhere at +100 with the house option",
        make_doc({"Ann": HEARTS, "Bee": ["SQ", "C10"], "Cat": ["DJ"]}, house={"pig_in_shuan": 100}),
        {"Ann": 194, "Bee": 200, "Cat": 100, "Dan": -50},
    ),
    # Big Shuan (บิ๊กช้วน)
    (
        "a Big Shuan is +1000 flat, the others took nothing: −50",
        make_doc({"Ann": [*HEARTS, "SQ", "DJ", "C10"]}),
        {"Ann": 1000, "Bee": -50, "Cat": -50, "Dan": -50},
    ),
    (
        "a Big Shuan with the no-point-card house option",
        make_doc({"Ann": [*HEARTS, "SQ", "DJ", "C10"]}, house={"no_point_cards": 0}),
        {"Ann": 1000, "Bee": 0, "Cat": 0, "Dan": 0},
    ),
    (
        "a Big Shuan with the pig house option",
        make_doc({"Ann": [*HEARTS, "SQ", "DJ", "C10"]}, house={"pig_in_shuan": 100}),
        {"Ann": 1000, "Bee": -50, "Cat": -50, "Dan": -50},
    ),
    # three players (หมูพิการ)
    (
        "three players with one point card missing",
        make_doc(
            {"Ann": hearts_but("H2"), "Bee": ["SQ"], "Cat": ["DJ", "C10"]}, players=PLAYERS[:3]
        ),
        {"Ann": -192, "Bee": -100, "Cat": 200},
    ),
    (
        "three players with every point card taken",
        make_doc({"Ann": HEARTS, "Bee": ["SQ"], "Cat": ["DJ", "C10"]}, players=PLAYERS[:3]),
        {"Ann": 194, "Bee": -100, "Cat": 200},
    ),
    (
        "three players: all the point cards but the glass is a Shuan, not a Big Shuan",
        make_doc({"Ann": [*HEARTS, "SQ", "DJ"]}, players=PLAYERS[:3]),
        {"Ann": 394, "Bee": -50, "Cat": -50},
    ),
    (
        "three players: a Big Shuan",
        make_doc({"Ann": [*HEARTS, "SQ", "DJ", "C10"]}, players=PLAYERS[:3]),
        {"Ann": 1000, "Bee": -50, "Cat": -50},
    ),
]


@pytest.mark.parametrize(
    ("doc", "expected"), [row[1:] for row in SCORE_ROWS], ids=[row[0] for row in SCORE_ROWS]
)
def test_a_deal_scores_by_the_pages_table(doc, expected):
    assert scores(doc) == expected


SHUAN_ROWS = [
    (
        "no Shuan",
        make_doc({"Ann": hearts_but("H2"), "Bee": ["H2", "SQ", "DJ", "C10"]}),
        None,
        None,
        None,
    ),
    ("a Shuan", make_doc({"Ann": HEARTS, "Bee": ["SQ", "DJ", "C10"]}), "Ann", None, None),
    (
        "a Big Shuan is a Shuan too",
        make_doc({"Bee": [*HEARTS, "SQ", "DJ", "C10"]}),
        "Bee",
        "Bee",
        None,
    ),
    (
        "a three-player deal missing a heart has no Shuan",
        make_doc({"Ann": hearts_but("HK"), "Bee": ["SQ", "DJ", "C10"]}, players=PLAYERS[:3]),
        None,
        None,
        "HK",
    ),
]


@pytest.mark.parametrize(
    ("doc", "shuan", "big_shuan", "missing"),
    [row[1:] for row in SHUAN_ROWS],
    ids=[row[0] for row in SHUAN_ROWS],
)
def test_the_result_names_the_shuan_the_big_shuan_and_the_missing_card(
    doc, shuan, big_shuan, missing
):
    result = settle_document(doc)

    assert (result["shuan"], result["big_shuan"], result["missing"]) == (shuan, big_shuan, missing)


def test_the_docs_example_settles_as_written():
    doc, result = docs_example("gong-zhu")

    assert settle_document(doc) == result


def test_game_document_result_is_the_settle_commands_entry_point():
    doc = make_doc({"Ann": HEARTS, "Bee": ["SQ", "DJ", "C10"]})

    assert game_document_result(doc) == settle_document(doc)


# -- the match -----------------------------------------------------------------------------------

DOWN = Target(500, Direction.DOWN)
UP = Target(500, Direction.UP)
EITHER = Target(1000, Direction.EITHER)

MATCH_ROWS = [
    ("down: nobody at −500", DOWN, {"Ann": -499, "Bee": 120, "Cat": -300}, False, (), ()),
    (
        "down: −500 is the pig",
        DOWN,
        {"Ann": -500, "Bee": 120, "Cat": -300},
        True,
        ("Bee",),
        ("Ann",),
    ),
    (
        "down: two past −500, the lower is the pig",
        DOWN,
        {"Ann": -520, "Bee": -610, "Cat": 40},
        True,
        ("Cat",),
        ("Bee",),
    ),
    (
        "down: two past −500 on equal totals share the pig",
        DOWN,
        {"Ann": -600, "Bee": -600, "Cat": 40},
        True,
        ("Cat",),
        ("Ann", "Bee"),
    ),
    ("down: +500 does not end it", DOWN, {"Ann": 900, "Bee": -400}, False, (), ()),
    (
        "down: the winner may be negative too",
        DOWN,
        {"Ann": -80, "Bee": -700},
        True,
        ("Ann",),
        ("Bee",),
    ),
    (
        "down: equal winners share",
        DOWN,
        {"Ann": -80, "Bee": -80, "Cat": -700},
        True,
        ("Ann", "Bee"),
        ("Cat",),
    ),
    ("up: +500 wins, no pig", UP, {"Ann": 500, "Bee": -700}, True, ("Ann",), ()),
    ("up: −500 does not end it", UP, {"Ann": 400, "Bee": -700}, False, (), ()),
    ("either: +1000 ends it, no pig", EITHER, {"Ann": 1000, "Bee": -900}, True, ("Ann",), ()),
    (
        "either: −1000 ends it with a pig",
        EITHER,
        {"Ann": 100, "Bee": -1000},
        True,
        ("Ann",),
        ("Bee",),
    ),
    ("either: nobody at ±1000", EITHER, {"Ann": 999, "Bee": -999}, False, (), ()),
]


@pytest.mark.parametrize(
    ("target", "totals", "ended", "winners", "pigs"),
    [row[1:] for row in MATCH_ROWS],
    ids=[row[0] for row in MATCH_ROWS],
)
def test_the_match_ends_at_the_target_and_the_first_to_the_negative_one_is_the_pig(
    target, totals, ended, winners, pigs
):
    state = standing(totals, target)

    assert (state.ended, state.winners, state.pigs) == (ended, winners, pigs)


def test_a_match_adds_up_deals_until_the_pig():
    deals = [{"Ann": -300, "Bee": 100}, {"Ann": -250, "Bee": -50}]

    state = play_match(["Ann", "Bee"], deals)

    assert (dict(state.totals), state.pigs, state.winners) == (
        {"Ann": -550, "Bee": 50},
        ("Ann",),
        ("Bee",),
    )


def test_a_document_with_the_previous_totals_gives_the_new_totals_pig_and_differences():
    doc = make_doc(
        {"Ann": HEARTS, "Bee": ["SQ"], "Cat": ["DJ"], "Dan": ["C10"]},
        match={"totals": {"Ann": -300, "Bee": -450, "Cat": 0, "Dan": 10}},
    )

    assert settle_document(doc)["match"] == {
        "target": {"points": 500, "direction": "down"},
        "totals": {"Ann": -106, "Bee": -550, "Cat": 100, "Dan": 60},
        "ended": True,
        "winners": ["Cat"],
        "pigs": ["Bee"],
        "pairwise": [
            {"payer": "Bee", "payee": "Ann", "points": 444},
            {"payer": "Ann", "payee": "Cat", "points": 206},
            {"payer": "Ann", "payee": "Dan", "points": 166},
            {"payer": "Bee", "payee": "Cat", "points": 650},
            {"payer": "Bee", "payee": "Dan", "points": 610},
            {"payer": "Dan", "payee": "Cat", "points": 40},
        ],
    }


def test_a_match_still_on_gives_no_differences_to_pay():
    doc = make_doc(
        {"Ann": HEARTS, "Bee": ["SQ", "DJ", "C10"]},
        match={"target": {"points": 1000, "direction": "either"}},
    )

    match = settle_document(doc)["match"]

    assert match["ended"] is False and "pairwise" not in match
    assert match["totals"] == {"Ann": 194, "Bee": 0, "Cat": -50, "Dan": -50}


# -- money ---------------------------------------------------------------------------------------


def test_each_player_pays_every_higher_total_the_difference():
    totals = {"Ann": 100, "Bee": -50, "Cat": -50, "Dan": 0}

    assert pairwise(totals) == (
        Payment("Bee", "Ann", 150),
        Payment("Cat", "Ann", 150),
        Payment("Dan", "Ann", 100),
        Payment("Bee", "Dan", 50),
        Payment("Cat", "Dan", 50),
    )
    assert pairwise_net(totals) == {"Ann": 400, "Bee": -200, "Cat": -200, "Dan": 0}


def test_equal_totals_pay_nothing():
    assert pairwise({"Ann": -300, "Bee": -300}) == ()


def test_the_differences_turn_into_baht_at_the_agreed_value_elsewhere():
    net = pairwise_net({"Ann": 100, "Bee": -50, "Cat": -50, "Dan": 0})

    assert baht(net["Bee"], Decimal("0.50")) == Decimal("-100.00")
