"""Who may see and change a table: devices, memberships, invites and the audit trail."""

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.db.models import Q
from django.utils import timezone

from scorekeeper.models import (
    AuditEntry,
    Device,
    Game,
    Group,
    Invite,
    Limit,
    Membership,
    Night,
    Player,
)
from scorekeeper.names import cleaned
from scorekeeper.numbers import read_digits
from scorekeeper.rules.names import fault
from scorekeeper.services import once
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.writing import writing

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud across a table
CODE_LENGTH = 8
CODE_TRIES = 10  # per address ...
CODE_WINDOW = timedelta(minutes=10)  # ... in this long
GROUPS_WINDOW = timedelta(hours=1)  # settings.GROUPS_AN_HOUR new groups an address may make
SIGNUPS_WINDOW = timedelta(hours=1)  # settings.SIGNUPS_AN_HOUR accounts an address may make
INVITE_LIFE = timedelta(hours=24)  # unless the host chooses ...
INVITE_SHORTEST, INVITE_LONGEST = timedelta(hours=1), timedelta(days=7)  # ... within these


@writing()
def device_create(*, user_agent: str = "") -> Device:
    """Register a browser the first time it needs to be recognised."""
    return Device.objects.create(user_agent=user_agent[:200])


@writing()
def group_create(
    *, name: str, device: Device | None = None, user: Any = None, host_name: str = ""
) -> Group:
    """Start a group (วง); whoever starts it is its host (a script may start one with no host)."""
    name = cleaned(name)
    if not name or fault(name) is not None:  # the one definition of a name (rules.names)
        raise ServiceError("group-name", "a group needs a name", field="name")
    group = Group.objects.create(name=name)
    if device is None:
        return group
    host = Membership.objects.create(
        group=group,
        role=Membership.Role.HOST,
        device=device,
        user=user if user is not None and user.is_authenticated else None,
        name=cleaned(host_name)[:40],
    )
    group.owner = host
    group.save(update_fields=["owner"])
    audit(group=group, actor=host, action="group-create", detail={"name": name})
    return group


@writing()
def invite_create(
    *,
    group: Group,
    role: str,
    by: Membership | None,
    life: timedelta = INVITE_LIFE,
    single_use: bool = False,
) -> Invite:
    """Make an invite link and a short code for `role`, valid for `life` (an hour to a week),
    for one phone or any number; only a host may (or an operator: None)."""
    if by is not None and (by.group_id != group.pk or not by.can(Membership.Role.HOST)):
        raise ServiceError("not-host", "only a host can invite", field="role")
    if role not in Membership.Role.values:
        raise ServiceError("role", "unknown role", field="role")
    if not INVITE_SHORTEST <= life <= INVITE_LONGEST:
        raise ServiceError("invite-life", "an invite lasts an hour to a week", field="life")
    invite = Invite.objects.create(
        group=group,
        role=role,
        token=secrets.token_urlsafe(24),
        code="".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)),
        created_by=by,
        expires_at=timezone.now() + life,
        single_use=single_use,
    )
    audit(
        group=group, actor=by, action="invite-create",
        detail={"role": role, "hours": life // timedelta(hours=1), "single_use": single_use},
    )  # fmt: skip
    return invite


@writing()
def invite_revoke(*, invite: Invite, by: Membership) -> Invite:
    """Withdraw an invite: its link and code let nobody in any more.

    The group's row is locked first, as a join locks it before the invite: locking only the
    invite, the withdrawal would wait at its commit for the group row (its audit entry's
    foreign key, checked then) that a join holds while waiting for the invite, and neither
    would go on.
    """
    if by.group_id != invite.group_id or not by.can(Membership.Role.HOST):
        raise ServiceError("not-host", "only a host can withdraw an invite")
    Group.objects.select_for_update().get(pk=invite.group_id)
    Invite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    audit(group=invite.group, actor=by, action="invite-revoke", detail={"code": invite.code})
    invite.refresh_from_db()
    return invite


def code_attempt(*, address: str) -> None:
    """Count one try of a short code from `address`; refuse past the limit (in its own commit)."""
    _limit(f"join-code:{address}", CODE_TRIES, CODE_WINDOW, "too-many-tries",
           "too many codes tried: wait ten minutes")  # fmt: skip


def group_create_attempt(*, address: str, account: int | None = None) -> None:
    """Count one new group made from `address`, and by the signed-in `account` if any; refuse
    past the limit of either (each counted in its own commit): signing in is no way round the
    address's limit, nor a new address round the account's."""
    _limit(f"group-create:{address}", settings.GROUPS_AN_HOUR, GROUPS_WINDOW, "too-many-groups",
           "too many new groups from here: wait an hour")  # fmt: skip
    if account is not None:
        _limit(f"group-create-account:{account}", settings.GROUPS_AN_HOUR, GROUPS_WINDOW,
               "too-many-groups-account",
               "too many new groups from this account: wait an hour")  # fmt: skip


def signup_attempt(*, address: str) -> None:
    """Count one account signed up from `address`; refuse past the limit (in its own commit)."""
    _limit(f"signup:{address}", settings.SIGNUPS_AN_HOUR, SIGNUPS_WINDOW, "too-many-signups",
           "too many new accounts from here: wait an hour")  # fmt: skip


def _limit(key: str, most: int, window: timedelta, code: str, message: str) -> None:
    """Count one try under `key`; refuse the try past `most` in `window`.

    The key's row is locked as it is counted, so tries at the very same moment count one after
    the other (before, 12 of a burst of 10 got through on PostgreSQL).
    """
    now = timezone.now()
    with writing():
        Limit.objects.bulk_create([Limit(key=key, since=now)], ignore_conflicts=True)
        limit = Limit.objects.select_for_update().get(key=key)
        if limit.since <= now - window:
            limit.since, limit.count = now, 0
        if limit.count >= most:
            raise ServiceError(code, message, field="code")
        limit.count += 1
        limit.save(update_fields=["since", "count"])


def normalise_code(code: str) -> str:
    """The code as stored: Thai digits read as digits, spaces and dashes gone, capitals."""
    return read_digits(code).replace("-", "").upper()


@writing()
def invite_join(
    *, device: Device, user: Any = None, token: str = "", code: str = "", name: str = ""
) -> Membership:
    """Join a group by an invite's link token or short code; a member keeps the higher role.

    The group's row is locked first, as a member's removal locks it, then the invite's, and the
    invite read afresh: of two phones on one single-use invite one joins, and the other is told
    it is used; a removal at that moment goes before or after, never half. A member removed
    from the group comes back only by an invite made after the removal.
    """
    found = Invite.objects.none()
    if token:
        found = Invite.objects.filter(token=token)
    elif code:
        found = Invite.objects.filter(code=normalise_code(code))
    invite = found.first()
    if invite is not None:
        Group.objects.select_for_update().get(pk=invite.group_id)
        invite = found.select_for_update().first()
    if invite is not None and invite.single_use and invite.used_at is not None:
        raise ServiceError("invite-used", "another phone has just used this invite", field="code")
    if invite is None or not invite.is_live:
        raise ServiceError("invite-unknown", "that invite is unknown or has expired", field="code")
    mine = Q(device=device)
    if user is not None and user.is_authenticated:
        mine |= Q(user=user)
    removed = Membership.objects.filter(mine, group_id=invite.group_id)
    if removed.filter(revoked_at__gte=invite.created_at).exists():
        raise ServiceError(
            "invite-removed", "you were removed from this group after this invite was made",
            field="code",
        )  # fmt: skip
    if invite.single_use:
        invite.used_at = timezone.now()
        invite.save(update_fields=["used_at"])
    existing = Membership.objects.filter(
        group=invite.group, device=device, revoked_at__isnull=True
    ).first()
    if existing is not None:
        if not existing.can(invite.role):
            existing.role = invite.role
            existing.save(update_fields=["role"])
        return existing
    member = Membership.objects.create(
        group=invite.group,
        role=invite.role,
        device=device,
        user=user if user is not None and user.is_authenticated else None,
        name=cleaned(name)[:40],
    )
    audit(group=invite.group, actor=member, action="member-join", detail={"role": invite.role})
    return member


@writing()
def memberships_claim(*, device: Device, user: Any) -> int:
    """Tie this device's memberships to the account just signed in, for its other devices."""
    return Membership.objects.filter(device=device, user__isnull=True).update(user=user)


@writing()
def membership_revoke(*, membership: Membership, by: Membership) -> Membership:
    """Remove a member from a group, and the invites they made.

    Only a host may; nobody but the owner removes the owner; a group keeps at least one host.
    The group's row is locked first, so two hosts removing each other at once go one after the
    other, and the second finds the first already gone.
    """
    group = Group.objects.select_for_update().get(pk=membership.group_id)
    by = Membership.objects.get(pk=by.pk)  # as it is now, after any wait for the lock
    membership = Membership.objects.get(pk=membership.pk)
    if by.revoked_at is not None or by.group_id != group.pk or not by.can(Membership.Role.HOST):
        raise ServiceError("not-host", "only a host can remove members")
    if membership.pk == group.owner_id and by.pk != group.owner_id:
        raise ServiceError("owner", "nobody but the group's owner can remove the owner")
    if membership.revoked_at is not None:
        return membership
    hosts = Membership.objects.filter(
        group=group, role=Membership.Role.HOST, revoked_at__isnull=True
    )
    if membership.role == Membership.Role.HOST and hosts.count() == 1:
        raise ServiceError("last-host", "a group keeps at least one host")
    now = timezone.now()
    membership.revoked_at = now
    membership.save(update_fields=["revoked_at"])
    withdrawn = Invite.objects.filter(created_by=membership, revoked_at__isnull=True).update(
        revoked_at=now
    )
    # A removed member holds no player (the claim constraint counts live members only), and
    # the number they saved for it no longer stands: whoever is that player next saves theirs.
    if membership.player_id is not None:
        Player.objects.filter(pk=membership.player_id).exclude(promptpay="").update(
            promptpay="", promptpay_public=False, promptpay_changed_at=now,
            promptpay_changed_by=by.name,
        )  # fmt: skip
    if membership.pk == group.owner_id:  # the owner left: the longest-standing host owns it
        group.owner = hosts.order_by("joined_at", "pk").first()
        group.save(update_fields=["owner"])
    audit(
        group=group, actor=by, action="member-remove",
        detail={"member": str(membership), "invites_withdrawn": withdrawn},
    )  # fmt: skip
    return membership


@writing()
def owner_hand_over(*, group: Group, to: Membership, by: Membership) -> Group:
    """The owner hands the group on to another host."""
    group = Group.objects.select_for_update().get(pk=group.pk)
    if by.pk != group.owner_id:
        raise ServiceError("owner", "only the group's owner can hand it on")
    to = Membership.objects.get(pk=to.pk)
    if to.group_id != group.pk or to.revoked_at is not None or to.role != Membership.Role.HOST:
        raise ServiceError("owner-host", "hand the group on to one of its hosts")
    group.owner = to
    group.save(update_fields=["owner"])
    audit(group=group, actor=by, action="owner-hand-over", detail={"to": str(to)})
    return group


def audit(
    *,
    actor: Membership | None,
    action: str,
    group: Group | None = None,
    night: Night | None = None,
    game: Game | None = None,
    detail: dict[str, Any] | None = None,
    key: str | None = None,
) -> None:
    """Note who did what, with the idempotency key of the form that did it (services/once.py).

    Called inside the writing service's transaction; the group is the night's when a night is
    given. A key already stored means the form was used for another write: refused, and the
    transaction with it.
    """
    group_id = night.group_id if night is not None else group.pk if group is not None else None
    if group_id is None:
        raise ValueError("an audit entry needs a group or a night")
    _audit_insert([_entry(group_id, night, game, actor, action, detail or {}, key)])


def audit_many(
    *,
    actor: Membership | None,
    night: Night,
    game: Game | None,
    entries: list[tuple[str, dict[str, Any], str | None]],
) -> None:
    """Note several things one write did, in one INSERT: each entry is (action, detail, the key
    of the form that did it or None). Refused as `audit` refuses a key already stored."""
    _audit_insert(
        [
            _entry(night.group_id, night, game, actor, action, detail, key)
            for action, detail, key in entries
        ]
    )


def _entry(
    group_id: int,
    night: Night | None,
    game: Game | None,
    actor: Membership | None,
    action: str,
    detail: dict[str, Any],
    key: str | None,
) -> AuditEntry:
    return AuditEntry(
        group_id=group_id,
        night=night,
        game=game,
        membership=actor,
        device_id=actor.device_id if actor is not None else None,
        action=action,
        detail=detail,
        key=once.stored(key),
    )


def _audit_insert(entries: list[AuditEntry]) -> None:
    try:
        AuditEntry.objects.bulk_create(entries)
    except IntegrityError as error:
        raise ServiceError("key-reused", "this form was already used for something else") from error
