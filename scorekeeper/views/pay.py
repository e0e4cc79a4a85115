"""A step of paying a night's transfer, as its settle-up's form asks: paid, received, back to
unpaid, carried to next time or not after all (how to pay it: reads.pay)."""

from scorekeeper.error_text import error_text
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Transfer
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import debts, nights


def transfer_step(request: HtmxHttpRequest, transfer: Transfer) -> str | None:
    """Take the step the transfer's form asks: paid, received, or back to unpaid (the host's
    alone once it was received); carried to next time or not after all. The payer and payee
    tap for themselves, or anyone at the table for them on a shared phone: the audit says who
    tapped.

    Return why the step was refused, in the visitor's language (a double tap, another phone
    first, a host's step): the page shows it above the transfers as they are now."""
    actor = request.membership
    try:
        if request.POST.get("carry"):
            debts.transfer_carry(transfer=transfer, actor=actor)
        elif request.POST.get("uncarry"):
            debts.carry_undo(transfer=transfer, actor=actor)
        elif request.POST.get("undo"):
            nights.payment_undo(transfer=transfer, actor=actor)
        elif request.POST.get("received"):
            nights.payment_receive(transfer=transfer, actor=actor)
        else:
            nights.payment_record(transfer=transfer, actor=actor)
    except RuleError as e:
        return error_text(e)
    return None
