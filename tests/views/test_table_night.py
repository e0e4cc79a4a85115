"""The table night: the whole table live on every phone, buttons by role, mistakes
taken back, and back after a save showing the saved game."""

import html
import re

from django.test import Client

from scorekeeper.models import Game, Membership, Night
from scorekeeper.services import games
from tests.views.conftest import HTMX, finish_data, member

LIVE = {**HTMX, "HTTP_HX_TARGET": "live"}


def poll_of(client: Client, night: Night) -> str:
    """The address the table page polls, with the version it was given."""
    page = client.get(f"/s/{night.pk}/").content.decode()
    return html.unescape(re.search(r'id="live" hx-get="([^"]+)"', page)[1])  # type: ignore[index]


def phone(table: Night, role: str) -> Client:
    """Another phone at the table, in English."""
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(other, table.group, role)
    return other


def test_a_save_on_one_phone_brings_the_start_panel_and_dealer_to_the_others_poll(en, in_play):
    poll = poll_of(en, in_play.night)
    assert en.get(poll, **LIVE).status_code == 204
    games.game_finish(game=in_play, outcome={"knock": {"player": "Bee", "kind": "normal"},
                                             "points": {"Ann": 1, "Cat": 2, "Dan": 3}})  # fmt: skip
    swap = en.get(poll, **LIVE).content.decode()
    assert "<html" not in swap and swap.lstrip().startswith('<div id="live"')
    assert 'class="start card"' in swap  # the start panel is part of what the poll refreshes
    assert "Start the next game · Bee deals" in swap


def test_a_version_signed_for_another_table_is_not_taken_for_this_one(en, table):
    poll = poll_of(en, table)
    token = poll.split("?v=")[1]
    answer = en.get(f"/s/{table.pk + 1000}/?v={token}", **LIVE)
    assert answer.status_code == 404  # not answered 204: the view looked, and found nothing


def test_a_viewer_sees_the_table_but_no_button_to_change_it(table, in_play):
    viewer = phone(table, Membership.Role.VIEWER)
    body = viewer.get(f"/s/{table.pk}/").content.decode()
    assert "Scoreboard" in body
    for address in ("/finish", "/events/head", "/void", "/seats"):
        assert address not in body


def test_a_player_gets_the_game_buttons_but_not_the_hosts(table, in_play):
    player = phone(table, Membership.Role.PLAYER)
    body = player.get(f"/s/{table.pk}/").content.decode()
    assert f"/games/{in_play.pk}/finish" in body and f"/games/{in_play.pk}/events/head" in body
    assert "/void" not in body and f"/s/{table.pk}/seats" not in body


def test_the_host_gets_every_button(en, in_play):
    body = en.get(f"/s/{in_play.night_id}/").content.decode()
    assert f"/games/{in_play.pk}/void" in body and f"/s/{in_play.night_id}/seats" in body


def test_a_wrong_event_is_taken_back_and_a_second_tap_is_told_it_is_gone(en, in_play):
    games.event_add(game=in_play, event={"type": "head", "player": "Bee"})
    address = f"/s/{in_play.night_id}/games/{in_play.pk}/events/1/remove"
    assert address in en.get(f"/s/{in_play.night_id}/").content.decode()
    assert en.post(address).status_code == 302
    body = en.get(f"/s/{in_play.night_id}/").content.decode()
    assert address not in body  # no longer listed: its lines are reversed
    again = en.post(address)
    assert again.status_code == 409
    assert "already taken back" in again.content.decode()


def test_the_saver_gets_an_undo_that_reopens_the_form_as_it_was_saved(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data(knocker="Cat",
            points_0="7", points_2=""))  # fmt: skip
    undo = f"/s/{night.pk}/games/{in_play.pk}/undo"
    assert undo in en.get(f"/s/{night.pk}/").content.decode()
    answer = en.post(undo)
    assert answer.status_code == 302
    assert answer["Location"] == f"/s/{night.pk}/games/{in_play.pk}/finish"
    form = en.get(answer["Location"]).content.decode()
    assert re.search(r'name="knocker" value="Cat"[^>]*checked', form)
    assert re.search(r'name="points_0" value="7"', form)


def test_another_player_gets_no_undo_and_is_refused_one(table, in_play):
    saver = phone(table, Membership.Role.PLAYER)
    other = phone(table, Membership.Role.PLAYER)
    saver.post(f"/s/{table.pk}/games/{in_play.pk}/finish", finish_data())
    undo = f"/s/{table.pk}/games/{in_play.pk}/undo"
    assert undo in saver.get(f"/s/{table.pk}/").content.decode()
    assert undo not in other.get(f"/s/{table.pk}/").content.decode()
    refused = other.post(undo)
    assert refused.status_code == 409
    assert "or a host, can take it back" in refused.content.decode()
    assert Game.objects.get(pk=in_play.pk).status == Game.Status.SETTLED


def test_back_to_the_end_of_game_form_after_a_save_shows_the_saved_game(en, in_play):
    finish = f"/s/{in_play.night_id}/games/{in_play.pk}/finish"
    en.post(finish, finish_data())
    back = en.get(finish)
    assert back.status_code == 302
    assert back["Location"] == f"/s/{in_play.night_id}/games/{in_play.pk}/"
