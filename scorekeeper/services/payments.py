"""Paying up: which player a member is, and where that player is paid (PromptPay).

A player is one live member's (a database constraint, Membership's `one_live_claim_per_player`):
only that member saves where the player is paid, so nobody can send a payer's money to
themselves by saying they are another. A host moves a claim, which clears the number.
"""

from django.db import IntegrityError
from django.utils import timezone

from scorekeeper import promptpay
from scorekeeper.models import Membership, Player
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.writing import writing


def promptpay_typed(target: str) -> str:
    """Return the digits of a PromptPay number as typed, or refuse it with the reason's code.

    Only typed numbers are checked so: one stored before the checks still shows and pays.
    """
    try:
        return promptpay.typed(target)
    except promptpay.PromptPayError as error:
        why = {  # the number's fault, by promptpay's code
            "all-zero": ServiceError("promptpay-all-zero", str(error), field="promptpay"),
            "mobile": ServiceError("promptpay-mobile", str(error), field="promptpay"),
            "id-check": ServiceError("promptpay-id-check", str(error), field="promptpay"),
        }.get(error.code, ServiceError("promptpay-target", str(error), field="promptpay"))
        raise why from error


def _claimed(player: Player, membership: Membership | None) -> None:
    """Give `player` to `membership` (None: to nobody), refused if another live member holds it
    after all: two phones claiming at once meet the constraint, and the second is refused."""
    try:
        with writing():
            if membership is not None:
                membership.player = player
                membership.save(update_fields=["player"])
    except IntegrityError as error:
        raise ServiceError(
            "player-claimed", "{name} is already another member", name=player.name
        ) from error


def _number_cleared(player: Player, by: Membership) -> None:
    """Clear where `player` is paid: a number stands only while the member who saved it holds
    the player."""
    if player.promptpay:
        player.promptpay, player.promptpay_public = "", False
        player.promptpay_changed_at, player.promptpay_changed_by = timezone.now(), by.name
        player.save(
            update_fields=[
                "promptpay", "promptpay_public", "promptpay_changed_at", "promptpay_changed_by"
            ]
        )  # fmt: skip


@writing()
def member_is(*, membership: Membership, player: Player) -> Membership:
    """Note that this member is `player` at the table ("this is me"), audited.

    Refused to a viewer, for a player another live member already is, and to a member who is
    already another player (a host moves a claim: `claim_reassign`).
    """
    player = Player.objects.select_for_update().get(pk=player.pk)  # claims of it, one at a time
    membership = Membership.objects.get(pk=membership.pk)
    if player.group_id != membership.group_id or membership.revoked_at is not None:
        raise ServiceError("unknown-player", "{name} is not at this table", name=player.name)
    if membership.role == Membership.Role.VIEWER:
        raise ServiceError("viewer-claims-nobody", "a viewer is none of the players")
    if membership.player_id == player.pk:
        return membership
    if membership.player_id is not None:
        raise ServiceError("claim-change", "you are already another player: a host can change it")
    holder = Membership.objects.filter(player=player, revoked_at__isnull=True).first()
    if holder is not None:
        raise ServiceError("player-claimed", "{name} is already another member", name=player.name)
    _claimed(player, membership)
    audit(
        actor=membership, action="member-is-player", group=player.group,
        detail={"player": player.name},
    )  # fmt: skip
    return membership


@writing()
def claim_reassign(*, player: Player, to: Membership | None, by: Membership) -> Player:
    """Make `to` the member who is `player` (None: nobody), a host's step, audited.

    Clears the player's PromptPay number, and that of any player `to` leaves: the member now
    holding it saves their own.
    """
    player = Player.objects.select_for_update().get(pk=player.pk)
    by = Membership.objects.get(pk=by.pk)
    if by.group_id != player.group_id or by.revoked_at is not None or not by.may_host:
        raise ServiceError("claim-host", "only a host can say which member a player is")
    if to is not None:
        to = Membership.objects.get(pk=to.pk)
        if to.group_id != player.group_id or to.revoked_at is not None:
            raise ServiceError("unknown-member", "that member is not in this group")
        if to.role == Membership.Role.VIEWER:
            raise ServiceError("viewer-claims-nobody", "a viewer is none of the players")
    holder = Membership.objects.filter(player=player, revoked_at__isnull=True).first()
    if holder == to:
        return player
    left = None
    if holder is not None:
        holder.player = None
        holder.save(update_fields=["player"])
    if to is not None and to.player_id is not None:
        left = Player.objects.select_for_update().get(pk=to.player_id)
        _number_cleared(left, by)
    _claimed(player, to)
    _number_cleared(player, by)
    audit(
        actor=by, action="claim-reassign", group=player.group,
        detail={
            "player": player.name,
            "from": str(holder) if holder else None,
            "to": str(to) if to else None,
            "left": left.name if left else None,
        },
    )  # fmt: skip
    return player


@writing()
def promptpay_set(
    *, player: Player, target: str, public: bool = False, actor: Membership
) -> Player:
    """Save where `player` is paid: a PromptPay mobile number, national or tax id or e-wallet
    id (or nothing, to remove it). Only the live member who is that player may."""
    player = Player.objects.select_for_update().get(pk=player.pk)  # as it is after any move
    holds = Membership.objects.filter(pk=actor.pk, player=player, revoked_at__isnull=True)
    if not holds.exists():
        raise ServiceError(
            "promptpay-not-yours", "only {name} can save where {name} is paid", name=player.name
        )
    digits = promptpay_typed(target) if target.strip() else ""
    if digits != player.promptpay:  # a transfer made before this tells everyone (reads/pay.py)
        player.promptpay_changed_at, player.promptpay_changed_by = timezone.now(), actor.name
    player.promptpay, player.promptpay_public = digits, public and bool(digits)
    player.save(
        update_fields=[
            "promptpay", "promptpay_public", "promptpay_changed_at", "promptpay_changed_by"
        ]
    )  # fmt: skip
    audit(
        actor=actor, action="promptpay-set", group=player.group,
        detail={"player": player.name, "kind": promptpay.kind(digits) if digits else None},
    )  # fmt: skip
    return player
