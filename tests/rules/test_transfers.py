from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.transfers import EXACT_LIMIT, Transfer, fewest_transfers, hub_transfers


@st.composite
def make_nets(draw, min_players=1, max_players=EXACT_LIMIT, bound=20):
    """Draw nets for players p0, p1, ... where the last player's net makes the sum zero."""
    size = draw(st.integers(min_players, max_players))
    amounts = draw(st.lists(st.integers(-bound, bound), min_size=size - 1, max_size=size - 1))
    amounts.append(-sum(amounts))
    return {f"p{i}": amount for i, amount in enumerate(amounts)}


def settled_nets(transfers):
    """Return each player's net after the transfers, leaving out players who end square."""
    nets = Counter()
    for transfer in transfers:
        nets[transfer.payer] -= transfer.amount
        nets[transfer.payee] += transfer.amount
    return {name: net for name, net in nets.items() if net != 0}


def non_zero(nets):
    """Return the nets without the players who are already square."""
    return {name: net for name, net in nets.items() if net != 0}


def set_partitions(items):
    """Yield every way to split items into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i, block in enumerate(partition):
            yield [*partition[:i], [first, *block], *partition[i + 1 :]]


def brute_force_fewest(nets):
    """Return the fewest transfers by trying every split of the players into zero-sum blocks."""
    amounts = list(non_zero(nets).values())
    most_blocks = max(
        len(partition)
        for partition in set_partitions(amounts)
        if all(sum(block) == 0 for block in partition)
    )
    return len(amounts) - most_blocks


@pytest.mark.parametrize(
    ("nets", "expected"),
    [
        ({"ann": -5, "bee": 5}, [Transfer("ann", "bee", 5)]),
        ({"ann": -5, "bee": 0, "cat": 5}, [Transfer("ann", "cat", 5)]),
        (
            {"ann": -10, "bee": 4, "cat": 6},
            [Transfer("ann", "bee", 4), Transfer("ann", "cat", 6)],
        ),
        (
            {"ann": -3, "bee": 3, "cat": -7, "dan": 7},
            [Transfer("ann", "bee", 3), Transfer("cat", "dan", 7)],
        ),
        # Greedy alone: ann->eve 3, bee->dan 2, cat->dan 1, cat->eve 1, four transfers.
        (
            {"ann": -3, "bee": -2, "cat": -2, "dan": 3, "eve": 4},
            [Transfer("ann", "dan", 3), Transfer("bee", "eve", 2), Transfer("cat", "eve", 2)],
        ),
        (
            {"ann": -2, "bee": -2, "cat": 2, "dan": 2},
            [Transfer("ann", "cat", 2), Transfer("bee", "dan", 2)],
        ),
        ({"ann": 0, "bee": 0}, []),
        ({}, []),
    ],
    ids=[
        "two players",
        "chain through a square player collapses",
        "one debtor pays two creditors",
        "two independent pairs take two transfers not three",
        "beats greedy by one transfer",
        "ties go to names in order",
        "all square",
        "nobody played",
    ],
)
def test_fewest_transfers_settles_hand_worked_nights(nets, expected):
    assert fewest_transfers(nets) == expected


def test_equal_debts_and_credits_are_paired_off_beyond_the_exact_limit():
    nets = {
        "p01": -5, "p02": 5, "p03": -7, "p04": 7, "p05": -1, "p06": 1, "p07": -2,
        "p08": 2, "p09": -3, "p10": 3, "p11": -4, "p12": 1, "p13": 3,
    }  # fmt: skip

    assert fewest_transfers(nets) == [
        Transfer("p01", "p02", 5),
        Transfer("p03", "p04", 7),
        Transfer("p05", "p06", 1),
        Transfer("p07", "p08", 2),
        Transfer("p09", "p10", 3),
        Transfer("p11", "p12", 1),
        Transfer("p11", "p13", 3),
    ]


def test_twenty_players_still_reproduce_the_nets_within_one_fewer_transfers():
    amounts = [-19, 17, -13, 11, -7, 5, -3, 2, -23, 29, -31, 37, -41, 43, -47, 53, -59, 61, -67]
    nets = {f"p{i:02}": amount for i, amount in enumerate([*amounts, -sum(amounts)])}

    transfers = fewest_transfers(nets)

    assert settled_nets(transfers) == nets
    assert len(transfers) <= 19


@pytest.mark.parametrize(
    ("nets", "hub", "expected"),
    [
        (
            {"ann": -5, "bee": 0, "cat": 5},
            "bee",
            [Transfer("ann", "bee", 5), Transfer("bee", "cat", 5)],
        ),
        (
            {"knocker": -7, "bee": 3, "cat": 4},
            "knocker",
            [Transfer("knocker", "bee", 3), Transfer("knocker", "cat", 4)],
        ),
        (
            {"knocker": 9, "bee": -4, "cat": -5},
            "knocker",
            [Transfer("bee", "knocker", 4), Transfer("cat", "knocker", 5)],
        ),
        (
            {"knocker": -1, "ann": -4, "bee": 5, "cat": 0},
            "knocker",
            [Transfer("ann", "knocker", 4), Transfer("knocker", "bee", 5)],
        ),
        ({"knocker": 0, "bee": 0}, "knocker", []),
    ],
    ids=[
        "square hub passes money through",
        "hub is the only debtor",
        "hub is the only creditor",
        "hub owes a little and passes the rest on",
        "all square",
    ],
)
def test_hub_transfers_settle_everyone_with_the_hub(nets, hub, expected):
    assert hub_transfers(nets, hub) == expected


@pytest.mark.parametrize(
    ("nets", "message"),
    [
        ({"ann": -5, "bee": 4}, "sum to zero, got -1"),
        ({"ann": -5.0, "bee": 5}, "'ann' must be an int, got float"),
        ({"ann": True, "bee": -1}, "'ann' must be an int, got bool"),
        ({"ann": Decimal(-5), "bee": 5}, "'ann' must be an int, got Decimal"),
    ],
    ids=["unbalanced", "float", "bool", "decimal"],
)
def test_bad_nets_are_refused_in_both_modes(nets, message):
    with pytest.raises(ValueError, match=message):
        fewest_transfers(nets)
    with pytest.raises(ValueError, match=message):
        hub_transfers(nets, "bee")


def test_a_hub_who_is_not_playing_is_refused():
    with pytest.raises(ValueError, match="hub 'dan' is not one of the players"):
        hub_transfers({"ann": -5, "bee": 5}, "dan")


@given(make_nets())
def test_fewest_transfers_reproduce_the_nets_with_positive_amounts_between_two_people(nets):
    transfers = fewest_transfers(nets)

    assert settled_nets(transfers) == non_zero(nets)
    assert all(transfer.amount > 0 for transfer in transfers)
    assert all(transfer.payer != transfer.payee for transfer in transfers)


@given(make_nets(max_players=20))
def test_fewest_transfers_need_at_most_one_fewer_than_the_players_with_a_net(nets):
    assert len(fewest_transfers(nets)) <= max(len(non_zero(nets)) - 1, 0)


@settings(max_examples=200)
@given(make_nets(max_players=7, bound=6))
def test_fewest_transfers_match_a_brute_force_optimum(nets):
    assert len(fewest_transfers(nets)) == brute_force_fewest(nets)


@given(st.data(), make_nets(max_players=20))
def test_fewest_transfers_do_not_depend_on_dict_order(data, nets):
    shuffled = dict(data.draw(st.permutations(list(nets.items()))))

    assert fewest_transfers(shuffled) == fewest_transfers(nets)


@given(st.data(), make_nets(max_players=20))
def test_hub_transfers_reproduce_the_nets_and_all_go_through_the_hub(data, nets):
    hub = data.draw(st.sampled_from(sorted(nets)))
    shuffled = dict(data.draw(st.permutations(list(nets.items()))))

    transfers = hub_transfers(shuffled, hub)

    assert settled_nets(transfers) == non_zero(nets)
    assert all(transfer.amount > 0 for transfer in transfers)
    assert all(hub in (transfer.payer, transfer.payee) for transfer in transfers)
    assert all(transfer.payer != transfer.payee for transfer in transfers)
    assert len(transfers) <= len(nets) - 1
    assert transfers == hub_transfers(nets, hub)
