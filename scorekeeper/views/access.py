"""Fetch what a request names, for this user, before anything else happens; 404 otherwise."""

from django.shortcuts import get_object_or_404

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Game, Group, Session, Transfer


def group_for(request: HtmxHttpRequest, group_id: int) -> Group:
    return get_object_or_404(Group, pk=group_id)


def session_for(request: HtmxHttpRequest, session_id: int) -> Session:
    return get_object_or_404(Session.objects.select_related("group"), pk=session_id)


def game_for(request: HtmxHttpRequest, session_id: int, game_id: int) -> Game:
    session = session_for(request, session_id)
    return get_object_or_404(
        Game.objects.select_related("session__group"), pk=game_id, session=session
    )


def transfer_for(request: HtmxHttpRequest, session_id: int, transfer_id: int) -> Transfer:
    session = session_for(request, session_id)
    return get_object_or_404(Transfer, pk=transfer_id, session=session)
