"""Without a connection: history opens from the phone, a game entered is sent once it returns."""

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from scorekeeper.models import AuditEntry, Game, Night
from scorekeeper.services import games
from tests.browser import support
from tests.browser.conftest import open_page

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]


def controlled_by_worker(page) -> None:
    """Wait until the service worker controls the page (it does from the reload after it is
    installed). An install that failed (a file of the shell not fetched) is tried again at the
    next load, as on a phone: a few reloads, each waited on for a bounded time."""
    for _ in range(5):
        page.reload()
        try:
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", timeout=4000
            )
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError("the service worker never took control of the page")


def ordinary_game(page) -> tuple[Game, list[str], dict[str, Any]]:
    """Start the next game and open its end: the game, its players in turn order, and an
    ordinary result for it (the dealer knocks; the others count 10, 20 and 30)."""
    support.start_game(page)
    support.open_finish(page)
    game = Game.objects.get(status=Game.Status.IN_PLAY)
    players = game.document["players"]
    outcome = {
        "knock": {"player": players[0], "kind": "normal"},
        "points": {players[1]: 10, players[2]: 20, players[3]: 30},
    }
    return game, players, outcome


def test_a_game_entered_offline_is_kept_and_recorded_once_when_the_connection_returns(
    browser, live_server, screenshot
):
    with open_page(browser, "offline-game") as page:
        table = support.open_night(page, live_server.url, group="วงไม่มีสัญญาณ", seats=SEATS)
        controlled_by_worker(page)
        game, players, outcome = ordinary_game(page)
        page.context.set_offline(True)
        expect(page.locator("#offline")).to_be_visible()
        support.fill_result(page, outcome, players)
        page.locator(".sticky-actions button.primary").click()
        expect(page.locator("#queued")).to_be_visible()  # kept on the phone, not lost
        screenshot("offline-queued", page)
        game.refresh_from_db()
        assert game.status == Game.Status.IN_PLAY  # nothing reached the server

        page.wait_for_url(live_server.url + table)  # kept: the table, as the phone last saw it
        with page.expect_navigation(timeout=15_000):  # sent, then the table as it now is
            page.context.set_offline(False)
        expect(page.locator("#queued")).to_be_hidden()
        game.refresh_from_db()
        assert game.status == Game.Status.SETTLED
        want = support.engine_nets(players, outcome)
        assert support.board(page) == support.expected_board(want)
        assert AuditEntry.objects.filter(action="game-finish", key__isnull=False).count() == 1
        assert game.lines.count() == 6  # recorded once


def test_history_opens_from_the_phone_without_a_connection(browser, live_server, screenshot):
    with open_page(browser, "offline-history") as page:
        table = support.open_night(page, live_server.url, group="วงประวัติ", seats=SEATS)
        night = Night.objects.get(group__name="วงประวัติ")
        history = f"/s/{night.pk}/history"
        controlled_by_worker(page)
        page.goto(live_server.url + history)  # viewed once: the phone keeps a copy
        expect(page.locator("h1")).to_be_visible()
        first = games.game_start(night=night)  # the table goes on while this phone is away
        games.game_finish(
            game=first,
            outcome={
                "knock": {"player": SEATS[0], "kind": "normal"},
                "points": dict(zip(SEATS[1:], [1, 2, 3], strict=True)),
            },
        )
        page.context.set_offline(True)
        response = page.goto(live_server.url + history)
        assert response is not None and response.from_service_worker
        expect(page.locator("#offline")).to_be_visible()
        assert page.locator("article.game").count() == 0  # the copy kept, from before game 1
        screenshot("offline-history", page)
        unseen = page.goto(live_server.url + f"/s/{night.pk}/summary")  # never opened here
        assert unseen is not None and unseen.from_service_worker
        expect(page.locator("h1")).to_have_text("ไม่มีสัญญาณ")
        page.context.set_offline(False)
        page.goto(live_server.url + table)


# -- the queue loses nothing: each entry sent in order and booked once, or refused saying why -----


def test_a_whole_game_entered_offline_lands_once_and_in_order(browser, live_server, screenshot):
    """Started, an event, ended, all without a connection: the start's key made on the phone
    names the game until the server has given it an id."""
    with open_page(browser, "offline-whole-game") as page:
        table = support.open_night(page, live_server.url, group="วงในป่า", seats=SEATS)
        controlled_by_worker(page)
        page.reload()  # the pages of a game started here are kept once the worker controls
        page.wait_for_function("() => localStorage.getItem('scorekeeper-warmed') !== null")
        page.context.set_offline(True)
        page.locator("form.start button.primary").click()
        page.wait_for_url("**/s/*/games/key/*/")  # the phone's own key: no id yet
        key = page.url.rstrip("/").rsplit("/", 1)[1]
        assert key != "_"
        expect(page.locator("#offline-title")).to_be_visible()
        screenshot("offline-started", page)
        page.locator('.events a[href$="/events/head"]').click()
        page.locator('select[name="player"]').select_option(SEATS[1])
        page.locator("main form button.primary").click()
        page.wait_for_url(f"**/games/key/{key}/")
        page.locator("a.primary").click()  # the end of the game
        outcome = {
            "knock": {"player": SEATS[0], "kind": "normal"},
            "points": {SEATS[1]: 10, SEATS[2]: 20, SEATS[3]: 30},
        }
        support.fill_result(page, outcome, SEATS)
        page.locator(".sticky-actions button.primary").click()
        page.wait_for_url(live_server.url + table)
        expect(page.locator("#queued")).to_contain_text("3")
        waiting = page.locator("#queued li")  # each listed, the next to go first
        expect(waiting).to_have_count(3)
        expect(waiting.nth(1)).to_contain_text(SEATS[1])  # the head: who picked it up
        expect(waiting.nth(2)).to_contain_text("30")  # the end: the points typed
        screenshot("offline-three-waiting", page)
        assert not Game.objects.exists()  # nothing reached the server

        page.context.set_offline(False)
        expect(page.locator("#queued")).to_be_hidden(timeout=15_000)
        game = Game.objects.get()
        assert game.status == Game.Status.SETTLED
        assert [e.document["type"] for e in game.events.all()] == ["head"]
        actions = list(
            AuditEntry.objects.filter(game=game).order_by("id").values_list("action", flat=True)
        )
        assert actions == ["game-start", "event-add", "game-finish"]  # in order, each once
        assert AuditEntry.objects.get(action="game-start").key == key
        assert page.locator("#refused").is_hidden()


def warmed(page) -> None:
    """Wait until the phone keeps the pages of a game started on it (warm.js)."""
    controlled_by_worker(page)
    page.reload()
    page.wait_for_function("() => localStorage.getItem('scorekeeper-warmed') !== null")


@pytest.mark.parametrize("failure", ["down", "busy"])
def test_a_start_sent_as_the_connection_fails_is_kept_and_sent_again(browser, wifi, failure):
    """The phone believes it is online; the Wi-Fi drops (no answer), or the proxy in front
    answers 503: the start is kept, with the key of the page that sent it, and sent when the
    connection is back; its game is the one the phone goes on entering."""
    with open_page(browser, f"offline-{failure}") as page:
        table = support.open_night(page, wifi.url, group=f"วงเน็ต{failure}", seats=SEATS)
        warmed(page)
        sent_key = page.locator('form.start input[name="idempotency_key"]').input_value()
        getattr(wifi, failure)()
        page.locator("form.start button.primary").click()
        page.wait_for_url(f"**/games/key/{sent_key}/")  # kept: the game goes on, on the phone
        expect(page.locator("#queued")).to_be_visible()
        assert wifi.requests_refused > 0 and not Game.objects.exists()
        page.wait_for_timeout(2_500)  # a try or two more, while the connection is still bad
        assert not Game.objects.exists()

        wifi.up()
        expect(page.locator("#queued")).to_be_hidden(timeout=20_000)  # sent again, later
        page.wait_for_url(wifi.url + table)
        game = Game.objects.get()
        assert AuditEntry.objects.get(action="game-start").key == sent_key  # once, its own key
        assert game.status == Game.Status.IN_PLAY


def test_an_entry_refused_when_sent_is_shown_with_the_reason(browser, live_server, screenshot):
    """Another phone saved the game first: this phone's result is refused, and the phone says
    what it was, what was entered and why, so it can be entered again."""
    with open_page(browser, "offline-refused") as page:
        support.open_night(page, live_server.url, group="วงสองเครื่อง", seats=SEATS)
        controlled_by_worker(page)
        support.start_game(page)
        support.open_finish(page)
        game = Game.objects.get(status=Game.Status.IN_PLAY)
        outcome = {
            "knock": {"player": SEATS[1], "kind": "normal"},
            "points": {SEATS[0]: 11, SEATS[2]: 22, SEATS[3]: 33},
        }
        page.context.set_offline(True)
        support.fill_result(page, outcome, SEATS)
        page.locator(".sticky-actions button.primary").click()
        expect(page.locator("#queued")).to_be_visible()
        first = {"knock": {"player": SEATS[0], "kind": "normal"},
                 "points": dict(zip(SEATS[1:], [1, 2, 3], strict=True))}  # fmt: skip
        games.game_finish(game=game, outcome=first)  # the other phone, online

        page.context.set_offline(False)
        refused = page.locator("#refused")
        expect(refused).to_be_visible(timeout=15_000)
        expect(refused).to_contain_text("เครื่องอื่น บันทึกเกมที่ 1 ไปแล้ว")  # and why, in Thai
        expect(refused).to_contain_text(f"{SEATS[3]}: 33")  # what was entered, to enter again
        expect(page.locator("#queued")).to_be_hidden()
        screenshot("offline-refused", page)
        game.refresh_from_db()
        assert game.document["knock"]["player"] == SEATS[0]  # the first save stands
        refused.locator("button").click()
        expect(refused).to_be_hidden()
        page.reload()
        expect(refused).to_be_hidden()  # dismissed for good


# -- a borrowed phone, a lost phone: signing out clears what the phone kept -----------------------


def test_signing_out_clears_the_kept_pages_but_asks_before_leaving_waiting_entries(browser, wifi):
    with open_page(browser, "offline-sign-out") as page:
        table = support.open_night(page, wifi.url, group="วงยืมเครื่อง", seats=SEATS)
        page.goto(wifi.url + "/accounts/signup")
        page.fill('input[name="username"]', "สมชาย")
        page.fill('input[name="password1"]', "a-long-pass-phrase-9")
        page.fill('input[name="password2"]', "a-long-pass-phrase-9")
        page.locator("main form button").click()
        page.goto(wifi.url + table)
        warmed(page)
        copy = f"async () => !!(await caches.match('{wifi.url + table}', {{ignoreVary: true}}))"
        page.wait_for_function(copy)  # the table, kept for when there is no connection

        wifi.busy(f"{table}games/start")  # starting a game is answered 503, each time
        page.locator("form.start button.primary").click()  # kept on the phone, waiting
        expect(page.locator("#queued")).to_be_visible()
        asked: list[str] = []

        def answer(dialog, accept: bool) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", lambda d: answer(d, accept=False))
        page.locator("form[data-sign-out] button").click()
        page.wait_for_timeout(300)
        assert "1" in asked[0] and "ยังไม่ได้ส่ง" in asked[0]  # it says so, in Thai, and asks
        assert page.evaluate(copy) is True  # nothing cleared: still signed in

        page.once("dialog", lambda d: answer(d, accept=True))
        with page.expect_navigation():
            page.locator("form[data-sign-out] button").click()
        expect(page.locator("form[data-sign-out]")).to_have_count(0)  # signed out
        assert page.evaluate(copy) is False  # the table is no longer kept on the phone
        waiting = page.evaluate("() => JSON.parse(localStorage.getItem('scorekeeper-queue'))")
        assert len(waiting) == 1  # the entry was never thrown away
        assert not Game.objects.exists()


def test_a_table_saved_in_place_reloaded_offline_starts_the_next_game_which_lands_once(
    browser, live_server
):
    """Saves answered in place change the table without a navigation: the copy the phone keeps
    follows them, so the table opened without a connection offers the next game, not one long
    played, and the start made there is accepted when the connection returns, once."""
    with open_page(browser, "offline-after-in-place") as page:
        support.open_night(page, live_server.url, group="วงในที่", seats=SEATS)
        controlled_by_worker(page)
        for _ in range(2):  # two games saved, each start and save answered in place
            _, players, outcome = ordinary_game(page)
            support.fill_result(page, outcome, players)
            support.expect_preview(page, support.engine_nets(players, outcome))
            support.save_result(page)
        seen = support.board(page)
        page.context.set_offline(True)
        reloaded = page.reload()
        assert reloaded is not None and reloaded.from_service_worker
        assert support.board(page) == seen  # the table as this phone last saw it
        assert page.locator('form.start input[name="number"]').input_value() == "3"
        page.locator("form.start button.primary").click()
        page.wait_for_url("**/s/*/games/key/*/")  # started on the phone, kept for the server
        with page.expect_navigation(timeout=15_000):  # sent, then the game as it now is
            page.context.set_offline(False)
        queue = "() => JSON.parse(localStorage.getItem('scorekeeper-queue') || '[]').length"
        assert page.evaluate(queue) == 0
        assert page.locator("#refused").is_hidden()  # accepted: not refused as out of date
        night = Night.objects.get(group__name="วงในที่")
        assert [(g.number, g.status) for g in night.games.order_by("number")] == [
            (1, "settled"), (2, "settled"), (3, "in-play")]  # fmt: skip
        assert AuditEntry.objects.filter(night=night, action="game-start").count() == 3
