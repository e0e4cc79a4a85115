"""A night's or a group's ledger as CSV, for people and their spreadsheets: written only."""

import csv
import io

from django.db import models
from django.utils import timezone

from scorekeeper.models import Group, LedgerLine, MoneyLine, Night
from scorekeeper.services.exports.snapshot import snapshot

CSV_HEADER = (
    "line",
    "session",
    "started",
    "game",
    "game status",
    "event",
    "item",
    "rule",
    "due",
    "payer",
    "payee",
    "points",
    "baht",
    "unit",
    "reversal of",
    "recorded at",
)


def night_csv(*, night: Night) -> str:
    """Return the night's ledger as CSV: a header, then one row per line in the order written,
    the points ledger's and then the money ledger's (ids "m…", in baht)."""
    with snapshot():
        return _csv(LedgerLine.objects.filter(night=night), MoneyLine.objects.filter(night=night))


def group_csv(*, group: Group) -> str:
    """Return every ledger line of the group as CSV, in the order written, the points ledger's
    and then the money ledger's (a carried debt paid between nights has no night)."""
    with snapshot():
        return _csv(
            LedgerLine.objects.filter(night__group=group), MoneyLine.objects.filter(group=group)
        )


def _cell(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(lines: models.QuerySet[LedgerLine], money: models.QuerySet[MoneyLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    rows = lines.select_related("night", "game", "event", "payer", "payee").order_by("pk")
    for line in rows:
        game = line.game
        writer.writerow(
            (
                line.pk,
                line.night_id,
                timezone.localdate(line.night.started_at).isoformat(),
                game.number if game else "",
                game.status if game else "",
                line.event.number if line.event else "",
                line.item,
                line.rule,
                line.due,
                _cell(line.payer.name),
                _cell(line.payee.name),
                line.amount,
                line.night.baht(line.amount),
                "points",
                line.reverses_id or "",
                timezone.localtime(line.recorded_at).isoformat(),
            )
        )
    for m in money.select_related("night", "payer", "payee").order_by("pk"):
        writer.writerow(
            (
                f"m{m.pk}",
                m.night_id or "",
                timezone.localdate(m.night.started_at).isoformat() if m.night else "",
                "",
                "",
                "",
                m.item,
                "",
                "",
                _cell(m.payer_name),
                _cell(m.payee_name),
                "",
                m.baht,
                MoneyLine.UNIT,
                f"m{m.reverses_id}" if m.reverses_id else "",
                timezone.localtime(m.recorded_at).isoformat(),
            )  # fmt: skip
        )
    return out.getvalue()
