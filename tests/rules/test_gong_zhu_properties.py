"""Properties of Gong Zhu scoring, the match and money over random deals (Hypothesis).

The reference model below is the page's table read literally, card by card, written apart from the
module.
"""

from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.gong_zhu import (
    Card,
    Deal,
    HouseRules,
    pairwise,
    pairwise_net,
    score_deal,
)

NAMES = ("Ann", "Bee", "Cat", "Dan")
PROPERTY = settings(max_examples=200, deadline=None)
FACE = {"J": 20, "Q": 30, "K": 40, "A": 50}
HEART_CODES = [f"H{n}" for n in range(2, 11)] + [f"H{r}" for r in "JQKA"]
POINT_CODES = [*HEART_CODES, "SQ", "DJ", "C10"]
SOME_PLAYERS = st.sampled_from([3, 4])


def houses():
    return st.builds(
        HouseRules,
        no_point_cards=st.sampled_from([-50, 0]),
        pig_in_shuan=st.sampled_from([-100, 100]),
    )


@st.composite
def partitions(draw, players=4):
    """Deal the sixteen point cards out to the players (three players: perhaps one left out)."""
    names = draw(st.permutations(NAMES))[:players]
    codes = list(POINT_CODES)
    if players == 3 and draw(st.booleans()):
        codes.remove(draw(st.sampled_from(codes)))
    # Random takers alone almost never make a Shuan: sometimes one player hoards first.
    hoard = draw(st.sampled_from([(), (), HEART_CODES, POINT_CODES, HEART_CODES[1:]]))
    captured = {name: [] for name in names}
    takers = st.sampled_from(names)  # one strategy for the sixteen draws, checked once
    for code in codes:
        taker = names[0] if code in hoard else draw(takers)
        captured[taker].append(code)
    for name in names:
        if not captured[name] and draw(st.booleans()):
            del captured[name]  # a player who took nothing may be left out
    return tuple(names), captured


def heart_value(code):
    rank = code[1:]
    return int(rank) if rank.isdigit() else FACE[rank]


def reference_scores(players, captured, house):
    """Score a deal by the page's table, one card at a time."""
    shuan = next((p for p in players if set(HEART_CODES) <= set(captured.get(p, []))), None)
    scores = {}
    for p in players:
        cards = set(captured.get(p, []))
        if len(cards) == 16:
            scores[p] = 1000
            continue
        if not cards:
            scores[p] = house.no_point_cards
            continue
        if cards == {"C10"}:
            scores[p] = 50
            continue
        total = 0
        for code in cards:
            if code in HEART_CODES:
                total += heart_value(code) if shuan == p else -heart_value(code)
            elif code == "SQ":
                total += 100 if shuan == p else house.pig_in_shuan if shuan else -100
            elif code == "DJ":
                total += 100
        scores[p] = 2 * total if "C10" in cards else total
    return scores


def deal_of(players, captured, house):
    return Deal(players, {p: tuple(Card(c) for c in cards) for p, cards in captured.items()}, house)


@PROPERTY
@given(partitions(), houses())
def test_a_four_player_deal_is_scored_from_a_partition_of_the_sixteen_point_cards(deal, house):
    players, captured = deal

    assert dict(score_deal(deal_of(players, captured, house)).scores) == reference_scores(
        players, captured, house
    )


@PROPERTY
@given(partitions(players=3), houses())
def test_a_three_player_deal_is_scored_with_at_most_one_card_missing(deal, house):
    players, captured = deal
    result = score_deal(deal_of(players, captured, house))

    assert dict(result.scores) == reference_scores(players, captured, house)
    taken = {c for cards in captured.values() for c in cards}
    assert result.missing == next((Card(c) for c in POINT_CODES if c not in taken), None)


@PROPERTY
@given(SOME_PLAYERS.flatmap(partitions), houses(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_the_order_the_cards_were_tapped(deal, house, rng):
    players, captured = deal
    shuffled = {p: rng.sample(cards, len(cards)) for p, cards in captured.items()}
    keys = list(shuffled)
    rng.shuffle(keys)
    seats = list(players)
    rng.shuffle(seats)

    reordered = deal_of(tuple(seats), {p: shuffled[p] for p in keys}, house)

    assert dict(score_deal(reordered).scores) == dict(
        score_deal(deal_of(players, captured, house)).scores
    )


@PROPERTY
@given(SOME_PLAYERS.flatmap(partitions), houses())
def test_shuan_and_big_shuan_come_only_when_the_pages_conditions_hold(deal, house):
    players, captured = deal
    result = score_deal(deal_of(players, captured, house))
    all_hearts = [p for p in players if set(HEART_CODES) <= set(captured.get(p, []))]
    all_sixteen = [p for p in players if set(captured.get(p, [])) == set(POINT_CODES)]

    event(f"Shuan: {bool(all_hearts)}, Big Shuan: {bool(all_sixteen)}")
    assert result.shuan == (all_hearts[0] if all_hearts else None)
    assert result.big_shuan == (all_sixteen[0] if all_sixteen else None)
    if result.big_shuan:
        assert result.scores[result.big_shuan] == 1000


totals = st.dictionaries(st.sampled_from(NAMES), st.integers(-3000, 3000), min_size=2, max_size=4)


@PROPERTY
@given(totals)
def test_pairwise_money_sums_to_zero(totals):
    assert sum(pairwise_net(totals).values()) == 0


@PROPERTY
@given(totals)
def test_each_player_nets_the_sum_of_their_differences_with_everyone(totals):
    net = pairwise_net(totals)

    for p, own in totals.items():
        assert net[p] == sum(own - other for other in totals.values())
    assert all(payment.points > 0 for payment in pairwise(totals))
    assert len(pairwise(totals)) == sum(
        1 for i, a in enumerate(totals) for b in list(totals)[i + 1 :] if totals[a] != totals[b]
    )
