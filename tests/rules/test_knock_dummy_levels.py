"""Levels of losing, rules 54-68: one row per rule of the settlement page, worked out by hand."""

import pytest

from scorekeeper.rules.errors import TieUnresolved
from scorekeeper.rules.knock_dummy import level_warnings, settle
from scorekeeper.rules.knock_dummy_document import game_from_document
from tests.rules.support import make_doc, make_stock_out, paid, settle_doc

L, MED, MORE = "less", "medium", "more"
ALL_COLLECTED = ["Ann", "Bee", "Cat", "Dan"]


def levels_and_winners(doc):
    settlement = settle_doc(doc)
    return {p: str(level) for p, level in settlement.levels.items()}, list(settlement.winners)


LEVEL_ROWS = [
    (
        "59: a normal knock ranks the three losers by points, highest best",
        make_doc(points={"Ann": 35, "Cat": -20, "Dan": -60}),
        {"Ann": L, "Cat": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "59: all losers below zero still rank highest first",
        make_doc(points={"Ann": -5, "Cat": -50, "Dan": -10}),
        {"Ann": L, "Dan": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "59: a dark knock ranks by points the same way",
        make_doc(knock={"player": "Dan", "kind": "dark"}, points={"Ann": 0, "Bee": 9, "Cat": 4}),
        {"Bee": L, "Cat": MED, "Ann": MORE},
        ["Dan"],
    ),
    (
        "55/59: a stock-out game: the top scorer wins, the others by points",
        make_stock_out({"Ann": 10, "Bee": 40, "Cat": 25, "Dan": -5}),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "55: a stock-out game: a dark sleeper is forced to more, the rest take less and medium",
        make_stock_out(
            {"Ann": 10, "Bee": 40, "Cat": 25, "Dan": 30}, collected=["Ann", "Bee", "Cat"]
        ),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "55: a stock-out game: a colour sleeper is forced to more",
        make_stock_out({"Ann": 10, "Bee": 40, "Cat": 25, "Dan": 30}, color=["Dan"]),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "60: a dark sleeper (S=2) is forced to more despite the best points",
        make_doc(collected=["Ann", "Cat"], points={"Ann": -60, "Cat": 10, "Dan": 90}),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "78: a light-colour sleeper (S=4) is forced to more despite the best points",
        make_doc(color=["Dan"], points={"Ann": -60, "Cat": 10, "Dan": 90}),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "77: a dark-colour sleeper (S=8) is forced to more despite the best points",
        make_doc(
            color=["Dan"], collected=["Ann", "Cat"], points={"Ann": -60, "Cat": 10, "Dan": 90}
        ),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "60: two dark sleepers both lose more, the one collected loser takes less",
        make_doc(collected=["Ann"], points={"Ann": -90, "Cat": 50, "Dan": 60}),
        {"Ann": L, "Cat": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "60: three sleepers all lose more",
        make_doc(collected=[], color=["Ann"], points={"Ann": 90, "Cat": 50, "Dan": 60}),
        {"Ann": MORE, "Cat": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "60: the fool to a light-colour knock is forced to more despite the best points",
        make_doc(knock={"player": "Bee", "kind": "light-color"}, fool="Ann"),
        {"Cat": L, "Dan": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "60: the fool to a light-colour knock loses more beside a dark sleeper",
        make_doc(
            knock={"player": "Bee", "kind": "light-color"},
            fool="Ann",
            collected=["Ann", "Cat"],
        ),
        {"Cat": L, "Dan": MORE, "Ann": MORE},
        ["Bee"],
    ),
    (
        "60: the fool to a dark-colour knock is not forced: worst of the two collected is medium",
        make_doc(
            knock={"player": "Bee", "kind": "dark-color"},
            fool="Ann",
            collected=["Ann", "Cat"],
        ),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "61: the one collected loser who fools a dark knocker loses less",
        make_doc(
            knock={"player": "Bee", "kind": "dark"},
            fool="Cat",
            collected=["Cat"],
            points={"Ann": 50, "Cat": -90, "Dan": 60},
        ),
        {"Cat": L, "Ann": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "62: with two losers collected, a fool to a dark knocker loses medium",
        make_doc(
            knock={"player": "Bee", "kind": "dark"},
            fool="Cat",
            collected=["Ann", "Cat"],
            points={"Ann": -50, "Cat": 90, "Dan": 60},
        ),
        {"Ann": L, "Cat": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "62: a fool between light players (knocker and fool collected) loses less",
        make_doc(
            knock={"player": "Bee", "kind": "normal"},
            fool="Cat",
            collected=["Bee", "Cat"],
            points={"Ann": 50, "Cat": -90, "Dan": 60},
        ),
        {"Cat": L, "Ann": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "63: with three losers collected the fool loses more, despite the best points",
        make_doc(
            knock={"player": "Bee", "kind": "dark"},
            fool="Cat",
            collected=["Ann", "Cat", "Dan"],
            points={"Ann": -10, "Cat": 90, "Dan": 5},
        ),
        {"Dan": L, "Ann": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "63: with three collected counting the knocker, the fool loses medium",
        make_doc(
            knock={"player": "Bee", "kind": "normal"},
            fool="Cat",
            collected=["Ann", "Bee", "Cat"],
            points={"Ann": -10, "Cat": 90, "Dan": 95},
        ),
        {"Ann": L, "Cat": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "64: with all four collected the fool loses more",
        make_doc(fool="Ann", collected=ALL_COLLECTED, points={"Ann": 99, "Cat": 0, "Dan": 1}),
        {"Dan": L, "Cat": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "56/67: two tie for top in a stock-out game: both win, losers take medium and more",
        make_stock_out({"Ann": 20, "Bee": -5, "Cat": 20, "Dan": 0}),
        {"Dan": MED, "Bee": MORE},
        ["Ann", "Cat"],
    ),
    (
        "56/67: two tie for top: a sleeper loser is forced to more, the other takes medium",
        make_stock_out(
            {"Ann": 20, "Bee": -5, "Cat": 20, "Dan": 10}, collected=["Ann", "Bee", "Cat"]
        ),
        {"Bee": MED, "Dan": MORE},
        ["Ann", "Cat"],
    ),
    (
        "57/68: three tie for top: the draw's first wins, the next two less and medium",
        make_stock_out(
            {"Ann": 30, "Bee": 30, "Cat": 30, "Dan": 0}, tie_break=["Cat", "Ann", "Bee"]
        ),
        {"Ann": L, "Bee": MED, "Dan": MORE},
        ["Cat"],
    ),
    (
        "57/68: a draw order naming the fourth player too uses only the tied players' order",
        make_stock_out(
            {"Ann": 30, "Bee": 30, "Cat": 30, "Dan": 0}, tie_break=["Dan", "Bee", "Cat", "Ann"]
        ),
        {"Cat": L, "Ann": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "58: four tie: the draw orders winner, less, medium, more",
        make_stock_out(
            {"Ann": 15, "Bee": 15, "Cat": 15, "Dan": 15}, tie_break=["Dan", "Bee", "Ann", "Cat"]
        ),
        {"Bee": L, "Ann": MED, "Cat": MORE},
        ["Dan"],
    ),
    (
        "65: tied losers, the dealer among them: black head, the dealer (black) takes the better",
        make_doc(points={"Ann": 10, "Cat": 10, "Dan": 25}, tie_break={"head_color": "black"}),
        {"Dan": L, "Ann": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "65: tied losers, the dealer among them: red head, the other (red) takes the better",
        make_doc(points={"Ann": 10, "Cat": 10, "Dan": 25}, tie_break={"head_color": "red"}),
        {"Dan": L, "Cat": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "65: the dealer knocked: the first tied loser after the dealer is black (black head)",
        make_doc(
            knock={"player": "Ann", "kind": "normal"},
            points={"Bee": 40, "Cat": 5, "Dan": 5},
            tie_break={"head_color": "black"},
        ),
        {"Bee": L, "Cat": MED, "Dan": MORE},
        ["Ann"],
    ),
    (
        "65: the dealer knocked: the second tied loser after the dealer is red (red head)",
        make_doc(
            knock={"player": "Ann", "kind": "normal"},
            points={"Bee": 40, "Cat": 5, "Dan": 5},
            tie_break={"head_color": "red"},
        ),
        {"Bee": L, "Dan": MED, "Cat": MORE},
        ["Ann"],
    ),
    (
        "65: the dealer is a loser but not tied: the first tied after the dealer is black",
        make_doc(
            points={"Ann": -50, "Cat": 5, "Dan": 5},
            tie_break={"head_color": "black"},
        ),
        {"Cat": L, "Dan": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "65: the dealer is a loser but not tied: red head gives the later tied player the better",
        make_doc(
            points={"Ann": -50, "Cat": 5, "Dan": 5},
            tie_break={"head_color": "red"},
        ),
        {"Dan": L, "Cat": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "65: tied losers in a stock-out game, the dealer among them, red head",
        make_stock_out(
            {"Ann": 5, "Bee": 40, "Cat": -30, "Dan": 5}, tie_break={"head_color": "red"}
        ),
        {"Dan": L, "Ann": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "65: an order also settles a two-way loser tie",
        make_doc(points={"Ann": 10, "Cat": 10, "Dan": 25}, tie_break=["Cat", "Ann"]),
        {"Dan": L, "Cat": MED, "Ann": MORE},
        ["Bee"],
    ),
    (
        "66: three losers tie: the draw gives the order",
        make_doc(points={"Ann": 0, "Cat": 0, "Dan": 0}, tie_break=["Dan", "Ann", "Cat"]),
        {"Dan": L, "Ann": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "no tie to resolve: both tied losers are sleepers forced to more",
        make_doc(collected=["Ann"], points={"Ann": 10, "Cat": 0, "Dan": 0}),
        {"Ann": L, "Cat": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "no tie to resolve: the fool ties with another loser",
        make_doc(fool="Cat", points={"Ann": 10, "Cat": 10, "Dan": 30}),
        {"Dan": L, "Ann": MED, "Cat": MORE},
        ["Bee"],
    ),
    (
        "no tie to resolve: only one loser left to rank among equal points",
        make_doc(collected=["Ann"], points={"Ann": 10, "Cat": 10, "Dan": 10}),
        {"Ann": L, "Cat": MORE, "Dan": MORE},
        ["Bee"],
    ),
    (
        "no tie to resolve: a tie_break is ignored when nothing ties",
        make_doc(tie_break=["Dan", "Cat", "Ann"]),
        {"Ann": L, "Cat": MED, "Dan": MORE},
        ["Bee"],
    ),
    (
        "levels given directly are taken as given, several sharing a level",
        make_doc(points=None, levels={"Ann": MORE, "Cat": L, "Dan": L}),
        {"Ann": MORE, "Cat": L, "Dan": L},
        ["Bee"],
    ),
    (
        "levels given directly: forcing is not applied to sleepers or a light-colour fool",
        make_doc(
            knock={"player": "Bee", "kind": "light-color"},
            fool="Ann",
            collected=["Ann"],
            color=["Cat"],
            points=None,
            levels={"Ann": L, "Cat": L, "Dan": MED},
        ),
        {"Ann": L, "Cat": L, "Dan": MED},
        ["Bee"],
    ),
]


@pytest.mark.parametrize(
    ("doc", "levels", "winners"),
    [row[1:] for row in LEVEL_ROWS],
    ids=[row[0] for row in LEVEL_ROWS],
)
def test_losers_take_the_levels_of_rules_54_to_68(doc, levels, winners):
    assert levels_and_winners(doc) == (levels, winners)


def test_two_tied_for_top_each_loser_pays_each_winner():
    settlement = settle_doc(make_stock_out({"Ann": 20, "Bee": -5, "Cat": 20, "Dan": 0}))

    assert paid(settlement) == {
        ("Dan", "Ann", "level"): 200,
        ("Dan", "Cat", "level"): 200,
        ("Bee", "Ann", "level"): 300,
        ("Bee", "Cat", "level"): 300,
    }
    assert settlement.net() == {"Ann": 500, "Bee": -600, "Cat": 500, "Dan": -400}


def test_levels_given_directly_still_apply_the_knock_and_sleep_multipliers():
    # Dark knock K=2; Ann collected (S=1), Cat dark colour (S=8), Dan dark (S=2).
    doc = make_doc(
        knock={"player": "Bee", "kind": "dark"},
        collected=["Ann"],
        color=["Cat"],
        points=None,
        levels={"Ann": MORE, "Cat": L, "Dan": L},
    )

    level_lines = {
        payer: amount
        for (payer, _, item), amount in paid(settle_doc(doc)).items()
        if item == "level"
    }

    assert level_lines == {"Ann": 300 * 2, "Cat": 100 * 2 * 8, "Dan": 100 * 2 * 2}


UNRESOLVED_ROWS = [
    (
        "two losers tie and no tie_break: the dealer is black",
        make_doc(points={"Ann": 10, "Cat": 10, "Dan": 25}),
        ("Ann", "Cat"),
        "Ann",
        "Cat",
    ),
    (
        "two losers tie, the dealer knocked: the first after the dealer is black",
        make_doc(knock={"player": "Ann", "kind": "normal"}, points={"Bee": 0, "Cat": 7, "Dan": 7}),
        ("Cat", "Dan"),
        "Cat",
        "Dan",
    ),
    (
        "two losers tie and the order names only one of them",
        make_doc(points={"Ann": 10, "Cat": 30, "Dan": 30}, tie_break=["Dan", "Ann"]),
        ("Cat", "Dan"),
        "Cat",
        "Dan",
    ),
    (
        "two losers tie in a stock-out game",
        make_stock_out({"Ann": 1, "Bee": 1, "Cat": 50, "Dan": -3}),
        ("Ann", "Bee"),
        "Ann",
        "Bee",
    ),
    (
        "three losers tie and no order",
        make_doc(points={"Ann": 0, "Cat": 0, "Dan": 0}),
        ("Ann", "Cat", "Dan"),
        None,
        None,
    ),
    (
        "three losers tie and only a head colour, which settles two-way ties only",
        make_doc(points={"Ann": 0, "Cat": 0, "Dan": 0}, tie_break={"head_color": "red"}),
        ("Ann", "Cat", "Dan"),
        None,
        None,
    ),
    (
        "three tie for top in a stock-out game and no order",
        make_stock_out({"Ann": 30, "Bee": 30, "Cat": 0, "Dan": 30}),
        ("Ann", "Bee", "Dan"),
        None,
        None,
    ),
    (
        "four tie in a stock-out game and only a head colour",
        make_stock_out({"Ann": 3, "Bee": 3, "Cat": 3, "Dan": 3}, tie_break={"head_color": "black"}),
        ("Ann", "Bee", "Cat", "Dan"),
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("doc", "tied", "black", "red"),
    [row[1:] for row in UNRESOLVED_ROWS],
    ids=[row[0] for row in UNRESOLVED_ROWS],
)
def test_an_unresolved_tie_leaves_the_game_pending(doc, tied, black, red):
    with pytest.raises(TieUnresolved) as raised:
        settle_doc(doc)

    assert (tuple(raised.value.tied), raised.value.black, raised.value.red) == (tied, black, red)
    assert raised.value.code == "tie-unresolved"
    assert "\n" not in str(raised.value)


def test_levels_that_contradict_the_forcing_rules_are_warned_about_but_settled_as_given():
    doc = make_doc(
        knock={"player": "Bee", "kind": "light-color"},
        collected=["Ann", "Bee", "Cat"],
        fool="Cat",
        levels={"Ann": "more", "Cat": "less", "Dan": "medium"},
        points=None,
    )
    game = game_from_document(doc)
    warnings = level_warnings(game)
    assert [(w.code, w.params["name"]) for w in warnings] == [
        ("level-fool-light-color", "Cat"),
        ("level-sleeper", "Dan"),
    ]
    assert settle(game).levels == {"Ann": "more", "Cat": "less", "Dan": "medium"}


def test_levels_that_follow_the_forcing_rules_raise_no_warning():
    doc = make_doc(
        knock={"player": "Bee", "kind": "dark"},
        collected=["Ann", "Bee", "Cat"],
        levels={"Ann": "less", "Cat": "medium", "Dan": "more"},
        points=None,
    )
    assert level_warnings(game_from_document(doc)) == []
