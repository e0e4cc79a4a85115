"""The audit of debts carried across nights (issue 21, item 4), part of a night's ledger audit.

A carry is its transfer's, at its night's point value in baht, of a transfer not paid; a
transfer is carried once at most, and a carried debt paid once at most; a settle pays its carry
exactly; a reversal mirrors the line it reverses. Checked from scratch, trusting nothing stored.
"""

from collections import Counter
from typing import Any

from django.db.models import Q

from scorekeeper.models import LedgerLine, MoneyLine, Session


def night_debts_audit(session: Session) -> list[str]:
    """Check the money lines written at the night and the payments of the debts it carried."""
    lines = list(
        MoneyLine.objects.filter(Q(session=session) | Q(carried__session=session))
        .select_related("transfer", "carried")
        .distinct()
    )
    by_id = {line.pk: line for line in lines}
    reversed_ids = {line.reverses_id for line in lines if line.reverses_id is not None}
    standing = [line for line in lines if line.reverses_id is None and line.pk not in reversed_ids]
    problems = []
    for line in lines:
        if line.reverses_id is not None:
            problems += _reversal(line, by_id.get(line.reverses_id))
        elif line.item == MoneyLine.Item.CARRY:
            problems += _carry(session, line)
        else:
            problems += _settle(line)
    carries = Counter(line.transfer_id for line in standing if line.item == MoneyLine.Item.CARRY)
    problems += [f"transfer {pk} is carried {n} times" for pk, n in carries.items() if n > 1]
    settles = Counter(line.carried_id for line in standing if line.item == MoneyLine.Item.SETTLE)
    problems += [f"debt {pk} is marked paid {n} times" for pk, n in settles.items() if n > 1]
    for line in standing:
        if line.item == MoneyLine.Item.SETTLE and line.carried_id in reversed_ids:
            problems.append(f"money line {line.pk} pays a debt that was taken back")
    paid = set(
        LedgerLine.objects.filter(
            transfer__in=[line.transfer_id for line in standing if line.transfer_id],
            reverses__isnull=True,
            reversed_by__isnull=True,
        ).values_list("transfer_id", flat=True)
    )
    problems += [
        f"transfer {line.transfer_id} is both carried and paid"
        for line in standing
        if line.item == MoneyLine.Item.CARRY and line.transfer_id in paid
    ]
    return problems


def _carry(session: Session, line: MoneyLine) -> list[str]:
    transfer = line.transfer
    if transfer is None or transfer.session_id != session.pk:
        return [f"money line {line.pk} carries no transfer of this night"]
    want = (transfer.payer_id, transfer.payee_id, session.baht(transfer.amount))
    if (line.payer_id, line.payee_id, line.baht) != want or line.carried_id is not None:
        return [f"money line {line.pk} is not the carry of transfer {transfer.pk}"]
    return []


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
