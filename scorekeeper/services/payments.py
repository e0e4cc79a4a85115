"""Paying up (issue 21, items 3 and 5): which player a member is, and where that player is paid."""

from django.db import transaction

from scorekeeper import promptpay
from scorekeeper.models import Membership, Player
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError


@transaction.atomic
def member_is(*, membership: Membership, player: Player) -> Membership:
    """Note that this member is `player` at the table ("this is me"), once; saying it again of
    another player changes it, audited each time."""
    if player.group_id != membership.group_id:
        raise ServiceError("unknown-player", "{name} is not at this table", name=player.name)
    if membership.player_id != player.pk:
        membership.player = player
        membership.save(update_fields=["player"])
        audit(
            actor=membership, action="member-is-player", group=player.group,
            detail={"player": player.name},
        )  # fmt: skip
    return membership


@transaction.atomic
def promptpay_set(
    *, player: Player, target: str, public: bool = False, actor: Membership
) -> Player:
    """Save where `player` is paid: a PromptPay mobile number, national or tax id or e-wallet
    id (or nothing, to remove it). Only the member who is that player may."""
    if actor.player_id != player.pk:
        raise ServiceError(
            "promptpay-not-yours", "only {name} can save where {name} is paid", name=player.name
        )
    digits = ""
    if target.strip():
        try:
            digits = promptpay.normalised(target)
        except promptpay.PromptPayError as error:
            raise ServiceError(
                "promptpay-target",
                "that is not a PromptPay mobile number, national or tax id, or e-wallet id",
                field="promptpay",
            ) from error
    player.promptpay, player.promptpay_public = digits, public and bool(digits)
    player.save(update_fields=["promptpay", "promptpay_public"])
    audit(
        actor=actor, action="promptpay-set", group=player.group,
        detail={"player": player.name, "kind": promptpay.kind(digits) if digits else None},
    )  # fmt: skip
    return player
