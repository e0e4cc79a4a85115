"""Sharing a night: its summary with a share button, its PNG card, and a
read-only share link whose Open Graph tags a chat app's preview fetcher reads without cookies."""

from typing import Any
from urllib.parse import quote

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.card import NightCard, card_key, card_png
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Night, ShareLink
from scorekeeper.reads.share import games_text, night_card, night_summary
from scorekeeper.services import group_rules, sharing
from scorekeeper.templatetags.score import date_text, signed_baht
from scorekeeper.views.access import HOST, membership_in, night_for

LINE_SHARE = "https://line.me/R/share?text="


def _png(request: HtmxHttpRequest, card: NightCard, *, public: bool) -> HttpResponse:
    """The card as PNG, named by its content: an unchanged card is answered 304."""
    tag = f'"{card_key(card)}"'
    if request.headers.get("If-None-Match") == tag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(card_png(card), content_type="image/png")
    response["ETag"] = tag
    # A chat's preview fetcher may keep a public card a while; a member's follows the night.
    response["Cache-Control"] = "public, max-age=300" if public else "private, no-cache"
    return response


def _open_graph(request: HtmxHttpRequest, context: dict[str, Any], link: ShareLink) -> dict:
    night: Night = context["night"]
    url = request.build_absolute_uri(reverse("shared", args=[link.token]))
    nets = ", ".join(f"{line.name} {signed_baht(line.total)} ฿" for line in context["sums"])
    return {
        "og_url": url,
        "og_title": _("%(group)s · %(date)s")
        % {
            "group": night.group.name,
            "date": date_text(night.started_at),
        },  # fmt: skip
        "og_description": " · ".join(
            text for text in (games_text(context["games"]), nets, context["sums_assumed"]) if text
        ),
        "og_image": request.build_absolute_uri(reverse("shared-card", args=[link.token])),
    }


@require_GET
def summary(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """A clean page of the night, with a button to share it with the group's chat."""
    night = night_for(request, night_id, scoresheet=False)
    context = night_summary(night, group_rules.usual_of(night.group).close)
    if request.membership.may_play:  # a viewer reads; sharing makes a link, which a player may
        link = sharing.share_link_for(night=night, actor=request.membership)
        context.update(_open_graph(request, context, link))
        context["line_url"] = LINE_SHARE + quote(f"{context['share']}\n{context['og_url']}")
        context["card_url"] = reverse("summary-card", args=[night.pk])
        context["link"] = link
    return render(request, "table/summary.html", context)


@require_GET
def card(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The night's card, for a member's phone to share as a picture."""
    night = night_for(request, night_id, scoresheet=False)
    usual = group_rules.usual_of(night.group).close
    return _png(request, night_card(night_summary(night, usual)), public=False)


def _live(token: str) -> ShareLink:
    link = get_object_or_404(ShareLink.objects.select_related("night__group"), token=token)
    if link.revoked_at is not None or link.night.is_scoresheet:
        raise Http404("this link was revoked")
    return link


@require_GET
def shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The night read-only, for whoever holds the link: no account, no cookies needed."""
    link = _live(token)
    context = night_summary(link.night, group_rules.usual_of(link.night.group).close)
    context.update(_open_graph(request, context, link))
    context["shared"] = True
    if membership_in(request, link.night.group) is not None:  # a member: the night in full
        context["member_url"] = reverse("history", args=[link.night_id])
    return render(request, "table/summary.html", context)


@require_GET
def shared_card(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The card of a shared night, for a chat's preview."""
    night = _live(token).night
    usual = group_rules.usual_of(night.group).close
    return _png(request, night_card(night_summary(night, usual)), public=True)


@require_POST
def revoke(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The host revokes the night's share link; the next share makes another."""
    night = night_for(request, night_id, HOST, scoresheet=False)
    for link in night.share_links.filter(revoked_at__isnull=True):
        sharing.share_link_revoke(link=link, actor=request.membership)
    return redirect("summary", night_id=night.pk)
