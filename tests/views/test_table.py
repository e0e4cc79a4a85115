"""The table page, starting games, events, seats and the settle-up, through real views."""

from scorekeeper.models import Game, LedgerLine
from scorekeeper.services import games, nights
from tests.views.conftest import HTMX, finish_data

KNOCK = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}


def test_the_table_page_shows_the_scoreboard_in_seat_order_and_who_deals(en, table):
    body = en.get(f"/s/{table.pk}/").content.decode()
    assert "<html" in body
    assert body.index('data-player="Ann"') < body.index('data-player="Dan"')
    assert "Start the next game · Ann deals" in body


def test_the_poll_gets_only_the_live_part(en, table):
    response = en.get(f"/s/{table.pk}/", HTTP_HX_TARGET="live", **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="live"')


def test_starting_a_game_returns_to_the_table_with_the_game_in_play(en, table):
    response = en.post(f"/s/{table.pk}/games/start", {"fool_swap": "on"})
    assert response.status_code == 302
    game = table.games.get()
    assert game.status == Game.Status.IN_PLAY
    body = en.get(response.url).content.decode()
    assert f"/s/{table.pk}/games/{game.pk}/finish" in body
    assert f"/s/{table.pk}/games/{game.pk}/events/head" in body


def test_a_second_game_cannot_start_while_one_is_in_play(en, in_play):
    response = en.post(f"/s/{in_play.night.pk}/games/start", {})
    assert response.status_code == 409  # the page that offered a start was out of date
    assert "Finish or void the game in play first" in response.content.decode()
    assert in_play.night.games.count() == 1


def test_an_event_is_recorded_and_its_payments_show_at_once(en, in_play):
    url = f"/s/{in_play.night.pk}/games/{in_play.pk}/events/head"
    form = en.get(url).content.decode()
    assert 'name="close"' in form
    response = en.post(url, {"player": "Bee", "close": ["Dan"]})
    assert response.status_code == 302
    body = en.get(response.url).content.decode()
    assert "Dan → Bee <strong>600</strong>" in body
    assert "rule 27" in body


def test_a_refused_event_says_why_and_writes_nothing(en, in_play):
    url = f"/s/{in_play.night.pk}/games/{in_play.pk}/events/head"
    en.post(url, {"player": "Bee"})
    response = en.post(url, {"player": "Cat"})
    assert response.status_code == 422
    assert "There is only one head card" in response.content.decode()
    assert in_play.events.count() == 1
    assert LedgerLine.objects.count() == 3


def test_a_fine_form_asks_why_and_ends_the_game(en, in_play):
    url = f"/s/{in_play.night.pk}/games/{in_play.pk}/events/fine"
    assert 'name="reason"' in en.get(url).content.decode()
    en.post(url, {"player": "Ann", "reason": "misdeal"})
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.FINED


def test_an_unknown_event_type_goes_back_to_the_table(en, in_play):
    response = en.get(f"/s/{in_play.night.pk}/games/{in_play.pk}/events/teleport")
    assert response.status_code == 302


def test_a_new_player_takes_a_seat_between_games(en, table):
    response = en.post(f"/s/{table.pk}/seats", {"position": "3", "name": "Eve"})
    assert response.status_code == 302
    page = en.get(f"/s/{table.pk}/seats").content.decode()
    assert "Seat 4: Eve from game 1" in page
    assert "Seat 4: Dan from game 1 until game 1" in page


def test_settling_up_closes_the_night_and_lists_the_transfers(en, in_play):
    games.game_finish(
        game=in_play,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    night = in_play.night
    response = en.post(f"/s/{night.pk}/settle", {"mode": "fewest"})
    assert response.status_code == 302
    night.refresh_from_db()
    assert not night.is_open
    body = en.get(f"/s/{night.pk}/settle").content.decode()
    assert "Bee → Ann <strong>250 ฿</strong>" in body  # 500 points at half a baht: whole baht
    assert f'href="/s/{night.pk}/summary"' in body  # shared from the summary
    summary = en.get(f"/s/{night.pk}/summary").content.decode()
    assert "Bee → Ann: 250 ฿" in summary  # the text the share sheet and LINE get


def test_hub_settle_up_needs_the_one_person(en, table):
    response = en.post(f"/s/{table.pk}/settle", {"mode": "hub"})
    assert response.status_code == 422
    assert "Choose who everyone settles with" in response.content.decode()
    table.refresh_from_db()
    assert table.is_open


def test_marking_a_transfer_paid_swaps_only_the_transfer_list(en, in_play):
    games.game_finish(
        game=in_play,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    transfer = nights.night_close(night=in_play.night)[0]
    url = f"/s/{in_play.night.pk}/transfers/{transfer.pk}/paid"
    swap = en.post(url, {}, **HTMX).content.decode()
    assert "<html" not in swap
    assert swap.lstrip().startswith('<section id="transfers"')
    assert "Paid · tapped by" in swap and "Not paid after all" in swap
    again = en.post(url, {})  # a double tap on a slow network records once
    assert again.status_code == 302
    assert transfer.money_lines.count() == 1
    en.post(url, {"undo": "1"})
    assert transfer.money_lines.count() == 2
    assert transfer.money_lines.filter(reverses__isnull=False).count() == 1
    assert not transfer.lines.exists()  # paid in baht, not in points


def test_the_summary_is_a_clean_page_of_the_night(en, table):
    body = en.get(f"/s/{table.pk}/summary").content.decode()
    assert "<html" in body
    assert 'class="summary"' in body


def test_unknown_nights_and_transfers_are_not_found(en, table):
    assert en.get("/s/999/").status_code == 404
    assert en.post(f"/s/{table.pk}/transfers/999/paid").status_code == 404


def test_a_poll_with_nothing_new_gets_an_empty_answer(en, table):
    page = en.get(f"/s/{table.pk}/").content.decode()
    poll = page.split('<div id="live" hx-get="')[1].split('"')[0].replace("&amp;", "&")
    unchanged = en.get(poll, HTTP_HX_TARGET="live", **HTMX)
    assert unchanged.status_code == 204
    assert unchanged.content == b""
    games.game_start(night=table)  # another phone starts a game
    changed = en.get(poll, HTTP_HX_TARGET="live", **HTMX)
    assert changed.status_code == 200
    assert "/finish" in changed.content.decode()


# -- several phones, one truth: a write from a page out of date is refused ------------------------


def test_an_event_sent_from_a_page_of_a_game_that_has_ended_is_refused_with_409(en, in_play):
    """Another phone saved the game; this phone's event form still names it: nothing is booked,
    on it or on the next game, and the answer is the table as it is now."""
    games.game_finish(game=in_play, outcome=KNOCK)
    follower = games.game_start(night=in_play.night, fool_swap=False)
    url = f"/s/{in_play.night.pk}/games/{in_play.pk}/events/head"
    response = en.post(url, {"player": "Bee"}, **HTMX)
    assert response.status_code == 409
    body = response.content.decode()
    assert "was already recorded" in body and 'id="live"' in body
    assert not in_play.events.exists() and not follower.events.exists()


def test_a_start_sent_after_another_phones_start_is_refused_with_409(en, table):
    page = en.get(f"/s/{table.pk}/").content.decode()
    assert 'name="number" value="1"' in page
    assert en.post(f"/s/{table.pk}/games/start", {"number": "1"}).status_code == 302
    games.game_finish(game=table.games.get(), outcome=KNOCK)
    late = en.post(f"/s/{table.pk}/games/start", {"number": "1"})  # the same page, sent again
    assert late.status_code == 409
    assert "already started by another phone" in late.content.decode()
    assert table.games.count() == 1


def test_a_finish_sent_after_another_phones_is_refused_with_409_and_the_table(en, in_play):
    games.game_finish(game=in_play, outcome=KNOCK)
    url = f"/s/{in_play.night.pk}/games/{in_play.pk}/finish"
    late = en.post(url, {**finish_data(knocker="Bee"), "idempotency_key": "late"}, **HTMX)
    assert late.status_code == 409
    assert "was already recorded" in late.content.decode()
    assert in_play.lines.count() == 6  # the first save's lines, nothing more
