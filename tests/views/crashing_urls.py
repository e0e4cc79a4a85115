"""The app's addresses and one that fails, for the 500 page's test."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from scorekeeper.urls import urlpatterns as app


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [*app, path("crash", crash)]
