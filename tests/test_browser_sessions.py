"""The phone's Django session, read as SQL: it loads what Django's own store saved, and an
unknown or expired key loads as a new, empty session (scorekeeper/browser_sessions.py)."""

from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from scorekeeper.browser_sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_app_keeps_its_sessions_in_this_store() -> None:
    assert import_module(settings.SESSION_ENGINE).SessionStore is SessionStore


def test_a_session_saved_by_django_loads_its_data() -> None:
    saved = DjangoStore()
    saved.update({"device": 7, "name": "แอน"})
    saved.save()
    loaded = SessionStore(saved.session_key)
    assert loaded.load() == {"device": 7, "name": "แอน"}
    assert loaded.session_key == saved.session_key


def test_an_expired_session_loads_empty_and_saves_under_a_new_key() -> None:
    saved = SessionStore()
    saved["device"] = 7
    saved.save()
    Session.objects.filter(pk=saved.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    again = SessionStore(saved.session_key)
    assert again.load() == {}
    assert again.session_key is None
    again["device"] = 8
    again.save()
    assert again.session_key != saved.session_key
    assert SessionStore(saved.session_key).load() == {}  # the expired row gives nothing back


def test_an_unknown_key_loads_empty() -> None:
    store = SessionStore("k" * 32)
    assert store.load() == {}
    assert store.session_key is None
