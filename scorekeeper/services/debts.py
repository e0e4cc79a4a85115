"""Carried to next time, ติดไว้ก่อน: a settle-up transfer not paid tonight
stays owed across nights, in baht, until it is paid.

Carrying and paying are lines of the group's money ledger (`MoneyLine`), each audited; a
mistake is taken back by a reversing line. A carried transfer is neither paid nor unpaid on its
night: it is owed to the group's running balance instead.
"""

from scorekeeper.models import Membership, MoneyLine, Night, Transfer
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import lock_transfer, money_reverse
from scorekeeper.services.writing import writing


def _detail(line: MoneyLine) -> dict[str, object]:
    return {
        "line": line.pk, "payer": line.payer_name, "payee": line.payee_name,
        "baht": str(line.baht), "unit": MoneyLine.UNIT,
    }  # fmt: skip


@writing()
def transfer_carry(*, transfer: Transfer, actor: Membership | None = None) -> MoneyLine:
    """Carry an unpaid transfer to next time: its amount in baht at its night's point value
    is owed across nights from now on."""
    transfer = lock_transfer(transfer)
    if transfer.payment is not None:
        raise ServiceError("carry-paid", "this transfer is already marked paid", field="transfer")
    if transfer.carried:
        raise ServiceError("carried-twice", "this transfer is already carried", field="transfer")
    line = MoneyLine.objects.create(
        group_id=transfer.night.group_id,
        night=transfer.night,
        transfer=transfer,
        payer=transfer.payer,
        payee=transfer.payee,
        baht=transfer.baht,
        item=MoneyLine.Item.CARRY,
        by=actor,
    )
    audit(actor=actor, action="transfer-carry", night=transfer.night, detail=_detail(line))
    return line


@writing()
def carry_undo(*, transfer: Transfer, actor: Membership | None = None) -> MoneyLine:
    """Take back a carry made by mistake (a reversing line): the transfer is unpaid again. A
    debt already paid on a later night is not taken back from here."""
    transfer = lock_transfer(transfer)
    carry = transfer.carry
    if carry is None:
        raise ServiceError("not-carried", "this transfer is not carried", field="transfer")
    if carry.settles.standing().exists():
        raise ServiceError("debt-paid", "this debt is already paid", field="transfer")
    reversal = money_reverse(carry, night=transfer.night, by=actor)
    audit(actor=actor, action="carry-undo", night=transfer.night, detail=_detail(carry))
    return reversal


def _lock_debt(debt: MoneyLine) -> MoneyLine:
    """Lock the night that carried the debt, as its carry and its transfer's payment lock it
    (docs/ledger.md, lock order), and read the carry with who owes whom.

    The carry's own row would not do: a carry taken back at the moment it is paid locks its
    night, and both would stand. What else the writes read comes after, by statements of their
    own, which see whatever committed while this one waited.
    """
    lines = MoneyLine.objects.select_related("payer", "payee", "group", "night")
    return lines.select_for_update(of=("night",)).get(
        pk=debt.pk, item=MoneyLine.Item.CARRY, night__isnull=False
    )


@writing()
def debt_settle(
    *, debt: MoneyLine, night: Night | None = None, actor: Membership | None = None
) -> MoneyLine:
    """Record that a carried debt was paid, at `night` (or between nights): its whole amount."""
    debt = _lock_debt(debt)
    if debt.reverses_id is not None or MoneyLine.objects.filter(reverses=debt).exists():
        raise ServiceError("debt-taken-back", "this debt was taken back", field="debt")
    if debt.settles.standing().exists():
        raise ServiceError("debt-paid", "this debt is already paid", field="debt")
    if night is not None and night.group_id != debt.group_id:
        raise ServiceError("debt-night", "that night is another group's", field="night")
    line = MoneyLine.objects.create(
        group_id=debt.group_id,
        night=night,
        carried=debt,
        payer=debt.payer,
        payee=debt.payee,
        baht=debt.baht,
        item=MoneyLine.Item.SETTLE,
        by=actor,
    )
    audit(actor=actor, action="debt-settle", group=debt.group, night=night, detail=_detail(line))
    return line


@writing()
def debt_settle_undo(*, debt: MoneyLine, actor: Membership | None = None) -> MoneyLine:
    """Take back a payment of a carried debt marked by mistake: the debt is owed again."""
    debt = _lock_debt(debt)
    paid = debt.settles.standing().first()
    if paid is None:
        raise ServiceError("debt-not-paid", "this debt is not marked paid", field="debt")
    if paid.tab_id is not None:  # settled in a tab: the tab is taken back whole, or not at all
        raise ServiceError("debt-in-tab", "this debt was settled in the tab", field="debt")
    reversal = money_reverse(paid, night=paid.night, by=actor)
    audit(
        actor=actor, action="debt-settle-undo", group=debt.group, night=paid.night,
        detail=_detail(paid),
    )  # fmt: skip
    return reversal
