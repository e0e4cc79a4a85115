"""How to pay a transfer or a carried debt by PromptPay, as the viewer may read it: the QR code
with the amount, the number to copy, the number as the others may see it, and whether the payee's
number changed since the transfer was made. The settle-ups, the summary and the group's page
(its debts and its tab) show it."""

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from scorekeeper import promptpay
from scorekeeper.models import Membership, MoneyLine, Player
from scorekeeper.qr import promptpay_svg


def shown_target(player: Player, viewer: Membership | None) -> str:
    """The player's PromptPay number as `viewer` may read it: whole to its owner, and a mobile
    number whole to everyone if its owner chose so; otherwise masked (an id always is)."""
    own = viewer is not None and viewer.player_id == player.pk
    if own or _public(player):
        return promptpay.formatted(player.promptpay)
    return promptpay.masked(player.promptpay)


def _public(player: Player) -> bool:
    return player.promptpay_public and promptpay.kind(player.promptpay) == "mobile"


def whole_to(viewer: Membership | None, payer: Player, payee: Player) -> bool:
    """Whether `viewer` may have the payee's whole number, in its QR code and copy button: the
    payer and the payee of that transfer or debt, and a host (the phone the table records on is
    usually a host's); anyone for a mobile number its owner shows. Everyone else reads it
    masked, and no QR code carries it to them."""
    if _public(payee):
        return True
    if viewer is None:
        return False
    return viewer.may_host or viewer.player_id in (payer.pk, payee.pk)


def pay(
    payer: Player | None, payee: Player | None, baht: Decimal, viewer: Membership | None
) -> dict | None:
    """How to pay `payee` `baht` by PromptPay, or None if they have no PromptPay number (the
    house, None, has none). The QR code and the number to copy only for `whole_to`."""
    if payer is None or payee is None or not payee.promptpay or baht <= 0:
        return None
    whole = whole_to(viewer, payer, payee)
    return {
        "qr": promptpay_svg(payee.promptpay, baht) if whole else "",
        "shown": (promptpay.formatted if whole else promptpay.masked)(payee.promptpay),
        "copy": payee.promptpay if whole else "",
        "mine": viewer is not None and viewer.player_id == payer.pk,  # shown open to the payer
    }


def changed(payee: Player | None, since: dt.datetime | None) -> dict | None:
    """When and by whom the payee's number changed, if after `since` (when the night's transfers
    were made): everyone is told, since a payer may have read or saved the number before."""
    if payee is None or not payee.promptpay or since is None:
        return None
    at = payee.promptpay_changed_at
    if at is None or at <= since:
        return None
    return {"at": at, "by": payee.promptpay_changed_by}


def with_pay(rows: list[dict[str, Any]], viewer: Membership | None) -> list[dict[str, Any]]:
    """The settle-up's transfer rows, each with how to pay it (None: no PromptPay number) and
    whether the payee's number changed since it was made."""
    return [
        {
            **row,
            "pay": pay(row["transfer"].payer, row["transfer"].payee, row["baht"], viewer),
            "changed": changed(row["transfer"].payee, row["transfer"].created_at),
        }
        for row in rows
    ]


def debt_rows(lines: Iterable[MoneyLine], viewer: Membership | None) -> list[dict[str, Any]]:
    """Debts carried across nights, each paid or not (`paid_at`, when the
    reader says), with how to pay it by PromptPay while it is owed, and whether the payee's
    number changed since its night's transfers were made (when the night closed)."""
    rows = []
    for debt in lines:
        paid = getattr(debt, "paid_at", None) is not None
        owed = None if paid else pay(debt.payer, debt.payee, debt.baht, viewer)
        since = debt.night.closed_at if debt.night is not None else None
        rows.append(
            {"debt": debt, "paid": paid, "pay": owed, "changed": changed(debt.payee, since)}
        )
    return rows
