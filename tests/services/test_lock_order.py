"""Every pair of writes on the same money waits for the other (docs/ledger.md, "Lock order"):
each locks the night the money belongs to first, so the second, on another connection, waits
for the first to commit and then sees what it wrote: it is refused with the reason, or applied
after it, and the ledger audit stays clean either way.

On PostgreSQL only: SQLite's write transactions begin IMMEDIATE, so there two writes never run
at once in the first place.
"""

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from scorekeeper.models import Game, Membership, MoneyLine, Night, Player, Tab, Transfer
from scorekeeper.reads.debts import owed as still_owed
from scorekeeper.services import access, costs, debts, games, nights, tabs
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.ledger_audit import night_audit
from tests.concurrency import race, refused
from tests.tab_nights import two_way_tab

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite's write transactions begin IMMEDIATE: two writes never run at once",
    ),
    pytest.mark.django_db(transaction=True),
]

NAMES = ["Ann", "Bee", "Cat", "Dan"]
RESULT = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}


def a_night() -> tuple[Membership, Night]:
    """A host, Ann, and her night of four at sian stakes, half a baht a point."""
    group = access.group_create(name="วงวันเสาร์", device=access.device_create(), host_name="Ann")
    assert group.owner is not None
    night = nights.night_open(
        group=group, players=NAMES, stake_level="sian", point_value=Decimal("0.5"),
        actor=group.owner,
    )  # fmt: skip
    return group.owner, night


def a_game(night: Night, host: Membership) -> Game:
    game = games.game_start(night=night, actor=host)
    return games.game_finish(game=game, outcome=RESULT, actor=host)


def closed() -> tuple[Membership, Night, list[Transfer]]:
    host, night = a_night()
    a_game(night, host)
    return host, night, nights.night_close(night=night, actor=host)


def clean(*nights: Night) -> None:
    for night in nights:
        assert night_audit(night) == []


def test_writes_on_one_carried_debt_at_once_go_one_after_the_other():
    # A debt marked paid, then its carry taken back: refused, the debt is paid.
    host, night, transfers = closed()
    debt = debts.transfer_carry(transfer=transfers[0], actor=host)
    paid, undone = race(
        lambda: debts.debt_settle(debt=debt, actor=host),
        lambda: debts.carry_undo(transfer=transfers[0], actor=host),
    )
    assert isinstance(paid, MoneyLine) and refused(undone, "debt-paid")
    # The carry taken back, then the debt marked paid: refused, there is no debt.
    debt = debts.transfer_carry(transfer=transfers[1], actor=host)
    undone, paid = race(
        lambda: debts.carry_undo(transfer=transfers[1], actor=host),
        lambda: debts.debt_settle(debt=debt, actor=host),
    )
    assert isinstance(undone, MoneyLine) and refused(paid, "debt-taken-back")
    # The debt's payment taken back, then its carry: both, in that order.
    debt = debts.transfer_carry(transfer=transfers[2], actor=host)
    debts.debt_settle(debt=debt, actor=host)
    unpaid, undone = race(
        lambda: debts.debt_settle_undo(debt=debt, actor=host),
        lambda: debts.carry_undo(transfer=transfers[2], actor=host),
    )
    assert isinstance(unpaid, MoneyLine) and isinstance(undone, MoneyLine)
    assert not still_owed(night.group).exists()
    clean(night)
    # Two phones marking one debt paid, at a later night and between nights: paid once.
    host, night, transfers = closed()
    debt = debts.transfer_carry(transfer=transfers[0], actor=host)
    later = nights.night_open(
        group=night.group, players=NAMES, stake_level="sian", point_value=Decimal(1)
    )
    first, second = race(
        lambda: debts.debt_settle(debt=debt, night=later, actor=host),
        lambda: debts.debt_settle(debt=debt, actor=host),
    )
    assert isinstance(first, MoneyLine) and refused(second, "debt-paid")
    clean(night, later)


def test_a_transfer_carried_and_marked_paid_at_once_is_one_or_the_other():
    host, night, transfers = closed()
    carried, paid = race(
        lambda: debts.transfer_carry(transfer=transfers[0], actor=host),
        lambda: nights.payment_record(transfer=transfers[0], actor=host),
    )
    assert isinstance(carried, MoneyLine) and refused(paid, "pay-carried")
    paid, carried = race(
        lambda: nights.payment_record(transfer=transfers[1], actor=host),
        lambda: debts.transfer_carry(transfer=transfers[1], actor=host),
    )
    assert isinstance(paid, MoneyLine) and refused(carried, "carry-paid")
    first, second = race(
        lambda: nights.payment_record(transfer=transfers[2], actor=host),
        lambda: nights.payment_record(transfer=transfers[2], actor=host),
    )
    assert isinstance(first, MoneyLine) and refused(second, "paid-twice")
    clean(night)


def test_a_shared_cost_added_or_taken_back_as_the_night_closes_is_settled_or_refused():
    host, night = a_night()
    a_game(night, host)
    ann, bee = (Player.objects.get(group=night.group, name=n) for n in ("Ann", "Bee"))

    def beer() -> Any:
        return costs.cost_add(
            night=night, reason="เบียร์", baht=Decimal(120), paid_by=ann, among=[ann, bee],
            actor=host,
        )  # fmt: skip

    cost, closing = race(beer, lambda: nights.night_close(night=night, actor=host))
    assert cost.pk and isinstance(closing, list)  # the close waited, and settled the cost too
    clean(night)

    host, night = a_night()
    a_game(night, host)
    ann, bee = (Player.objects.get(group=night.group, name=n) for n in ("Ann", "Bee"))
    cost = beer()
    closing, removed = race(
        lambda: nights.night_close(night=night, actor=host),
        lambda: costs.cost_remove(cost=cost, actor=host),
    )
    assert isinstance(closing, list) and refused(removed, "night-closed")
    clean(night)


def test_a_result_taken_back_or_paid_at_the_table_as_the_night_closes_adds_up():
    host, night = a_night()
    game = a_game(night, host)
    undone, closing = race(
        lambda: games.game_undo(game=game, actor=host),
        lambda: nights.night_close(night=night, actor=host),
    )
    assert isinstance(undone, Game) and refused(closing, "games-open")
    clean(night)

    host, night = a_night()
    game = a_game(night, host)
    closing, undone = race(
        lambda: nights.night_close(night=night, actor=host),
        lambda: games.game_undo(game=game, actor=host),
    )
    assert isinstance(closing, list) and refused(undone, "night-closed")
    clean(night)

    host, night = a_night()
    game = a_game(night, host)
    handed, closing = race(
        lambda: games.game_paid_at_table(game=game, actor=host),
        lambda: nights.night_close(night=night, actor=host),
    )
    assert handed and closing == []  # paid at the table: nothing left to settle
    clean(night)

    host, night = a_night()
    game = a_game(night, host)
    handed, undone = race(
        lambda: games.game_paid_at_table(game=game, actor=host),
        lambda: games.game_undo(game=game, actor=host),
    )
    assert handed and isinstance(undone, Game)  # the undo reverses the payments with the lines
    clean(night)


def a_tab() -> tuple[Membership, list[MoneyLine]]:
    """A host, Ann, whose group carried three nights' transfers: nine debts both ways."""
    group = access.group_create(name="วงวันเสาร์", device=access.device_create(), host_name="Ann")
    assert group.owner is not None
    return group.owner, two_way_tab(group, group.owner)


def tab_clean(host: Membership) -> None:
    clean(*host.group.nights.all())
    for tab in Tab.objects.filter(group=host.group):
        assert tab_audit(tab) == []


def test_settling_the_tab_as_one_of_its_debts_is_paid_or_taken_back_settles_each_once():
    # The tab settled, then one of its debts marked paid: refused, the tab settled it.
    host, owed = a_tab()
    settled, paid = race(
        lambda: tabs.tab_settle(group=host.group, actor=host),
        lambda: debts.debt_settle(debt=owed[4], actor=host),
    )
    assert isinstance(settled, Tab) and refused(paid, "debt-paid")
    tab_clean(host)
    # A debt marked paid, then the tab settled: the tab waits, and nets the other eight.
    host, owed = a_tab()
    paid, settled = race(
        lambda: debts.debt_settle(debt=owed[4], actor=host),
        lambda: tabs.tab_settle(group=host.group, actor=host),
    )
    assert isinstance(paid, MoneyLine) and isinstance(settled, Tab)
    assert owed[4].pk not in {line.carried_id for line in settled.lines.all()}
    assert settled.lines.count() == 8 and not still_owed(host.group).exists()
    tab_clean(host)


def test_settling_the_tab_as_a_carry_is_taken_back_nets_only_what_is_still_carried():
    host, owed = a_tab()
    settled, undone = race(
        lambda: tabs.tab_settle(group=host.group, actor=host),
        lambda: debts.carry_undo(transfer=owed[0].transfer, actor=host),
    )
    assert isinstance(settled, Tab) and refused(undone, "debt-paid")
    tab_clean(host)
    host, owed = a_tab()
    undone, settled = race(
        lambda: debts.carry_undo(transfer=owed[0].transfer, actor=host),
        lambda: tabs.tab_settle(group=host.group, actor=host),
    )
    assert isinstance(undone, MoneyLine) and isinstance(settled, Tab)
    assert owed[0].pk not in {line.carried_id for line in settled.lines.all()}
    assert settled.lines.count() == 8
    tab_clean(host)
    # Two hosts' phones settling at once: one tab.
    host, owed = a_tab()
    first, second = race(
        lambda: tabs.tab_settle(group=host.group, actor=host),
        lambda: tabs.tab_settle(group=host.group, actor=host),
    )
    assert isinstance(first, Tab) and refused(second, "tab-empty")
    tab_clean(host)


def test_taking_the_tab_back_as_one_of_its_transfers_is_paid_is_one_or_the_other():
    host, owed = a_tab()
    tab = tabs.tab_settle(group=host.group, actor=host)
    transfer = tab.transfers.first()
    undone, paid = race(
        lambda: tabs.tab_undo(tab=tab, actor=host),
        lambda: tabs.tab_payment_record(transfer=transfer, actor=host),
    )
    assert isinstance(undone, list) and refused(paid, "tab-taken-back")
    assert list(still_owed(host.group)) == owed
    tab_clean(host)
    tab = tabs.tab_settle(group=host.group, actor=host)
    transfer = tab.transfers.first()
    paid, undone = race(
        lambda: tabs.tab_payment_record(transfer=transfer, actor=host),
        lambda: tabs.tab_undo(tab=tab, actor=host),
    )
    assert isinstance(paid, MoneyLine) and refused(undone, "tab-paid")
    assert not still_owed(host.group).exists()
    tab_clean(host)
