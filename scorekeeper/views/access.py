"""Fetch what a request names, for this visitor, before anything else happens.

A visitor is a device (bound to the Django session when it joins a group) and, if signed in, an
account. Not a member of the group: 404, as if it did not exist. A member without the role the
view needs: 403.
"""

import contextlib
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Device, Game, Group, Membership, Night, Player, Transfer
from scorekeeper.services import access

VIEWER, PLAYER, HOST = Membership.Role.VIEWER, Membership.Role.PLAYER, Membership.Role.HOST
NEEDS: dict[str, Callable[[], str]] = {  # why a member is refused, by the role it needs
    PLAYER: lambda: _("Viewers only look: entering games and nights is for the group's players."),
    HOST: lambda: _("Only a host of the group can do that."),
}
DEVICE_KEY = "device"


def client_address(request: HtmxHttpRequest) -> str:
    """The phone's address, for rate limits: behind `TRUSTED_PROXIES` proxies, the one the
    outermost of them saw (X-Forwarded-For, read from the right: what a client writes there
    itself stands further left and is not believed); without a proxy, the connection's."""
    address = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.headers.get("X-Forwarded-For", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if forwarded:
            candidate = forwarded[-min(proxies, len(forwarded))]
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(candidate))
    return address


def visitor_device(request: HtmxHttpRequest) -> Device | None:
    pk = request.session.get(DEVICE_KEY)
    return Device.objects.filter(pk=pk).first() if pk else None


def device_bind(request: HtmxHttpRequest) -> Device:
    """Return this browser's device, registering it (under a fresh session key) the first time."""
    device = visitor_device(request)
    if device is None:
        device = access.device_create(user_agent=request.headers.get("User-Agent", ""))
        request.session.cycle_key()  # a new identity gets a new session key
        request.session[DEVICE_KEY] = device.pk
    return device


def visitor_memberships(request: HtmxHttpRequest) -> "list[Membership]":
    return list(
        # The device's id, as the night holds it: no need to fetch the device itself.
        Membership.objects.for_visitor(request.session.get(DEVICE_KEY), request.user)
        .filter(revoked_at__isnull=True)
        .select_related("group")
    )


def _visitor(request: HtmxHttpRequest) -> tuple[int | None, int | None]:
    """The ids of this visitor's device (as the night holds it) and signed-in account."""
    user = request.user
    return request.session.get(DEVICE_KEY), user.pk if user.is_authenticated else None


def membership_in(request: HtmxHttpRequest, group: Group) -> Membership | None:
    """Return the visitor's strongest membership of `group`: of this device, or of the
    signed-in account on any device."""
    return _strongest(Membership.objects.live_in(group, *_visitor(request)))


def _strongest(mine: list[Membership]) -> Membership | None:
    return max(mine, key=lambda m: Membership.RANK[Membership.Role(m.role)], default=None)


def _admit(request: HtmxHttpRequest, membership: Membership | None, role: str) -> Membership:
    if membership is None:
        raise Http404("no such group")
    if not membership.can(role):
        raise PermissionDenied(NEEDS.get(role, NEEDS[HOST])())
    request.membership = membership
    return membership


def group_for(request: HtmxHttpRequest, group_id: int, role: str = VIEWER) -> Group:
    group = get_object_or_404(Group, pk=group_id)
    _admit(request, membership_in(request, group), role)
    return group


def player_for(
    request: HtmxHttpRequest, group_id: int, player_id: int, role: str = VIEWER
) -> Player:
    """Admit the visitor to a player of a group: one read for the player and the group."""
    players = Player.objects.select_related("group")
    player = get_object_or_404(players, pk=player_id, group_id=group_id)
    _admit(request, membership_in(request, player.group), role)
    return player


def night_for(
    request: HtmxHttpRequest, night_id: int, role: str = VIEWER, *, scoresheet: bool | None = None
) -> Night:
    """Admit the visitor to a night; `scoresheet` names the kind of sheet the view is for.

    One read for the night, its group and the visitor's memberships of it. A Knock Dummy
    address asked for a score-sheet night (or the other way round) does not exist.
    """
    night, mine = Night.objects.admitting(night_id, *_visitor(request))
    if night is None:
        raise Http404("no such night")
    _admit(request, _strongest(mine), role)
    if scoresheet is not None and night.is_scoresheet != scoresheet:
        raise Http404("not this kind of game")
    return night


def game_for(
    request: HtmxHttpRequest,
    night_id: int,
    game_id: int,
    role: str = VIEWER,
    *,
    scoresheet: bool | None = None,
) -> Game:
    """Admit the visitor to a game of a night: one read for the game, its night and group,
    and the visitor's memberships of the group."""
    game, mine = Game.objects.admitting(game_id, night_id, *_visitor(request))
    if game is None:
        raise Http404("no such game")
    _admit(request, _strongest(mine), role)
    if scoresheet is not None and game.night.is_scoresheet != scoresheet:
        raise Http404("not this kind of game")
    return game


def transfer_for(
    request: HtmxHttpRequest,
    night_id: int,
    transfer_id: int,
    role: str = VIEWER,
    *,
    scoresheet: bool | None = None,
) -> Transfer:
    """Admit the visitor to a transfer of a night: one read for it, its night and group."""
    transfers = Transfer.objects.select_related("night__group", "payer", "payee")
    transfer = get_object_or_404(transfers, pk=transfer_id, night_id=night_id)
    _admit(request, membership_in(request, transfer.night.group), role)
    if scoresheet is not None and transfer.night.is_scoresheet != scoresheet:
        raise Http404("not this kind of game")
    return transfer


def csrf_failure(request: HtmxHttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its CSRF token, told in the visitor's language (CSRF_FAILURE_VIEW):
    Django's reason is English for developers, so it only picks which sentence to show."""
    context = {"no_cookie": reason == REASON_NO_CSRF_COOKIE}
    return HttpResponseForbidden(render_to_string("403_csrf.html", context, request))
