"""The audit of a night's money ledger in baht, part of its ledger audit: transfers paid and
carried across nights, shared costs.

A payment or a carry is its transfer's, in baht; a transfer is paid or carried, once at most,
and a carried debt paid once at most; a settle pays its carry exactly; a shared cost's lines are
its shares; a reversal mirrors the line it reverses. Checked from scratch, trusting nothing
stored. (The fee and rounding lines are checked with the transfers, in ledger_audit.) A settled
tab, the group's and no night's, is checked on its own (`tab_audit`).
"""

from collections import Counter
from typing import Any

from django.db.models import Q

from scorekeeper.models import Cost, MoneyLine, Night, Tab, in_id_order
from scorekeeper.rules.settle_up import HOUSE, Line, shares
from scorekeeper.rules.tab import Debt, nets


def night_debts_audit(night: Night) -> list[str]:
    """Check the money lines written at the night and the payments of the debts it carried."""
    lines = in_id_order(
        MoneyLine.objects.filter(Q(night=night) | Q(carried__night=night))
        .select_related("transfer", "carried", "cost")
        .distinct()
    )
    by_id = {line.pk: line for line in lines}
    reversed_ids = {line.reverses_id for line in lines if line.reverses_id is not None}
    standing = [line for line in lines if line.reverses_id is None and line.pk not in reversed_ids]
    problems = []
    for line in lines:
        if line.reverses_id is not None:
            problems += _reversal(line, by_id.get(line.reverses_id))
        elif line.item in (MoneyLine.Item.CARRY, MoneyLine.Item.PAID):
            problems += _transfer_line(night, line)
        elif line.item == MoneyLine.Item.SETTLE:
            problems += _settle(line)
        elif line.item == MoneyLine.Item.COST:
            problems += _cost_line(night, line)
    carries = Counter(line.transfer_id for line in standing if line.item == MoneyLine.Item.CARRY)
    problems += [f"transfer {pk} is carried {n} times" for pk, n in carries.items() if n > 1]
    settles = Counter(line.carried_id for line in standing if line.item == MoneyLine.Item.SETTLE)
    problems += [f"debt {pk} is marked paid {n} times" for pk, n in settles.items() if n > 1]
    for line in standing:
        if line.item == MoneyLine.Item.SETTLE and line.carried_id in reversed_ids:
            problems.append(f"money line {line.pk} pays a debt that was taken back")
    problems += _costs(night, standing)
    paid = Counter(line.transfer_id for line in standing if line.item == MoneyLine.Item.PAID)
    problems += [f"transfer {pk} is marked paid {n} times" for pk, n in paid.items() if n > 1]
    problems += [
        f"transfer {line.transfer_id} is both carried and paid"
        for line in standing
        if line.item == MoneyLine.Item.CARRY and line.transfer_id in paid
    ]
    return problems


def _transfer_line(night: Night, line: MoneyLine) -> list[str]:
    """A transfer's payment or carry: the transfer's payer, payee and baht, of this night."""
    transfer, what = line.transfer, "carry" if line.item == MoneyLine.Item.CARRY else "payment"
    if transfer is None or transfer.night_id != night.pk:
        return [f"money line {line.pk} is the {what} of no transfer of this night"]
    want = (transfer.payer_id, transfer.payee_id, transfer.baht)
    if (line.payer_id, line.payee_id, line.baht) != want or line.carried_id is not None:
        return [f"money line {line.pk} is not the {what} of transfer {transfer.pk}"]
    return []


def _cost_line(night: Night, line: MoneyLine) -> list[str]:
    """A share of a shared cost of this night: one of those sharing it owes the one who paid."""
    cost = line.cost
    if cost is None or cost.night_id != night.pk:
        return [f"money line {line.pk} is a share of no shared cost of this night"]
    want = {(int(share.payer), share.baht) for share in _shares(cost)}
    if line.payee_id != cost.paid_by_id or (line.payer_id, line.baht) not in want:
        return [f"money line {line.pk} is not a share of shared cost {cost.pk}"]
    return []


def _shares(cost: Cost) -> list[Line]:
    """A shared cost's shares afresh, the players by their ids."""
    return shares(cost.baht, str(cost.paid_by_id), [str(p) for p in cost.among], cost.reason)


def _costs(night: Night, standing: list[MoneyLine]) -> list[str]:
    """Each shared cost of the night has its shares standing, each once, or none (taken back)."""
    held = Counter(line.cost_id for line in standing if line.item == MoneyLine.Item.COST)
    return [
        f"shared cost {cost.pk} has {held[cost.pk]} of its {len(_shares(cost))} shares"
        for cost in night.costs.all()
        if held[cost.pk] not in (0, len(_shares(cost)))
    ]


def _settle(line: MoneyLine) -> list[str]:
    carry = line.carried
    if carry is None or carry.item != MoneyLine.Item.CARRY or carry.reverses_id is not None:
        return [f"money line {line.pk} pays no carried debt"]
    if (line.group_id, line.payer_id, line.payee_id, line.baht, line.transfer_id) != (
        carry.group_id, carry.payer_id, carry.payee_id, carry.baht, None,
    ):  # fmt: skip
        return [f"money line {line.pk} does not pay debt {carry.pk} exactly"]
    return []


def _reversal(line: MoneyLine, original: MoneyLine | None) -> list[str]:
    if original is None:
        return [f"money line {line.pk} reverses a line the audit cannot see"]
    if original.reverses_id is not None:
        return [f"money line {line.pk} reverses a reversal (money line {original.pk})"]
    if _fields(line) != _mirror(original):
        return [f"money line {line.pk} does not mirror money line {original.pk}"]
    return []


def _fields(line: MoneyLine) -> tuple[Any, ...]:
    return (
        line.group_id, line.transfer_id, line.carried_id, line.payer_id, line.payee_id,
        line.baht, line.item,
    )  # fmt: skip


def _mirror(line: MoneyLine) -> tuple[Any, ...]:
    group, transfer, carried, payer, payee, *rest = _fields(line)
    return (group, transfer, carried, payee, payer, *rest)


def tab_audit(tab: Tab) -> list[str]:
    """Check a settled tab: its settles pay the carries it replaced, each exactly and once; its
    transfers net exactly what those carries netted, per player; its payments are its
    transfers'; taken back, it is taken back whole and none of its transfers stays paid."""
    lines = list(MoneyLine.objects.filter(tab=tab).select_related("carried", "tab_transfer"))
    transfers = list(tab.transfers.all())
    by_id = {line.pk: line for line in lines}
    reversed_ids = {line.reverses_id for line in lines if line.reverses_id is not None}
    settles = [
        line for line in lines if line.item == MoneyLine.Item.SETTLE and not line.reverses_id
    ]
    problems = []
    for line in lines:
        if line.group_id != tab.group_id or line.night_id is not None:
            problems.append(f"money line {line.pk} of tab {tab.pk} is not the group's own")
        if line.reverses_id is not None:
            problems += _reversal(line, by_id.get(line.reverses_id))
            original = by_id.get(line.reverses_id)
            if original is not None and line.tab_transfer_id != original.tab_transfer_id:
                problems.append(f"money line {line.pk} does not mirror money line {original.pk}")
        elif line.item == MoneyLine.Item.SETTLE:
            problems += _settle(line)
            if line.tab_transfer_id is not None:
                problems.append(f"money line {line.pk} of tab {tab.pk} settles a transfer")
        elif line.item == MoneyLine.Item.PAID:
            problems += _tab_payment(tab, line)
        else:
            problems.append(f"money line {line.pk} of tab {tab.pk} is a {line.item}")
    if not settles:
        problems.append(f"tab {tab.pk} replaces no carried debt")
    taken_back = {line.pk in reversed_ids for line in settles}
    if len(taken_back) > 1:
        problems.append(f"tab {tab.pk} is taken back in part")
    replaced = Counter(line.carried_id for line in settles)
    problems += [f"tab {tab.pk} settles debt {pk} {n} times" for pk, n in replaced.items() if n > 1]
    debts = [
        Debt(_party(line.payer_id), _party(line.payee_id), line.baht)
        for line in settles
        if line.baht > 0
    ]
    planned = [Debt(_party(t.payer_id), _party(t.payee_id), t.baht) for t in transfers]
    if any(t.baht <= 0 for t in transfers) or nets(debts) != nets(planned):
        problems.append(f"tab {tab.pk}'s transfers do not net what its debts netted")
    standing = [line for line in lines if line.reverses_id is None and line.pk not in reversed_ids]
    paid = Counter(line.tab_transfer_id for line in standing if line.item == MoneyLine.Item.PAID)
    problems += [f"tab transfer {pk} is marked paid {n} times" for pk, n in paid.items() if n > 1]
    if taken_back == {True} and paid:
        problems.append(f"tab {tab.pk} is taken back with a transfer paid")
    problems += [
        f"tab transfer {t.pk} is received unpaid"
        for t in transfers
        if t.received_at is not None and t.pk not in paid
    ]
    return problems


def _tab_payment(tab: Tab, line: MoneyLine) -> list[str]:
    """A payment of one of the tab's transfers: its payer, payee and baht."""
    transfer = line.tab_transfer
    if transfer is None or transfer.tab_id != tab.pk:
        return [f"money line {line.pk} is the payment of no transfer of tab {tab.pk}"]
    want = (transfer.payer_id, transfer.payee_id, transfer.baht, None, None)
    if (line.payer_id, line.payee_id, line.baht, line.transfer_id, line.carried_id) != want:
        return [f"money line {line.pk} is not the payment of tab transfer {transfer.pk}"]
    return []


def _party(player_id: int | None) -> str:
    return HOUSE if player_id is None else str(player_id)
