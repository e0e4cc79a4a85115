"""Pages every phone at the table keeps up to date: told when the table changes, then asking.

The page names the version it shows (the newest audit entry of its night: every write leaves
one in its own transaction), signed for the page's address, and holds a stream of the night's
versions from the push process (scorekeeper/push), with a pass for it. When the stream tells a
version other than the one shown, or the page is shown again, or every 30 s when no stream can
be held, the page asks for its polled part with the signed version. Unchanged, that poll is
answered 204 by `UnchangedPollMiddleware` before sessions, accounts and the view are touched;
changed, it gets the polled part as it now is.

After a save every other phone at the table asks for the same new version: the part is built once
for each version and each kind of visitor it differs for (`built_once`), kept in Django's cache,
and given to the save's own answer and to every poll after it. Nothing in it is made per render
or per visitor: no CSRF token (it is in the page's header) and no idempotency key (the phone
makes one when the part arrives).
"""

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import AuditEntry, Membership, Night
from scorekeeper.push import tokens
from scorekeeper.push.app import PREFIX

logger = logging.getLogger(__name__)

# A built part is kept this long: a table's phones all ask for a version within a poll or two of
# the save that made it, and a newer version is a new key (Redis and the per-process cache both
# drop what expired, and the per-process cache its oldest when full).
KEPT_SECONDS = 10 * 60


def version(night_id: int) -> int:
    """The newest audit entry of the night: one index look-up (audit_night_latest)."""
    latest = AuditEntry.objects.filter(night_id=night_id).order_by("-id")
    return latest.values_list("id", flat=True).first() or 0


def _signer(path: str) -> signing.Signer:
    return signing.Signer(salt=f"scorekeeper.poll:{path}")


def signed_version(path: str, night_id: int, current: int) -> str:
    """The version a page at `path` shows, as its poll will send it back."""
    return _signer(path).sign(f"{night_id}.{current}")


def unchanged(request: HttpRequest) -> bool:
    """Whether this is a poll of a page whose night has not changed since it was rendered.

    The signature proves the version was given out for this very address to a visitor who could
    read it then; it says nothing more, so anything else goes through the view's checks."""
    token = request.GET.get("v")
    if not token or request.method != "GET" or "HX-Request" not in request.headers:
        return False
    try:
        night_id, seen = _signer(request.path).unsign(token).split(".")
    except (signing.BadSignature, ValueError):
        return False
    return int(seen) == version(int(night_id))


class UnchangedPollMiddleware:
    """Answer the poll of an unchanged table with an empty 204 (htmx swaps nothing), before
    the night, the account, the memberships and the view cost anything: 10,000 open tables
    of 4 phones make 20,000 polls a second (docs/performance.md)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if unchanged(request):
            response = HttpResponse(status=204)
            response["Cache-Control"] = "no-store"
            return response
        return self.get_response(request)


def polled(
    request: HtmxHttpRequest,
    night: Night,
    *,
    template: str,
    part: str,
    context: Callable[[], dict[str, Any]],
    varies: tuple[object, ...] = (),
) -> HttpResponse:
    """Render the page, or for a poll of `part` (its night changed) that part, built once."""
    if request.htmx and request.htmx.target == part:
        return built_once(request, night, f"{template}#{part}", context, varies)
    return render(request, template, {**context(), **page_version(request, night)})


@dataclass(frozen=True)
class Kind:
    """Another kind of visitor a part is built for while its read is at hand: a membership that
    stands for them (only what it may do is read), what else the part differs by for them, and
    what of the context differs (their undo offer)."""

    membership: Membership
    varies: tuple[object, ...]
    context: dict[str, Any]


def _key(template: str, night: Night, current: int, who: Membership | None, varies: tuple) -> str:
    role = (who.may_play, who.may_host) if who is not None else None
    key = ":".join(map(str, ("region", template, night.pk, current, get_language(), role, *varies)))
    return key.replace(" ", "")  # a key any cache backend takes


def built_once(
    request: HtmxHttpRequest,
    night: Night,
    template: str,
    context: Callable[[], dict[str, Any]],
    varies: tuple[object, ...] = (),
    *,
    also: tuple[Kind, ...] = (),
) -> HttpResponse:
    """The polled part of the night as this visitor sees it now, from the cache if another
    phone's request built this version already, else built and kept, with the part for each
    kind of visitor in `also` rendered from the same read: after a save the table's other
    phones ask for theirs within a poll.

    It differs by the version, the language, what the visitor may do (play, host) and `varies`
    (the undo offer, which its saver and a host see for a minute; a page number): not by the
    player the phone is, since the one form that names them (a cost's payer) stays on the
    phone as it is (hx-preserve)."""
    current = version(night.pk)
    key = _key(template, night, current, request.membership, varies)
    html = _kept(key)
    if html is None:
        page = {**context(), **page_version(request, night, current), "built_once": True}
        html = render_to_string(template, page, request)
        built = {key: html}
        for kind in also:
            their = _key(template, night, current, kind.membership, kind.varies)
            if their not in built:
                their_page = {**page, **kind.context, "membership": kind.membership}
                built[their] = render_to_string(template, their_page, request)
        _keep(built)
    return HttpResponse(html)


# The cache only saves work: when it cannot be reached (Redis restarting, say), the part is built
# for this request as if nobody had built it, and the table goes on, with a warning in the log.
def _kept(key: str) -> str | None:
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 (whatever the backend's client raises)
        logger.warning("the cache cannot be reached: the table's region is built afresh")
        return None


def _keep(built: Mapping[str, str]) -> None:
    try:
        cache.set_many(dict(built), KEPT_SECONDS)
    except Exception:  # noqa: BLE001 (as above)
        logger.warning("the cache cannot be reached: the table's region is not kept")


def page_version(
    request: HtmxHttpRequest, night: Night, current: int | None = None
) -> dict[str, Any]:
    """The context a polled page needs: the visitor's membership, the version it shows (signed
    for the table's address: the page may answer a write at another, views.table.table_now),
    and the night's stream with its pass (the visitor was admitted to the night)."""
    path = reverse("table", kwargs={"night_id": night.pk})
    current = version(night.pk) if current is None else current
    holder = tokens.Holder(night.group_id, request.membership.pk)
    return {
        "membership": request.membership,
        "version": signed_version(path, night.pk, current),
        "shown": current,
        "push": f"{PREFIX}{night.pk}/?t={tokens.token_for(night.pk, holder)}",
        "push_port": settings.PUSH_PORT or "",
        "poll_every": f"{settings.LIVE_POLL_SECONDS}s",
    }
