"""Settling the tab (เคลียร์ยอดค้าง): debts carried across nights, netted per player and paid by
the fewest transfers, to the satang.

Parties are names (the house, which a carried table fee may be owed to, is `settle_up.HOUSE`).
Amounts are `Decimal` baht with two places; the netting is done in whole satang, so it is exact.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from scorekeeper.rules import transfers
from scorekeeper.rules.money import SATANG
from scorekeeper.rules.settle_up import Payment


@dataclass(frozen=True, slots=True)
class Debt:
    """A debt carried across nights: payer owes payee `baht`."""

    payer: str
    payee: str
    baht: Decimal


def nets(debts: Iterable[Debt | Payment]) -> dict[str, Decimal]:
    """Return what each party is owed (+) or owes (−) across `debts`, leaving out those square."""
    return {name: Decimal(net) * SATANG for name, net in _in_satang(debts).items()}


def settle(debts: Iterable[Debt]) -> list[Payment]:
    """Return the fewest transfers that leave every party as square as paying every debt would."""
    return [
        Payment(t.payer, t.payee, Decimal(t.amount) * SATANG)
        for t in transfers.fewest_transfers(_in_satang(debts))
    ]


def _in_satang(debts: Iterable[Debt | Payment]) -> dict[str, int]:
    """Each party's net in whole satang, by name, those square left out."""
    satang: Counter[str] = Counter()
    for debt in debts:
        amount = _satang(debt.baht)
        satang[debt.payee] += amount
        satang[debt.payer] -= amount
    return {name: net for name, net in sorted(satang.items()) if net}


def _satang(amount: Decimal) -> int:
    """Return `amount` baht in whole satang, refusing anything that is not more than 0 baht to
    the satang: a carried debt is never nothing, and never a fraction of a satang."""
    if not isinstance(amount, Decimal):
        raise TypeError("baht are a Decimal, never a float")
    if amount <= 0 or amount != amount.quantize(SATANG):
        raise ValueError("a debt is more than 0 baht, to the satang")
    return int(amount / SATANG)
