"""A shared cost entered at the table during a game, on a Thai phone at 390 × 844: one tap opens
the form in place; a poll neither closes it nor wipes what is typed; saved, the running
settle-up shows it on this phone and, within a poll, on a second phone."""

from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.models import Game, Night
from scorekeeper.rules import settle_up as money_rules
from scorekeeper.services import games
from tests.browser import support
from tests.browser.conftest import open_page
from tests.browser.test_table_live import FOLLOWS_MS, join

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]


def running(page: Page) -> list[tuple[str, str, str]]:
    """The running settle-up's transfers as shown: (payer, payee, baht)."""
    return page.locator(".settle-now li[data-payer]").evaluate_all(
        "lis => lis.map(li => [li.dataset.payer, li.dataset.payee, li.dataset.baht])"
    )


def cost_nets(page: Page) -> dict[str, Decimal]:
    found = page.locator(".costs-now [data-costs]").evaluate_all(
        "spans => spans.map(s => [s.dataset.player, s.dataset.costs])"
    )
    return {name: Decimal(baht) for name, baht in found}


EVENTS = [
    {"type": "head", "player": SEATS[1]},
    {"type": "speto", "player": SEATS[2]},
    {"type": "dummy-discard", "player": SEATS[0]},
]


def expected(players: list[str], events: list[dict], costs: dict[str, Decimal]) -> list:
    """The running settle-up by the rules alone: the events paid at once, at half a baht a
    point, and the cost's shares; as the page writes the transfers."""
    held = money_rules.positions(support.event_nets(players, events), support.HALF_BAHT, [], costs)
    carrier = money_rules.biggest_winner(held)
    assert carrier is not None
    plan = money_rules.plan(held, carrier=carrier)
    return [
        [t.payer, t.payee, f"{t.baht:,.0f}" if t.baht % 1 == 0 else f"{t.baht:,.2f}"] for t in plan
    ]


def test_a_cost_added_during_a_game_shows_on_both_phones(browser, live_server, screenshot):
    dark = {"color_scheme": "dark"}  # the second phone reads in the dark
    with open_page(browser, "cost-host") as host, open_page(browser, "cost-guest", **dark) as guest:
        path = support.open_night(host, live_server.url, group="วงค่าข้าว", seats=SEATS)
        night = Night.objects.get(pk=int(path.strip("/").split("/")[1]))
        join(guest, live_server.url, night, "มานี")
        support.start_game(host)
        game = Game.objects.get(night=night, status=Game.Status.IN_PLAY)
        games.event_add(game=game, event=EVENTS[0])  # another phone records the head
        expect(guest.locator("ul.played li")).to_have_count(1, timeout=FOLLOWS_MS)
        expect(host.locator("ul.played li")).to_have_count(1, timeout=FOLLOWS_MS)
        before = running(guest)

        # One tap, in place, while the game goes on: the form opens under its summary.
        host.locator("#cost-add summary").click()
        form = host.locator("#cost-add form")
        expect(form).to_be_visible()
        expect(form.locator('select[name="cost-paid_by"]')).to_have_value("")  # no player claimed
        # Another phone's save: the poll brings it, and the form stays open.
        games.event_add(game=game, event=EVENTS[1])
        expect(host.locator("ul.played li")).to_have_count(2, timeout=FOLLOWS_MS)
        expect(form).to_be_visible()

        form.locator('input[name="cost-reason"]').fill("ส้มตำ ไก่ย่าง")
        form.locator('input[name="cost-baht"]').fill("๔๐๐")  # Thai digits, as the pad types them
        form.locator('select[name="cost-paid_by"]').select_option(SEATS[3])
        # Another save while it is filled in: skipped by this phone's fetch, nothing wiped.
        support.arm_next_poll(host)
        games.event_add(game=game, event=EVENTS[2])
        expect(guest.locator("ul.played li")).to_have_count(3, timeout=FOLLOWS_MS)
        assert not support.armed_poll(host)  # skipped while the form is filled in
        expect(form.locator('input[name="cost-baht"]')).to_have_value("๔๐๐")
        expect(form.locator('input[name="cost-reason"]')).to_have_value("ส้มตำ ไก่ย่าง")

        form.locator("button.primary").click()
        cost = host.locator('.costs-now li[data-cost="ส้มตำ ไก่ย่าง"]')
        expect(cost).to_contain_text("400")
        expect(host.locator("#cost-add")).not_to_have_attribute("open", "")  # closed, done
        expect(host.locator("ul.played li")).to_have_count(3)  # the table as it now is
        shares = money_rules.nets(money_rules.shares(Decimal(400), SEATS[3], SEATS, "ส้มตำ"))
        assert cost_nets(host) == shares  # ปิติ +300, each other −100
        after = running(host)
        assert after == expected(game.document["players"], EVENTS, shares) != before

        # The second phone, within a poll: the cost, each one's share, the same transfers.
        expect(guest.locator('.costs-now li[data-cost="ส้มตำ ไก่ย่าง"]')).to_be_visible(
            timeout=FOLLOWS_MS
        )
        assert cost_nets(guest) == shares and running(guest) == after
        for phone in (host, guest):
            phone.evaluate("window.scrollTo(0, 0)")  # the bar at the top, where it belongs
        screenshot("390-light-table-cost-saved", on=host)
        screenshot("390-dark-table-cost-followed", on=guest)
        assert night.costs.count() == 1


def test_the_game_card_takes_one_tap_to_the_cost_form(page, live_server):
    support.open_night(page, live_server.url, group="วงค่าน้ำแข็ง", seats=SEATS)
    page.locator("form.start button.primary").click()
    expect(page.locator('#live a[href$="/finish"]')).to_be_visible()
    form = page.locator("#cost-add")
    expect(form).not_to_have_attribute("open", "")
    page.locator(".play a[href='#id_cost-reason']").click()  # in the game card, at the top
    expect(form).to_have_attribute("open", "")
    reason = page.locator("#id_cost-reason")
    expect(reason).to_be_in_viewport()
    reason.fill("น้ำแข็ง")
    page.locator("#id_cost-baht").fill("40")
    page.locator("#id_cost-paid_by").select_option(SEATS[0])
    page.locator("#cost-add button.primary").click()
    expect(page.locator(".costs-now [data-cost='น้ำแข็ง']")).to_be_visible()
