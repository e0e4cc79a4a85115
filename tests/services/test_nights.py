"""Nights, seats, settle-up and payments, and the ledger's refusal to be rewritten."""

from decimal import Decimal

import pytest

from scorekeeper.models import LedgerLine, MoneyLine, Night, Transfer
from scorekeeper.reads.money import Choices
from scorekeeper.services import access, games, nights
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night, nets, player

KNOCK = {
    "knock": {"player": "Bee", "kind": "normal"},
    "points": {"Ann": 35, "Cat": -20, "Dan": -60},
}


def play(table: Night, outcome: dict = KNOCK) -> None:
    game = games.game_start(night=table, fool_swap=False)
    games.game_finish(game=game, outcome=outcome)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"names": ("Ann", "Bee", "Cat")}, "four different players"),
        ({"stake_level": "royal"}, "unknown stake level"),
        ({"stake_level": "custom"}, "three rates"),
        ({"stake_level": "custom", "stakes": (300, 200, 100)}, "less ≤ medium ≤ more"),
        ({"stake_level": "custom", "stakes": (0, 200, 300)}, "above 0"),
        ({"fine": 0}, "fine must be more than 0"),
        ({"fine": 100_001}, "at most 100,000"),
        ({"stake_level": "custom", "stakes": (1, 2, 100_001)}, "at most 100,000 points"),
        ({"point_value": Decimal("-1")}, "0 baht or more"),
        ({"point_value": Decimal("1000.0001")}, "at most 1,000 baht"),
    ],
    ids=[
        "three players",
        "unknown level",
        "custom without rates",
        "rates out of order",
        "zero rate",
        "zero fine",
        "a fine above a real table's",
        "a rate above a real table's",
        "negative value",
        "a point value above a real table's",
    ],
)
def test_opening_a_night_refuses_what_cannot_be(db, kwargs, message):
    with pytest.raises(ServiceError, match=message):
        make_night(**kwargs)
    assert Night.objects.count() == 0


def test_the_fine_defaults_to_the_medium_rate(db):
    assert make_night(stake_level="khot-sian").fine == 300


def test_a_player_name_is_trimmed_and_reused_within_a_group(db):
    group = access.group_create(name="วง")
    first = nights.player_create(group=group, name="  สมชาย  ")
    assert nights.player_create(group=group, name="สมชาย") == first
    with pytest.raises(ServiceError, match="needs a name"):
        nights.player_create(group=group, name="   ")


def test_a_new_player_takes_a_seat_and_the_seat_history_is_kept(table):
    play(table)
    eve = nights.player_create(group=table.group, name="Eve")
    nights.seat_change(night=table, position=3, player=eve)
    current = [s.player.name for s in table.seats.current().select_related("player")]
    assert current == ["Ann", "Bee", "Cat", "Eve"]
    dan = table.seats.get(player__name="Dan")
    assert (dan.since_game, dan.until_game) == (1, 2)
    play(
        table,
        {"knock": {"player": "Eve", "kind": "normal"}, "points": {"Ann": 1, "Bee": 2, "Cat": 3}},
    )
    assert nets(table)["Eve"] == 1200
    assert nets(table)["Dan"] == -500  # Dan's first game stays his


def test_seating_a_seated_player_swaps_the_two_seats(table):
    nights.seat_change(night=table, position=0, player=player(table, "Cat"))
    current = [s.player.name for s in table.seats.current().select_related("player")]
    assert current == ["Cat", "Bee", "Ann", "Dan"]


def test_seats_do_not_change_during_a_game(table):
    games.game_start(night=table)
    with pytest.raises(ServiceError, match="game in play"):
        nights.seat_change(night=table, position=0, player=player(table, "Cat"))


def test_closing_gives_the_fewest_transfers_in_baht_and_payments_settle_every_balance(table):
    play(table)
    play(
        table,
        {"knock": {"player": "Ann", "kind": "dark"}, "points": {"Bee": 5, "Cat": 15, "Dan": 10}},
    )
    transfers = nights.night_close(night=table)
    assert len(transfers) <= 3
    for transfer in transfers:
        nights.payment_record(transfer=transfer)
    paid: dict[str, Decimal] = {}
    for line in MoneyLine.objects.filter(night=table, item=MoneyLine.Item.PAID):
        assert line.baht == line.transfer.baht
        paid[line.payer.name] = paid.get(line.payer.name, Decimal(0)) - line.baht
        paid[line.payee.name] = paid.get(line.payee.name, Decimal(0)) + line.baht
    # What each received or paid is what they won or lost, in baht at the night's point value.
    want = {s.player.name: table.baht(s.balance) for s in table.standings.all() if s.balance}
    assert paid == want
    assert night_audit(table) == []


def test_hub_settle_up_makes_everyone_settle_with_one_person(table):
    play(table)
    transfers = nights.night_close(
        night=table,
        choices=Choices(mode=Transfer.Mode.HUB, hub=player(table, "Cat")),
    )
    assert all("Cat" in (t.payer.name, t.payee.name) for t in transfers)
    assert {(t.payer.name, t.payee.name, t.baht) for t in transfers} == {
        ("Cat", "Bee", Decimal("600.00")),  # 1,200 points at 0.50 baht
        ("Ann", "Cat", Decimal("150.00")),
        ("Dan", "Cat", Decimal("250.00")),
    }


def test_a_transfer_is_paid_once_and_a_mistaken_payment_is_reversed_visibly(table):
    play(table)
    transfer = nights.night_close(night=table)[0]
    nights.payment_record(transfer=transfer)
    with pytest.raises(ServiceError, match="already marked paid"):
        nights.payment_record(transfer=transfer)
    nights.payment_undo(transfer=transfer)
    assert transfer.money_lines.count() == 2
    assert transfer.money_lines.last().reverses == transfer.money_lines.first()
    nights.payment_record(transfer=transfer)
    assert transfer.money_lines.count() == 3
    assert not transfer.lines.exists()  # the points ledger is the games'
    assert night_audit(table) == []


def test_the_ledger_refuses_updates_and_deletes(table):
    play(table)
    line = LedgerLine.objects.first()
    with pytest.raises(TypeError, match="append-only"):
        line.save()
    with pytest.raises(TypeError, match="append-only"):
        line.delete()
    with pytest.raises(TypeError, match="append-only"):
        LedgerLine.objects.filter(pk=line.pk).update(amount=1)
    with pytest.raises(TypeError, match="append-only"):
        LedgerLine.objects.all().delete()


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_the_audit_notices_running_totals_that_drifted_from_the_ledger(table):
    play(table)
    table.standings.filter(player__name="Ann").update(net=999)
    assert night_audit(table) == ["Ann: running totals 999/0, ledger replay -300/0"]


def test_baht_is_points_times_the_rate_rounded_once(table):
    assert table.baht(-333) == Decimal("-166.50")
