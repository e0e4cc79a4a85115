"""The money ledger in baht: payments, carried debts, costs and tabs, in the order written."""

from typing import Any

from scorekeeper.models import Cost, Group, MoneyLine, Night, Player, Tab, TabTransfer, Transfer
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_baht,
    load_player,
    load_ref,
    load_when,
    malformed,
    valid,
)


def dump_money_line(
    m: MoneyLine,
    name: dict[int, str],
    *,
    night_at: dict[int, int],
    transfer_at: dict[int, int],
    money_at: dict[int, int],
    cost_at: dict[int, int],
    tab_at: dict[int, int],
    tab_transfer_at: dict[int, int],
) -> dict[str, Any]:
    return {
        "session": night_at[m.night_id] if m.night_id else None,
        "transfer": transfer_at[m.transfer_id] if m.transfer_id else None,
        "carried": money_at[m.carried_id] if m.carried_id else None,
        "cost": cost_at[m.cost_id] if m.cost_id else None,
        "tab": tab_at[m.tab_id] if m.tab_id else None,
        "tab_transfer": tab_transfer_at[m.tab_transfer_id] if m.tab_transfer_id else None,
        "payer": name[m.payer_id] if m.payer_id else None,  # None: the house
        "payee": name[m.payee_id] if m.payee_id else None,
        "baht": str(m.baht),
        "unit": MoneyLine.UNIT,
        "item": m.item,
        "reason": m.reason,
        "reverses": money_at[m.reverses_id] if m.reverses_id else None,
        "recorded_at": dump_time(m.recorded_at),
    }


def load_money_lines(
    raw_lines: list[Any],
    group: Group,
    players: dict[str, Player],
    nights: list[Night],
    transfers: list[list[Transfer]],
    costs: list[list[Cost]],
    tabs: list[tuple[Tab, list[TabTransfer]]],
) -> None:
    """Insert the money ledger in its original order: a settle or a reversal names a line
    before it, so each is inserted before the next is read."""
    written: list[MoneyLine] = []
    for i, raw in enumerate(raw_lines):
        where = f"money_lines[{i}]"
        night_at = load(raw, "session", int, where, null=True)
        night = load_ref(raw, "session", nights, where)
        transfer = None
        if load(raw, "transfer", int, where, null=True) is not None:
            if night_at is None:
                raise malformed(f"{where}.transfer", "needs the night it belongs to")
            transfer = load_ref(raw, "transfer", transfers[night_at], where)
        cost = None
        if raw.get("cost") is not None:
            if night_at is None:
                raise malformed(f"{where}.cost", "needs the night it belongs to")
            cost = load_ref(raw, "cost", costs[night_at], where)
        if load(raw, "unit", str, where) != MoneyLine.UNIT:
            raise malformed(f"{where}.unit", f"must be {MoneyLine.UNIT!r}")
        tab, tab_transfer = None, None
        if raw.get("tab") is not None:
            tab, its_transfers = load_ref(raw, "tab", tabs, where) or (None, [])
            tab_transfer = load_ref(raw, "tab_transfer", its_transfers, where)
        elif raw.get("tab_transfer") is not None:
            raise malformed(f"{where}.tab_transfer", "needs the tab it belongs to")
        line = valid(
            MoneyLine(
                group=group,
                night=night,
                transfer=transfer,
                carried=load_ref(raw, "carried", written, where),
                cost=cost,
                tab=tab,
                tab_transfer=tab_transfer,
                payer=load_player(raw, "payer", players, where, null=True),
                payee=load_player(raw, "payee", players, where, null=True),
                baht=load_baht(raw, "baht", where),
                item=load(raw, "item", str, where),
                reason=load(raw, "reason", str, where) if "reason" in raw else "",
                reverses=load_ref(raw, "reverses", written, where),
                recorded_at=load_when(raw, "recorded_at", where),
            ),
            where,
        )
        line.save()
        written.append(line)
