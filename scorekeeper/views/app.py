"""The installable app: web app manifest, service worker and the page shown offline."""

import hashlib

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from scorekeeper.http import HtmxHttpRequest

SHELL = (
    "css/app.css",
    # the page's scripts, one a job (templates/base.html loads them)
    "js/queue.js",
    "js/warm.js",
    "js/sign-out.js",
    "js/live.js",
    "js/end-of-game.js",
    "js/share.js",
    "js/undo.js",
    "django_htmx/htmx-2.min.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


@require_GET
def manifest(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request,
        "app/manifest.webmanifest",
        content_type="application/manifest+json",
    )


@require_GET
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    """Serve the worker from the root, so it may answer for every page of the app."""
    shell = [static(path) for path in SHELL]
    offline = reverse("offline")
    # A new deployment's hashed file names make a new version, which drops the old caches.
    version = hashlib.sha256("\n".join([*shell, offline]).encode()).hexdigest()[:12]
    response = render(
        request,
        "app/sw.js",
        # STATIC_URL, not static(""): collected files have a manifest, and "" is not in it
        {
            "shell": shell,
            "offline": offline,
            "version": version,
            "static_prefix": settings.STATIC_URL,
        },
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker on every visit
    return response


@require_GET
def offline(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "app/offline.html")
