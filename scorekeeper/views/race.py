"""Classic Dummy to 500 and Gong Zhu: the score sheet of a race to a target."""

from django.http import HttpResponse
from django.shortcuts import render

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Session


def table(request: HtmxHttpRequest, session: Session) -> HttpResponse:
    """Show the score sheet: standings after every hand, the hands, the match's end."""
    return render(request, "race/table.html", {"session": session})
