"""A table's stream, served by granian beside the test: refused without the night's pass, the
version as it opens, each change within a second, a comment while quiet, caught up on
reconnecting; and the pass given only to visitors the table page admits."""

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Membership, Night
from scorekeeper.services import games
from scorekeeper.views.live import version
from tests.push.serve import Served, Stream, pass_for, push_served, stream_url
from tests.services.conftest import make_night
from tests.views.conftest import make_table, member

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def push() -> Iterator[Served]:
    with push_served() as served:
        yield served


@pytest.fixture
def night() -> Night:
    return make_night()


def test_a_stream_tells_the_version_as_it_opens_and_each_change_within_a_second(push, night):
    stream = Stream(stream_url(push, night.pk), wait=1.0)
    try:
        assert stream.next() == "retry: 3000"
        assert stream.version() == version(night.pk)
        game = games.game_start(night=night)
        assert stream.version() == version(night.pk)  # read within the second
        games.game_void(game=game)
        assert stream.version() == version(night.pk)
    finally:
        stream.close()


def test_a_stream_hears_only_its_own_night(push, night):
    other = make_night()
    stream = Stream(stream_url(push, other.pk), wait=2.0)
    try:
        shown = stream.version()
        games.game_start(night=night)
        with pytest.raises(httpx.ReadTimeout):
            stream.version()  # nothing within two seconds: another night changed
        assert version(other.pk) == shown
    finally:
        stream.close()


def test_a_quiet_stream_sends_a_comment_to_stay_open(push, night, settings):
    settings.PUSH_KEEPALIVE_SECONDS = 0.3
    stream = Stream(stream_url(push, night.pk), wait=1.0)
    try:
        stream.version()
        started = time.monotonic()
        assert stream.next() == ": keep-alive"
        assert 0.2 < time.monotonic() - started < 1.0
    finally:
        stream.close()


def test_a_stream_the_database_cannot_admit_is_refused_for_now_and_noted_as_a_server_error(night):
    """While the database is out of reach (here: no test running, as between the browser
    tests), a stream is answered 503, which a phone retries; the server notes it among its
    errors, as a browser test would be told."""
    out_of_reach = threading.Event()
    with push_served(open_=out_of_reach) as served:
        answer = httpx.get(stream_url(served, night.pk), timeout=10)
    assert answer.status_code == 503
    assert served.server_errors == [f"HTTP 503 from GET /push/{night.pk}/"]


def test_a_phone_that_reconnects_gets_the_change_it_missed_at_once(push, night):
    stream = Stream(stream_url(push, night.pk), wait=1.0)
    before = stream.version()
    stream.close()
    games.game_start(night=night)  # while the phone was away
    again = Stream(stream_url(push, night.pk), wait=1.0)
    try:
        assert again.version() == version(night.pk) > before
    finally:
        again.close()


def test_a_stream_that_goes_leaves_nothing_behind(push, night):
    stream = Stream(stream_url(push, night.pk), wait=1.0)
    stream.version()
    assert night.pk in push.app.tables.nights
    stream.close()
    deadline = time.monotonic() + 2
    while night.pk in push.app.tables.nights and time.monotonic() < deadline:
        time.sleep(0.05)
    assert night.pk not in push.app.tables.nights  # its phone gone, the night no longer heard


@pytest.mark.parametrize(
    "token",
    [
        pytest.param("", id="no pass"),
        pytest.param("other", id="another night's pass"),
        pytest.param("forged", id="a pass not signed here"),
    ],
)
def test_a_stream_without_the_nights_own_pass_is_refused(push, night, token):
    other = make_night()
    given = {
        "": "",
        "other": pass_for(other.pk),
        "forged": f"{night.pk}:1xXNlX:not-the-signature",
    }[token]
    answer = httpx.get(stream_url(push, night.pk, given), timeout=5)
    assert answer.status_code == 403
    assert "data:" not in answer.text


def test_a_pass_of_a_member_removed_since_the_page_gave_it_is_refused(push, client):
    night = make_table(client)
    page = client.get(f"/s/{night.pk}/").content.decode()
    given = next(p for p in page.split('"') if p.startswith(f"/push/{night.pk}/"))
    url = push.url + given.replace("&amp;", "&")
    stream = Stream(url, wait=1.0)
    try:
        assert stream.version() == version(night.pk)
    finally:
        stream.close()
    Membership.objects.filter(group=night.group).update(revoked_at=timezone.now())
    answer = httpx.get(url, timeout=5)
    assert answer.status_code == 403
    assert "data:" not in answer.text


def test_only_a_visitor_the_table_admits_gets_the_pass_to_its_stream(push, client):
    night = make_table(client)
    page = client.get(f"/s/{night.pk}/")
    passes = [p for p in page.content.decode().split('"') if p.startswith(f"/push/{night.pk}/")]
    assert len(passes) == 1
    stream = Stream(push.url + passes[0].replace("&amp;", "&"), wait=1.0)
    try:
        assert stream.version() == version(night.pk)
    finally:
        stream.close()
    outsider = Client()
    answer = outsider.get(f"/s/{night.pk}/")
    assert answer.status_code in (403, 404)
    assert b"/push/" not in answer.content
    member(outsider, make_night().group, "player")  # a member of another group only
    assert b"/push/" not in outsider.get(f"/s/{night.pk}/").content


def test_a_change_made_while_the_watcher_reconnects_is_told_when_it_is_back(push, night):
    """PostgreSQL: the watcher's connection is cut, a write's notification goes to nobody, and
    the look back over what was committed meanwhile tells it once the watcher listens again."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's notifications; SQLite's watcher reads data_version")
    stream = Stream(stream_url(push, night.pk), wait=5.0)
    try:
        before = stream.version()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cursor.fetchall(), "the watcher's connection"
        games.game_start(night=night)  # nobody listens for the next second
        assert stream.version() == version(night.pk) > before
    finally:
        stream.close()
