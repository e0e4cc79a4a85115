"""The settle-up in baht: shared costs, the table fee, rounding, transfers."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.settle_up import (
    COST,
    FEE,
    HOUSE,
    HUB,
    PER_GAME,
    PER_NIGHT,
    ROUNDING,
    STEPS,
    Line,
    biggest_winner,
    left_over,
    nets,
    plan,
    positions,
    rounding,
    shares,
    table_fees,
)

B = Decimal


def test_a_shared_cost_is_split_evenly_and_the_one_who_paid_bears_the_satang_left():
    lines = shares(B("100.00"), "Ann", ["Ann", "Bee", "Cat"], "ข้าว")
    assert lines == [
        Line("Bee", "Ann", B("33.33"), COST, "ข้าว"),
        Line("Cat", "Ann", B("33.33"), COST, "ข้าว"),
    ]
    # Ann's own share is what is left: 100 − 2 × 33.33 = 33.34.
    assert nets(lines) == {"Ann": B("66.66"), "Bee": B("-33.33"), "Cat": B("-33.33")}


def test_a_shared_cost_refuses_floats_nothing_and_no_one():
    with pytest.raises(TypeError):
        shares(100.0, "Ann", ["Bee"], "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        shares(B(0), "Ann", ["Bee"], "x")
    with pytest.raises(ValueError):
        shares(B("1.005"), "Ann", ["Bee"], "x")
    with pytest.raises(ValueError):
        shares(B(10), "Ann", [], "x")


def test_a_fee_per_night_comes_from_every_player_but_the_one_it_goes_to():
    lines = table_fees(B(20), PER_NIGHT, "Ann", ["Ann", "Bee", "Cat"], [])
    assert lines == [Line("Bee", "Ann", B(20), FEE), Line("Cat", "Ann", B(20), FEE)]
    to_house = table_fees(B(20), PER_NIGHT, HOUSE, ["Ann", "Bee"], [])
    assert {line.payee for line in to_house} == {HOUSE} and len(to_house) == 2


def test_a_fee_per_game_comes_from_each_games_winner_the_earliest_on_a_tie():
    games = [
        (1, {"Ann": 300, "Bee": -100, "Cat": -200}),
        (2, {"Ann": 50, "Bee": 50, "Cat": -100}),  # a tie: the earliest of the players
        (3, {"Ann": 0, "Bee": 0, "Cat": 0}),  # nobody won: no fee
        (4, {"Ann": -10, "Bee": -10, "Cat": 20}),
    ]
    lines = table_fees(B(10), PER_GAME, HOUSE, ["Bee", "Ann", "Cat"], games)
    assert [(line.payer, line.reason) for line in lines] == [
        ("Ann", "1"),
        ("Bee", "2"),
        ("Cat", "4"),
    ]
    # The winner who takes the fee pays none to themselves (game 2's tie now goes to Ann).
    to_ann = table_fees(B(10), PER_GAME, "Ann", ["Ann", "Bee", "Cat"], games)
    assert [line.reason for line in to_ann] == ["4"]
    assert table_fees(B(0), PER_GAME, HOUSE, ["Ann"], games) == []
    with pytest.raises(ValueError):
        table_fees(B(10), "hour", HOUSE, ["Ann"], games)


def test_rounding_moves_each_residue_to_the_carrier_so_the_night_still_sums_to_zero():
    held = {"Ann": B("103.50"), "Bee": B("-51.25"), "Cat": B("-52.25")}
    lines = rounding(held, 5, "Ann")
    assert lines == [
        Line("Ann", "Bee", B("1.25"), ROUNDING),
        Line("Ann", "Cat", B("2.25"), ROUNDING),
    ]
    after = positions({}, B(1), lines, held)
    assert after == {"Ann": B(100), "Bee": B(-50), "Cat": B(-50)} and sum(after.values()) == 0
    assert rounding(held, 0, "Ann") == []
    with pytest.raises(ValueError):
        rounding(held, 3, "Ann")


def test_the_biggest_winner_is_the_player_owed_most_never_the_house():
    assert biggest_winner({HOUSE: B(500), "Bee": B(10), "Ann": B(10), "Cat": B(-520)}) == "Ann"
    assert biggest_winner({}) is None


def test_everyone_settles_with_the_hub_and_the_house_is_paid_too():
    held = {"Ann": B(100), "Bee": B(-70), "Cat": B(-60), HOUSE: B(30)}
    paid = plan(held, mode=HUB, hub="Ann", carrier="Ann")
    assert {(p.payer, p.payee, p.baht) for p in paid} == {
        ("Bee", "Ann", B(70)), ("Cat", "Ann", B(60)), ("Ann", HOUSE, B(30)),
    }  # fmt: skip
    assert left_over(held, paid, "Ann") == []


def test_an_off_by_one_transfer_is_left_over():
    held = {"Ann": B(100), "Bee": B(-100)}
    paid = plan(held, carrier="Ann")
    assert left_over(held, paid, "Ann") == []
    off = [type(p)(p.payer, p.payee, p.baht + B("0.01")) for p in paid]
    assert left_over(held, off, "Ann") == ["Ann", "Bee"]


NAMES = ["Ann", "Bee", "Cat", "Dan", "Eve"]
RATES = [B(0), B("0.25"), B("0.5"), B(1), B("0.125"), B("0.3333")]


@st.composite
def nights(draw):
    players = NAMES[: draw(st.integers(2, 5))]
    points = [draw(st.integers(-50_000, 50_000)) for _ in players[1:]]
    night = dict(zip(players, [-sum(points), *points], strict=True))
    costs = [
        shares(B(draw(st.integers(1, 500_000))) / 100, draw(st.sampled_from(players)), players, "x")
        for _ in range(draw(st.integers(0, 3)))
    ]
    fee = B(draw(st.integers(0, 5_000))) / 100
    fees = table_fees(fee, PER_NIGHT, draw(st.sampled_from([HOUSE, *players])), players, [])
    lines = [line for cost in costs for line in cost] + fees
    return night, draw(st.sampled_from(RATES)), lines, draw(st.sampled_from(players))


@settings(max_examples=300, deadline=None)
@given(night=nights(), step=st.sampled_from(STEPS), hub=st.booleans())
def test_any_night_rounded_any_way_is_settled_exactly_to_the_satang(night, step, hub):
    points, rate, lines, carrier = night
    held = positions(points, rate, lines)
    residue = rounding(held, step, carrier)
    held = positions(points, rate, [*lines, *residue])
    paid = plan(held, mode=HUB if hub else "fewest", hub=carrier, carrier=carrier)
    assert left_over(held, paid, carrier) == []
    assert all(p.baht > 0 and p.baht == p.baht.quantize(B("0.01")) for p in paid)
    if step:  # every player but the carrier owes or is owed whole steps; the house, its fees
        for name, amount in held.items():
            if name not in (carrier, HOUSE):
                assert amount % step == 0, (name, amount)
    # A residue is never more than half a step (or the satang a rate of 4 places leaves).
    assert all(line.baht <= B(step) / 2 for line in residue)
