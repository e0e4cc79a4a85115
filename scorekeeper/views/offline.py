"""A game started on a phone without a connection, named by the key the phone made for its start
until it has an id.

Its pages are rendered for the key `_` and kept by the service worker, which shows them for any
key (templates/app/sw.js); what is entered on them waits on the phone and is sent in order, the
start first (static/js/queue.js). Once the start has landed, each address leads to the game itself;
an event or an end naming a start that was refused is refused too (409), naming why.
"""

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.forms.games import EventForm, FinishForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.reads.game import stand_in
from scorekeeper.reads.table import EVENT_CHOICES
from scorekeeper.services import games
from scorekeeper.views import games as game_views
from scorekeeper.views import table as table_views
from scorekeeper.views.access import PLAYER, night_for
from scorekeeper.views.table import table_now

TEMPLATE_KEY = "_"  # the key the service worker keeps these pages under


@require_GET
def game(request: HtmxHttpRequest, night_id: int, key: str) -> HttpResponse:
    """The game in play on this phone: its events and its end, to enter without a connection."""
    night = night_for(request, night_id, PLAYER, scoresheet=False)
    if games.started_with(night=night, key=key) is not None:
        return redirect("table", night_id=night.pk)  # it has landed: the table shows it
    context = {
        "night": night,
        "game": stand_in(night),
        "key": key,
        "event_types": EVENT_CHOICES,
    }
    return render(request, "games/offline.html", context)


@require_http_methods(["GET", "POST"])
def event_add(request: HtmxHttpRequest, night_id: int, key: str, event_type: str) -> HttpResponse:
    night = night_for(request, night_id, PLAYER, scoresheet=False)
    landed = games.started_with(night=night, key=key)
    if landed is not None:
        return table_views.event_add(request, night_id, landed.pk, event_type)
    if request.method == "POST":
        return table_now(request, night, refused=games.never_started(key))
    labels = dict(EVENT_CHOICES)
    if event_type not in labels:
        return redirect("offline-game", night_id=night.pk, key=key)
    game = stand_in(night)
    context = {
        "night": night,
        "game": game,
        "form": EventForm(players=game.document["players"], event_type=event_type),
        "label": labels[event_type],
        "back": reverse("offline-game", kwargs={"night_id": night.pk, "key": key}),
    }
    return render(request, "table/event.html", context)


@require_http_methods(["GET", "POST"])
def finish(request: HtmxHttpRequest, night_id: int, key: str) -> HttpResponse:
    night = night_for(request, night_id, PLAYER, scoresheet=False)
    landed = games.started_with(night=night, key=key)
    if landed is not None:
        return game_views.finish(request, night_id, landed.pk)
    if request.method == "POST":
        return table_now(request, night, refused=games.never_started(key))
    game = stand_in(night)
    context = {
        "night": night,
        "game": game,
        "form": FinishForm(players=game.document["players"]),
        "preview": {"problem": None},
        "action": request.path,
        "preview_url": None,  # nothing to settle against before the start lands
    }
    return render(request, "games/finish.html", context)
