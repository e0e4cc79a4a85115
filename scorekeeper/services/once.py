"""Idempotency: a form's key kept on the audit entry of its write: a retry records nothing twice.

Every write a form makes leaves one audit entry (services/access.py `audit`), and the form's key
goes on it: the key and the write are stored in one row, in one transaction.
"""

import hashlib

from scorekeeper.models import AuditEntry, Game, Night
from scorekeeper.services.errors import ServiceError

KEY_LENGTH = 64  # AuditEntry.key


def stored(key: str | None) -> str | None:
    """Return the key as stored: a longer or unstorable one by its SHA-256, so none collide.

    PostgreSQL refuses NUL in text, so a key holding one is hashed too. No key (or an empty one):
    None, which the unique column allows any number of times.
    """
    if not key:
        return None
    if len(key) <= KEY_LENGTH and "\x00" not in key:
        return key
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def replayed(
    key: str | None, action: str, *, night_id: int | None = None, group_id: int | None = None
) -> AuditEntry | None:
    """Return the audit entry of the write made with this key in this night (or, for a write
    that opens one, this group), if it already happened. A key counts only where it was sent: the
    same key from another group is another form.

    Call it after taking the night's lock, so that two copies of one request are in turn: before
    the write, or, where a second copy would be refused anyway (a game already finished), only
    when refusing it.
    """
    if not key:
        return None
    where = {"night_id": night_id} if night_id is not None else {"group_id": group_id}
    entries = AuditEntry.objects.select_related("game", "night")
    entry = entries.filter(key=stored(key), **where).first()
    if entry is None:
        return None
    if entry.kind != action:
        raise ServiceError("key-reused", "this form was already used for something else")
    return entry


def replayed_game(key: str | None, action: str, *, night_id: int) -> Game | None:
    """Return the game the write with this key made or changed, if it already happened."""
    entry = replayed(key, action, night_id=night_id)
    return entry.game if entry is not None else None


def replayed_night(key: str | None, action: str, *, group_id: int) -> Night | None:
    """Return the night the write with this key opened, if it already happened."""
    entry = replayed(key, action, group_id=group_id)
    return entry.night if entry is not None else None
