"""Turn each player's net for the night into payments.

Either the fewest transfers possible, or everyone settling with one hub player.
"""

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# 2**12 subsets keep the exact search well under 50 ms; past that it doubles per player.
EXACT_LIMIT = 12


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment of whole points from payer to payee."""

    payer: str
    payee: str
    amount: int


def fewest_transfers(nets: Mapping[str, int]) -> list[Transfer]:
    """Settle the nets with the fewest transfers (exact up to EXACT_LIMIT players)."""
    _check_nets(nets)
    names = sorted(name for name, net in nets.items() if net != 0)
    if len(names) > EXACT_LIMIT:
        return _sorted(_settle_large(nets, names))
    transfers: list[Transfer] = []
    for group in _zero_sum_groups([nets[name] for name in names]):
        transfers += _settle_greedily({names[i]: nets[names[i]] for i in group})
    return _sorted(transfers)


def hub_transfers(nets: Mapping[str, int], hub: str) -> list[Transfer]:
    """Settle the nets with every other player paying or being paid by the hub."""
    _check_nets(nets)
    if hub not in nets:
        raise ValueError(f"hub {hub!r} is not one of the players in nets")
    transfers = []
    for name, net in nets.items():
        if name == hub or net == 0:
            continue
        if net < 0:
            transfers.append(Transfer(payer=name, payee=hub, amount=-net))
        else:
            transfers.append(Transfer(payer=hub, payee=name, amount=net))
    return _sorted(transfers)


def _check_nets(nets: Mapping[str, int]) -> None:
    """Raise ValueError unless every net is a plain int and the nets sum to zero."""
    for name, net in nets.items():
        # bool is an int subclass, but True as a net is always a caller's mistake.
        if isinstance(net, bool) or not isinstance(net, int):
            raise ValueError(f"net for {name!r} must be an int, got {type(net).__name__}")
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"nets must sum to zero, got {total}")


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split the indices into the largest number of disjoint groups that each sum to zero."""
    size = len(amounts)
    full = (1 << size) - 1
    total = [0] * (full + 1)
    # best[mask]: most zero-sum masks on a chain that drops one player at a time from mask to 0.
    best = [0] * (full + 1)
    bits = [1 << i for i in range(size)]
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        most = max(best[mask ^ bit] for bit in bits if mask & bit)
        best[mask] = most + 1 if total[mask] == 0 else most

    groups = []
    mask = group_top = full
    while mask:
        gain = 1 if total[mask] == 0 else 0
        # Lowest bit first, and bits follow sorted names, so ties go to the earlier name.
        bit = next(bit for bit in bits if mask & bit and best[mask ^ bit] + gain == best[mask])
        mask ^= bit
        if total[mask] == 0:
            groups.append([i for i in range(size) if (group_top ^ mask) & bits[i]])
            group_top = mask
    return groups


def _settle_large(nets: Mapping[str, int], names: list[str]) -> list[Transfer]:
    """Pair off equal debts and credits, then settle the rest greedily."""
    debtors: dict[int, list[str]] = {}
    creditors: dict[int, list[str]] = {}
    for name in names:
        side = debtors if nets[name] < 0 else creditors
        side.setdefault(abs(nets[name]), []).append(name)
    transfers = []
    paired = set()
    for amount, payers in debtors.items():
        for payer, payee in zip(payers, creditors.get(amount, []), strict=False):
            transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
            paired |= {payer, payee}
    rest = {name: nets[name] for name in names if name not in paired}
    return transfers + _settle_greedily(rest)


def _settle_greedily(balances: Mapping[str, int]) -> list[Transfer]:
    """Have the largest debtor pay the largest creditor until everyone is square."""
    # Heap keys (-amount, name): biggest amount first, ties to the earlier name.
    owing = [(net, name) for name, net in balances.items() if net < 0]
    owed = [(-net, name) for name, net in balances.items() if net > 0]
    heapq.heapify(owing)
    heapq.heapify(owed)
    transfers = []
    while owing and owed:
        debt, payer = heapq.heappop(owing)
        credit, payee = heapq.heappop(owed)
        amount = min(-debt, -credit)
        transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
        if -debt > amount:
            heapq.heappush(owing, (debt + amount, payer))
        if -credit > amount:
            heapq.heappush(owed, (credit + amount, payee))
    return transfers


def _sorted(transfers: Iterable[Transfer]) -> list[Transfer]:
    """Order transfers by payer, then payee."""
    return sorted(transfers, key=lambda t: (t.payer, t.payee))
