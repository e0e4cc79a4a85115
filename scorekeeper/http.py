"""Typed request classes, so views can rely on django-htmx's `request.htmx`."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
