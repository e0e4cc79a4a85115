"""The lines of a game ("Lines of a game" table of the settlement page), amounts worked by hand.

Sian stakes throughout unless a test says otherwise: less 100, medium M = 200, more 300. Bee knocks;
Ann deals. The default points (Ann 35, Cat -20, Dan -60) give Ann less, Cat medium, Dan more.
"""

import pytest

from tests.rules.support import (
    EVENT_ITEMS,
    KINDS,
    make_doc,
    make_fined,
    make_stock_out,
    paid,
    settle_doc,
)

M = 200
HOLD = 2 * M
KIND_IDS = list(KINDS)

# The rules column of the spec's tables, per item.
ITEM_RULES = {
    "level": {str(n) for n in [*range(59, 69), 76, 77, 78]},
    "knock": {"79"},
    "fool": {"74"},
    "fool-round": {"75"},
    "speto-hold": {"49", "72", "81"},
    "knocker-speto-held": {"50", "72"},
    "knocker-speto-picked": {"51"},
    "face-down-dummy": {"71"},
    "face-down-speto": {"71"},
    "head": {"20"},
    "head-close": {"27"},
    "speto": {"41"},
    "speto-close": {"28", "29", "30", "31"},
    "dummy-discard": {"32"},
    "full-discard": {"32"},
    "show-speto": {"81"},
    "fine": {"83"},
}


def knock(kind):
    return {"player": "Bee", "kind": kind}


def settled(doc):
    """Settle and check what every line must be: its rule from the spec's table, its due."""
    settlement = settle_doc(doc)
    for line in settlement.lines:
        item = str(line.item)
        total_moved = doc.get("total") == line.payer and line.payee == doc["knock"]["player"]
        allowed = ITEM_RULES[item] | ({"82"} if total_moved else set())
        assert line.rule in allowed, line
        assert str(line.due) == ("at-once" if item in EVENT_ITEMS else "after-game"), line
        assert line.amount > 0 and line.payer != line.payee, line
    return settlement


def to_knocker(amounts, item, losers=("Ann", "Cat", "Dan")):
    """Return {(loser, "Bee", item): amount} for each loser."""
    return {(x, "Bee", item): amount for x, amount in zip(losers, amounts, strict=True)}


# -- end of game, per knock kind -----------------------------------------------------------------


@pytest.mark.parametrize("kind", KIND_IDS)
def test_each_loser_pays_the_knocker_level_times_k_and_the_knock_value(kind):
    k = KINDS[kind]

    settlement = settled(make_doc(knock=knock(kind)))

    assert paid(settlement) == {
        **to_knocker([100 * k, 200 * k, 300 * k], "level"),
        **to_knocker([M * k] * 3, "knock"),
    }
    assert settlement.net() == {"Ann": -300 * k, "Bee": 1200 * k, "Cat": -400 * k, "Dan": -500 * k}


@pytest.mark.parametrize("kind", KIND_IDS)
def test_sleepers_pay_more_times_k_times_their_sleep(kind):
    # Ann dark (S=2), Cat light colour (S=4), Dan dark colour (S=8): all forced to more.
    k = KINDS[kind]
    doc = make_doc(knock=knock(kind), collected=["Cat"], color=["Cat", "Dan"])

    assert paid(settled(doc)) == {
        **to_knocker([300 * k * 2, 300 * k * 4, 300 * k * 8], "level"),
        **to_knocker([M * k] * 3, "knock"),
    }


@pytest.mark.parametrize("kind", KIND_IDS)
def test_the_fool_pays_the_knocker_twice_m_times_k_and_each_other_loser_m_times_k(kind):
    # Cat fools: the worst of the three (normal, dark, dark colour) or forced (light colour): more.
    k = KINDS[kind]

    settlement = settled(make_doc(knock=knock(kind), fool="Cat"))

    assert paid(settlement) == {
        **to_knocker([100 * k, 300 * k, 200 * k], "level"),
        **to_knocker([M * k] * 3, "knock"),
        ("Cat", "Bee", "fool"): 2 * M * k,
        ("Cat", "Ann", "fool-round"): M * k,
        ("Cat", "Dan", "fool-round"): M * k,
    }
    assert settlement.net() == {
        "Ann": -100 * k,
        "Bee": 1600 * k,
        "Cat": -1300 * k,
        "Dan": -200 * k,
    }


@pytest.mark.parametrize("kind", KIND_IDS)
@pytest.mark.parametrize("count", [1, 2], ids=["one Speto", "two Spetos"])
def test_a_speto_left_in_a_losers_hand_pays_2m_to_every_other_player_whatever_the_knock(
    kind, count
):
    k = KINDS[kind]

    amounts = paid(settled(make_doc(knock=knock(kind), speto_held={"Dan": count})))

    assert {key: v for key, v in amounts.items() if key[2] == "speto-hold"} == {
        ("Dan", "Ann", "speto-hold"): HOLD * count,
        ("Dan", "Bee", "speto-hold"): HOLD * count,
        ("Dan", "Cat", "speto-hold"): HOLD * count,
    }
    assert amounts[("Dan", "Bee", "level")] == 300 * k


@pytest.mark.parametrize("kind", KIND_IDS)
def test_two_losers_holding_a_speto_each_both_pay_round_the_table(kind):
    amounts = paid(settled(make_doc(knock=knock(kind), speto_held={"Ann": 1, "Dan": 1})))

    assert {key: v for key, v in amounts.items() if key[2] == "speto-hold"} == {
        ("Ann", "Bee", "speto-hold"): HOLD,
        ("Ann", "Cat", "speto-hold"): HOLD,
        ("Ann", "Dan", "speto-hold"): HOLD,
        ("Dan", "Ann", "speto-hold"): HOLD,
        ("Dan", "Bee", "speto-hold"): HOLD,
        ("Dan", "Cat", "speto-hold"): HOLD,
    }


KNOCKER_SPETO_ROWS = [
    ("one Speto knocked with, held", {"knocker_speto": {"held": 1}}, {"knocker-speto-held": HOLD}),
    ("two Spetos held", {"knocker_speto": {"held": 2}}, {"knocker-speto-held": 2 * HOLD}),
    ("one Speto picked up", {"knocker_speto": {"picked": 1}}, {"knocker-speto-picked": M}),
    ("two Spetos picked up", {"knocker_speto": {"picked": 2}}, {"knocker-speto-picked": 2 * M}),
    (
        "one held and one picked",
        {"knocker_speto": {"held": 1, "picked": 1}},
        {"knocker-speto-held": HOLD, "knocker-speto-picked": M},
    ),
    ("a face-down dummy", {"face_down": "dummy"}, {"face-down-dummy": M}),
    (
        "a face-down Speto (it counts as held)",
        {"face_down": "speto", "knocker_speto": {"held": 1}},
        {"knocker-speto-held": HOLD, "face-down-speto": M},
    ),
    (
        "a face-down Speto that could have been laid off: plus the dummy value",
        {"face_down": "speto-dummy", "knocker_speto": {"held": 1}},
        {"knocker-speto-held": HOLD, "face-down-speto": 2 * M},
    ),
]


@pytest.mark.parametrize("kind", KIND_IDS)
@pytest.mark.parametrize(
    ("fields", "per_loser"),
    [row[1:] for row in KNOCKER_SPETO_ROWS],
    ids=[row[0] for row in KNOCKER_SPETO_ROWS],
)
def test_each_loser_pays_the_knocker_for_its_spetos_and_face_down_card_without_k(
    kind, fields, per_loser
):
    k = KINDS[kind]

    amounts = paid(settled(make_doc(knock=knock(kind), **fields)))

    expected = {
        **to_knocker([100 * k, 200 * k, 300 * k], "level"),
        **to_knocker([M * k] * 3, "knock"),
    }
    for item, amount in per_loser.items():
        expected |= to_knocker([amount] * 3, item)
    assert amounts == expected


# -- the total (82) ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KIND_IDS)
def test_the_total_payer_takes_over_every_after_game_line_to_the_knocker(kind):
    # Cat fools (more), Ann holds a Speto, Bee picked one up to knock; Dan pays the total.
    k = KINDS[kind]
    doc = make_doc(
        knock=knock(kind),
        fool="Cat",
        speto_held={"Ann": 1},
        knocker_speto={"picked": 1},
        total="Dan",
    )

    settlement = settled(doc)
    amounts = paid(settlement)

    to_bee = {key: v for key, v in amounts.items() if key[1] == "Bee"}
    assert to_bee == {
        ("Dan", "Bee", "level"): (100 + 300 + 200) * k,
        ("Dan", "Bee", "knock"): 3 * M * k,
        ("Dan", "Bee", "fool"): 2 * M * k,
        ("Dan", "Bee", "knocker-speto-picked"): 3 * M,
        ("Dan", "Bee", "speto-hold"): HOLD,
    }
    between_losers = {key: v for key, v in amounts.items() if "Bee" not in key[:2]}
    assert between_losers == {
        ("Cat", "Ann", "fool-round"): M * k,
        ("Cat", "Dan", "fool-round"): M * k,
        ("Ann", "Cat", "speto-hold"): HOLD,
        ("Ann", "Dan", "speto-hold"): HOLD,
    }
    assert settlement.net() == {
        "Ann": M * k - 2 * HOLD,
        "Bee": 1600 * k + 1000,
        "Cat": -2 * M * k + HOLD,
        "Dan": -1400 * k - 600,
    }


@pytest.mark.parametrize("kind", KIND_IDS)
def test_under_the_total_the_other_losers_owe_the_knocker_nothing(kind):
    doc = make_doc(knock=knock(kind), fool="Ann", speto_held={"Cat": 1}, total="Dan")

    settlement = settled(doc)

    for loser in ("Ann", "Cat"):
        between = sum(
            line.amount if line.payer == loser else -line.amount
            for line in settlement.lines
            if {line.payer, line.payee} == {loser, "Bee"}
        )
        assert between == 0
    assert all(line.payer == "Dan" for line in settlement.lines if line.payee == "Bee")


def test_the_total_leaves_the_at_once_lines_alone():
    doc = make_doc(total="Dan", events=[{"type": "head", "player": "Cat"}])

    amounts = paid(settled(doc), due="at-once")

    assert amounts == {
        ("Ann", "Cat", "head"): M,
        ("Bee", "Cat", "head"): M,
        ("Dan", "Cat", "head"): M,
    }


# -- stock-out games -----------------------------------------------------------------------------


def test_a_stock_out_game_pays_only_level_and_speto_hold_with_k_one():
    # Ann wins; Cat less, Dan medium, Bee more. Dan holds a Speto.
    doc = make_stock_out({"Ann": 40, "Bee": -5, "Cat": 10, "Dan": 0}, speto_held={"Dan": 1})

    settlement = settled(doc)

    assert paid(settlement) == {
        ("Cat", "Ann", "level"): 100,
        ("Dan", "Ann", "level"): 200,
        ("Bee", "Ann", "level"): 300,
        ("Dan", "Ann", "speto-hold"): HOLD,
        ("Dan", "Bee", "speto-hold"): HOLD,
        ("Dan", "Cat", "speto-hold"): HOLD,
    }
    assert settlement.net() == {"Ann": 1000, "Bee": 100, "Cat": 300, "Dan": -1400}


def test_a_stock_out_winner_holding_a_speto_pays_for_it():
    settlement = settled(
        make_stock_out({"Ann": 40, "Bee": -5, "Cat": 10, "Dan": 0}, speto_held={"Ann": 2})
    )

    assert {key: v for key, v in paid(settlement).items() if key[2] == "speto-hold"} == {
        ("Ann", "Bee", "speto-hold"): 2 * HOLD,
        ("Ann", "Cat", "speto-hold"): 2 * HOLD,
        ("Ann", "Dan", "speto-hold"): 2 * HOLD,
    }


def test_a_stock_out_sleeper_pays_more_times_its_sleep_only():
    # Dan dark colour (S=8) with K = 1; Cat light colour (S=4); Bee dark (S=2). Ann wins.
    doc = make_stock_out(
        {"Ann": 40, "Bee": -5, "Cat": 10, "Dan": 30},
        collected=["Ann", "Cat"],
        color=["Cat", "Dan"],
    )

    assert paid(settled(doc)) == {
        ("Bee", "Ann", "level"): 300 * 2,
        ("Cat", "Ann", "level"): 300 * 4,
        ("Dan", "Ann", "level"): 300 * 8,
    }


# -- immediate events ----------------------------------------------------------------------------

EVENT_ROWS = [
    (
        "20: the head picked up: every other player pays the picker M",
        {"type": "head", "player": "Cat"},
        {("Ann", "Cat", "head"): M, ("Bee", "Cat", "head"): M, ("Dan", "Cat", "head"): M},
    ),
    (
        "27: the head after one close discard: the discarder pays 3M, nobody else",
        {"type": "head", "player": "Cat", "close": ["Dan"]},
        {("Dan", "Cat", "head-close"): 3 * M},
    ),
    (
        "27: the head after two close discards: each discarder pays 3M",
        {"type": "head", "player": "Cat", "close": ["Dan", "Ann"]},
        {("Dan", "Cat", "head-close"): 3 * M, ("Ann", "Cat", "head-close"): 3 * M},
    ),
    (
        "41: one Speto collected: every other player pays M",
        {"type": "speto", "player": "Ann", "count": 1},
        {("Bee", "Ann", "speto"): M, ("Cat", "Ann", "speto"): M, ("Dan", "Ann", "speto"): M},
    ),
    (
        "41: a Speto with no count counts one",
        {"type": "speto", "player": "Ann"},
        {("Bee", "Ann", "speto"): M, ("Cat", "Ann", "speto"): M, ("Dan", "Ann", "speto"): M},
    ),
    (
        "41: two Spetos laid: every other player pays 2M",
        {"type": "speto", "player": "Ann", "count": 2},
        {
            ("Bee", "Ann", "speto"): 2 * M,
            ("Cat", "Ann", "speto"): 2 * M,
            ("Dan", "Ann", "speto"): 2 * M,
        },
    ),
    (
        "28-31: a Speto after a defence discard: the discarder pays 3M for the table",
        {"type": "speto", "player": "Ann", "count": 1, "close": ["Dan"]},
        {("Dan", "Ann", "speto-close"): 3 * M},
    ),
    (
        "28-31: two Spetos after defence discards by two: each pays 3M per Speto",
        {"type": "speto", "player": "Ann", "count": 2, "close": ["Dan", "Bee"]},
        {("Dan", "Ann", "speto-close"): 6 * M, ("Bee", "Ann", "speto-close"): 6 * M},
    ),
    (
        "32: a called dummy discard: the discarder pays every other player M",
        {"type": "dummy-discard", "player": "Dan"},
        {
            ("Dan", "Ann", "dummy-discard"): M,
            ("Dan", "Bee", "dummy-discard"): M,
            ("Dan", "Cat", "dummy-discard"): M,
        },
    ),
    (
        "32: a called full-meld discard: the discarder pays every other player M",
        {"type": "full-discard", "player": "Dan"},
        {
            ("Dan", "Ann", "full-discard"): M,
            ("Dan", "Bee", "full-discard"): M,
            ("Dan", "Cat", "full-discard"): M,
        },
    ),
    (
        "81: two Spetos shown in the first round: every other player pays 2M",
        {"type": "show-speto", "player": "Ann"},
        {
            ("Bee", "Ann", "show-speto"): 2 * M,
            ("Cat", "Ann", "show-speto"): 2 * M,
            ("Dan", "Ann", "show-speto"): 2 * M,
        },
    ),
]


@pytest.mark.parametrize(
    ("event", "expected"),
    [row[1:] for row in EVENT_ROWS],
    ids=[row[0] for row in EVENT_ROWS],
)
def test_an_immediate_event_is_paid_at_once(event, expected):
    amounts = paid(settled(make_doc(events=[event])), due="at-once")

    assert amounts == expected


@pytest.mark.parametrize("kind", KIND_IDS)
def test_immediate_events_do_not_scale_with_the_knock(kind):
    doc = make_doc(knock=knock(kind), events=[{"type": "head", "player": "Dan"}])

    assert paid(settled(doc), due="at-once") == {
        ("Ann", "Dan", "head"): M,
        ("Bee", "Dan", "head"): M,
        ("Cat", "Dan", "head"): M,
    }


def test_event_amounts_follow_custom_stakes():
    doc = make_doc(
        level=None,
        stakes={"less": 10, "medium": 25, "more": 40},
        events=[{"type": "speto", "player": "Cat", "close": ["Ann"]}],
    )

    assert paid(settled(doc), due="at-once") == {("Ann", "Cat", "speto-close"): 75}


@pytest.mark.parametrize(
    ("fine", "each"),
    [({"fine": 300}, 300), ({}, M), ({"fine": 1}, 1)],
    ids=["a custom fine", "the default fine is the medium rate", "a fine of one point"],
)
@pytest.mark.parametrize("reason", ["misdeal", "false-knock", "unmeldable-pickup", None])
def test_a_fine_makes_the_offender_pay_every_other_player(fine, each, reason):
    event = {"type": "fine", "player": "Dan"} | ({"reason": reason} if reason else {})

    settlement = settled(make_fined(event, **fine))

    assert paid(settlement) == {
        ("Dan", "Ann", "fine"): each,
        ("Dan", "Bee", "fine"): each,
        ("Dan", "Cat", "fine"): each,
    }


def test_a_fine_ends_the_game_with_no_levels_winners_or_after_game_lines():
    settlement = settled(make_fined({"type": "fine", "player": "Cat", "reason": "misdeal"}))

    assert dict(settlement.levels) == {}
    assert list(settlement.winners) == []
    assert [line for line in settlement.lines if str(line.due) == "after-game"] == []


def test_event_lines_before_a_fine_stand():
    doc = make_fined(
        {"type": "head", "player": "Ann"},
        {"type": "speto", "player": "Bee", "close": ["Cat"]},
        {"type": "dummy-discard", "player": "Cat"},
        {"type": "fine", "player": "Dan", "reason": "false-knock"},
        fine=150,
    )

    settlement = settled(doc)

    assert paid(settlement) == {
        ("Bee", "Ann", "head"): M,
        ("Cat", "Ann", "head"): M,
        ("Dan", "Ann", "head"): M,
        ("Cat", "Bee", "speto-close"): 3 * M,
        ("Cat", "Ann", "dummy-discard"): M,
        ("Cat", "Bee", "dummy-discard"): M,
        ("Cat", "Dan", "dummy-discard"): M,
        ("Dan", "Ann", "fine"): 150,
        ("Dan", "Bee", "fine"): 150,
        ("Dan", "Cat", "fine"): 150,
    }
    assert settlement.net() == {"Ann": 950, "Bee": 750, "Cat": -1250, "Dan": -450}


def test_events_and_end_of_game_lines_add_up_in_the_net():
    # Example "rules 20/27/32" of docs/rules/examples/knock-examples.jsonl, line by line.
    doc = make_doc(
        knock={"player": "Ann", "kind": "normal"},
        points={"Bee": 10, "Cat": 20, "Dan": 30},
        events=[
            {"type": "head", "player": "Bee", "close": ["Dan"]},
            {"type": "dummy-discard", "player": "Cat"},
        ],
    )

    settlement = settled(doc)

    assert paid(settlement) == {
        ("Dan", "Bee", "head-close"): 600,
        ("Cat", "Ann", "dummy-discard"): 200,
        ("Cat", "Bee", "dummy-discard"): 200,
        ("Cat", "Dan", "dummy-discard"): 200,
        ("Dan", "Ann", "level"): 100,
        ("Cat", "Ann", "level"): 200,
        ("Bee", "Ann", "level"): 300,
        ("Bee", "Ann", "knock"): 200,
        ("Cat", "Ann", "knock"): 200,
        ("Dan", "Ann", "knock"): 200,
    }


# -- custom stakes -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KIND_IDS)
def test_custom_stakes_set_every_rate_and_m(kind):
    # less 30, medium 50, more 90: Ann less, Cat medium, Dan more; Cat holds a Speto.
    k = KINDS[kind]
    doc = make_doc(
        level=None,
        stakes={"less": 30, "medium": 50, "more": 90},
        knock=knock(kind),
        speto_held={"Cat": 1},
    )

    assert paid(settled(doc)) == {
        **to_knocker([30 * k, 50 * k, 90 * k], "level"),
        **to_knocker([50 * k] * 3, "knock"),
        ("Cat", "Ann", "speto-hold"): 100,
        ("Cat", "Bee", "speto-hold"): 100,
        ("Cat", "Dan", "speto-hold"): 100,
    }


@pytest.mark.parametrize(
    ("level", "rates"),
    [("thep", (80, 100, 120)), ("sian", (100, 200, 300)), ("khot-sian", (200, 300, 400))],
    ids=["thep", "sian", "khot-sian"],
)
def test_the_named_levels_carry_the_rates_of_rule_69(level, rates):
    less, medium, more = rates

    amounts = paid(settled(make_doc(level=level)))

    assert amounts == {
        **to_knocker([less, medium, more], "level"),
        **to_knocker([medium] * 3, "knock"),
    }


def test_equal_custom_stakes_are_allowed():
    doc = make_doc(level=None, stakes={"less": 50, "medium": 50, "more": 50})

    assert settled(doc).net() == {"Ann": -100, "Bee": 300, "Cat": -100, "Dan": -100}


# -- combinations the spec spells out ------------------------------------------------------------

FACE_TO_FACE = [
    # (knock kind, collected, color, times the more rate): rules 77-78, K × S
    ("dark", ["Ann", "Cat"], [], 4),  # dark sleep against a dark knock
    ("light-color", ["Ann", "Cat"], [], 8),  # dark sleep against a light-colour knock
    ("dark", ["Ann", "Cat"], ["Dan"], 16),  # dark-colour sleep against a dark knock
    ("light-color", ["Ann", "Cat", "Dan"], ["Dan"], 16),  # light colour against light colour
    ("dark-color", ["Ann", "Cat"], ["Dan"], 64),  # dark-colour sleep against a dark-colour knock
]


@pytest.mark.parametrize(
    ("kind", "collected", "color", "times"),
    FACE_TO_FACE,
    ids=[f"{row[0]} knock, {row[3]} x more" for row in FACE_TO_FACE],
)
def test_the_face_to_face_values_of_rules_77_78_are_k_times_s_at_the_more_rate(
    kind, collected, color, times
):
    doc = make_doc(knock=knock(kind), collected=collected, color=color)

    assert paid(settled(doc))[("Dan", "Bee", "level")] == 300 * times


def test_rule_73_head_picked_to_knock_holding_a_speto_is_head_plus_held_speto():
    # 3 × M from each loser: M at once for the head, 2 × M after the game for the Speto.
    doc = make_doc(knocker_speto={"held": 1}, events=[{"type": "head", "player": "Bee"}])

    amounts = paid(settled(doc))

    for loser in ("Ann", "Cat", "Dan"):
        assert amounts[(loser, "Bee", "head")] == M
        assert amounts[(loser, "Bee", "knocker-speto-held")] == 2 * M


def test_the_default_fine_is_the_custom_medium_rate():
    doc = make_fined(
        {"type": "fine", "player": "Ann"}, level=None, stakes={"less": 10, "medium": 25, "more": 40}
    )

    assert paid(settled(doc)) == {
        ("Ann", "Bee", "fine"): 25,
        ("Ann", "Cat", "fine"): 25,
        ("Ann", "Dan", "fine"): 25,
    }
