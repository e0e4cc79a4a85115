"""Gong Zhu deals the settle contract refuses: RuleError with a stable code and a clear message."""

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.gong_zhu import Deal, Target, next_standing, score_deal, standing
from scorekeeper.rules.gong_zhu_document import settle_document
from tests.rules.test_gong_zhu import HEARTS, PLAYERS, hearts_but, make_doc

DOC = "document"  # the code of every shape or type error found while reading the document
FULL = {"Ann": HEARTS, "Bee": ["SQ"], "Cat": ["DJ"], "Dan": ["C10"]}


def full(**changes):
    """Return a valid four-player deal with some players' captures replaced."""
    return make_doc(FULL | changes)


ERROR_ROWS = [
    # the document's shape
    ("the deal is a list", [], DOC),
    ("the deal is text", "gong zhu", DOC),
    ("an unknown field", full() | {"pig": "Bee"}, DOC),
    ("wrong rules", full() | {"rules": "hearts"}, DOC),
    ("players missing", {"rules": "gong-zhu", "captured": FULL}, DOC),
    ("captured missing", {"rules": "gong-zhu", "players": list(PLAYERS)}, DOC),
    ("captured not an object", make_doc([["H2"]]), DOC),
    ("a player's cards not a list", full(Bee="SQ"), DOC),
    ("an unknown card", full(Bee=["SQ", "H1"]), DOC),
    ("a card written rank first", full(Bee=["QS"]), DOC),
    ("a card that is not a point card", full(Bee=["SQ", "S2"]), DOC),
    ("a card given as a number", full(Bee=["SQ", 10]), DOC),
    ("a card in lower case", full(Bee=["sq"]), DOC),
    ("an unknown house option", make_doc(FULL, house={"pig": 100}), DOC),
    ("a house option as text", make_doc(FULL, house={"no_point_cards": "0"}), DOC),
    ("an unknown match field", full() | {"match": {"goal": 500}}, DOC),
    ("an unknown target direction", full() | {"match": {"target": {"direction": "sideways"}}}, DOC),
    ("a zero target", full() | {"match": {"target": {"points": 0}}}, DOC),
    ("a target as a number", full() | {"match": {"target": -500}}, DOC),
    ("totals as text", full() | {"match": {"totals": {"Ann": "-10"}}}, DOC),
    # the table
    ("two players", make_doc({"Ann": HEARTS}, players=PLAYERS[:2]), "players-count"),
    ("five players", make_doc(FULL, players=(*PLAYERS, "Eve")), "players-count"),
    (
        "a player named twice",
        make_doc(FULL, players=("Ann", "Bee", "Cat", "Ann")),
        "player-repeated",
    ),
    ("a blank name", make_doc(FULL, players=("Ann", "Bee", "Cat", " ")), DOC),
    ("captures for a stranger", full(Eve=["H2"]), "unknown-player"),
    # the cards
    ("a card listed twice for one player", full(Bee=["SQ", "SQ"]), "card-repeated"),
    ("a card listed for two players", full(Bee=["SQ", "H2"]), "card-shared"),
    ("a card nobody captured in a four-player deal", full(Dan=[]), "card-missing"),
    ("three cards nobody captured", full(Ann=hearts_but("H2", "H3"), Dan=[]), "card-missing"),
    (
        "two cards nobody captured in a three-player deal",
        make_doc({"Ann": hearts_but("H2"), "Bee": ["SQ"], "Cat": ["DJ"]}, players=PLAYERS[:3]),
        "cards-missing",
    ),
    (
        "a house value for no point card other than −50 or 0",
        make_doc(FULL, house={"no_point_cards": -25}),
        "house-no-point-cards",
    ),
    (
        "a house value for the pig other than ±100",
        make_doc(FULL, house={"pig_in_shuan": 0}),
        "house-pig-in-shuan",
    ),
    # the match
    (
        "totals naming a stranger",
        full() | {"match": {"totals": {"Ann": 0, "Bee": 0, "Cat": 0, "Eve": 0}}},
        "totals-players",
    ),
    (
        "totals missing a player",
        full() | {"match": {"totals": {"Ann": 0, "Bee": 0, "Cat": 0}}},
        "totals-players",
    ),
    (
        "a deal after the pig",
        full() | {"match": {"totals": {"Ann": -500, "Bee": 0, "Cat": 0, "Dan": 0}}},
        "match-over",
    ),
]


@pytest.mark.parametrize(
    ("doc", "code"), [row[1:] for row in ERROR_ROWS], ids=[row[0] for row in ERROR_ROWS]
)
def test_a_bad_deal_is_refused_with_a_stable_code(doc, code):
    with pytest.raises(RuleError) as error:
        settle_document(doc)

    assert error.value.code == code
    assert "{" not in error.value.message


MESSAGE_ROWS = [
    ("a missing card is named as the table says it", full(Dan=[]), "nobody captured 10♣"),
    (
        "several missing cards are all named",
        full(Ann=hearts_but("H2", "H3"), Dan=[]),
        "2♥, 3♥, 10♣",
    ),
    (
        "a shared card names both players",
        full(Bee=["SQ", "H2"]),
        "2♥ is listed for both Ann and Bee",
    ),
    ("a repeated card names the player", full(Bee=["SQ", "SQ"]), "Q♠ is listed twice for Bee"),
    ("an unknown card is shown", full(Bee=["SQ", "H1"]), '"H1" is not one of H2'),
]


@pytest.mark.parametrize(
    ("doc", "words"), [row[1:] for row in MESSAGE_ROWS], ids=[row[0] for row in MESSAGE_ROWS]
)
def test_the_message_names_the_card(doc, words):
    with pytest.raises(RuleError, match=words):
        settle_document(doc)


def test_a_target_of_zero_is_refused_by_the_rules_too():
    with pytest.raises(RuleError) as error:
        standing({"Ann": 0}, Target(0))

    assert error.value.code == "target-positive"


def test_a_blank_name_is_refused_by_the_rules_too():
    with pytest.raises(RuleError) as error:
        score_deal(Deal(("Ann", "Bee", " "), {}))

    assert error.value.code == "player-name"


def test_scores_for_other_players_than_the_totals_are_refused():
    with pytest.raises(RuleError) as error:
        next_standing({"Ann": 0, "Bee": 0}, {"Ann": 5, "Cat": 5}, Target())

    assert error.value.code == "totals-players"
