"""Classic Dummy deals the settle contract refuses: RuleError with a stable code and a message."""

import pytest

from scorekeeper.rules.dummy_points import (
    Count,
    Deal,
    HouseRules,
    next_standing,
    score_deal,
    standing,
)
from scorekeeper.rules.dummy_points_document import settle_document
from scorekeeper.rules.errors import RuleError
from tests.rules.test_dummy_points import make_doc, penalised

DOC = "document"  # the code of every shape or type error found while reading the document


def without(field):
    doc = make_doc()
    del doc[field]
    return doc


def count(player, **fields):
    """Return the plain deal with these fields merged into one player's count."""
    return make_doc(counts={player: fields})


def recount(player, **fields):
    """Return the plain deal with one player's count replaced by these fields."""
    doc = make_doc()
    doc["counts"] = doc["counts"] | {player: fields}
    return doc


def recounted(**counts):
    """Return the plain deal with these players' counts replaced (Dan holds 35)."""
    doc = make_doc()
    doc["counts"] = {"Dan": {"hand": 35}, **counts}
    return doc


ERROR_ROWS = [
    # the document's shape
    ("the deal is a list", [], DOC),
    ("the deal is null", None, DOC),
    ("an unknown field", make_doc(colour="red"), DOC),
    ("wrong rules", make_doc(rules="dummy-500"), DOC),
    ("rules missing", without("rules"), DOC),
    ("players missing", without("players"), DOC),
    ("counts missing", without("counts"), DOC),
    ("counts not an object", make_doc() | {"counts": [1, 2]}, DOC),
    ("a count not an object", make_doc() | {"counts": {"Ann": 15}}, DOC),
    ("an unknown count field", count("Ann", speto=1), DOC),
    ("table points as text", count("Ann", table="45"), DOC),
    ("table points as a float", count("Ann", table=45.0), DOC),
    ("hand points as true", count("Ann", hand=True), DOC),
    ("difference beside table points", count("Cat", table=10), DOC),
    ("collected as text", count("Dan", collected="no"), DOC),
    ("penalties not an object", count("Ann", penalties=["dummy-discard"]), DOC),
    ("an unknown penalty", make_doc(counts=penalised("dirty-discard")), DOC),
    ("a negative penalty count", make_doc(counts=penalised("dummy-discard", -1)), DOC),
    ("more penalties than cards", make_doc(counts=penalised("dummy-discard", 53)), DOC),
    ("a card that is not text", count("Ann", table=[10]), DOC),
    ("aces_in_runs with table points", count("Ann", aces_in_runs=1), DOC),
    ("an unknown knock kind", make_doc(knock={"player": "Bee", "kind": "bright"}), DOC),
    ("a knock without a kind", make_doc(knock={"player": "Bee"}), DOC),
    ("an unknown knock field", make_doc(knock={"player": "Bee", "kind": "dark", "x": 1}), DOC),
    (
        "a knock Speto flag as text",
        make_doc(knock={"player": "Bee", "kind": "normal", "speto": "y"}),
        DOC,
    ),
    ("a head without a player", make_doc(head={"speto": True}), DOC),
    ("an unknown house option", make_doc(house={"head_bonus": 50}), DOC),
    ("a house flag as a number", make_doc(house={"ace_in_run_10": 1}), DOC),
    ("a negative house amount", make_doc(house={"full_discard": -50}), DOC),
    ("an unknown match field", make_doc(match={"goal": 500}), DOC),
    ("a zero target", make_doc(match={"target": 0}), DOC),
    ("totals as text", make_doc(match={"totals": {"Ann": "10"}}), DOC),
    # players
    ("one player", make_doc(players=("Ann",)), "players-count"),
    (
        "five players",
        make_doc() | {"players": ["Ann", "Bee", "Cat", "Dan", "Eve"]},
        "players-count",
    ),
    ("a player named twice", make_doc(players=["Ann", "Bee", "Cat", "Ann"]), "player-repeated"),
    ("a count for a stranger", recount("Eve"), "unknown-player"),
    (
        "a knocker who is not at the table",
        make_doc(knock={"player": "Eve", "kind": "normal"}),
        "unknown-player",
    ),
    ("a fool who is not at the table", make_doc(fool="Eve"), "unknown-player"),
    ("a head picker who is not at the table", make_doc(head={"player": "Eve"}), "unknown-player"),
    (
        "a player without a count",
        make_doc(players=("Ann", "Bee")) | {"players": ["Ann", "Bee", "Cat"]},
        "count-missing",
    ),
    # points
    ("negative table points", count("Ann", table=-5), "points-range"),
    ("more table points than the deck", count("Ann", table=470), "points-range"),
    ("a difference beyond the deck", count("Cat", difference=-470), "points-range"),
    ("points not in fives", count("Ann", table=47), "points-fives"),
    ("a null difference", recount("Cat", difference=None), DOC),
    ("a difference as text", recount("Cat", difference="20"), DOC),
    (
        "more points laid and held than the deck has",
        recounted(Ann={"table": 300}, Bee={"table": 50}, Cat={"table": 50, "hand": 35}),
        "points-deck",
    ),
    (
        "differences bigger than the deck together",
        recounted(Ann={"difference": 300}, Bee={"table": 100}, Cat={"difference": -70}),
        "points-deck",
    ),
    (
        "three Speto close discards",
        make_doc(counts=penalised("speto-close", 2) | penalised("speto-close", player="Cat")),
        "speto-penalty-count",
    ),
    (
        "three Spetos laid off",
        make_doc(counts=penalised("speto-laid-off", 3)),
        "speto-penalty-count",
    ),
    ("a difference not in fives", count("Cat", difference=-22), "points-fives"),
    ("an unknown card", count("Ann", table=["H1"]), "card-unknown"),
    ("a card written rank first", count("Ann", table=["QS"]), "card-unknown"),
    ("a card listed twice", count("Ann", table=["SQ"], hand=["SQ"]), "card-repeated"),
    (
        "aces_in_runs without the house option",
        count("Ann", table=["HQ", "HK", "HA"], aces_in_runs=1),
        "ace-in-run-not-played",
    ),
    (
        "more aces in runs than aces",
        make_doc(
            counts={"Ann": {"table": ["HQ", "HK", "HA"], "aces_in_runs": 2}},
            house={"ace_in_run_10": True},
        ),
        "aces-in-runs",
    ),
    # the knocker, the fool and the dark sleepers
    ("a knocker holding cards", count("Bee", hand=5), "knocker-hand"),
    ("a knocker with a negative difference", recount("Bee", difference=-5), "knocker-hand"),
    ("a knocker marked uncollected", count("Bee", collected=False), "knocker-collected"),
    ("a dark sleeper with table points", count("Ann", collected=False), "sleeper-table"),
    (
        "a dark sleeper with a positive difference",
        recount("Cat", difference=5, collected=False),
        "sleeper-table",
    ),
    ("a fool in a stock-out deal", make_doc(knock=None, fool="Ann"), "fool-without-knock"),
    ("the knocker as fool", make_doc(fool="Bee"), "knocker-fool"),
    (
        "a dark sleeper picking up the head",
        make_doc(head={"player": "Dan"}, counts={"Dan": {"collected": False}}),
        "head-sleeper",
    ),
    # penalties
    (
        "a head close discard with no head picked up",
        make_doc(counts=penalised("head-close")),
        "head-close-without-head",
    ),
    (
        "a head close discard to oneself",
        make_doc(counts=penalised("head-close"), head={"player": "Ann"}),
        "head-close-without-head",
    ),
    (
        "two head close discards by one player",
        make_doc(counts=penalised("head-close", 2), head={"player": "Cat"}),
        "head-close-twice",
    ),
    (
        "two Speto-defence first discards",
        make_doc(counts=penalised("speto-defence") | penalised("speto-defence", player="Cat")),
        "speto-defence-twice",
    ),
    # the match
    (
        "totals naming a stranger",
        make_doc(match={"totals": {"Ann": 0, "Bee": 0, "Cat": 0, "Eve": 0}}),
        "totals-players",
    ),
    (
        "totals missing a player",
        make_doc(match={"totals": {"Ann": 0, "Bee": 0, "Cat": 0}}),
        "totals-players",
    ),
    (
        "a deal after the match ended",
        make_doc(match={"totals": {"Ann": 500, "Bee": 0, "Cat": 0, "Dan": 0}}),
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
    assert error.value.message[0] != " " and "{" not in error.value.message


MESSAGE_ROWS = [
    ("an unknown field is named", make_doc(colour="red"), 'unknown field "colour"'),
    ("a card listed twice is named", count("Ann", table=["SQ"], hand=["SQ"]), "SQ is listed twice"),
    ("a knocker holding cards is named", count("Bee", hand=5), "Bee knocked, so holds no cards"),
    ("a sleeper with table points is named", count("Ann", collected=False), "Ann never collected"),
    ("an unknown card is shown", count("Ann", table=["H1"]), "H1 is not a card"),
]


@pytest.mark.parametrize(
    ("doc", "words"), [row[1:] for row in MESSAGE_ROWS], ids=[row[0] for row in MESSAGE_ROWS]
)
def test_the_message_names_what_is_wrong(doc, words):
    with pytest.raises(RuleError, match=words):
        settle_document(doc)


def test_a_house_amount_below_zero_is_refused_by_the_rules_too():
    deal = Deal(("Ann", "Bee"), {"Ann": Count(), "Bee": Count()}, house=HouseRules(head=-50))

    with pytest.raises(RuleError) as error:
        score_deal(deal)

    assert error.value.code == "house-negative"


def test_a_target_of_zero_is_refused():
    with pytest.raises(RuleError) as error:
        standing({"Ann": 0}, 0)

    assert error.value.code == "target-positive"


def test_scores_for_other_players_than_the_totals_are_refused():
    with pytest.raises(RuleError) as error:
        next_standing({"Ann": 0, "Bee": 0}, {"Ann": 5, "Cat": 5}, 500)

    assert error.value.code == "totals-players"
