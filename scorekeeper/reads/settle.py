"""A Knock Dummy night's settle-up page: who pays whom, each transfer paid, received or carried
and how to pay it (reads.pay), the debts carried from earlier nights beside them, the night's
shared costs, fee and rounding, and each player's sum. The transfers are read here for both kinds
of night (the score sheets' settle-up too: reads.scoresheet)."""

from typing import Any

from django.db.models import OuterRef, Subquery
from django.urls import reverse

from scorekeeper.models import Membership, MoneyLine, Night
from scorekeeper.reads import sums
from scorekeeper.reads.board import Row, scoreboard
from scorekeeper.reads.costs import settle_up_part
from scorekeeper.reads.debts import carried_debts
from scorekeeper.reads.money import Close
from scorekeeper.reads.pay import debt_rows, with_pay


def transfer_rows(night: Night) -> list[dict[str, Any]]:
    """Who pays whom, each paid or not by the payment line that stands (not reversed), with who
    tapped "paid" and when; or carried to next time, with who tapped and
    whether the debt was paid since. One statement."""
    standing = (
        MoneyLine.objects.standing()
        .filter(transfer=OuterRef("pk"), item=MoneyLine.Item.PAID)
        .order_by("-id")
    )
    carry = MoneyLine.objects.standing().filter(transfer=OuterRef("pk"), item=MoneyLine.Item.CARRY)
    settle = MoneyLine.objects.standing().filter(
        carried__transfer=OuterRef("pk"), item=MoneyLine.Item.SETTLE
    )
    transfers = (
        night.transfers.select_related("payer", "payee", "received_by")
        .annotate(
            paid_at=Subquery(standing.values("recorded_at")[:1]),
            paid_by=Subquery(standing.values("by__name")[:1]),
            carried_at=Subquery(carry.values("recorded_at")[:1]),
            carried_by=Subquery(carry.values("by__name")[:1]),
            debt_paid_at=Subquery(settle.values("recorded_at")[:1]),
            debt_in_tab=Subquery(settle.values("tab_id")[:1]),  # settled by the tab
        )
        .order_by("payer__name", "payee__name")
    )
    return [
        {
            "transfer": t,
            "paid": t.paid_at is not None,
            "baht": t.baht,
            "paid_at": t.paid_at,
            "paid_by": t.paid_by,
            "carried": t.carried_at is not None,
            "carried_at": t.carried_at,
            "carried_by": t.carried_by,
            "debt_paid_at": t.debt_paid_at,
            "debt_in_tab": t.debt_in_tab is not None,
        }
        for t in transfers
    ]


def settle_transfers(
    night: Night, viewer: Membership | None, board: list[Row] | None = None
) -> dict[str, Any]:
    """The night's transfers, each with how to pay it, beside its scoreboard: the settle-up's
    part that its taps change, which the history shows too."""
    board = scoreboard(night) if board is None else board
    # One reader of transfers for both kinds of night, each with how to pay it by PromptPay.
    rows = with_pay(transfer_rows(night), viewer)
    return {
        "night": night,
        "board": board,
        "transfers": rows,
        "summary_url": reverse("summary", kwargs={"night_id": night.pk}),  # shared there
    }


def settle_up(
    night: Night, viewer: Membership | None, board: list[Row], usual: Close | None
) -> dict[str, Any]:
    """The settle-up page of a Knock Dummy night (the view adds its forms): `usual` the group's
    usual close, which an open night's sums assume."""
    return {
        **settle_transfers(night, viewer, board),
        # Debts carried from earlier nights, beside tonight's transfers.
        "debts": debt_rows(carried_debts(night), viewer),
        # Shared costs, the table fee and rounding, in baht.
        **settle_up_part(night),
        # Each player's money part by part, adding up to what they pay or receive.
        **sums.context(sums.board_sums(night, board, usual)),
    }
