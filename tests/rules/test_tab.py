"""Settling the tab (rules/tab.py): debts carried both ways, netted per player to the satang and
paid by the fewest transfers."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.settle_up import HOUSE, Payment
from scorekeeper.rules.tab import Debt, nets, settle


def d(payer: str, payee: str, baht: str) -> Debt:
    return Debt(payer, payee, Decimal(baht))


@pytest.mark.parametrize(
    ("debts", "want"),
    [
        # Two ways between two players: one transfer of the difference.
        ([d("Ann", "Bee", "100.25"), d("Bee", "Ann", "40.10")], [("Ann", "Bee", "60.15")]),
        # Exactly cancelling: nobody owes anybody.
        ([d("Ann", "Bee", "12.34"), d("Bee", "Ann", "12.34")], []),
        # A ring of three: one pays the difference round it.
        (
            [d("Ann", "Bee", "10.01"), d("Bee", "Cat", "10.01"), d("Cat", "Ann", "5.00")],
            [("Ann", "Cat", "5.01")],
        ),
        # Six debts both ways among four: two pairs that square apart, two transfers.
        (
            [
                d("Ann", "Bee", "30.00"),
                d("Bee", "Ann", "10.00"),
                d("Cat", "Dan", "7.77"),
                d("Dan", "Cat", "0.01"),
                d("Ann", "Cat", "5.00"),
                d("Cat", "Ann", "5.00"),
            ],  # fmt: skip
            [("Ann", "Bee", "20.00"), ("Cat", "Dan", "7.76")],
        ),
        # A carried table fee owed to the house: the house is only ever paid.
        ([d("Ann", HOUSE, "20.00"), d("Bee", "Ann", "20.00")], [("Bee", HOUSE, "20.00")]),
    ],
    ids=["two-ways", "cancel-out", "ring", "two-pairs", "house"],
)
def test_the_tab_is_settled_by_the_fewest_transfers_exact_to_the_satang(debts, want):
    assert settle(debts) == [Payment(a, b, Decimal(baht)) for a, b, baht in want]


def test_each_player_s_total_is_what_they_are_owed_less_what_they_owe():
    debts = [d("Ann", "Bee", "100.25"), d("Bee", "Ann", "40.10"), d("Cat", "Bee", "0.01")]
    assert nets(debts) == {
        "Ann": Decimal("-60.15"),
        "Bee": Decimal("60.16"),
        "Cat": Decimal("-0.01"),
    }


@pytest.mark.parametrize(
    "baht", ["0", "-1.00", "0.001"], ids=["nothing", "negative", "part-satang"]
)
def test_a_debt_of_nothing_or_part_of_a_satang_is_refused(baht):
    with pytest.raises(ValueError, match="more than 0 baht"):
        settle([d("Ann", "Bee", baht)])


def test_a_float_is_refused():
    with pytest.raises(TypeError):
        settle([Debt("Ann", "Bee", 1.5)])  # type: ignore[arg-type]


NAMES = ["Ann", "Bee", "Cat", "Dan", "Eve"]


@st.composite
def debts_both_ways(draw):
    pairs = st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).filter(lambda p: p[0] != p[1])
    satang = st.integers(1, 10_000_000)
    drawn = draw(st.lists(st.tuples(pairs, satang), max_size=12))
    return [Debt(a, b, Decimal(s) / 100) for (a, b), s in drawn]


@settings(max_examples=150, deadline=None)
@given(debts_both_ways())
def test_the_transfers_leave_everyone_as_paying_every_debt_would_in_fewer_transfers(debts):
    transfers = settle(debts)
    assert nets(transfers) == nets(debts)  # exact, per player, to the satang
    assert all(t.baht > 0 and t.payer != t.payee for t in transfers)
    owing = len(nets(debts))
    assert len(transfers) <= max(owing - 1, 0) and len(transfers) <= len(debts)
