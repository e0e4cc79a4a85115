"""Joining a group by link or short code, the host's members page, and the audit log."""

import contextlib
import re
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.converters import Id
from scorekeeper.error_text import error_text
from scorekeeper.forms.members import InviteForm, JoinForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Invite, Membership, Night, Player
from scorekeeper.qr import qr_svg
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access, payments
from scorekeeper.views.access import HOST, client_address, device_bind, group_for

AUDIT_PAGE = 50  # entries on a page of the audit log


@dataclass(frozen=True, slots=True)
class OpenInvite:
    """An invite still open, with its join link and that link's QR code for a phone to scan."""

    invite: Invite
    url: str
    qr: SafeString


def _open_invite(request: HtmxHttpRequest, invite: Invite) -> OpenInvite:
    url = request.build_absolute_uri(reverse("join-link", args=[invite.token]))
    return OpenInvite(invite, url, qr_svg(url))


def _joined(request: HtmxHttpRequest, membership: Membership) -> HttpResponse:
    """Take a phone that just joined to the night being played (the latest open one), where
    the table is; to the group's page when no night is open."""
    request.session.cycle_key()  # joining changes who this browser is: rotate the session key
    playing = Night.objects.open().filter(group_id=membership.group_id).order_by("-started_at")
    night = playing.values_list("pk", flat=True).first()
    if night is not None:
        return redirect("table", night_id=night)
    return redirect("group", group_id=membership.group_id)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest) -> HttpResponse:
    """Join a group with the short code read out at the table."""
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            access.code_attempt(address=client_address(request))
            membership = access.invite_join(
                device=device_bind(request),
                user=request.user,
                code=form.cleaned_data["code"],
                name=form.cleaned_data["name"],
            )
        except RuleError as e:
            form.add_error("code", error_text(e))
        else:
            return _joined(request, membership)
    return render(request, "members/join.html", {"form": form}, status=422 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def join_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Join a group from an invite link: the page names the group, a tap joins."""
    invite = get_object_or_404(Invite.objects.select_related("group"), token=token)
    form = JoinForm(request.POST or None, with_code=False)
    if request.method == "POST" and invite.is_live and form.is_valid():
        try:
            membership = access.invite_join(
                device=device_bind(request),
                user=request.user,
                token=token,
                name=form.cleaned_data["name"],
            )
        except RuleError as e:  # used by another phone, withdrawn or expired meanwhile; removed
            form.add_error(None, error_text(e))
            invite.refresh_from_db()
            return render(
                request, "members/join_link.html", {"invite": invite, "form": form}, status=409
            )
        return _joined(request, membership)
    return render(request, "members/join_link.html", {"invite": invite, "form": form})


@require_http_methods(["GET", "POST"])
def members(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The host's page: who has joined, and invites for players and viewers."""
    group = group_for(request, group_id, HOST)
    form = InviteForm(request.POST or None)
    invite = None
    if request.method == "POST" and form.is_valid():
        invite = access.invite_create(
            group=group,
            role=form.cleaned_data["role"],
            by=request.membership,
            life=timedelta(hours=form.cleaned_data["life"] or 24),
            single_use=form.cleaned_data["single_use"],
        )
    made = _open_invite(request, invite) if invite else None
    context = {
        "group": group,
        "form": form,
        "invite": invite,
        "invite_url": made.url if made else "",
        "invite_qr": made.qr if made else "",
        "members": group.memberships.filter(revoked_at__isnull=True)
        .select_related("player")
        .order_by("joined_at"),
        "players": group.players.order_by("name"),  # which member each is, the host may change
        "invites": [
            _open_invite(request, i)
            for i in group.invites.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
            .select_related("created_by")
            .order_by("-created_at")[:20]
            if i.is_live
        ],
    }
    return render(request, "members/members.html", context)


@require_POST
def member_remove(request: HtmxHttpRequest, group_id: int, membership_id: int) -> HttpResponse:
    group = group_for(request, group_id, HOST)
    membership = get_object_or_404(Membership, pk=membership_id, group=group)
    with contextlib.suppress(RuleError):  # the last host stays; the page shows the list as is
        access.membership_revoke(membership=membership, by=request.membership)
    return redirect("members", group_id=group.pk)


@require_POST
def claim_reassign(request: HtmxHttpRequest, group_id: int, membership_id: int) -> HttpResponse:
    """A host says which player a member is (or none), moving the claim from whoever held it:
    audited, and the player's PromptPay number cleared for its new member to save."""
    group = group_for(request, group_id, HOST)
    to = get_object_or_404(Membership, pk=membership_id, group=group, revoked_at__isnull=True)
    asked = request.POST.get("player", "")
    step: tuple[Player, Membership | None] | None
    if asked:  # an id as the addresses take one (converters.Id): a longer number finds nobody
        known = re.fullmatch(Id.regex, asked) is not None
        player = get_object_or_404(Player, pk=int(asked) if known else 0, group=group)
        step = (player, to)
    else:  # nobody: the player this member was is nobody's now
        step = (to.player, None) if to.player is not None else None
    if step is not None:
        try:
            payments.claim_reassign(player=step[0], to=step[1], by=request.membership)
        except RuleError as e:
            messages.warning(request, error_text(e))
    return redirect("members", group_id=group.pk)


@require_POST
def invite_revoke(request: HtmxHttpRequest, group_id: int, invite_id: int) -> HttpResponse:
    group = group_for(request, group_id, HOST)
    invite = get_object_or_404(Invite, pk=invite_id, group=group)
    access.invite_revoke(invite=invite, by=request.membership)
    return redirect("members", group_id=group.pk)


@require_POST
def owner_hand_over(request: HtmxHttpRequest, group_id: int, membership_id: int) -> HttpResponse:
    group = group_for(request, group_id, HOST)
    to = get_object_or_404(Membership, pk=membership_id, group=group)
    try:
        access.owner_hand_over(group=group, to=to, by=request.membership)
    except RuleError as e:
        raise PermissionDenied(error_text(e)) from e
    return redirect("members", group_id=group.pk)


@require_GET
def audit(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Who recorded, voided or changed what, and when."""
    group = group_for(request, group_id)
    entries = group.audit.select_related("membership", "night", "game")
    # A long night writes thousands of entries: read them a page at a time, newest first. A page
    # that is not a number is the first, one past the last is the last.
    page = Paginator(entries, AUDIT_PAGE).get_page(request.GET.get("page"))
    return render(request, "members/audit.html", {"group": group, "page": page})
