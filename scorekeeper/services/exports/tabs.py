"""The group's settled tabs (of no night) and each tab's transfers in baht."""

from typing import Any

from scorekeeper.models import Group, Membership, MoneyLine, Player, Tab, TabTransfer
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_baht,
    load_list,
    load_player,
    load_ref,
    load_time,
    load_when,
    malformed,
    valid,
)


def dump_tabs(
    tabs: list[Tab],
    tab_transfers: list[TabTransfer],
    name: dict[int, str],
    member_at: dict[int, int],
) -> list[dict[str, Any]]:
    return [
        {
            "by": member_at[tab.by_id] if tab.by_id else None,
            "recorded_at": dump_time(tab.recorded_at),
            "transfers": [
                {
                    "payer": name[t.payer_id],
                    "payee": name[t.payee_id] if t.payee_id else None,  # None: the house
                    "baht": str(t.baht),
                    "unit": MoneyLine.UNIT,
                    "received_by": member_at[t.received_by_id] if t.received_by_id else None,
                    "received_at": dump_time(t.received_at),
                }
                for t in tab_transfers
                if t.tab_id == tab.pk
            ],
        }
        for tab in tabs
    ]


def load_tabs(
    raw_tabs: list[Any], group: Group, players: dict[str, Player], members: list[Membership]
) -> list[tuple[Tab, list[TabTransfer]]]:
    """Insert the settled tabs and their transfers; the money lines that name them come after."""
    tabs = []
    for i, raw in enumerate(raw_tabs):
        where = f"tabs[{i}]"
        tab = valid(
            Tab(
                group=group,
                by=load_ref(raw, "by", members, where),
                recorded_at=load_when(raw, "recorded_at", where),
            ),
            where,
        )
        tab.save()
        transfers = []
        for k, transfer in enumerate(load_list(raw, "transfers", where)):
            at = f"{where}.transfers[{k}]"
            if load(transfer, "unit", str, at) != MoneyLine.UNIT:
                raise malformed(f"{at}.unit", f"must be {MoneyLine.UNIT!r}")
            transfers.append(
                valid(
                    TabTransfer(
                        tab=tab,
                        payer=load_player(transfer, "payer", players, at),
                        payee=load_player(transfer, "payee", players, at, null=True),
                        baht=load_baht(transfer, "baht", at),
                        received_by=load_ref(transfer, "received_by", members, at),
                        received_at=load_time(transfer, "received_at", at, null=True),
                    ),
                    at,
                )
            )
        tabs.append((tab, TabTransfer.objects.bulk_create(transfers)))
    return tabs
