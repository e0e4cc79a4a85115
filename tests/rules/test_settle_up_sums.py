"""Each party's money of the night part by part (settle_up.sums): the games, what was handed over
at the table, the costs, the fee and the rounding add up to what the transfers pay or charge it."""

from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.money import baht
from scorekeeper.rules.settle_up import (
    COST,
    FEE,
    HOUSE,
    HUB,
    Line,
    Sum,
    biggest_winner,
    nets,
    plan,
    positions,
    rounding,
    sums,
)
from tests.rules.test_settle_up import nights

B = Decimal


def paid_nets(payments) -> Counter[str]:
    held: Counter[str] = Counter()
    for payment in payments:
        held[payment.payer] -= payment.baht
        held[payment.payee] += payment.baht
    return held


def test_a_winner_pays_the_fee_and_the_rounding_and_receives_the_rest():
    won = {"Ann": 800, "Bee": -300, "Cat": -500}
    fee = [Line("Ann", HOUSE, B(100), FEE, "1")]
    held = positions(won, B(1), fee)
    rounded = rounding(held, 20, "Bee")  # Ann's 700 stays; Cat's −500 too
    rows = sums(list(won), won, won, B(1), {}, [*fee, *rounded], "Bee")
    assert rows == [
        Sum("Ann", B(800), B(0), B(0), B(-100), B(0)),
        Sum("Bee", B(-300), B(0), B(0), B(0), B(0)),
        Sum("Cat", B(-500), B(0), B(0), B(0), B(0)),
        Sum(HOUSE, B(0), B(0), B(0), B(100), B(0)),
    ]
    assert [row.total for row in rows] == [B(700), B(-300), B(-500), B(100)]


def test_what_was_handed_over_at_the_table_is_a_part_of_its_own():
    won = {"Ann": 100, "Bee": -100}
    left = {"Ann": 40, "Bee": -40}  # Bee handed Ann 60 points at the table
    rows = sums(["Ann", "Bee"], won, left, B("0.5"), {}, [], "Ann")
    assert [(row.game, row.at_table, row.total) for row in rows] == [
        (B(50), B(-30), B(20)),
        (B(-50), B(30), B(-20)),
    ]


def test_the_carrier_takes_the_satang_the_points_rounding_leaves():
    won = {"Ann": 1, "Bee": 1, "Cat": -2}  # at half a satang a point: 0.01 + 0.01 − 0.01
    rows = sums(list(won), won, won, B("0.005"), {}, [], "Ann")
    assert [row.rounding for row in rows] == [B("-0.01"), 0, 0]
    paid = paid_nets(plan(positions(won, B("0.005"), []), carrier="Ann"))
    assert [row.total for row in rows] == [paid[name] for name in won]


@settings(max_examples=200, deadline=None)
@given(
    night=nights(),
    step=st.sampled_from([0, 1, 5, 10, 20]),
    hub=st.booleans(),
    handed=st.integers(0, 5_000),
)
def test_every_total_is_its_parts_and_what_its_transfers_pay(night, step, hub, handed):
    points, rate, lines, carrier = night
    names = list(points)
    left = dict(points)  # the first player handed the second some points at the table
    left[names[0]] += handed
    left[names[1]] -= handed
    costs = nets(line for line in lines if line.item == COST)
    fees = [line for line in lines if line.item == FEE]
    held = positions(left, rate, fees, costs)
    carrier = biggest_winner(held) or carrier
    residue = rounding(held, step, carrier)
    held = positions(left, rate, [*fees, *residue], costs)
    paid = paid_nets(plan(held, mode=HUB if hub else "fewest", hub=carrier, carrier=carrier))
    rows = sums(names, points, left, rate, costs, [*fees, *residue], carrier)
    for row in rows:
        assert row.total == row.game + row.at_table + row.costs + row.fee + row.rounding
        assert row.total == paid[row.name], row
        if row.name != HOUSE:
            assert row.game == baht(points[row.name], rate)
            assert row.at_table == baht(left[row.name], rate) - row.game
    assert {row.name for row in rows} >= {name for name, amount in paid.items() if amount}
