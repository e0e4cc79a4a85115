"""The table's region is built once for each version and kind of visitor (views/live.py): after a
save, the saver's answer and the other phones' polls of that version come from one build, kept
in Django's cache (in the process, or in Redis when REDIS_URL is set). What it differs by (the
version, the language, what the visitor may do, the undo offer) is never given to another, and
nothing in it was made for one visitor: no CSRF token, no idempotency key."""

import os
import re
import uuid
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from scorekeeper.models import Game, Group, Membership, Night
from scorekeeper.reads.money import Close
from scorekeeper.services import games, group_rules
from scorekeeper.services.group_rules import Usual
from tests.views.conftest import HTMX, finish_data, member

LIVE = {**HTMX, "HTTP_HX_TARGET": "live"}
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")  # `make test` starts it
BACKENDS = {
    "in the process": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "Redis": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL},
}


@pytest.fixture(params=list(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test once with the cache of one process and once with Redis, a prefix of its own."""
    conf = {**BACKENDS[request.param], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    with override_settings(CACHES={"default": conf}):
        if request.param == "Redis":
            try:
                cache.set("ping", 1, 5)
            except Exception as error:  # noqa: BLE001 (say what to do, whatever the client raised)
                pytest.fail(f"no Redis at {REDIS_URL} ({error}): `make test` starts it")
        yield request.param


def phone(table: Night, role: str) -> Client:
    """Another phone that joined the table's group with `role`."""
    client = Client()
    member(client, table.group, role)
    return client


def polled(client: Client, table: Night, **headers: str) -> tuple[str, int]:
    """A poll of a changed table (a version this phone never saw): the region and the
    statements it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/s/{table.pk}/?v=0", **{**LIVE, **headers})
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def keys(body: str) -> list[str]:
    return re.findall(r'name="idempotency_key" value="([^"]*)"', body)


def test_the_players_polls_after_a_save_get_the_build_made_with_it_byte_for_byte(
    backend: str, client: Client, table: Night
):
    players = [phone(table, Membership.Role.PLAYER) for _ in range(3)]
    game = games.game_start(night=table)
    url = f"/s/{table.pk}/games/{game.pk}/events/head"
    saved = client.post(url, {"player": "Bee"}, **LIVE)  # paid at once: two forms for it
    assert saved.status_code == 200  # the host's region, and the players' from the same read
    polls = [polled(p, table) for p in players]
    first = polls[0][0]
    assert f"/s/{table.pk}/games/{game.pk}/paid" in first  # the event, and its forms
    assert {body for body, _ in polls} == {first}
    # What a player's phone would have built itself, in a cache of its own: the same bytes, for
    # 4 statements more (the build's reads) than each of the polls took.
    conf = {**BACKENDS[backend], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    with override_settings(CACHES={"default": conf}):
        fresh, built = polled(players[0], table)
    assert fresh == first
    assert all(statements <= built - 4 for _, statements in polls)
    # Nothing in it made for one phone: the token is in the page's header, the keys are made on
    # the phone (static/js/queue.js), so each form's key field is there, and empty.
    assert "csrfmiddlewaretoken" not in first
    assert keys(first) and set(keys(first)) == {""}


def test_a_full_page_still_carries_its_token_and_a_key_for_each_form(
    backend: str, client: Client, table: Night
):
    games.game_finish(game=games.game_start(night=table), outcome=finish_outcome())
    page = client.get(f"/s/{table.pk}/").content.decode()  # the start, the undo: two forms
    assert page.count('name="csrfmiddlewaretoken"') >= 2
    made = keys(page)
    assert len(made) >= 2 and all(made) and len(set(made)) == len(made)


def test_a_tap_sent_from_a_region_built_once_passes_the_csrf_check_with_the_pages_header(
    backend: str, table: Night
):
    host = Client(enforce_csrf_checks=True)
    member(host, table.group, Membership.Role.HOST)
    page = host.get(f"/s/{table.pk}/").content.decode()
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page)
    assert token, "the page sets the CSRF header once, on its body"
    region, _ = polled(host, table)
    assert "csrfmiddlewaretoken" not in region
    data = {"fool_swap": "on", "idempotency_key": uuid.uuid4().hex}
    refused = host.post(f"/s/{table.pk}/games/start", data, **LIVE)
    assert refused.status_code == 403  # no token, no write
    assert not table.games.exists()
    sent = host.post(f"/s/{table.pk}/games/start", data, HTTP_X_CSRFTOKEN=token[1], **LIVE)
    assert sent.status_code == 200
    again = host.post(f"/s/{table.pk}/games/start", data, HTTP_X_CSRFTOKEN=token[1], **LIVE)
    assert again.status_code == 200 and table.games.count() == 1  # the phone's key: once


def test_what_a_host_a_player_a_viewer_or_another_language_sees_goes_to_no_one_else(
    backend: str, client: Client, table: Night
):
    player = phone(table, Membership.Role.PLAYER)
    viewer = phone(table, Membership.Role.VIEWER)
    game = games.game_start(night=table)
    void = f"/s/{table.pk}/games/{game.pk}/void"
    host_sees, _ = polled(client, table)  # built first, for a host
    assert void in host_sees
    player_sees, _ = polled(player, table)
    assert void not in player_sees and f"/games/{game.pk}/finish" in player_sees
    viewer_sees, _ = polled(viewer, table)
    assert f"/games/{game.pk}/finish" not in viewer_sees
    english, _ = polled(player, table, HTTP_ACCEPT_LANGUAGE="en")
    assert "Scoreboard" in english and "Scoreboard" not in player_sees


def test_the_undo_offer_goes_to_its_saver_and_the_host_only(
    backend: str, client: Client, table: Night
):
    saver = phone(table, Membership.Role.PLAYER)
    other = phone(table, Membership.Role.PLAYER)
    game = games.game_start(night=table)
    saved = saver.post(f"/s/{table.pk}/games/{game.pk}/finish", finish_data(), **LIVE)
    assert saved.status_code == 200
    undo = f"/s/{table.pk}/games/{game.pk}/undo"
    assert undo in saved.content.decode()
    other_sees, _ = polled(other, table)  # the same version, built for a player who did not save
    assert undo not in other_sees
    host_sees, _ = polled(client, table)
    assert undo in host_sees
    saver_sees, _ = polled(saver, table)
    assert undo in saver_sees
    assert Game.objects.get(pk=game.pk).status == Game.Status.SETTLED


def test_a_write_makes_a_new_version_and_the_polls_get_the_table_as_it_now_is(
    backend: str, client: Client, table: Night
):
    player = phone(table, Membership.Role.PLAYER)
    before, _ = polled(player, table)
    assert not re.search(r"/games/\d+/finish", before)
    game = games.game_start(night=table)  # another phone's write: a new audit entry
    after, _ = polled(player, table)
    assert f"/games/{game.pk}/finish" in after


def finish_outcome() -> dict[str, object]:
    """Ann knocks; Bee 10, Cat 20, Dan 30 (as tests/views/conftest.finish_data)."""
    return {
        "knock": {"player": "Ann", "kind": "normal"},
        "points": {"Bee": 10, "Cat": 20, "Dan": 30},
    }


def test_a_change_to_the_groups_rules_is_never_hidden_behind_a_region_built_before_it(
    backend: str, client: Client, table: Night
):
    """The group's usual close is the group's, not the night's: setting it moves no version, and
    the running settle-up that assumes it is built again."""
    player = phone(table, Membership.Role.PLAYER)
    games.game_finish(game=games.game_start(night=table), outcome=finish_outcome())
    before, _ = polled(player, table, HTTP_ACCEPT_LANGUAGE="en")
    assert "no table fee" in before
    host = Membership.objects.get(group=table.group, role=Membership.Role.HOST)
    usual = Usual(close=Close(fee=Decimal(20)))
    group_rules.group_rules_set(group=Group.objects.get(pk=table.group_id), usual=usual, actor=host)
    after, _ = polled(player, table, HTTP_ACCEPT_LANGUAGE="en")
    assert "table fee 20 ฿ a game" in after


def test_a_cache_that_cannot_be_reached_costs_a_build_not_the_table(
    client: Client, table: Night, caplog: pytest.LogCaptureFixture
):
    """The cache only saves work: with Redis down, a poll and a tap are answered all the same."""
    gone = {"BACKEND": BACKENDS["Redis"]["BACKEND"], "LOCATION": "redis://127.0.0.1:1/0"}
    with override_settings(CACHES={"default": gone}):
        body, _ = polled(client, table)
        assert 'id="live"' in body
        started = client.post(f"/s/{table.pk}/games/start", {"fool_swap": "on"}, **LIVE)
        assert started.status_code == 200
        assert f"/games/{table.games.get().pk}/finish" in started.content.decode()
    assert "the cache cannot be reached" in caplog.text
