"""Who may see and change a table: devices, memberships, invites and the audit trail."""

import secrets
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scorekeeper.models import (
    AuditEntry,
    Device,
    Game,
    Group,
    Invite,
    JoinAttempt,
    Membership,
    Session,
)
from scorekeeper.names import cleaned
from scorekeeper.services import once
from scorekeeper.services.errors import ServiceError

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud across a table
CODE_LENGTH = 8
CODE_TRIES = 10  # per address ...
CODE_WINDOW = timedelta(minutes=10)  # ... in this long
INVITE_LIFE = timedelta(days=7)


@transaction.atomic
def device_create(*, user_agent: str = "") -> Device:
    """Register a browser the first time it needs to be recognised."""
    return Device.objects.create(user_agent=user_agent[:200])


@transaction.atomic
def group_create(
    *, name: str, device: Device | None = None, user: Any = None, host_name: str = ""
) -> Group:
    """Start a group (วง); whoever starts it is its host (a script may start one with no host)."""
    name = cleaned(name)
    if not name:
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
    audit(group=group, actor=host, action="group-create", detail={"name": name})
    return group


@transaction.atomic
def invite_create(*, group: Group, role: str, by: Membership | None) -> Invite:
    """Make an invite link and a short code for `role`; only a host may (or an operator: None)."""
    if by is not None and (by.group_id != group.pk or not by.can(Membership.Role.HOST)):
        raise ServiceError("not-host", "only a host can invite", field="role")
    if role not in Membership.Role.values:
        raise ServiceError("role", "unknown role", field="role")
    invite = Invite.objects.create(
        group=group,
        role=role,
        token=secrets.token_urlsafe(24),
        code="".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)),
        created_by=by,
        expires_at=timezone.now() + INVITE_LIFE,
    )
    audit(group=group, actor=by, action="invite-create", detail={"role": role})
    return invite


def code_attempt(*, address: str) -> None:
    """Count one try of a short code from `address`; refuse past the limit (in its own commit)."""
    since = timezone.now() - CODE_WINDOW
    with transaction.atomic():
        JoinAttempt.objects.filter(at__lt=timezone.now() - 2 * CODE_WINDOW).delete()
        if JoinAttempt.objects.filter(address=address, at__gte=since).count() >= CODE_TRIES:
            raise ServiceError(
                "too-many-tries", "too many codes tried: wait ten minutes", field="code"
            )
        JoinAttempt.objects.create(address=address)


def normalise_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


@transaction.atomic
def invite_join(
    *, device: Device, user: Any = None, token: str = "", code: str = "", name: str = ""
) -> Membership:
    """Join a group by an invite's link token or short code; a member keeps the higher role."""
    invite = None
    if token:
        invite = Invite.objects.filter(token=token).first()
    elif code:
        invite = Invite.objects.filter(code=normalise_code(code)).first()
    if invite is None or not invite.is_live:
        raise ServiceError("invite-unknown", "that invite is unknown or has expired", field="code")
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


@transaction.atomic
def memberships_claim(*, device: Device, user: Any) -> int:
    """Tie this device's memberships to the account just signed in, for its other devices."""
    return Membership.objects.filter(device=device, user__isnull=True).update(user=user)


@transaction.atomic
def membership_revoke(*, membership: Membership, by: Membership) -> Membership:
    """Remove a member from a group; a host cannot remove the last host."""
    if by.group_id != membership.group_id or not by.can(Membership.Role.HOST):
        raise ServiceError("not-host", "only a host can remove members")
    hosts = Membership.objects.filter(
        group=membership.group, role=Membership.Role.HOST, revoked_at__isnull=True
    )
    if membership.role == Membership.Role.HOST and hosts.count() == 1:
        raise ServiceError("last-host", "a group keeps at least one host")
    membership.revoked_at = timezone.now()
    membership.save(update_fields=["revoked_at"])
    audit(
        group=membership.group, actor=by, action="member-remove", detail={"member": str(membership)}
    )
    return membership


def audit(
    *,
    actor: Membership | None,
    action: str,
    group: Group | None = None,
    session: Session | None = None,
    game: Game | None = None,
    detail: dict[str, Any] | None = None,
    key: str | None = None,
) -> None:
    """Note who did what, with the idempotency key of the form that did it (services/once.py).

    Called inside the writing service's transaction; the group is the session's when a session is
    given. A key already stored means the form was used for another write: refused, and the
    transaction with it.
    """
    group_id = session.group_id if session is not None else group.pk if group is not None else None
    if group_id is None:
        raise ValueError("an audit entry needs a group or a session")
    _audit_insert([_entry(group_id, session, game, actor, action, detail or {}, key)])


def audit_many(
    *,
    actor: Membership | None,
    session: Session,
    game: Game | None,
    entries: list[tuple[str, dict[str, Any], str | None]],
) -> None:
    """Note several things one write did, in one INSERT: each entry is (action, detail, the key
    of the form that did it or None). Refused as `audit` refuses a key already stored."""
    _audit_insert(
        [
            _entry(session.group_id, session, game, actor, action, detail, key)
            for action, detail, key in entries
        ]
    )


def _entry(
    group_id: int,
    session: Session | None,
    game: Game | None,
    actor: Membership | None,
    action: str,
    detail: dict[str, Any],
    key: str | None,
) -> AuditEntry:
    return AuditEntry(
        group_id=group_id,
        session=session,
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
