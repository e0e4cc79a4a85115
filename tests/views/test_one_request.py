"""Each tap on the table is one request: through htmx, a tap made in the table's region is
answered with the region as it now is, swapped in place (no redirect and second request); a form
on a page of its own saves and brings the table page back in the same answer, at the table's
address; a refusal says why in Thai inside what it swaps in. Without JavaScript every form posts
and redirects as before."""

import re

import pytest
from django.test import Client

from scorekeeper.models import Game, Night
from scorekeeper.services import games
from tests.views.conftest import HTMX, finish_data

IN_PLACE = {**HTMX, "HTTP_HX_TARGET": "live"}  # a tap in the region: its button's hx-target
PAGE = {**HTMX, "HTTP_HX_TARGET": "main"}  # a page of its own: its button's hx-target


def region(response) -> str:
    """The region swapped in: #live whole, and nothing of the page around it."""
    body = response.content.decode()
    assert "<html" not in body and 'id="live"' in body, body[:300]
    assert "HX-Redirect" not in response and "HX-Location" not in response
    return body


def tapped(body: str, action: str) -> str:
    """The address the region's button for `action` posts to, as htmx will send it."""
    found = re.search(rf'hx-post="([^"]*{action})"[^>]*hx-target="#live"', body)
    assert found, f"no button in the region posts to {action}"
    return found.group(1)


def test_a_start_is_one_request_answered_with_the_region_holding_the_game_in_play(
    client: Client, table: Night
):
    page = client.get(f"/s/{table.pk}/").content.decode()
    url = tapped(page, "/games/start")
    response = client.post(url, {"fool_swap": "on", "number": "1"}, **IN_PLACE)
    assert response.status_code == 200
    body = region(response)
    game = table.games.get(status=Game.Status.IN_PLAY)
    assert f"/s/{table.pk}/games/{game.pk}/finish" in body  # the end-of-game button, at once
    # The region polls at the version the start made: the next poll is an empty 204.
    poll = re.search(r'id="live" hx-get="([^"]+)"', body)[1].replace("&amp;", "&")  # type: ignore[index]
    assert client.get(poll, **IN_PLACE).status_code == 204


def test_a_start_another_phone_made_first_is_refused_in_the_region_with_why(
    client: Client, table: Night
):
    games.game_start(night=table)  # another phone started game 1
    response = client.post(f"/s/{table.pk}/games/start", {"number": "1"}, **IN_PLACE)
    assert response.status_code == 409
    body = region(response)
    assert 'role="alert"' in body and "เกมที่ 1" in body  # why, in Thai, where the tap was
    assert table.games.count() == 1


def test_taking_an_event_back_paying_it_at_the_table_and_undoing_a_save_answer_in_place(
    client: Client, table: Night
):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    games.event_add(game=game, event={"type": "speto", "player": "Cat"})
    body = client.get(f"/s/{table.pk}/").content.decode()

    paid = client.post(tapped(body, "/paid"), {"event": "1"}, **IN_PLACE)
    assert paid.status_code == 200
    body = region(paid)
    assert game.events.get(number=1).lines.filter(item="payment").exists()

    back = client.post(tapped(body, "/events/2/remove"), {}, **IN_PLACE)
    assert back.status_code == 200
    region(back)
    assert game.events.get(number=2).removed_at is not None

    saved = client.post(f"/s/{table.pk}/games/{game.pk}/finish", finish_data(), **PAGE)
    body = saved.content.decode()
    undone = client.post(tapped(body, "/undo"), {}, **IN_PLACE)
    assert undone.status_code == 200
    body = region(undone)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
    assert f"/s/{table.pk}/games/{game.pk}/finish" in body  # its form starts from what was saved


def page_main(response, group: str) -> str:
    """The table page's main part and its title: what htmx takes of a whole page (hx-select), and
    nothing it would throw away (the head, the bar, the banners)."""
    body = response.content.decode()
    assert "<html" not in body and "<head" not in body and 'class="bar"' not in body, body[:300]
    assert re.match(rf"\s*<title>{group} · ", body), body[:300]
    assert body.count('<main id="main">') == 1
    return body


@pytest.mark.parametrize("kind", ["event", "void", "tie", "finish"])
def test_a_form_on_a_page_of_its_own_saves_and_brings_the_table_back_in_the_same_answer(
    client: Client, table: Night, kind: str
):
    game = games.game_start(night=table)
    if kind == "finish":
        url, data = f"/s/{table.pk}/games/{game.pk}/finish", finish_data()
    elif kind == "event":
        url, data = f"/s/{table.pk}/games/{game.pk}/events/head", {"player": "Bee"}
    elif kind == "void":
        url, data = f"/s/{table.pk}/games/{game.pk}/void", {"status": "in-play"}
    else:  # Bee and Cat tie on points: a draw orders them
        games.game_finish(game=game, outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 20, "Cat": 20, "Dan": 30}})  # fmt: skip
        game.refresh_from_db()
        assert game.status == Game.Status.PENDING_TIE
        url, data = f"/s/{table.pk}/games/{game.pk}/tie", {"order": "Bee, Cat"}
    asking = client.get(url if kind != "tie" else f"/s/{table.pk}/games/{game.pk}/").content
    assert re.search(rf'hx-post="{re.escape(url)}"[^>]*hx-target="#main"', asking.decode())
    response = client.post(url, data, **PAGE)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == f"/s/{table.pk}/"  # the phone is at the table's address
    assert 'id="live"' in page_main(response, table.group.name)
    game.refresh_from_db()
    want = {"event": "in-play", "void": "voided", "tie": "settled", "finish": "settled"}
    assert game.status == want[kind]


def test_a_save_from_a_page_of_its_own_refused_as_out_of_date_says_why_in_the_main_part(
    client: Client, table: Night
):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome={  # another phone saved it first
        "knock": {"player": "Ann", "kind": "normal"},
        "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    response = client.post(f"/s/{table.pk}/games/{game.pk}/finish", finish_data(), **PAGE)
    assert response.status_code == 409
    body = page_main(response, table.group.name)
    assert 'role="status"' in body and "เกมที่ 1" in body  # why, in Thai, on the table it brings
    assert response["HX-Push-Url"] == f"/s/{table.pk}/"


def test_the_table_page_itself_is_whole(client: Client, table: Night):
    body = client.get(f"/s/{table.pk}/", **HTMX).content.decode()  # a page htmx navigates to
    assert body.lstrip().startswith("<!doctype html>") and 'class="bar"' in body


def test_without_javascript_each_form_still_posts_and_redirects(client: Client, table: Night):
    started = client.post(f"/s/{table.pk}/games/start", {"fool_swap": "on"})
    assert started.status_code == 302 and started["Location"] == f"/s/{table.pk}/"
    game = table.games.get()
    event = client.post(f"/s/{table.pk}/games/{game.pk}/events/head", {"player": "Bee"})
    assert event.status_code == 302 and event["Location"] == f"/s/{table.pk}/"
    back = client.post(f"/s/{table.pk}/games/{game.pk}/events/1/remove", {})
    assert back.status_code == 302 and back["Location"] == f"/s/{table.pk}/"
    saved = client.post(f"/s/{table.pk}/games/{game.pk}/finish", finish_data())
    assert saved.status_code == 302
    undone = client.post(f"/s/{table.pk}/games/{game.pk}/undo", {})
    assert undone.status_code == 302  # to the end-of-game form, filled in with what was saved
    assert undone["Location"] == f"/s/{table.pk}/games/{game.pk}/finish"
