"""Idempotency: a form's key stored with the write it made, so a retry records nothing twice."""

import hashlib
from typing import Any

from scorekeeper.models import IdempotencyKey
from scorekeeper.services.errors import ServiceError

KEY_LENGTH = 64  # IdempotencyKey.key


def _stored(key: str) -> str:
    """Return the key as stored: a longer or unstorable one by its SHA-256, so none collide.

    PostgreSQL refuses NUL in text, so a key holding one is hashed too.
    """
    if len(key) <= KEY_LENGTH and "\x00" not in key:
        return key
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def replayed(key: str | None, action: str) -> dict[str, Any] | None:
    """Return what the write with this key stored, if it already happened.

    Call it after taking the session's lock, so that two copies of one request are in turn.
    """
    if not key:
        return None
    row = IdempotencyKey.objects.filter(key=_stored(key)).first()
    if row is None:
        return None
    if row.action != action:
        raise ServiceError("key-reused", "this form was already used for something else")
    return row.result


def remember(key: str | None, action: str, result: dict[str, Any]) -> None:
    """Store the key with the result, in the transaction of the write itself."""
    if key:
        IdempotencyKey.objects.create(key=_stored(key), action=action, result=result)
