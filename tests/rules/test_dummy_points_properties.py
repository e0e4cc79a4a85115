"""Properties of classic Dummy scoring over random valid deals (Hypothesis).

The reference model below is the page's formula read literally, written apart from the module:
(table − hand + bonuses − penalties) × multiplier, the dark sleeper's ×2 only on a loss.
"""

from dataclasses import replace
from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.dummy_points import (
    DECK_POINTS,
    Count,
    Deal,
    Head,
    HouseRules,
    Knock,
    KnockKind,
    Penalty,
    play_match,
    score_deal,
)

NAMES = ("Ann", "Bee", "Cat", "Dan")
PROPERTY = settings(max_examples=100, deadline=None)


@cache  # one strategy for each bound: Hypothesis checks a strategy the first time it is drawn
def fives_up_to(most):
    """Points that come in fives, from 0 to `most` (what is left of the deck's 465)."""
    return st.integers(0, most // 5).map(lambda n: 5 * n)


MULTIPLIER = {"normal": 1, "dark": 2, "color": 2, "dark-color": 4}
PENALTY_FIELD = {kind: kind.value.replace("-", "_") for kind in Penalty}


@st.composite
def houses(draw):
    amounts = st.sampled_from((5, 25, 50, 100, 150))  # a tuple: one strategy for every house
    return HouseRules(
        knock_card_speto_100=draw(st.booleans()),
        knock_card_lay_off_100=draw(st.booleans()),
        **{field: draw(amounts) for field in PENALTY_FIELD.values()},
        head=draw(amounts),
        head_speto=draw(amounts),
    )


PENALTY_KINDS = st.lists(
    st.sampled_from(
        [Penalty.DUMMY_DISCARD, Penalty.FULL_DISCARD, Penalty.SPETO_CLOSE, Penalty.SPETO_LAID_OFF]
    )
)


@st.composite
def penalties(draw, player, head, defence_left):
    """Draw a player's penalty counts; head close only toward another's head pickup."""
    counts = {kind: draw(st.integers(0, 2)) for kind in draw(PENALTY_KINDS)}
    if head is not None and head.player != player and draw(st.booleans()):
        counts[Penalty.HEAD_CLOSE] = 1
    if defence_left and draw(st.booleans()):
        counts[Penalty.SPETO_DEFENCE] = 1
    return counts


@st.composite
def deals(draw):
    """Draw a valid deal of 2 to 4 players, a knock or a stock-out, with options and penalties."""
    players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(2, 4))])
    knocker = draw(st.none() | st.sampled_from(players))
    knock = None
    if knocker is not None:
        knock = Knock(
            knocker,
            draw(st.sampled_from(KnockKind)),
            speto=draw(st.booleans()),
            could_lay_off=draw(st.booleans()),
        )
    collected = {p: p == knocker or draw(st.booleans()) for p in players}
    pickers = [p for p in players if collected[p]]
    head = None
    if pickers and draw(st.booleans()):
        head = Head(draw(st.sampled_from(pickers)), speto=draw(st.booleans()))
    fool = None
    if knocker is not None and draw(st.booleans()):
        fool = draw(st.sampled_from([p for p in players if p != knocker]))
    counts = {}
    defence_left = True
    deck_left = DECK_POINTS  # what is laid and held comes out of one deck
    spetos_left = {Penalty.SPETO_CLOSE: 2, Penalty.SPETO_LAID_OFF: 2}  # and its two Spetos
    for p in players:
        table = draw(fives_up_to(deck_left)) if collected[p] else 0
        hand = 0 if p == knocker else draw(fives_up_to(deck_left - table))
        deck_left -= table + hand
        drawn = draw(penalties(p, head, defence_left))
        defence_left &= Penalty.SPETO_DEFENCE not in drawn
        for kind, left in spetos_left.items():
            if kind in drawn:
                drawn[kind] = min(drawn[kind], left)
                spetos_left[kind] -= drawn[kind]
        if draw(st.booleans()):
            counts[p] = Count(table, hand, collected=collected[p], penalties=drawn)
        else:
            counts[p] = Count(difference=table - hand, collected=collected[p], penalties=drawn)
    return Deal(players, counts, knock, fool, head, draw(houses()))


def reference_score(deal, player):
    """Score one player by the page, read literally."""
    count, house, knock = deal.counts[player], deal.house, deal.knock
    points = count.table - count.hand if count.difference is None else count.difference
    bonuses = 0
    if knock is not None and knock.player == player:
        high = (knock.speto and house.knock_card_speto_100) or (
            knock.could_lay_off and house.knock_card_lay_off_100
        )
        bonuses += 100 if high else 50
    if deal.head is not None and deal.head.player == player:
        bonuses += house.head_speto if deal.head.speto else house.head
    fines = sum(getattr(house, PENALTY_FIELD[kind]) * n for kind, n in count.penalties.items())
    fines += 50 if deal.fool == player else 0
    raw = points + bonuses - fines
    if knock is not None and knock.player == player:
        return raw * MULTIPLIER[knock.kind]
    return 2 * raw if not count.collected and raw < 0 else raw


@PROPERTY
@given(deals())
def test_every_score_is_the_pages_formula(deal):
    assert score_deal(deal).by_player() == {p: reference_score(deal, p) for p in deal.players}


@PROPERTY
@given(deals(), st.data())
def test_a_collected_players_score_is_linear_in_table_minus_hand(deal, data):
    collected = [p for p in deal.players if deal.counts[p].collected]
    assume(collected)
    player = data.draw(st.sampled_from(collected))
    before = deal.counts[player]
    knocker = deal.knock is not None and deal.knock.player == player
    m = deal.knock.multiplier if knocker else 1
    others = sum(
        c.table + c.hand if c.difference is None else abs(c.difference)
        for p, c in deal.counts.items()
        if p != player
    )
    shifted = data.draw(fives_up_to(DECK_POINTS - others))
    after = replace(before, table=shifted, hand=0, difference=None)
    moved = replace(deal, counts={**deal.counts, player: after})

    change = score_deal(moved).by_player()[player] - score_deal(deal).by_player()[player]

    assert change == m * (after.points - before.points)


@PROPERTY
@given(deals())
def test_a_player_with_no_options_scores_table_minus_hand(deal):
    for s in score_deal(deal).scores:
        count = deal.counts[s.player]
        if s.bonuses == 0 and s.penalties == 0 and count.collected and s.multiplier == 1:
            assert s.score == count.points


@PROPERTY
@given(deals())
def test_dark_sleeper_doubling_applies_only_to_a_negative_score(deal):
    knocker = deal.knock.player if deal.knock else None
    for s in score_deal(deal).scores:
        raw = s.points + s.bonuses - s.penalties
        if s.player == knocker:
            continue
        if not deal.counts[s.player].collected and raw < 0:
            assert s.score == 2 * raw
        else:
            assert s.score == raw


@PROPERTY
@given(deals(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_player_order(deal, rng):
    players = list(deal.players)
    rng.shuffle(players)
    reordered = replace(deal, players=tuple(players), counts={p: deal.counts[p] for p in players})

    assert score_deal(reordered).by_player() == score_deal(deal).by_player()


def reference_match(players, deals, target):
    """Add up deals until a total reaches the target; return the deals played and the totals."""
    totals = dict.fromkeys(players, 0)
    for i, scores in enumerate(deals):
        totals = {p: totals[p] + scores[p] for p in players}
        if max(totals.values()) >= target:
            return deals[: i + 1], totals
    return deals, totals


@st.composite
def matches(draw):
    players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(2, 4))])
    score = st.integers(-60, 60).map(lambda n: 5 * n)
    deals = draw(st.lists(st.fixed_dictionaries(dict.fromkeys(players, score)), max_size=12))
    return players, deals, draw(st.sampled_from([100, 300, 500]))


@PROPERTY
@given(matches(), st.randoms(use_true_random=False))
def test_totals_and_the_match_result_do_not_depend_on_player_order(match, rng):
    players, deals, target = match
    played, totals = reference_match(players, deals, target)
    shuffled = list(players)
    rng.shuffle(shuffled)

    state = play_match(players, played, target)
    other = play_match(shuffled, [{p: d[p] for p in shuffled} for d in played], target)

    assert dict(state.totals) == dict(other.totals) == totals
    assert state.ended == other.ended == (max(totals.values()) >= target)
    assert set(state.winners) == set(other.winners)
    if state.ended:
        assert set(state.winners) == {p for p in players if totals[p] == max(totals.values())}
