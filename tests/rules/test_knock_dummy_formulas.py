"""The formulas of rules 86-87: what each loser hands the knocker, for every row and knock kind.

Each expected amount is the spec's formula computed here from M, K, S and the level, never from the
module's terms: `fool = M × K`, `hold = 2 × M`, `knock = M × K`, `lv(x) = rate(level) × K × S(x)`.
"""

import pytest

from scorekeeper.rules.knock_dummy import Due, settle
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.rules.knock_dummy_formulas import handovers
from tests.rules.support import KINDS, SIAN, make_doc

M = SIAN["medium"]
HOLD = 2 * M

# Fool games: Cat fools and never collected (dark, S=2, forced more whatever the knock);
# Ann (35) and Dan (-60) collected and rank by points: Ann less, Dan medium.
FOOL_GAME = {
    "fool": "Cat",
    "collected": ["Ann", "Dan"],
    "points": {"Ann": 35, "Cat": 0, "Dan": -60},
}
FOOL_LEVELS = {"Ann": ("less", 1), "Cat": ("more", 2), "Dan": ("medium", 1)}

# Games without a fool: Dan dark (S=2), Cat light colour (S=4): both more; Ann alone: less.
HOLD_GAME = {"collected": ["Ann", "Cat"], "color": ["Cat"], "points": {"Ann": 5}}
HOLD_LEVELS = {"Ann": ("less", 1), "Cat": ("more", 4), "Dan": ("more", 2)}


def formula_86_1(lv, fool, hold, knock):
    return {"Cat": 5 * fool + lv["Cat"], "Ann": lv["Ann"], "Dan": lv["Dan"]}


def formula_86_2(lv, fool, hold, knock):  # H = Dan
    return {
        "Cat": 5 * fool + lv["Cat"] - hold,
        "Dan": lv["Dan"] + 3 * hold,
        "Ann": lv["Ann"] - hold,
    }


def formula_86_3(lv, fool, hold, knock):
    return {
        "Cat": 5 * fool + lv["Cat"] + 3 * hold,
        "Ann": lv["Ann"] - hold,
        "Dan": lv["Dan"] - hold,
    }


def formula_86_4(lv, fool, hold, knock):  # H = Dan
    return {
        "Cat": 5 * fool + lv["Cat"] + 2 * hold,
        "Dan": lv["Dan"] + 2 * hold,
        "Ann": lv["Ann"] - 2 * hold,
    }


def formula_87_1(lv, fool, hold, knock):  # H = Dan
    return {
        "Dan": 3 * hold + lv["Dan"] + knock,
        "Ann": lv["Ann"] + knock - hold,
        "Cat": lv["Cat"] + knock - hold,
    }


def formula_87_2(lv, fool, hold, knock):  # Ann and Dan hold one each
    return {
        "Ann": 2 * hold + lv["Ann"] + knock,
        "Dan": 2 * hold + lv["Dan"] + knock,
        "Cat": lv["Cat"] + knock - 2 * hold,
    }


def formula_87_3(lv, fool, hold, knock):  # H = Cat; Bee knocked holding the other
    return {
        "Cat": 4 * hold + lv["Cat"] + knock,
        "Ann": lv["Ann"] + knock,
        "Dan": lv["Dan"] + knock,
    }


def formula_87_4(lv, fool, hold, knock):  # F = Cat, H = Ann; F's own amount is 86.2's
    return {
        "Ann": 3 * hold + lv["Ann"],
        "Dan": lv["Dan"] - hold,
        "Cat": 5 * fool + lv["Cat"] - hold,
    }


# case, extra fields, levels and sleep, formula, who the row names, who may carry the twin label
CASES = [
    ("86.1", FOOL_GAME, FOOL_LEVELS, formula_86_1, {"Cat"}),
    ("86.2", FOOL_GAME | {"speto_held": {"Dan": 1}}, FOOL_LEVELS, formula_86_2, {"Cat"}),
    ("86.3", FOOL_GAME | {"speto_held": {"Cat": 1}}, FOOL_LEVELS, formula_86_3, {"Cat"}),
    (
        "86.4",
        FOOL_GAME | {"speto_held": {"Cat": 1, "Dan": 1}},
        FOOL_LEVELS,
        formula_86_4,
        {"Cat", "Dan"},
    ),
    ("87.1", HOLD_GAME | {"speto_held": {"Dan": 1}}, HOLD_LEVELS, formula_87_1, {"Dan"}),
    (
        "87.2",
        HOLD_GAME | {"speto_held": {"Ann": 1, "Dan": 1}},
        HOLD_LEVELS,
        formula_87_2,
        {"Ann", "Dan"},
    ),
    (
        "87.3",
        HOLD_GAME | {"speto_held": {"Cat": 1}, "knocker_speto": {"held": 1}},
        HOLD_LEVELS,
        formula_87_3,
        {"Cat"},
    ),
    ("87.4", FOOL_GAME | {"speto_held": {"Ann": 1}}, FOOL_LEVELS, formula_87_4, {"Ann"}),
]
# 86.2 and 87.4 describe the same game (a fool and another loser holding a Speto) from the fool's
# and from the holder's side, so the label of a player neither row names may be either.
TWINS = {"86.2": {"86.2", "87.4"}, "87.4": {"86.2", "87.4"}}


def settle_case(fields, kind):
    game = game_from_document(make_doc(knock={"player": "Bee", "kind": kind}, **fields))
    settlement = settle(game)
    return game, settlement, {h.player: h for h in handovers(game, settlement)}


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(
    ("case", "fields", "levels", "formula", "named"), CASES, ids=[row[0] for row in CASES]
)
def test_each_loser_hands_the_knocker_what_the_rule_86_87_formula_says(
    case, fields, levels, formula, named, kind
):
    k = KINDS[kind]
    lv = {x: SIAN[level] * k * sleep for x, (level, sleep) in levels.items()}
    expected = formula(lv, fool=M * k, hold=HOLD, knock=M * k)

    _, settlement, handed = settle_case(fields, kind)

    assert {p: str(level) for p, level in settlement.levels.items()} == {
        x: level for x, (level, _) in levels.items()
    }
    assert {x: h.amount for x, h in handed.items()} == expected
    after_game = settlement.net(Due.AFTER_GAME)
    assert {x: -after_game[x] for x in expected} == expected


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(
    ("case", "fields", "named"),
    [(c, f, n) for c, f, _, _, n in CASES],
    ids=[row[0] for row in CASES],
)
def test_each_handover_is_labelled_with_its_rule_86_87_case(case, fields, named, kind):
    _, _, handed = settle_case(fields, kind)

    for player, handover in handed.items():
        if player in named:
            assert handover.case == case, player
        else:
            assert handover.case in TWINS.get(case, {case}), player


def test_a_game_with_neither_fool_nor_held_speto_has_no_formula_case():
    _, settlement, handed = settle_case({}, "dark")

    assert {x: h.case for x, h in handed.items()} == {"Ann": None, "Cat": None, "Dan": None}
    assert {x: h.amount for x, h in handed.items()} == {
        x: -net for x, net in settlement.net(Due.AFTER_GAME).items() if x != "Bee"
    }


def test_a_stock_out_game_has_no_handovers():
    game = game_from_document(make_doc(knock=None, points={"Ann": 1, "Bee": 2, "Cat": 3, "Dan": 4}))

    assert handovers(game, settle(game)) == []


def test_the_worked_example_writes_the_fools_formula_and_its_numbers():
    doc = make_doc(
        knock={"player": "Bee", "kind": "dark"},
        collected=["Ann", "Cat"],
        fool="Cat",
        speto_held={"Dan": 1},
        points={"Ann": 35, "Cat": 10, "Dan": -80},
    )
    game = game_from_document(doc)
    handed = {h.player: h for h in handovers(game, settle(game))}

    cat = handed["Cat"]
    assert (cat.case, cat.amount) == ("86.2", 2000)
    assert cat.formula() == "5 × fool + lv − hold"
    assert cat.worked() == "5 × 400 + 400 − 400 = 2000"
    assert (handed["Ann"].amount, handed["Dan"].amount) == (-200, 2400)
