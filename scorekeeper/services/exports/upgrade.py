"""Exports of earlier versions read in today's shape, before any part of them is read."""

from decimal import Decimal, InvalidOperation
from typing import Any

from scorekeeper.models import LedgerLine, MoneyLine
from scorekeeper.rules.money import baht

VERSION = 4  # 2: a night's score-sheet settings under "scoresheet" (1: "race"), and a game's
# events in its "events" only (1 repeated them in its document); 3: the settle-up in baht, a
# transfer's "baht" (2: its points, "amount") and its payment a money line (2: a points line);
# 4: settled tabs under "tabs", a money line's "tab" and "tab_transfer" (3 has neither), and
# the group's own rules under "group"."usual" (optional: 3 has none)


def upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """Return an export of an earlier version in today's shape: version 1 named a night's
    score-sheet settings "race"; before version 3 a transfer was in points and paid by a points
    line, now it is in baht (at its night's point value, as migration 0019 restates it) and paid
    by a money line, which is added beside the points line that stays in the night's history."""
    if data["version"] == 3:  # today's shape, without settled tabs
        return {**data, "version": VERSION}
    if data["version"] == VERSION or not isinstance(data.get("sessions"), list):
        return data
    nights = [
        _transfers_in_baht({("scoresheet" if k == "race" else k): v for k, v in s.items()})
        if isinstance(s, dict)
        else s
        for s in data["sessions"]
    ]
    money = data.get("money_lines", [])
    if isinstance(money, list) and isinstance(data.get("lines"), list):
        money = [*money, *_payments_in_baht(data["lines"], nights, start=len(money))]
    return {**data, "version": VERSION, "sessions": nights, "money_lines": money}


def _transfers_in_baht(night: dict[str, Any]) -> dict[str, Any]:
    transfers = night.get("transfers")
    try:
        rate = Decimal(night["point_value"])
    except (KeyError, TypeError, InvalidOperation):
        return night  # malformed: the import says where
    if not isinstance(transfers, list):
        return night
    return {
        **night,
        "transfers": [
            {**t, "baht": str(baht(t.pop("amount"), rate))}
            if isinstance(t, dict) and type(t.get("amount")) is int
            else t
            for t in (dict(t) if isinstance(t, dict) else t for t in transfers)
        ],
    }


def _payments_in_baht(lines: list[Any], nights: list[Any], *, start: int) -> list[dict[str, Any]]:
    """The money lines that pay, in baht, the transfers an earlier version paid by points lines."""
    mirrors: list[dict[str, Any]] = []
    mirror_at: dict[int, int] = {}  # a points line's position: its money line's
    for i, line in enumerate(lines):
        try:
            if line["item"] != LedgerLine.PAYMENT or line["transfer"] is None:
                continue
            transfer = nights[line["session"]]["transfers"][line["transfer"]]
            if Decimal(transfer["baht"]) == 0:
                continue
        except (KeyError, IndexError, TypeError, InvalidOperation):
            continue  # malformed: the import of the points line says where
        mirror_at[i] = start + len(mirrors)
        mirrors.append(
            {
                "session": line["session"],
                "transfer": line["transfer"],
                "carried": None,
                "payer": line.get("payer"),
                "payee": line.get("payee"),
                "baht": transfer["baht"],
                "unit": MoneyLine.UNIT,
                "item": MoneyLine.Item.PAID,
                "reverses": mirror_at.get(line.get("reverses")),
                "recorded_at": line.get("recorded_at"),
            }  # fmt: skip
        )
    return mirrors
