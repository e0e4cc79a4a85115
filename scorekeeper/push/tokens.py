"""The pass a table page gives the phones that may see it, to open the table's stream.

A signed, time-limited token rather than the session cookie: the push process then needs no
session, account or membership read per stream (thousands of phones reconnect at once when a
club's Wi-Fi comes back), and the stream may listen on a port of its own without cookies
(CORS with credentials). The page gives it only to visitors who passed its access check, and
the stream carries versions, never the table's contents."""

from django.core import signing

# The table page gives it as it is shown (not in the region, built once for every phone): a page
# left open longer than this without being loaded again has its stream refused, and keeps to
# the slow poll (static/js/live.js) until it is.
TOKEN_SECONDS = 7 * 24 * 3600


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt="scorekeeper.push")


def token_for(night_id: int) -> str:
    """The pass to the night's stream, for a visitor the table page admitted."""
    return _signer().sign(str(night_id))


def admits(token: str, night_id: int) -> bool:
    """Whether `token` was given out for this night's stream, less than a week ago."""
    try:
        return _signer().unsign(token, max_age=TOKEN_SECONDS) == str(night_id)
    except signing.BadSignature:  # SignatureExpired included
        return False
