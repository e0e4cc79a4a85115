from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper.http import HtmxHttpRequest


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """Say what Scorekeeper is and what is coming."""
    return render(request, "home/index.html")
