"""The pass a table page gives the phones that may see it, to open the table's stream.

A signed, time-limited pass rather than the session cookie: the stream may listen on a port of
its own without cookies (CORS with credentials), and the push process reads no session or
account for it. The page gives it only to visitors who passed its access check; it names the
night, its group and the visitor's membership, and the push process refuses it once that
membership was removed (app.py: one indexed read as the stream opens). The stream carries
versions, never the table's contents."""

from dataclasses import dataclass

from django.core import signing

# The table page gives it as it is shown (not in the region, built once for every phone): a page
# left open longer than this without being loaded again has its stream refused, and keeps to
# the slow poll (static/js/live.js) until it is.
TOKEN_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Holder:
    """Who a pass was given to: a membership of the night's group."""

    group_id: int
    membership_id: int


SALT = "scorekeeper.push"


def token_for(night_id: int, holder: Holder) -> str:
    """The pass to the night's stream, for a visitor the table page admitted as `holder`.

    Its ids travel in Django's signed, base64 form: written out as figures they would stand in
    the page's text like a number the page shows ("15.10.13")."""
    return signing.dumps([night_id, holder.group_id, holder.membership_id], salt=SALT)


def holder_of(token: str, night_id: int) -> Holder | None:
    """Who `token` was given to, if it was given out for this night's stream less than a week
    ago; else None."""
    try:
        night, group, membership = signing.loads(token, salt=SALT, max_age=TOKEN_SECONDS)
    except (signing.BadSignature, ValueError, TypeError):  # SignatureExpired included
        return None
    if night != night_id or not isinstance(group, int) or not isinstance(membership, int):
        return None
    return Holder(group, membership)
