"""Pages every phone at the table keeps up to date: a poll every 2 seconds, answered cheaply.

The page names the version it shows (the newest audit entry of its night: every write leaves
one in its own transaction), signed for the page's address. A poll sends it back. Unchanged, the
poll is answered 204 by `UnchangedPollMiddleware` before sessions, accounts and the view are
touched; changed, the view renders the polled part for this visitor as usual.
"""

from collections.abc import Callable
from typing import Any

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import AuditEntry, Night

POLL_SECONDS = 2  # every phone at the table shows another phone's save within this


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
) -> HttpResponse:
    """Render the page, or for a poll of `part` (its night changed) just that partial."""
    if request.htmx and request.htmx.target == part:
        template += f"#{part}"
    return render(request, template, {**context(), **page_version(request, night)})


def page_version(request: HtmxHttpRequest, night: Night) -> dict[str, Any]:
    """The context a polled page needs: the visitor's membership and the version it shows, for
    the table's address (the page may answer a write at another: views.table.table_now)."""
    path = reverse("table", kwargs={"night_id": night.pk})
    return {
        "membership": request.membership,
        "version": signed_version(path, night.pk, version(night.pk)),
        "poll_every": f"{POLL_SECONDS}s",
    }
