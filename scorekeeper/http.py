"""Typed request classes, so views can rely on django-htmx's `request.htmx`."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from scorekeeper.models import Membership


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
    membership: Membership  # set by views.access once the visitor is admitted
