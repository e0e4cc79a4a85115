"""Pages other phones keep up to date: a poll every few seconds, answered cheaply."""

from collections.abc import Callable
from typing import Any

from django.db.models import Max
from django.http import HttpResponse
from django.shortcuts import render

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Session


def version(session: Session) -> int:
    """Every write leaves an audit entry in its own transaction: the newest one dates the page."""
    return session.audit.aggregate(latest=Max("id"))["latest"] or 0


def polled(
    request: HtmxHttpRequest,
    session: Session,
    *,
    template: str,
    part: str,
    context: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """Render the page; a poll for `part` gets that partial, or 204 when nothing has changed."""
    current = version(session)
    if request.htmx and request.htmx.target == part:
        if request.GET.get("v") == str(current):
            return HttpResponse(status=204)  # htmx swaps nothing
        template += f"#{part}"
    extra = {"membership": request.membership, "version": current}
    return render(request, template, {**context(), **extra})
