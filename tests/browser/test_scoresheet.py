"""Two short matches on a Thai phone: classic Dummy to 100 and Gong Zhu to −150, to their end.

Every hand is entered as a player would, its live preview and the standings after it checked
against the engines; Gong Zhu's pig and money against `gong_zhu.pairwise_net` and the fewest
transfers. Each screen is checked to fit a 360 px phone.
"""

import re
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.models import Game, MoneyLine, Night
from scorekeeper.rules import dummy_points_document, gong_zhu, gong_zhu_document
from scorekeeper.rules.transfers import fewest_transfers
from tests.browser.conftest import Shoot, open_page
from tests.browser.support import signed, transfers
from tests.browser.test_phone_fit import SMALL_PHONE, fit_problems

pytestmark = pytest.mark.browser

NOK, NOO, MAEW, PLATHONG = "นก", "หนู", "แมว", "ปลาทอง"


def open_sheet(
    page: Page, base_url: str, *, group: str, ruleset: str, fields: dict[str, str], fit: Any
) -> str:
    """Create a group, open a score sheet of `ruleset` with these form fields; return its path.

    `fit(screen)` checks the open form fits the phone, its house rules unfolded.
    """
    page.goto(base_url + "/")
    page.fill('input[name="name"]', group)
    page.fill('input[name="host_name"]', "ต้น")
    page.locator('form[action="/groups/new"] button').click()
    expect(page.locator("h1")).to_have_text(group)
    page.locator(f'a[href$="/race/{ruleset}/new"]').click()
    for name, value in fields.items():
        if page.locator(f'input[type="radio"][name="{name}"]').count():
            page.check(f'input[name="{name}"][value="{value}"]')
        else:
            page.fill(f'input[name="{name}"]', value)
    for details in page.locator("details.house").all():
        details.locator("summary").click()
    fit(f"scoresheet-{ruleset}-open")
    page.locator("main form button.primary").click()
    page.wait_for_url(re.compile(r"/s/\d+/$"))
    return page.url.removeprefix(base_url)


def standings(page: Page) -> dict[str, int]:
    """Read the sheet's standings: each player's total."""
    rows = page.eval_on_selector_all(
        "table.standings tr[data-player]",
        "rows => rows.map(r => [r.dataset.player, r.querySelector('[data-total]').dataset.total])",
    )
    return {name: int(total) for name, total in rows}


def expect_preview(page: Page, scores: dict[str, int], totals: dict[str, int]) -> None:
    for name, score in scores.items():
        expect(page.locator(f'#preview [data-preview-score="{name}"]')).to_have_text(signed(score))
        total = page.locator(f'#preview [data-preview-total="{name}"]')
        expect(total).to_have_text(signed(totals[name]))


def save(page: Page) -> None:
    page.locator(".sticky-actions button.primary").click()
    page.wait_for_url(re.compile(r"/s/\d+/$"))


# -- classic Dummy -------------------------------------------------------------------------------

DUMMY_PLAYERS = [NOK, NOO, MAEW]
DUMMY_HANDS: list[tuple[dict[str, Any], bool]] = [
    (  # นก knocks with 30 on the table
        {
            "knock": {"player": NOK, "kind": "normal"},
            "counts": {NOK: {"table": 30, "hand": 0}, NOO: {"table": 20, "hand": 35},
                       MAEW: {"table": 10, "hand": 5}},
        },
        False,
    ),
    (  # แมว knocks; หนู fooled and made a dummy discard; entered as differences
        {
            "knock": {"player": MAEW, "kind": "normal"},
            "fool": NOO,
            "counts": {NOK: {"difference": -10},
                       NOO: {"difference": -20, "penalties": {"dummy-discard": 1}},
                       MAEW: {"difference": 20}},
        },
        True,
    ),
    (  # นก knocks colour (×2); แมว never collected (×2 of the loss)
        {
            "knock": {"player": NOK, "kind": "color"},
            "counts": {NOK: {"table": 20, "hand": 0}, NOO: {"table": 10, "hand": 15},
                       MAEW: {"table": 0, "hand": 20, "collected": False}},
        },
        False,
    ),
]  # fmt: skip


def fill_dummy(page: Page, hand: dict[str, Any], by_difference: bool) -> None:
    """Fill the classic Dummy hand form with a hand written as the engine's document."""
    knock = hand.get("knock")
    page.check(f'input[name="knocker"][value="{knock["player"] if knock else "stock-out"}"]')
    if knock:
        page.check(f'input[name="kind"][value="{knock["kind"]}"]')
    if hand.get("fool"):
        page.check(f'input[name="fool"][value="{hand["fool"]}"]')
    if by_difference:
        page.check('input[name="by_difference"]')
    for i, name in enumerate(DUMMY_PLAYERS):
        count = hand["counts"][name]
        if by_difference:
            page.fill(f'input[name="difference_{i}"]', str(count["difference"]))
        else:
            page.fill(f'input[name="table_{i}"]', str(count["table"]) if count["table"] else "")
            page.fill(f'input[name="hand_{i}"]', str(count["hand"]) if count["hand"] else "")
        if count.get("collected") is False:
            page.check(f'input[name="dark"][value="{name}"]')
        for kind, n in count.get("penalties", {}).items():
            details = page.locator("details.penalties")
            if not details.evaluate("d => d.open"):
                details.locator("summary").click()
            field = f"penalty_{kind.replace('-', '_')}_{i}"
            page.select_option(f'select[name="{field}"]', str(n))


def test_a_classic_dummy_match_to_100_on_a_phone(
    browser: Browser, live_server: Any, screenshot: Shoot
) -> None:
    problems: list[str] = []
    with open_page(browser, "scoresheet-dummy", viewport=SMALL_PHONE) as page:
        path = open_sheet(
            page,
            live_server.url,
            group="วงดัมมี่",
            ruleset="dummy-points",
            fields={"seat_1": NOK, "seat_2": NOO, "seat_3": MAEW, "target": "100"},
            fit=lambda screen: problems.extend(fit_problems(page, screen, screenshot)),
        )
        problems += fit_problems(page, "scoresheet-dummy-sheet", screenshot)
        totals = dict.fromkeys(DUMMY_PLAYERS, 0)
        for number, (hand, by_difference) in enumerate(DUMMY_HANDS, start=1):
            page.locator("#record-hand").click()
            expect(page.locator('input[name="knocker"]').first).to_be_visible()
            fill_dummy(page, hand, by_difference)
            doc = {"rules": "dummy-points", "players": DUMMY_PLAYERS, **hand,
                   "match": {"totals": totals, "target": 100}}  # fmt: skip
            result = dummy_points_document.game_document_result(doc)
            expect_preview(page, result["scores"], result["match"]["totals"])
            if number == 2:
                problems += fit_problems(page, "scoresheet-dummy-hand", screenshot)
            save(page)
            totals = result["match"]["totals"]
            assert standings(page) == totals
        assert result["match"]["ended"] and result["match"]["winners"] == [NOK]
        expect(page.locator("#match-end [data-winners]")).to_have_text(NOK)
        expect(page.locator("#record-hand")).to_have_count(0)
        problems += fit_problems(page, "scoresheet-dummy-end", screenshot)

        night = Night.objects.get(pk=int(path.split("/")[2]))
        dealers = [g.dealer.name for g in Game.objects.filter(night=night).order_by("number")]
        assert dealers == [NOK, NOO, NOK]  # หนู's fool turned the deal back round to นก

        page.locator('a[href$="/race/settle"]').click()
        page.locator("main form.card button.primary").click()
        page.wait_for_url(re.compile(r"/race/settle$"))
        expect(page.locator("#share")).to_be_visible()
        night.refresh_from_db()
        assert not night.is_open
        assert not night.transfers.exists()
    assert problems == []


# -- Gong Zhu ------------------------------------------------------------------------------------

GONG_PLAYERS = [NOK, NOO, MAEW, PLATHONG]
HEARTS = [str(c) for c in gong_zhu.HEARTS]
GONG_HANDS: list[dict[str, list[str]]] = [
    {NOK: ["SQ"], NOO: HEARTS[:9], MAEW: ["HJ", "HQ"], PLATHONG: ["HK", "HA", "DJ", "C10"]},
    {NOK: ["C10"], NOO: HEARTS, MAEW: ["DJ"], PLATHONG: ["SQ"]},  # หนู's Shuan (ช้วน)
    {NOK: ["SQ", *HEARTS[:4]], NOO: HEARTS[4:], MAEW: ["DJ"], PLATHONG: ["C10"]},
]
TWO_BAHT = Decimal(2)


def fill_cards(page: Page, captured: dict[str, list[str]]) -> None:
    """Tap, card by card, who took it in the grid."""
    for name, cards in captured.items():
        for card in cards:
            page.check(f'input[name="card_{card}"][value="{GONG_PLAYERS.index(name)}"]')


def test_a_gong_zhu_match_to_minus_150_finds_the_pig_and_settles_the_money(
    browser: Browser, live_server: Any, screenshot: Shoot
) -> None:
    problems: list[str] = []
    with open_page(browser, "scoresheet-gong-zhu", viewport=SMALL_PHONE) as page:
        path = open_sheet(
            page,
            live_server.url,
            group="วงหมู",
            ruleset="gong-zhu",
            fields={
                "seat_1": NOK, "seat_2": NOO, "seat_3": MAEW, "seat_4": PLATHONG,
                "target_points": "150", "direction": "down", "point_value": "2",
            },
            fit=lambda screen: problems.extend(fit_problems(page, screen, screenshot)),
        )  # fmt: skip
        target = {"points": 150, "direction": "down"}
        totals = dict.fromkeys(GONG_PLAYERS, 0)
        for number, captured in enumerate(GONG_HANDS, start=1):
            page.locator("#record-hand").click()
            expect(page.locator('input[name="card_SQ"]').first).to_be_visible()
            if number == 1:
                problems += fit_problems(page, "scoresheet-gong-zhu-hand", screenshot)
            fill_cards(page, captured)
            doc = {"rules": "gong-zhu", "players": GONG_PLAYERS, "captured": captured,
                   "match": {"totals": totals, "target": target}}  # fmt: skip
            result = gong_zhu_document.game_document_result(doc)
            expect_preview(page, result["scores"], result["match"]["totals"])
            if result["shuan"]:
                expect(page.locator('#preview [data-shuan="shuan"]')).to_contain_text(NOO)
            save(page)
            totals = result["match"]["totals"]
            assert standings(page) == totals
        assert result["match"]["pigs"] == [NOK] and result["match"]["winners"] == [MAEW]
        expect(page.locator("#match-end [data-pigs]")).to_have_text(NOK)
        expect(page.locator("#match-end [data-winners]")).to_have_text(MAEW)
        money = gong_zhu.pairwise_net(totals)
        for name, points in money.items():
            row = page.locator(f'table.standings tr[data-player="{name}"] [data-money]')
            expect(row).to_have_attribute("data-money", str(points))
        problems += fit_problems(page, "scoresheet-gong-zhu-end", screenshot)

        page.locator('a[href$="/race/settle"]').click()
        page.locator("main form.card button.primary").click()
        page.wait_for_url(re.compile(r"/race/settle$"))
        plan = fewest_transfers(money)
        expect(page.locator("#transfers ul.transfers > li")).to_have_count(len(plan))
        shown = transfers(page)
        # The fewest transfers of the money in points, each at two baht a point.
        assert [(payer, payee, baht) for payer, payee, baht, _ in shown] == [
            (t.payer, t.payee, t.amount * TWO_BAHT) for t in plan
        ]
        page.locator("#transfers li").first.locator("button.primary").click()
        expect(page.locator("#transfers li.paid")).to_have_count(1)
        problems += fit_problems(page, "scoresheet-gong-zhu-settle", screenshot)

        night = Night.objects.get(pk=int(path.split("/")[2]))
        paid = MoneyLine.objects.get(night=night, item=MoneyLine.Item.PAID)
        first = plan[0]
        assert (paid.payer.name, paid.payee.name) == (first.payer, first.payee)
        assert paid.baht == first.amount * TWO_BAHT
    assert problems == []
