"""Without a connection: history opens from the phone, a game entered is sent once it returns."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import AuditEntry, Game, Session
from scorekeeper.services import games
from tests.browser import support
from tests.browser.conftest import open_page

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]


def controlled_by_worker(page) -> None:
    """Wait until the service worker controls the page (it does from the first reload)."""
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_a_game_entered_offline_is_kept_and_recorded_once_when_the_connection_returns(
    browser, live_server, screenshot
):
    with open_page(browser, "offline-game") as page:
        table = support.open_session(page, live_server.url, group="วงไม่มีสัญญาณ", seats=SEATS)
        controlled_by_worker(page)
        support.start_game(page)
        support.open_finish(page)
        game = Game.objects.get(status=Game.Status.IN_PLAY)
        players = game.document["players"]
        outcome = {
            "knock": {"player": players[0], "kind": "normal"},
            "points": {players[1]: 10, players[2]: 20, players[3]: 30},
        }
        page.context.set_offline(True)
        expect(page.locator("#offline")).to_be_visible()
        support.fill_result(page, outcome, players)
        page.locator(".sticky-actions button.primary").click()
        expect(page.locator("#queued")).to_be_visible()  # kept on the phone, not lost
        screenshot("offline-queued", page)
        game.refresh_from_db()
        assert game.status == Game.Status.IN_PLAY  # nothing reached the server

        page.context.set_offline(False)
        page.wait_for_url(live_server.url + table, timeout=15_000)  # sent, then the table
        expect(page.locator("#queued")).to_be_hidden()
        game.refresh_from_db()
        assert game.status == Game.Status.SETTLED
        want = support.engine_nets(players, outcome)
        assert support.board(page) == support.expected_board(want)
        assert AuditEntry.objects.filter(action="game-finish", key__isnull=False).count() == 1
        assert game.lines.count() == 6  # recorded once


def test_history_opens_from_the_phone_without_a_connection(browser, live_server, screenshot):
    with open_page(browser, "offline-history") as page:
        table = support.open_session(page, live_server.url, group="วงประวัติ", seats=SEATS)
        session = Session.objects.get(group__name="วงประวัติ")
        history = f"/s/{session.pk}/history"
        controlled_by_worker(page)
        page.goto(live_server.url + history)  # viewed once: the phone keeps a copy
        expect(page.locator("h1")).to_be_visible()
        first = games.game_start(session=session)  # the table goes on while this phone is away
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
        unseen = page.goto(live_server.url + f"/s/{session.pk}/summary")  # never opened here
        assert unseen is not None and unseen.from_service_worker
        expect(page.locator("h1")).to_have_text("ไม่มีสัญญาณ")
        page.context.set_offline(False)
        page.goto(live_server.url + table)
