"""Settling the tab (เคลียร์ยอดค้าง): a host nets every debt carried across nights and still
owed into the fewest transfers, which are then paid and received as a night's transfers are.

The settled tab (`Tab`) is a record of the group's, not of a night. In the money ledger, in
baht, it writes a settle (item `settle`) of each carry it replaces, so each reads as paid, by the
tab; its transfers (`TabTransfer`) are paid by money lines of item `paid`. Taking it back
reverses its settles, so the carries are owed again, and is refused once any of its transfers
is marked paid. Nothing is netted but at a host's tap.

Lock order (docs/ledger.md): the group's row first, then the nights that carried the debts, in
id order, then the tab's transfer; each `FOR NO KEY UPDATE`, which the foreign-key checks of
others' writes on those rows do not wait for.
"""

from collections.abc import Iterable

from django.utils import timezone

from scorekeeper.models import Group, Membership, MoneyLine, Night, Player, Tab, TabTransfer
from scorekeeper.reads.debts import as_debts, owed
from scorekeeper.rules import tab as rules
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import money_reverse
from scorekeeper.services.writing import writing


def _lock_group(group: Group) -> Group:
    return Group.objects.select_for_update(no_key=True).get(pk=group.pk)


def _lock_group_of(transfer: TabTransfer) -> None:
    groups = Group.objects.filter(tabs__transfers=transfer.pk)
    groups.select_for_update(of=("self",), no_key=True).get()


def _lock_nights(ids: Iterable[int | None]) -> set[int]:
    """Lock the nights that carried the debts, lowest id first, as every tab write does."""
    chosen = sorted({pk for pk in ids if pk is not None})
    nights = Night.objects.filter(pk__in=chosen).order_by("pk").select_for_update(no_key=True)
    return {night.pk for night in nights}


def _host(actor: Membership, group: Group, code: str, message: str) -> Membership:
    """The actor as stored now: a live host of the group, or refused."""
    actor = Membership.objects.get(pk=actor.pk)
    if actor.group_id != group.pk or actor.revoked_at is not None or not actor.may_host:
        raise ServiceError(code, message)
    return actor


def _detail(tab: Tab, transfers: Iterable[TabTransfer], debts: int) -> dict[str, object]:
    return {
        "tab": tab.pk, "debts": debts,
        "transfers": [
            {"payer": t.payer.name, "payee": t.payee_name, "baht": str(t.baht)} for t in transfers
        ],
        "unit": MoneyLine.UNIT,
    }  # fmt: skip


@writing()
def tab_settle(*, group: Group, actor: Membership) -> Tab:
    """Settle the tab: replace every debt carried and still owed by the fewest transfers that
    leave each player as square as paying them all would. A host's step only."""
    group = _lock_group(group)
    actor = _host(actor, group, "tab-host", "only a host settles the tab")
    # The nights read before their locks, the debts after: a debt carried meanwhile on another
    # night waits for the next tab, and one of a locked night is read as it now stands.
    nights = _lock_nights(owed(group).values_list("night_id", flat=True))
    debts = list(owed(group).filter(night_id__in=nights))
    if not debts:
        raise ServiceError("tab-empty", "nothing is carried across nights: there is no tab")
    tab = Tab.objects.create(group=group, by=actor)
    MoneyLine.objects.bulk_create(
        MoneyLine(
            group=group,
            tab=tab,
            carried=debt,
            payer_id=debt.payer_id,
            payee_id=debt.payee_id,
            baht=debt.baht,
            item=MoneyLine.Item.SETTLE,
            by=actor,
            recorded_at=tab.recorded_at,
        )
        for debt in debts
    )
    players = {p.name: p for p in Player.objects.filter(group=group)}
    planned = [
        TabTransfer(tab=tab, payer=players[p.payer], payee=players.get(p.payee), baht=p.baht)
        for p in rules.settle(as_debts(debts))
    ]
    TabTransfer.objects.bulk_create(planned)
    audit(actor=actor, action="tab-settle", group=group, detail=_detail(tab, planned, len(debts)))
    return tab


@writing()
def tab_undo(*, tab: Tab, actor: Membership) -> list[MoneyLine]:
    """Take a settled tab back: its settles reversed, every debt it replaced is owed again.
    Refused once any of its transfers is marked paid (mark it unpaid first), and to all but a
    host."""
    group = _lock_group(tab.group)
    actor = _host(actor, group, "tab-host", "only a host settles the tab")
    tab = Tab.objects.get(pk=tab.pk)
    settles = MoneyLine.objects.standing().filter(tab=tab, item=MoneyLine.Item.SETTLE)
    _lock_nights(settles.values_list("carried__night_id", flat=True))
    lines = list(settles.order_by("pk"))
    if not lines:
        raise ServiceError("tab-taken-back", "this tab was already taken back")
    paid = MoneyLine.objects.standing().filter(tab=tab, item=MoneyLine.Item.PAID)
    if paid.exists():
        raise ServiceError("tab-paid", "a transfer of this tab is marked paid")
    reversals = [money_reverse(line, by=actor) for line in lines]
    transfers = list(tab.transfers.select_related("payer", "payee"))
    audit(actor=actor, action="tab-undo", group=group, detail=_detail(tab, transfers, len(lines)))
    return reversals


def _lock_transfer(transfer: TabTransfer) -> TabTransfer:
    """Lock the group, then the transfer, read afresh; then read (after the locks, as
    nights.lock_transfer does) the payment that stands for it."""
    _lock_group_of(transfer)
    locked = (
        TabTransfer.objects.select_related("tab__group", "payer", "payee")
        .select_for_update(of=("self",), no_key=True)
        .get(pk=transfer.pk)
    )
    paid = locked.money_lines.standing().filter(item=MoneyLine.Item.PAID).order_by("pk")
    locked.payment = paid.last()
    if locked.payment is None and not Tab.objects.standing().filter(pk=locked.tab_id).exists():
        raise ServiceError("tab-taken-back", "this tab was already taken back")
    return locked


def _paid(transfer: TabTransfer) -> dict[str, object]:
    return {
        "tab": transfer.tab_id, "payer": transfer.payer.name, "payee": transfer.payee_name,
        "baht": str(transfer.baht), "unit": MoneyLine.UNIT,
    }  # fmt: skip


@writing()
def tab_payment_record(*, transfer: TabTransfer, actor: Membership | None = None) -> MoneyLine:
    """Record that a transfer of the tab was paid: a line of the money ledger, in baht."""
    transfer = _lock_transfer(transfer)
    if transfer.payment is not None:
        raise ServiceError("paid-twice", "this transfer is already marked paid", field="transfer")
    line = MoneyLine.objects.create(
        group_id=transfer.tab.group_id, tab=transfer.tab, tab_transfer=transfer,
        payer=transfer.payer, payee=transfer.payee, baht=transfer.baht, item=MoneyLine.Item.PAID,
        by=actor,
    )  # fmt: skip
    audit(
        actor=actor, action="tab-payment-record", group=transfer.tab.group, detail=_paid(transfer)
    )
    return line


@writing()
def tab_payment_receive(*, transfer: TabTransfer, actor: Membership | None = None) -> TabTransfer:
    """The payee confirms the money arrived (or anyone for them: the audit says who). Only a
    paid transfer is received, once."""
    transfer = _lock_transfer(transfer)
    if transfer.payment is None:
        raise ServiceError("not-paid", "this transfer is not marked paid", field="transfer")
    if transfer.received_at is not None:
        raise ServiceError("received-twice", "this transfer is already received", field="transfer")
    transfer.received_by, transfer.received_at = actor, timezone.now()
    transfer.save(update_fields=["received_by", "received_at"])
    audit(
        actor=actor, action="tab-payment-receive", group=transfer.tab.group, detail=_paid(transfer)
    )
    return transfer


@writing()
def tab_payment_undo(*, transfer: TabTransfer, actor: Membership | None = None) -> MoneyLine:
    """Take back a payment of the tab's transfer marked by mistake, by a visible reversal; once
    received, only a host reopens it."""
    transfer = _lock_transfer(transfer)
    last = transfer.payment
    if last is None:
        raise ServiceError("not-paid", "this transfer is not marked paid", field="transfer")
    if transfer.received_at is not None and not (actor is None or actor.may_host):
        raise ServiceError("reopen-host", "only a host can reopen a transfer already received")
    if transfer.received_at is not None:
        transfer.received_by = transfer.received_at = None
        transfer.save(update_fields=["received_by", "received_at"])
    audit(actor=actor, action="tab-payment-undo", group=transfer.tab.group, detail=_paid(transfer))
    return money_reverse(last, by=actor)
