"""Games the settle contract refuses: RuleError with a stable code and one clear sentence."""

import re

import pytest

from scorekeeper.rules.errors import RuleError
from tests.rules.support import make_doc, make_fined, make_stock_out, settle_doc

DOC = "document"  # the code of every shape or type error found while reading the document
STOCK_OUT_POINTS = {"Ann": 10, "Bee": 40, "Cat": 25, "Dan": -5}
FINE = {"type": "fine", "player": "Dan", "reason": "misdeal"}


def knock(player="Bee", kind="normal"):
    return {"player": player, "kind": kind}


def with_stakes(**rates):
    return make_doc(level=None, stakes={"less": 100, "medium": 200, "more": 300} | rates)


def without(field, doc=None):
    doc = dict(make_doc() if doc is None else doc)
    del doc[field]
    return doc


ERROR_ROWS = [
    # the document's shape
    ("the game is a list, not an object", [], DOC),
    ("the game is a string", "game", DOC),
    ("the game is null", None, DOC),
    ("the game is a number", 7, DOC),
    ("an unknown field", make_doc(colour=["Ann"]), DOC),
    ("wrong rules", make_doc(rules="knock-dummy-2024"), DOC),
    ("rules missing", without("rules"), DOC),
    ("rules of the wrong type", make_doc(rules=["knock-dummy-2025"]), DOC),
    # level and stakes
    ("level and stakes both missing", make_doc(level=None), DOC),
    ("an unknown level", make_doc(level="god"), DOC),
    ("a level given as a number", make_doc(level=2), DOC),
    ("a level given as an object", make_doc(level={"name": "sian"}), DOC),
    ("a level given as a list", make_doc(level=["sian"]), DOC),
    ("both a level and stakes", make_doc(stakes={"less": 1, "medium": 2, "more": 3}), DOC),
    ("a negative stake", with_stakes(less=-100), DOC),
    ("a zero stake", with_stakes(medium=0), DOC),
    ("a stake missing", make_doc(level=None, stakes={"less": 100, "medium": 200}), DOC),
    ("a fractional stake", with_stakes(more=300.5), DOC),
    ("a stake given as text", with_stakes(more="300"), DOC),
    ("a stake given as true", with_stakes(less=True), DOC),
    ("an unknown stake", with_stakes(most=400), DOC),
    ("stakes not an object", make_doc(level=None, stakes=[100, 200, 300]), DOC),
    ("stakes out of order: less above medium", with_stakes(less=250), "stakes-order"),
    ("stakes out of order: more below medium", with_stakes(more=150), "stakes-order"),
    ("stakes reversed", with_stakes(less=300, more=100), "stakes-order"),
    # the fine
    ("a zero fine", make_doc(fine=0), DOC),
    ("a negative fine", make_doc(fine=-200), DOC),
    ("a fractional fine", make_doc(fine=200.5), DOC),
    ("a fine given as text", make_doc(fine="200"), DOC),
    ("a fine given as true", make_doc(fine=True), DOC),
    # players
    ("three players", make_doc(players=["Ann", "Bee", "Cat"]), "players-count"),
    ("five players", make_doc(players=["Ann", "Bee", "Cat", "Dan", "Eve"]), "players-count"),
    ("no players", make_doc(players=[]), "players-count"),
    ("players missing", without("players"), DOC),
    ("a player named twice", make_doc(players=["Ann", "Bee", "Cat", "Ann"]), "player-repeated"),
    ("an empty name", make_doc(players=["Ann", "Bee", "Cat", ""]), DOC),
    ("a blank name", make_doc(players=["Ann", "Bee", "Cat", "   "]), DOC),
    ("a name that is a number", make_doc(players=["Ann", "Bee", "Cat", 4]), DOC),
    ("players not a list", make_doc(players="Ann Bee Cat Dan"), DOC),
    # unknown values of the enumerations
    ("an unknown knock kind", make_doc(knock=knock(kind="bright")), DOC),
    ("a knock without a kind", make_doc(knock={"player": "Bee"}), DOC),
    ("a knock without a player", make_doc(knock={"kind": "dark"}), DOC),
    ("a knock that is not an object", make_doc(knock="Bee"), DOC),
    (
        "an unknown level in levels",
        make_doc(points=None, levels={"Ann": "less", "Cat": "most", "Dan": "more"}),
        DOC,
    ),
    ("an unknown event type", make_doc(events=[{"type": "joker", "player": "Ann"}]), DOC),
    ("an event without a type", make_doc(events=[{"player": "Ann"}]), DOC),
    ("an event without a player", make_doc(events=[{"type": "head"}]), DOC),
    ("events not a list", make_doc(events={"type": "head", "player": "Ann"}), DOC),
    ("an unknown face-down card", make_doc(face_down="card"), DOC),
    ("an unknown head colour", make_doc(tie_break={"head_color": "green"}), DOC),
    ("a tie_break object without a head colour", make_doc(tie_break={"colour": "red"}), DOC),
    ("an unknown fine reason", make_fined(FINE | {"reason": "rudeness"}), DOC),
    # knock, fool, total
    ("a fool without a knock", make_stock_out(STOCK_OUT_POINTS, fool="Ann"), "fool-without-knock"),
    ("the knocker as fool", make_doc(fool="Bee"), "knocker-fool"),
    ("the knocker as total payer", make_doc(total="Bee"), "knocker-total"),
    (
        "a total without a knock",
        make_stock_out(STOCK_OUT_POINTS, total="Ann"),
        "total-without-knock",
    ),
    (
        "knocker_speto without a knock",
        make_stock_out(STOCK_OUT_POINTS, knocker_speto={"held": 1}),
        DOC,
    ),
    ("face_down without a knock", make_stock_out(STOCK_OUT_POINTS, face_down="dummy"), DOC),
    ("the knocker in color", make_doc(color=["Bee"]), "knocker-color"),
    ("the knocker in speto_held", make_doc(speto_held={"Bee": 1}), "knocker-speto-held"),
    (
        "a face-down Speto with no held Speto",
        make_doc(face_down="speto"),
        "face-down-speto-not-held",
    ),
    (
        "a face-down Speto dummy with no held Speto",
        make_doc(face_down="speto-dummy", knocker_speto={"picked": 1}),
        "face-down-speto-not-held",
    ),
    ("a negative knocker Speto count", make_doc(knocker_speto={"held": -1}), DOC),
    ("an unknown knocker_speto field", make_doc(knocker_speto={"kept": 1}), DOC),
    # points and levels
    ("points missing for a ranked loser", make_doc(points={"Ann": 1, "Cat": 2}), "points-missing"),
    ("no points at all in a knock game", make_doc(points=None), "points-missing"),
    (
        "points missing for a stock-out player",
        make_stock_out({"Ann": 1, "Bee": 2, "Cat": 3}),
        "points-missing",
    ),
    ("points given as a float", make_doc(points={"Ann": 35.5, "Cat": -20, "Dan": -60}), DOC),
    ("points given as a whole float", make_doc(points={"Ann": 35.0, "Cat": -20, "Dan": -60}), DOC),
    ("points given as true", make_doc(points={"Ann": True, "Cat": -20, "Dan": -60}), DOC),
    ("points given as text", make_doc(points={"Ann": "35", "Cat": -20, "Dan": -60}), DOC),
    ("points given as a list", make_doc(points=[35, -20, -60]), DOC),
    (
        "points and levels together",
        make_doc(levels={"Ann": "less", "Cat": "medium", "Dan": "more"}),
        "points-and-levels",
    ),
    (
        "levels not naming every loser",
        make_doc(points=None, levels={"Ann": "less", "Cat": "medium"}),
        "levels-incomplete",
    ),
    (
        "levels naming the knocker",
        make_doc(
            points=None, levels={"Ann": "less", "Bee": "less", "Cat": "medium", "Dan": "more"}
        ),
        "levels-incomplete",
    ),
    (
        "levels in a stock-out game",
        make_doc(knock=None, points=None, levels={"Ann": "less", "Cat": "medium", "Dan": "more"}),
        "levels-without-knock",
    ),
    # ties
    (
        "an unresolved two-way tie",
        make_doc(points={"Ann": 1, "Cat": 1, "Dan": 5}),
        "tie-unresolved",
    ),
    (
        "an unresolved three-way tie with only a head colour",
        make_doc(points={"Ann": 1, "Cat": 1, "Dan": 1}, tie_break={"head_color": "red"}),
        "tie-unresolved",
    ),
    (
        "a tie_break naming a player twice",
        make_doc(tie_break=["Ann", "Cat", "Ann"]),
        "tie-break-repeated",
    ),
    ("a tie_break that is a string", make_doc(tie_break="Ann"), DOC),
    # Spetos
    (
        "three Spetos held by the losers",
        make_doc(speto_held={"Ann": 2, "Dan": 1}),
        "too-many-spetos",
    ),
    ("three Spetos in one hand", make_doc(speto_held={"Ann": 3}), "too-many-spetos"),
    (
        "a held Speto beside two the knocker knocked with",
        make_doc(speto_held={"Ann": 1}, knocker_speto={"held": 2}),
        "too-many-spetos",
    ),
    (
        "a held Speto beside a Speto event of two",
        make_doc(speto_held={"Dan": 1}, events=[{"type": "speto", "player": "Ann", "count": 2}]),
        "too-many-spetos",
    ),
    (
        "a knocker's held, a knocker's picked and a Speto event",
        make_doc(
            knocker_speto={"held": 1, "picked": 1},
            events=[{"type": "speto", "player": "Cat"}],
        ),
        "too-many-spetos",
    ),
    (
        "three Spetos in a stock-out game",
        make_stock_out(
            STOCK_OUT_POINTS,
            speto_held={"Bee": 1},
            events=[{"type": "speto", "player": "Ann", "count": 2}],
        ),
        "too-many-spetos",
    ),
    ("a negative held Speto count", make_doc(speto_held={"Ann": -1}), DOC),
    (
        "a Speto event counting three",
        make_doc(events=[{"type": "speto", "player": "Ann", "count": 3}]),
        "speto-count",
    ),
    (
        "a Speto event counting zero",
        make_doc(events=[{"type": "speto", "player": "Ann", "count": 0}]),
        DOC,
    ),
    # events
    (
        "two head events",
        make_doc(events=[{"type": "head", "player": "Ann"}, {"type": "head", "player": "Cat"}]),
        "head-twice",
    ),
    (
        "two players showing both Spetos",
        make_doc(
            events=[
                {"type": "show-speto", "player": "Ann"},
                {"type": "show-speto", "player": "Cat"},
            ]
        ),
        "show-twice",
    ),
    (
        "a close discarder to themselves",
        make_doc(events=[{"type": "head", "player": "Ann", "close": ["Ann"]}]),
        "close-self",
    ),
    (
        "a close discarder named twice",
        make_doc(events=[{"type": "head", "player": "Ann", "close": ["Dan", "Dan"]}]),
        "close-repeated",
    ),
    (
        "close on a dummy discard",
        make_doc(events=[{"type": "dummy-discard", "player": "Ann", "close": ["Dan"]}]),
        DOC,
    ),
    (
        "a count on a head event",
        make_doc(events=[{"type": "head", "player": "Ann", "count": 1}]),
        DOC,
    ),
    (
        "a reason on a head event",
        make_doc(events=[{"type": "head", "player": "Ann", "reason": "misdeal"}]),
        DOC,
    ),
    ("close not a list", make_doc(events=[{"type": "head", "player": "Ann", "close": "Dan"}]), DOC),
    # fines
    ("a fine together with a knock", make_doc(points=None, events=[FINE]), "fine-with-result"),
    ("a fine together with a knock and points", make_doc(events=[FINE]), "fine-with-result"),
    (
        "a fine together with points",
        make_stock_out(STOCK_OUT_POINTS, events=[FINE]),
        "fine-with-result",
    ),
    (
        "a fine together with levels",
        make_fined(FINE, levels={"Ann": "less", "Cat": "medium", "Dan": "more"}),
        "fine-with-result",
    ),
    ("a fine together with a fool", make_fined(FINE, fool="Ann"), "fool-without-knock"),
    (
        "events after a fine",
        make_fined(FINE, {"type": "head", "player": "Ann"}),
        "events-after-fine",
    ),
    ("two fines", make_fined(FINE, FINE), "events-after-fine"),
]


UNKNOWN_PLAYER_ROWS = [
    ("points", make_doc(points={"Ann": 35, "Cat": -20, "Dan": -60, "Eve": 9})),
    (
        "levels",
        make_doc(
            points=None, levels={"Ann": "less", "Cat": "medium", "Dan": "more", "Eve": "less"}
        ),
    ),
    ("collected", make_doc(collected=["Ann", "Eve"])),
    ("color", make_doc(color=["Eve"])),
    ("fool", make_doc(fool="Eve")),
    ("speto_held", make_doc(speto_held={"Eve": 1})),
    ("knock", make_doc(knock=knock(player="Eve"))),
    ("total", make_doc(total="Eve")),
    ("tie_break", make_doc(tie_break=["Ann", "Eve"])),
    ("events", make_doc(events=[{"type": "head", "player": "Eve"}])),
    ("events", make_doc(events=[{"type": "head", "player": "Ann", "close": ["Eve"]}])),
    ("events", make_doc(events=[{"type": "speto", "player": "Ann", "close": ["Dan", "Eve"]}])),
    ("events", make_fined({"type": "fine", "player": "Eve"})),
]
UNKNOWN_PLAYER_IDS = [
    "points",
    "levels",
    "collected",
    "color",
    "fool",
    "speto_held",
    "knock",
    "total",
    "tie_break",
    "event player",
    "head close discarder",
    "Speto defence discarder",
    "fine offender",
]


def assert_one_clear_sentence(error):
    message = str(error)
    assert message.strip() == message and message
    assert "\n" not in message
    assert len(message) < 250
    assert "Traceback" not in message
    assert not re.search(r"<\w+|object at 0x|\w+Error\b|\b(KnockKind|Level|EventType)\.", message)
    # one sentence: no full stop followed by another sentence
    assert not re.search(r"\.\s+[A-Z]", message)


@pytest.mark.parametrize(
    ("doc", "code"), [row[1:] for row in ERROR_ROWS], ids=[row[0] for row in ERROR_ROWS]
)
def test_a_bad_game_raises_rule_error_with_one_clear_sentence(doc, code):
    with pytest.raises(RuleError) as raised:
        settle_doc(doc)

    assert raised.value.code == code
    assert_one_clear_sentence(raised.value)


@pytest.mark.parametrize(("field", "doc"), UNKNOWN_PLAYER_ROWS, ids=UNKNOWN_PLAYER_IDS)
def test_a_player_not_at_the_table_is_refused_in_every_field_that_names_players(field, doc):
    with pytest.raises(RuleError) as raised:
        settle_doc(doc)

    assert (raised.value.code, raised.value.field) == ("unknown-player", field)
    assert "Eve" in str(raised.value)
    assert_one_clear_sentence(raised.value)


def test_the_valid_base_games_of_these_tests_settle():
    # The rows above are one change away from these, so each row fails for its own reason.
    for doc in (make_doc(), make_stock_out(STOCK_OUT_POINTS), make_fined(FINE)):
        settle_doc(doc)
