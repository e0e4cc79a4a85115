"""A night's money summed up per player (reads.sums): each total is the sum of its parts and
what the transfers pay or charge that player, and the games' part is what the rules engine makes
of the stored games, at the night's point value, from scratch."""

import random
from collections import Counter
from decimal import Decimal

import pytest

from scorekeeper.models import Game, Membership, Night, Player
from scorekeeper.reads import sums
from scorekeeper.reads.money import Choices, Close, cost_annotations, costs_of
from scorekeeper.rules import settle_up as rules
from scorekeeper.rules.money import baht
from scorekeeper.services import costs, games, group_rules, nights
from scorekeeper.services.group_rules import Usual
from tests.rules.test_settle_up_sums import paid_nets
from tests.services.conftest import make_night
from tests.services.test_ledger_machine import engine_nets

RATES = [
    Decimal("0.5"),
    Decimal(1),
    Decimal("0.125"),
    Decimal("0.3333"),
    Decimal("0.0007"),
    Decimal(20),
]


def play(night: Night, rng: random.Random) -> None:
    """Play a few games with random results; mark one paid at the table now and then."""
    for _ in range(rng.randint(1, 5)):
        game = games.game_start(night=night)
        names = game.document["players"]
        if rng.random() < 0.4:
            games.event_add(game=game, event={"type": "head", "player": rng.choice(names)})
        knocker = rng.choice(names)
        points = {n: rng.randint(-40, 60) for n in names if n != knocker}
        games.game_finish(game=game, outcome={"knock": {"player": knocker, "kind": "normal"},
                                              "points": points})  # fmt: skip
        if rng.random() < 0.2 and game.events.exists():
            games.game_paid_at_table(game=game, event_number=1)
        if rng.random() < 0.15:
            games.game_void(game=game)


def standing(night: Night) -> tuple[list[Player], dict, dict, dict]:
    """The night's players, nets, balances and shared costs, as the scoreboard reads them."""
    rows = list(night.standings.select_related("player").annotate(**cost_annotations(night)))
    return (
        [r.player for r in rows],
        {r.player.name: r.net for r in rows},
        {r.player.name: r.balance for r in rows},
        {r.player.name: costs_of(r) for r in rows},
    )


def usual_close(night: Night) -> Close | None:
    """The group's usual close as the pages read it, which an open night assumes."""
    return group_rules.usual_of(night.group).close


def random_night(seed: int) -> Night:
    rng = random.Random(seed)
    rate = rng.choice(RATES)
    if rng.random() < 0.5:  # custom stakes of odd points: a rate's satang may not add up
        night = make_night(point_value=rate, stake_level="custom", stakes=(7, 13, 29))
    else:
        night = make_night(point_value=rate)
    players = list(night.group.players.order_by("name"))
    play(night, rng)
    for _ in range(rng.randint(0, 2)):
        among = rng.sample(players, rng.randint(2, 4))
        costs.cost_add(night=night, reason="ส้มตำ", baht=Decimal(rng.randint(1, 99_999)) / 100,
                       paid_by=rng.choice(among), among=among)  # fmt: skip
    host = Membership.objects.create(group=night.group, role=Membership.Role.HOST)
    close = Close(
        fee=rng.choice([Decimal(0), Decimal(20), Decimal("7.50")]),
        fee_per=rng.choice(list(Night.FeePer.values)),
        fee_to=rng.choice([None, *(p.pk for p in players)]),
        rounding=rng.choice(rules.STEPS),
        rounding_by=rng.choice([None, *(p.pk for p in players)]),
    )
    group_rules.group_rules_set(group=night.group, usual=Usual(close=close), actor=host)
    night.group.refresh_from_db()
    return night


def engine_points(night: Night) -> Counter[str]:
    """Each player's points from scratch: every counted game's document through the engine."""
    by_id = {p.pk: p.name for p in night.group.players.all()}
    won: Counter[str] = Counter()
    for game in night.games.counted():
        for pk, net in engine_nets(game).items():
            won[by_id[pk]] += net
    return won


def check(money: sums.Sums, night: Night, paid: Counter[str]) -> None:
    won = engine_points(night)
    for row in money.rows:
        assert row.total == row.game + row.at_table + row.costs + row.fee + row.rounding
        assert row.total == paid[row.name], row  # what the transfers pay or charge them
        if row.name != rules.HOUSE:
            assert row.game == baht(won[row.name], night.point_value)  # the one rounding
    assert sum(row.total for row in money.rows) == 0
    assert {row.name for row in money.rows} >= {name for name, amount in paid.items() if amount}


@pytest.mark.parametrize("seed", range(12))
def test_each_total_is_its_parts_and_its_transfers_open_and_closed(db, seed):
    night = random_night(seed)
    players, nets, balances, cost_nets = standing(night)
    running = sums.night_sums(night, players, nets, balances, cost_nets, usual=usual_close(night))
    assert running.assumed
    check(running, night, paid_nets(running.payments))
    # The close with the group's usual choices makes the transfers the running sums promised.
    nights.night_close(night=night, choices=sums.running_choices(usual_close(night), players))
    night = Night.objects.get(pk=night.pk)
    players, nets, balances, cost_nets = standing(night)
    closed = sums.night_sums(night, players, nets, balances, cost_nets, usual=usual_close(night))
    assert not closed.assumed and closed.payments == []
    stored = night.transfers.select_related("payer", "payee")
    paid = paid_nets(
        rules.Payment(t.payer.name, t.payee.name if t.payee else rules.HOUSE, t.baht)
        for t in stored
    )
    check(closed, night, paid)
    assert closed.rows == running.rows


def test_the_house_has_a_line_of_its_own_when_it_takes_the_fee(db):
    night = make_night(point_value=Decimal(1))
    game = games.game_start(night=night)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    choices = Choices(fee=Decimal(50), rounding=20)
    nights.night_close(night=night, choices=choices)
    night = Night.objects.get(pk=night.pk)
    money = sums.night_sums(night, *standing(night), usual=None)
    house = money.rows[-1]
    assert (house.name, house.fee, house.total) == (rules.HOUSE, Decimal(50), Decimal(50))
    ann = next(row for row in money.rows if row.name == "Ann")
    assert ann.fee == Decimal(-50) and ann.game > 0
    assert money.parts == ["fee", "rounding"] or money.parts == ["fee"]
    assert Game.objects.filter(night=night).count() == 1


def test_an_open_night_assumes_the_groups_usual_fee_and_rounding(db):
    night = make_night(point_value=Decimal(1))
    players = list(night.group.players.order_by("name"))
    host = Membership.objects.create(group=night.group, role=Membership.Role.HOST)
    usual = Usual(close=Close(fee=Decimal(20), fee_per="night", fee_to=players[0].pk, rounding=5))
    group_rules.group_rules_set(group=night.group, usual=usual, actor=host)
    night.group.refresh_from_db()
    game = games.game_start(night=night)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 11, "Cat": 22, "Dan": 33}})  # fmt: skip
    money = sums.night_sums(night, *standing(night), usual=usual_close(night))
    assert money.assumed and money.choices.fee == Decimal(20) and money.choices.rounding == 5
    fees = {row.name: row.fee for row in money.rows}
    assert fees == {"Ann": Decimal(60), "Bee": Decimal(-20), "Cat": Decimal(-20), "Dan": -20}
    assert sum(row.total % 5 != 0 for row in money.rows) <= 1  # the carrier takes what is left
