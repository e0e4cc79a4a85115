"""Sharing the night from a phone: the share sheet with the card, LINE's
share link where there is no share sheet, and the link opened by someone without an account."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game
from tests.browser import support
from tests.browser.conftest import open_page

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]

# The page's share sheet, stubbed: what it was given is kept for the test to read.
SHARE_SHEET = """
window.__shared = [];
navigator.canShare = (data) => true;
navigator.share = async (data) => {
  const files = await Promise.all((data.files || []).map(async (f) => ({
    name: f.name, type: f.type, size: f.size,
    png: new Uint8Array(await f.slice(0, 4).arrayBuffer()).join(","),
  })));
  window.__shared.push({title: data.title, text: data.text, url: data.url, files});
};
"""
NO_SHARE_SHEET = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def play_one(page, base_url: str) -> str:
    """A night of one game; return the table's path."""
    table = support.open_night(page, base_url, group="วงแชร์", seats=SEATS)
    support.start_game(page)
    support.open_finish(page)
    game = Game.objects.get(status=Game.Status.IN_PLAY)
    outcome = {"knock": {"player": SEATS[0], "kind": "normal"},
               "points": {SEATS[1]: 10, SEATS[2]: 20, SEATS[3]: 30}}  # fmt: skip
    support.fill_result(page, outcome, game.document["players"])
    support.save_result(page)
    return table


def test_the_share_sheet_gets_the_thai_text_the_link_and_the_card(browser, live_server, screenshot):
    with open_page(browser, "share-sheet") as page:
        page.add_init_script(SHARE_SHEET)
        table = play_one(page, live_server.url)
        page.goto(live_server.url + table + "summary")
        button = page.locator("button[data-share]")
        screenshot("summary-share", page)
        # The card is fetched as the page loads; a tap before it came would share the text alone.
        expect(page.locator("button[data-share][data-card-ready]")).to_be_attached()
        button.click()
        page.wait_for_function("() => window.__shared.length === 1")
        shared = page.evaluate("() => window.__shared[0]")
        assert shared["url"].startswith(live_server.url + "/n/")
        assert "วงแชร์" in shared["text"] and "1 เกม" in shared["text"]
        assert ".00" not in shared["text"]
        assert shared["files"][0]["type"] == "image/png"
        assert shared["files"][0]["png"] == "137,80,78,71"  # the PNG signature

        stranger = browser.new_context(viewport={"width": 390, "height": 844}, locale="th-TH")
        try:
            other = stranger.new_page()
            answer = other.goto(shared["url"])  # no cookies: a friend, or LINE's preview
            assert answer is not None and answer.status == 200
            expect(other.locator("h1")).to_have_text("วงแชร์")
            image = other.locator('meta[property="og:image"]').get_attribute("content")
            assert image is not None
            card = other.request.get(image)
            assert card.status == 200 and card.headers["content-type"] == "image/png"
        finally:
            stranger.close()


def test_without_a_share_sheet_the_button_opens_lines_share_link(browser, live_server):
    with open_page(browser, "share-line") as page:
        page.add_init_script(NO_SHARE_SHEET)
        table = play_one(page, live_server.url)
        asked: list[str] = []

        def line(route):
            asked.append(route.request.url)
            route.fulfill(status=200, content_type="text/html", body="<p>LINE</p>")

        page.route("https://line.me/**", line)
        page.goto(live_server.url + table + "summary")
        page.locator("button[data-share]").click()
        page.wait_for_url("https://line.me/**")
        text = parse_qs(urlparse(asked[0]).query)["text"][0]
        assert "วงแชร์" in text and "/n/" in text
