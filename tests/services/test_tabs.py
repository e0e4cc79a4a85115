"""Settling the tab (services/tabs.py): debts carried night after night, both ways between the
same players, netted at a host's tap into the fewest transfers; the carries marked settled by the
tab; the tab's transfers paid and received; taking it back; its audit."""

import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Max

from scorekeeper.models import (
    AuditEntry,
    Group,
    Membership,
    MoneyLine,
    Player,
    Tab,
    TabTransfer,
)
from scorekeeper.reads.debts import owed as still_owed
from scorekeeper.reads.debts import replaced, tab_transfer_rows
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.tab import Debt, nets
from scorekeeper.services import access, debts, tabs
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.ledger_audit import night_audit
from tests.tab_nights import NAMES, carried_night, two_way_tab


@pytest.fixture
def group(db: None) -> Group:
    return access.group_create(name="วงวันเสาร์", device=access.device_create(), host_name="Ann")


@pytest.fixture
def host(group: Group) -> Membership:
    assert group.owner is not None
    return group.owner


def as_debts(lines) -> list[Debt]:
    return [Debt(line.payer.name, line.payee_name, line.baht) for line in lines]


def clean(group: Group) -> None:
    for night in group.nights.all():
        assert night_audit(night) == []
    for tab in Tab.objects.filter(group=group):
        assert tab_audit(tab) == []


def test_debts_both_ways_are_netted_into_the_fewest_transfers_exact_to_the_satang(group, host):
    owed = two_way_tab(group, host)
    assert len(owed) == 9 and any(d.baht % 1 for d in owed)  # some to the satang
    per_player = nets(as_debts(owed))
    tab = tabs.tab_settle(group=group, actor=host)
    transfers = list(tab.transfers.select_related("payer", "payee"))
    paid = [Debt(t.payer.name, t.payee_name, t.baht) for t in transfers]
    assert nets(paid) == per_player  # each player exactly as square as paying all nine
    # Ann +250 +200 +150 −166.65 +125 +100 +75; Bee −250 +166.65 +133.32 +99.99 −125; …
    assert per_player == {
        "Ann": Decimal("733.35"), "Bee": Decimal("24.96"),
        "Cat": Decimal("-433.32"), "Dan": Decimal("-324.99"),
    }  # fmt: skip
    # Two owe, two are owed, and no pair of them squares apart: three transfers, not nine.
    assert paid == [
        Debt("Cat", "Ann", Decimal("433.32")), Debt("Dan", "Ann", Decimal("300.03")),
        Debt("Dan", "Bee", Decimal("24.96")),
    ]  # fmt: skip
    assert not still_owed(group).exists()
    clean(group)


@pytest.mark.parametrize("order", ["ids across a power of ten", "ids against the names"])
def test_the_transfers_are_planned_by_name_whatever_ids_the_players_have(db, order):
    """The same debts make the same transfers in any group: the database's ids (here 998, 999,
    1000, 1001, which read in another order as text) never decide who pays whom."""
    group = access.group_create(name="วงอื่น", device=access.device_create(), host_name="ต้น")
    first = 10 ** len(str((Player.objects.aggregate(last=Max("pk"))["last"] or 0) + 2))
    ids = [first - 2, first - 1, first, first + 1]
    if order == "ids against the names":
        ids.reverse()
    Player.objects.bulk_create(
        Player(pk=pk, group=group, name=name, key=name) for pk, name in zip(ids, NAMES, strict=True)
    )
    two_way_tab(group, group.owner)
    tab = tabs.tab_settle(group=group, actor=group.owner)
    assert [Debt(t.payer.name, t.payee_name, t.baht) for t in tab.transfers.all()] == [
        Debt("Cat", "Ann", Decimal("433.32")), Debt("Dan", "Ann", Decimal("300.03")),
        Debt("Dan", "Bee", Decimal("24.96")),
    ]  # fmt: skip
    clean(group)


def test_every_carry_it_replaces_is_marked_settled_by_the_tab(group, host):
    owed = two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    settles = MoneyLine.objects.filter(tab=tab, item=MoneyLine.Item.SETTLE)
    assert sorted(s.carried_id for s in settles) == sorted(d.pk for d in owed)
    assert all(s.night_id is None and s.baht == s.carried.baht for s in settles)
    assert list(replaced(tab)) == owed
    entry = AuditEntry.objects.get(action="tab-settle")
    assert (
        entry.membership == host and entry.detail["debts"] == 9 and entry.detail["unit"] == "baht"
    )
    with pytest.raises(RuleError) as refused:  # a second tap: nothing left to net
        tabs.tab_settle(group=group, actor=host)
    assert refused.value.code == "tab-empty"
    with pytest.raises(RuleError) as refused:  # paid in the tab, not one by one
        debts.debt_settle(debt=owed[0], actor=host)
    assert refused.value.code == "debt-paid"
    with pytest.raises(RuleError) as refused:  # nor taken back one by one
        debts.debt_settle_undo(debt=owed[0], actor=host)
    assert refused.value.code == "debt-in-tab"
    clean(group)


def test_the_tab_s_transfers_are_paid_and_received_like_a_night_s(group, host):
    two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    transfer = tab.transfers.first()
    line = tabs.tab_payment_record(transfer=transfer, actor=host)
    assert (line.item, line.tab_transfer, line.tab, line.night) == ("paid", transfer, tab, None)
    with pytest.raises(RuleError) as refused:
        tabs.tab_payment_record(transfer=transfer, actor=host)
    assert refused.value.code == "paid-twice"
    tabs.tab_payment_receive(transfer=transfer, actor=host)
    assert TabTransfer.objects.get(pk=transfer.pk).received_by == host
    with pytest.raises(RuleError) as refused:
        tabs.tab_payment_receive(transfer=transfer, actor=host)
    assert refused.value.code == "received-twice"
    rows = tab_transfer_rows(tab)
    assert rows[0]["paid"] and rows[0]["paid_by"] == "Ann" and not rows[1]["paid"]
    tabs.tab_payment_undo(transfer=transfer, actor=host)  # a host reopens it
    assert MoneyLine.objects.get(reverses=line).payer == line.payee
    assert TabTransfer.objects.get(pk=transfer.pk).received_at is None
    clean(group)


def test_taking_the_tab_back_owes_every_debt_again_and_is_refused_once_one_is_paid(group, host):
    owed = two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    transfer = tab.transfers.first()
    payment = tabs.tab_payment_record(transfer=transfer, actor=host)
    with pytest.raises(RuleError) as refused:
        tabs.tab_undo(tab=tab, actor=host)
    assert refused.value.code == "tab-paid"
    assert not still_owed(group).exists()
    tabs.tab_payment_undo(transfer=transfer, actor=host)
    reversals = tabs.tab_undo(tab=tab, actor=host)
    assert len(reversals) == 9 and all(r.reverses.tab == tab for r in reversals)
    assert list(still_owed(group)) == owed  # owed again, each as it was
    assert not Tab.objects.standing().filter(pk=tab.pk).exists()
    assert MoneyLine.objects.filter(pk=payment.pk).exists()  # nothing erased
    with pytest.raises(RuleError) as refused:
        tabs.tab_undo(tab=tab, actor=host)
    assert refused.value.code == "tab-taken-back"
    with pytest.raises(RuleError) as refused:  # its transfers are no longer to be paid
        tabs.tab_payment_record(transfer=transfer, actor=host)
    assert refused.value.code == "tab-taken-back"
    debts.debt_settle(debt=owed[0], actor=host)  # paid one by one again
    again = tabs.tab_settle(group=group, actor=host)  # and the rest netted anew
    assert again.lines.count() == 8
    clean(group)


@pytest.mark.parametrize("role", [Membership.Role.PLAYER, Membership.Role.VIEWER])
def test_nothing_is_netted_without_a_host_s_tap(group, host, role):
    two_way_tab(group, host)
    other = Membership.objects.create(group=group, role=role, device=access.device_create())
    with pytest.raises(RuleError) as refused:
        tabs.tab_settle(group=group, actor=other)
    assert refused.value.code == "tab-host"
    assert not Tab.objects.exists() and still_owed(group).count() == 9
    tab = tabs.tab_settle(group=group, actor=host)
    with pytest.raises(RuleError) as refused:
        tabs.tab_undo(tab=tab, actor=other)
    assert refused.value.code == "tab-host"


def test_a_host_of_another_group_settles_nothing_here(group, host):
    two_way_tab(group, host)
    elsewhere = access.group_create(name="อีกก๊วน", device=access.device_create(), host_name="Zed")
    assert elsewhere.owner is not None
    with pytest.raises(RuleError) as refused:
        tabs.tab_settle(group=group, actor=elsewhere.owner)
    assert refused.value.code == "tab-host"


def test_a_tab_whose_debts_cancel_out_settles_them_with_no_transfer(group, host):
    carried_night(group, "Ann", "0.5", host)
    carried_night(group, "Bee", "0.5", host)
    both_ways = {("Bee", "Ann"), ("Ann", "Bee")}  # 250 baht each way
    for debt in still_owed(group):
        if (debt.payer.name, debt.payee_name) not in both_ways:
            debts.debt_settle(debt=debt, actor=host)  # the others paid one by one
    tab = tabs.tab_settle(group=group, actor=host)
    assert tab.lines.count() == 2 and not tab.transfers.exists()
    assert not still_owed(group).exists()
    clean(group)


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_the_debts_audit_finds_a_tampered_tab(group, host):
    two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    assert tab_audit(tab) == []
    first = tab.transfers.first()
    TabTransfer.objects.filter(pk=first.pk).update(baht=first.baht + Decimal("0.01"))
    assert tab_audit(tab) == [f"tab {tab.pk}'s transfers do not net what its debts netted"]
    TabTransfer.objects.filter(pk=first.pk).update(baht=first.baht)
    settle = MoneyLine.objects.filter(tab=tab).first()
    MoneyLine.objects.bulk_create(  # one carry settled twice, behind the services' back
        [
            MoneyLine(
                group=group, tab=tab, carried=settle.carried, payer=settle.payer,
                payee=settle.payee, baht=settle.baht, item=MoneyLine.Item.SETTLE,
            )
        ]
    )  # fmt: skip
    problems = tab_audit(tab)
    assert f"tab {tab.pk} settles debt {settle.carried_id} 2 times" in problems
    assert f"tab {tab.pk}'s transfers do not net what its debts netted" in problems


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_the_debts_audit_finds_a_tab_taken_back_in_part(group, host):
    two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    settle = MoneyLine.objects.filter(tab=tab).first()
    MoneyLine.objects.bulk_create(  # one settle reversed alone, as no service writes it
        [
            MoneyLine(
                group=group, tab=tab, carried=settle.carried, payer=settle.payee,
                payee=settle.payer, baht=settle.baht, item=MoneyLine.Item.SETTLE, reverses=settle,
            )
        ]
    )  # fmt: skip
    assert tab_audit(tab) == [f"tab {tab.pk} is taken back in part"]


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_manage_py_ledger_audit_checks_every_settled_tab(group, host):
    two_way_tab(group, host)
    tab = tabs.tab_settle(group=group, actor=host)
    out = io.StringIO()
    call_command("ledger_audit", stdout=out)
    assert "no problem" in out.getvalue()
    first = tab.transfers.first()
    TabTransfer.objects.filter(pk=first.pk).update(baht=first.baht + 1)
    with pytest.raises(CommandError, match="1 problems in 3 nights"):
        call_command("ledger_audit", stdout=out)
    assert f"settled tab {tab.pk} (วงวันเสาร์): tab {tab.pk}'s transfers do not net" in (
        out.getvalue()
    )
