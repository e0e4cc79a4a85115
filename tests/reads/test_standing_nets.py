"""A game's money is read from the standing ledger (reversals applied), by one reader: an undone
result and an event taken back count nothing, a per-game table fee goes from the standing winner,
and a night closed by every line as booked keeps the fee lines it was closed with."""

from collections import Counter
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from scorekeeper.models import Game, LedgerLine, Membership, MoneyLine, Night, Player
from scorekeeper.reads.history import night_running
from scorekeeper.reads.money import Choices, cost_annotations, costs_of, night_money
from scorekeeper.services import exports, games, nights, settle_up
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night, player

ANN_DARK = {"knock": {"player": "Ann", "kind": "dark"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}
BEE_NORMAL = {
    "knock": {"player": "Bee", "kind": "normal"},
    "points": {"Ann": 5, "Cat": 20, "Dan": 30},
}
BEE_WINS = {
    "knock": {"player": "Bee", "kind": "normal"},
    "points": {"Ann": 40, "Cat": 1, "Dan": 30},
}
FEE = Choices(fee=Decimal(20))  # 20 baht a game from its winner, to the house


@pytest.fixture
def host(table: Night) -> Membership:
    return Membership.objects.create(group=table.group, role=Membership.Role.HOST, name="พี่หนึ่ง")


def engine_nets(game: Game) -> dict[int, int]:
    """What the rules engine alone makes each player win or lose in the stored game."""
    names = dict(zip(game.document["players"], game.seating, strict=True))
    return {names[name]: net for name, net in game.settled()[1].net().items() if net}


def reread(nets: dict[int, int]) -> dict[int, int]:
    return {p: n for p, n in nets.items() if n}


def undone_and_saved_again(table: Night, host: Membership) -> Game:
    """Game 1: Ann's dark knock saved, undone at once, then saved as Bee's normal knock."""
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=ANN_DARK)
    games.game_undo(game=game, actor=host)
    return games.game_finish(game=game, outcome=BEE_NORMAL)


def test_an_undone_result_counts_nothing_in_the_games_nets(table, host):
    game = undone_and_saved_again(table, host)
    nets = LedgerLine.objects.game_nets(table)
    assert reread(nets[game.pk]) == engine_nets(game)
    # Every line as booked still counts the undone result: Ann won most by it.
    booked = LedgerLine.objects.game_nets(table, booked=True)[game.pk]
    assert max(booked, key=booked.__getitem__) == player(table, "Ann").pk


def test_a_result_undone_with_the_game_still_in_play_leaves_its_events_alone(table, host):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.game_finish(game=game, outcome=ANN_DARK)
    games.game_undo(game=game, actor=host)
    bee, dan = player(table, "Bee").pk, player(table, "Dan").pk
    assert reread(LedgerLine.objects.game_nets(table)[game.pk]) == {bee: 600, dan: -600}


def test_an_event_taken_back_counts_nothing_in_the_games_nets(table, host):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    games.event_remove(game=game, number=2, actor=host)
    games.game_finish(game=game, outcome=ANN_DARK)
    game.refresh_from_db()
    assert reread(LedgerLine.objects.game_nets(table)[game.pk]) == engine_nets(game)


def test_a_voided_game_reads_as_it_stood_when_voided_without_what_was_undone_before(table, host):
    game = undone_and_saved_again(table, host)
    standing = engine_nets(game)
    games.game_void(game=game)
    assert reread(LedgerLine.objects.game_nets(table)[game.pk]) == standing
    # Whoever sums the games counts only those that stand: the voided one is nothing now.
    counted = LedgerLine.objects.exclude(game__status=Game.Status.VOIDED).game_nets(table)
    assert counted == {}


def test_a_game_voided_in_play_after_an_undo_reads_its_events_alone_and_audits_clean(table, host):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.game_finish(game=game, outcome=ANN_DARK)
    games.game_undo(game=game, actor=host)
    games.game_void(game=game)
    bee, dan = player(table, "Bee").pk, player(table, "Dan").pk
    assert reread(LedgerLine.objects.game_nets(table)[game.pk]) == {bee: 600, dan: -600}
    assert night_audit(table) == []


def test_a_void_that_reversed_nothing_after_an_undo_audits_clean(table, host):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.game_finish(game=game, outcome=ANN_DARK)
    games.game_undo(game=game, actor=host)
    games.event_remove(game=game, number=1, actor=host)
    games.game_void(game=game)
    assert not LedgerLine.objects.game_nets(table).get(game.pk)
    assert night_audit(table) == []


def test_a_void_dated_after_its_reversals_as_before_voids_were_dated_first_reads_the_same(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=ANN_DARK)
    games.game_void(game=game)
    Game.objects.filter(pk=game.pk).update(voided_at=timezone.now())  # as a void was dated then
    game.refresh_from_db()
    assert reread(LedgerLine.objects.game_nets(table)[game.pk]) == engine_nets(game)
    assert night_audit(table) == []


def test_a_per_game_fee_after_an_undo_is_charged_to_the_standing_winner(table, host):
    undone_and_saved_again(table, host)
    nights.night_close(night=table, choices=FEE)
    fee = MoneyLine.objects.get(night=table, item=MoneyLine.Item.FEE)
    assert (fee.payer.name, fee.payee, fee.baht, fee.reason) == ("Bee", None, Decimal(20), "1")
    table.refresh_from_db()
    assert table.nets_reading == Night.NetsReading.STANDING
    assert night_audit(table) == []


def test_a_per_game_fee_after_events_taken_back_is_charged_to_the_standing_winner(table, host):
    game = games.game_start(night=table)
    # Cat's head and two Spetos made Cat the game's big winner, until they were taken back.
    games.event_add(game=game, event={"type": "head", "player": "Cat"})
    games.event_add(game=game, event={"type": "speto", "player": "Cat", "count": 2})
    games.event_remove(game=game, number=1, actor=host)
    games.event_remove(game=game, number=2, actor=host)
    games.game_finish(game=game, outcome=BEE_WINS)
    booked = LedgerLine.objects.game_nets(table, booked=True)[game.pk]
    assert max(booked, key=booked.__getitem__) == player(table, "Cat").pk
    nights.night_close(night=table, choices=FEE)
    fee = MoneyLine.objects.get(night=table, item=MoneyLine.Item.FEE)
    assert fee.payer.name == "Bee"
    assert night_audit(table) == []


def close_as_before_the_standing_reading(night: Night, choices: Choices) -> None:
    """Close the night as the close did before it read the standing nets: each game's fee by
    every line as booked; the night then marked so, as migration 0022 marks such nights."""
    night = Night.objects.get(pk=night.pk)
    standings = list(night.standings.select_related("player").annotate(**cost_annotations(night)))
    night.closed_at = timezone.now()
    night.nets_reading = Night.NetsReading.BOOKED  # what `night` reads a closed night by
    money = night_money(
        night,
        {s.player.name: s.balance for s in standings},
        sorted((s.player for s in standings), key=lambda p: p.name),
        costs={s.player.name: costs_of(s) for s in standings},
    )
    settle_up.write(night, money, choices, None)
    night.nets_reading = Night.NetsReading.BOOKED
    night.save()


def booked_night(host: Membership, table: Night) -> Night:
    undone_and_saved_again(table, host)
    close_as_before_the_standing_reading(table, FEE)
    table.refresh_from_db()
    return table


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_a_night_closed_by_every_line_as_booked_keeps_its_fee_lines_and_audits_clean(table, host):
    night = booked_night(host, table)
    fee = MoneyLine.objects.get(night=night, item=MoneyLine.Item.FEE)
    assert fee.payer.name == "Ann"  # the winner of the result undone, as that close charged it
    assert night_audit(night) == []
    # The reading is what the audit goes by: read by the standing nets, that fee is wrong.
    Night.objects.filter(pk=night.pk).update(nets_reading=Night.NetsReading.STANDING)
    assert "the fee and rounding lines differ from a fresh settle-up" in night_audit(night)


def exported_night(*, closed: bool) -> dict:
    """The export of a night whose result was undone and saved again, closed by every line as
    booked or left open, made in a transaction rolled back: the database stays empty."""
    with transaction.atomic():
        table = make_night()
        host = Membership.objects.create(group=table.group, role=Membership.Role.HOST)
        if closed:
            booked_night(host, table)
        else:
            undone_and_saved_again(table, host)
        data = exports.group_json(group=table.group)
        transaction.set_rollback(True)
    return data


def test_a_booked_night_exports_its_reading_and_imports_back_unchanged_and_clean(db):
    data = exported_night(closed=True)
    assert data["sessions"][0]["nets_reading"] == "booked"
    group = exports.group_import(data=data)
    night = group.nights.get()
    assert night.nets_reading == Night.NetsReading.BOOKED
    assert night_audit(night) == []
    again = exports.group_json(group=group)
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in data.items() if k != "exported_at"
    }


def test_an_export_made_before_the_reading_was_kept_imports_closed_nights_as_booked(db):
    data = exported_night(closed=True)
    del data["sessions"][0]["nets_reading"]
    night = exports.group_import(data=data).nights.get()
    assert night.nets_reading == Night.NetsReading.BOOKED
    assert night_audit(night) == []


def test_an_open_night_of_an_export_without_the_reading_imports_as_standing(db):
    data = exported_night(closed=False)
    del data["sessions"][0]["nets_reading"]
    night = exports.group_import(data=data).nights.get()
    assert night.nets_reading == Night.NetsReading.STANDING
    nights.night_close(night=night, choices=FEE)
    fee = MoneyLine.objects.get(night=night, item=MoneyLine.Item.FEE)
    assert fee.payer.name == "Bee" and night_audit(night) == []


def test_the_running_balance_counts_no_undone_result_and_ends_at_the_scoreboard(table, host):
    undone_and_saved_again(table, host)
    second = games.game_start(night=table)
    games.event_add(game=second, event={"type": "dummy-discard", "player": "Cat"})
    games.event_add(game=second, event={"type": "head", "player": "Dan"})
    games.event_remove(game=second, number=1, actor=host)
    players = list(Player.objects.filter(group=table.group).order_by("name"))
    labels, running = night_running(table, players)
    assert labels == ["1", "2"]
    want = Counter({s.player.name: s.net for s in table.standings.select_related("player")})
    assert {name: values[-1] for name, values in running.items()} == want
