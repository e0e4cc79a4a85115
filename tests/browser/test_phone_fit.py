"""The busiest screens on a small phone (360 px), and a whole game with JavaScript switched off."""

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Shoot, open_page
from tests.browser.support import (
    FINGER,
    FIT_PROBLEMS,
    board,
    engine_nets,
    event_nets,
    expect_preview,
    expected_board,
    fill_result,
    open_finish,
    open_night,
    record_event,
    save_result,
    start_game,
    transfers,
)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 780}
PLAYERS = ["นก", "หนู", "แมว", "ปลาทอง"]
NOK, NOO, MAEW, PLATHONG = PLAYERS


def fit_problems(page: Page, screen: str, shoot: Shoot) -> list[str]:
    """Return what does not fit the phone on this page, naming the screen and its screenshot."""
    path = shoot(f"phone-360-{screen}", on=page)
    return [f"{screen} ({path.name}): {p}" for p in page.evaluate(FIT_PROBLEMS, FINGER)]


def play(page: Page, outcome: dict[str, Any], events: tuple[dict[str, Any], ...] = ()) -> None:
    start_game(page)
    for event in events:
        record_event(page, event)
    open_finish(page)
    fill_result(page, outcome, PLAYERS)
    save_result(page)


def test_the_table_the_finish_form_and_the_settle_up_fit_a_360px_phone(
    browser: Browser, live_server: Any, screenshot: Shoot
) -> None:
    problems: list[str] = []
    with open_page(browser, "phone-360", viewport=SMALL_PHONE) as page:
        open_night(page, live_server.url, group="วงเล็ก", seats=PLAYERS)
        play(
            page,
            {
                "knock": {"player": NOK, "kind": "dark"},
                "fool": NOO,
                "points": {MAEW: 12, PLATHONG: 3},
            },
            ({"type": "head", "player": MAEW, "close": [NOO]},),
        )
        play(
            page,
            {
                "knock": {"player": MAEW, "kind": "normal"},
                "speto_held": {NOK: 1},
                "points": {NOK: 5, NOO: -15, PLATHONG: 40},
            },
        )
        play(
            page,
            {
                "knock": {"player": PLATHONG, "kind": "light-color"},
                "points": {NOK: 5, NOO: 15, MAEW: -7},
            },
        )
        start_game(page)
        record_event(page, {"type": "dummy-discard", "player": NOK})
        problems += fit_problems(page, "table", screenshot)

        open_finish(page)
        fill_result(
            page,
            {
                "knock": {"player": NOO, "kind": "dark-color"},
                "fool": MAEW,
                "collected": [NOO, MAEW, PLATHONG],
                "speto_held": {PLATHONG: 1},
                "points": {MAEW: 10, PLATHONG: 20},
            },
            PLAYERS,
        )
        expect(page.locator("#preview [data-preview-net]")).to_have_count(4)
        problems += fit_problems(page, "finish-more", screenshot)  # fill_result opened "more"
        page.locator("details.more summary").click()
        problems += fit_problems(page, "finish", screenshot)
        save_result(page)

        page.locator('nav.actions a[href$="/settle"]').click()
        page.check('input[name="mode"][value="hub"]')
        problems += fit_problems(page, "settle-up", screenshot)
        page.check('input[name="mode"][value="fewest"]')
        page.locator("main form.card button.primary").click()
        expect(page.locator("#transfers")).to_be_visible()
        problems += fit_problems(page, "settle-up-transfers", screenshot)
    assert problems == []


def test_a_game_is_played_and_paid_up_without_javascript(
    browser: Browser, live_server: Any, screenshot: Shoot
) -> None:
    with open_page(browser, "no-javascript", java_script_enabled=False) as page:
        open_night(page, live_server.url, group="วงไม่มีสคริปต์", seats=PLAYERS)
        start_game(page)
        order = PLAYERS  # the first game: seat 1 deals, so turn order is seat order
        head = {"type": "head", "player": MAEW}
        record_event(page, head)
        assert board(page) == expected_board(event_nets(order, [head]))
        outcome = {
            "knock": {"player": NOO, "kind": "dark"},
            "fool": PLATHONG,
            "points": {NOK: 25, MAEW: -10},
        }
        nets = engine_nets(order, outcome, [head])
        open_finish(page)
        fill_result(page, outcome, order)
        expect(page.locator("#preview [data-preview-net]")).to_have_count(0)
        page.locator(".sticky-actions button[formaction]").click()  # Preview: a whole page
        expect_preview(page, nets)
        screenshot("nojs-finish-preview", on=page)
        save_result(page)
        assert board(page) == expected_board(nets)
        screenshot("nojs-table", on=page)

        page.locator('nav.actions a[href$="/settle"]').click()
        page.locator("main form.card button.primary").click()
        expect(page.locator("#transfers ul.transfers > li").first).to_be_visible()  # closed
        plan = transfers(page)
        assert plan
        for left in range(len(plan), 0, -1):
            page.locator("#transfers button.primary").first.click()
            expect(page.locator("#transfers button.primary")).to_have_count(left - 1)
        assert all(paid for *_, paid in transfers(page))
        screenshot("nojs-settle-up-paid", on=page)
