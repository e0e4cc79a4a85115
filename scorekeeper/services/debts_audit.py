"""The audit of a night's money ledger in baht, part of its ledger audit: transfers paid and
carried across nights (issue 21, items 4 and 5), shared costs (item 2).

A payment or a carry is its transfer's, in baht; a transfer is paid or carried, once at most,
and a carried debt paid once at most; a settle pays its carry exactly; a shared cost's lines are
its shares; a reversal mirrors the line it reverses. Checked from scratch, trusting nothing
stored. (The fee and rounding lines are checked with the transfers, in ledger_audit.)
"""

from collections import Counter
from typing import Any

from django.db.models import Q

from scorekeeper.models import Cost, MoneyLine, Session
from scorekeeper.rules.settle_up import Line, shares


def night_debts_audit(session: Session) -> list[str]:
    """Check the money lines written at the night and the payments of the debts it carried."""
    lines = list(
        MoneyLine.objects.filter(Q(session=session) | Q(carried__session=session))
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
            problems += _transfer_line(session, line)
        elif line.item == MoneyLine.Item.SETTLE:
            problems += _settle(line)
        elif line.item == MoneyLine.Item.COST:
            problems += _cost_line(session, line)
    carries = Counter(line.transfer_id for line in standing if line.item == MoneyLine.Item.CARRY)
    problems += [f"transfer {pk} is carried {n} times" for pk, n in carries.items() if n > 1]
    settles = Counter(line.carried_id for line in standing if line.item == MoneyLine.Item.SETTLE)
    problems += [f"debt {pk} is marked paid {n} times" for pk, n in settles.items() if n > 1]
    for line in standing:
        if line.item == MoneyLine.Item.SETTLE and line.carried_id in reversed_ids:
            problems.append(f"money line {line.pk} pays a debt that was taken back")
    problems += _costs(session, standing)
    paid = Counter(line.transfer_id for line in standing if line.item == MoneyLine.Item.PAID)
    problems += [f"transfer {pk} is marked paid {n} times" for pk, n in paid.items() if n > 1]
    problems += [
        f"transfer {line.transfer_id} is both carried and paid"
        for line in standing
        if line.item == MoneyLine.Item.CARRY and line.transfer_id in paid
    ]
    return problems


def _transfer_line(session: Session, line: MoneyLine) -> list[str]:
    """A transfer's payment or carry: the transfer's payer, payee and baht, of this night."""
    transfer, what = line.transfer, "carry" if line.item == MoneyLine.Item.CARRY else "payment"
    if transfer is None or transfer.session_id != session.pk:
        return [f"money line {line.pk} is the {what} of no transfer of this night"]
    want = (transfer.payer_id, transfer.payee_id, transfer.baht)
    if (line.payer_id, line.payee_id, line.baht) != want or line.carried_id is not None:
        return [f"money line {line.pk} is not the {what} of transfer {transfer.pk}"]
    return []


def _cost_line(session: Session, line: MoneyLine) -> list[str]:
    """A share of a shared cost of this night: one of those sharing it owes the one who paid."""
    cost = line.cost
    if cost is None or cost.session_id != session.pk:
        return [f"money line {line.pk} is a share of no shared cost of this night"]
    want = {(int(share.payer), share.baht) for share in _shares(cost)}
    if line.payee_id != cost.paid_by_id or (line.payer_id, line.baht) not in want:
        return [f"money line {line.pk} is not a share of shared cost {cost.pk}"]
    return []


def _shares(cost: Cost) -> list[Line]:
    """A shared cost's shares afresh, the players by their ids."""
    return shares(cost.baht, str(cost.paid_by_id), [str(p) for p in cost.among], cost.reason)


def _costs(session: Session, standing: list[MoneyLine]) -> list[str]:
    """Each shared cost of the night has its shares standing, each once, or none (taken back)."""
    held = Counter(line.cost_id for line in standing if line.item == MoneyLine.Item.COST)
    return [
        f"shared cost {cost.pk} has {held[cost.pk]} of its {len(_shares(cost))} shares"
        for cost in session.costs.all()
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
