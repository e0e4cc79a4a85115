"""A night's transfers: who pays whom what in baht at the close."""

from typing import Any

from scorekeeper.models import Night, Player, Transfer
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_baht,
    load_list,
    load_player,
    load_when,
    valid,
)


def dump_transfer(transfer: Transfer, name: dict[int, str]) -> dict[str, Any]:
    return {
        "payer": name[transfer.payer_id],
        "payee": name[transfer.payee_id] if transfer.payee_id else None,  # None: the house
        "baht": str(transfer.baht),
        "mode": transfer.mode,
        "created_at": dump_time(transfer.created_at),
    }


def load_transfers(
    night: Night, players: dict[str, Player], raw: Any, where: str
) -> list[Transfer]:
    transfers = []
    for i, transfer in enumerate(load_list(raw, "transfers", where)):
        at = f"{where}.transfers[{i}]"
        transfers.append(
            valid(
                Transfer(
                    night=night,
                    payer=load_player(transfer, "payer", players, at),
                    payee=load_player(transfer, "payee", players, at, null=True),
                    baht=load_baht(transfer, "baht", at),
                    mode=load(transfer, "mode", str, at),
                    created_at=load_when(transfer, "created_at", at),
                ),
                at,
            )
        )
    Transfer.objects.bulk_create(transfers)
    return transfers
