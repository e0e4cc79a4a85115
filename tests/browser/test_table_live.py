"""Two phones at one table: whatever one saves, the other shows within about
two seconds without a reload, the start-next-game panel included; what a phone is filling in is
never wiped by the refresh; a hidden page does not poll, and asks at once when shown again."""

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.models import Game, Membership, Night
from scorekeeper.services import access
from tests.browser import support
from tests.browser.conftest import open_page

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]
# A poll every 2 s, and the answer's way back: the live server answers one request at a time,
# and a poll may wait there behind the offline pages each phone warms for a new game (warm.js),
# over a second on a test machine running three workers on two cores.
FOLLOWS_MS = 4_000


def join(page: Page, base_url: str, night: Night, name: str) -> None:
    """The second phone joins by the host's invite link and lands on the night being played."""
    host = Membership.objects.get(group=night.group, role=Membership.Role.HOST)
    invite = access.invite_create(group=night.group, role=Membership.Role.PLAYER, by=host)
    page.goto(f"{base_url}/join/{invite.token}")
    page.fill('input[name="name"]', name)
    page.locator("main form button.primary").click()
    page.wait_for_url(f"{base_url}/s/{night.pk}/")


def polls(page: Page) -> list[str]:
    """Every poll the page sends from now on."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "?v=" in r.url else None)
    return sent


def hide(page: Page, hidden: bool) -> None:
    """Put the page in the background (or bring it back), as switching apps on a phone does."""
    page.evaluate(
        """hidden => {
            Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
            Object.defineProperty(document, "visibilityState",
                {value: hidden ? "hidden" : "visible", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_second_phone_follows_every_save_and_keeps_what_it_is_filling_in(browser, live_server):
    with open_page(browser, "live-host") as host, open_page(browser, "live-guest") as guest:
        path = support.open_night(host, live_server.url, group="วงสองเครื่อง", seats=SEATS)
        night = Night.objects.get(pk=int(path.strip("/").split("/")[1]))
        join(guest, live_server.url, night, "มานี")
        expect(guest.locator("form.start")).to_be_visible()

        support.start_game(host)  # the guest's start panel goes, the game in play comes
        expect(guest.locator("#play-title")).to_be_visible(timeout=FOLLOWS_MS)
        expect(guest.locator("form.start")).to_have_count(0)

        game = Game.objects.get(status=Game.Status.IN_PLAY)
        players = game.document["players"]
        support.open_finish(host)
        outcome = {
            "knock": {"player": players[2], "kind": "normal"},
            "points": {players[0]: 10, players[1]: 20, players[3]: 30},
        }
        support.fill_result(host, outcome, players)
        support.save_result(host)
        start = guest.locator("form.start")
        expect(start).to_be_visible(timeout=FOLLOWS_MS)  # the panel, and who deals: the knocker
        expect(start.locator("button.primary")).to_contain_text(players[2])
        expect(guest.locator(f'tr[data-player="{players[2]}"] [data-net]')).to_have_attribute(
            "data-net", str(support.engine_nets(players, outcome)[players[2]])
        )

        # The guest is changing the start form: the host's start must not wipe it.
        swap = start.locator('input[name="fool_swap"]')
        swap.uncheck()
        support.start_game(host)
        assert not support.next_poll(guest)  # skipped: the table changed, the form stays
        expect(swap).not_to_be_checked()  # still there, as the guest left it
        swap.check()  # back as it was, and nothing in focus: the next poll brings the table
        guest.locator("h1").click()
        expect(guest.locator("#play-title")).to_be_visible(timeout=FOLLOWS_MS)


def test_a_hidden_page_does_not_poll_and_asks_at_once_when_shown(browser, live_server):
    with open_page(browser, "hidden-host") as host, open_page(browser, "hidden-guest") as guest:
        path = support.open_night(host, live_server.url, group="วงพักจอ", seats=SEATS)
        night = Night.objects.get(pk=int(path.strip("/").split("/")[1]))
        join(guest, live_server.url, night, "ปิติ")
        sent = polls(guest)
        # The next poll, within the 2.5 s the test once waited whatever came: a poll every 2 s.
        with guest.expect_request(lambda r: "?v=" in r.url, timeout=2500):
            pass
        assert sent, "the table page polls while it is shown"
        hide(guest, True)
        sent.clear()
        support.start_game(host)
        assert [support.next_poll(guest) for _ in range(2)] == [False, False]  # hidden: skipped
        assert sent == []  # nothing sent
        expect(guest.locator("#play-title")).to_have_count(0)
        hide(guest, False)
        expect(guest.locator("#play-title")).to_be_visible(
            timeout=1_000
        )  # at once, not at the next tick


def test_a_region_built_once_gets_keys_made_on_the_phone_and_its_taps_land_once(
    browser, live_server
):
    """The region a poll brings was built once for every phone (views/live.py): it carries no
    CSRF token and empty idempotency keys. Each phone makes its own keys when the region comes,
    and a tap from it passes the CSRF check with the page's header and is recorded once."""
    with open_page(browser, "keys-host") as host, open_page(browser, "keys-guest") as guest:
        path = support.open_night(host, live_server.url, group="วงกุญแจ", seats=SEATS)
        night = Night.objects.get(pk=int(path.strip("/").split("/")[1]))
        join(guest, live_server.url, night, "มานี")
        support.start_game(host)
        game = Game.objects.get(status=Game.Status.IN_PLAY)
        support.record_event(host, {"type": "head", "player": SEATS[1]})
        paid = guest.locator("ul.played form[action$='/paid']")
        expect(paid).to_have_count(1, timeout=FOLLOWS_MS)  # brought by a poll, built once

        def made(page: Page) -> list[str]:
            return page.locator("#live input[name=idempotency_key]").evaluate_all(
                "fields => fields.map(f => f.value)"
            )

        guest_keys, host_keys = made(guest), made(host)
        assert guest_keys and all(guest_keys) and len(set(guest_keys)) == len(guest_keys)
        assert not set(guest_keys) & set(host_keys)  # each phone its own
        paid.locator("button").click()
        expect(guest.locator("ul.played .tag")).to_have_count(1)  # paid at the table
        expect(host.locator("ul.played .tag")).to_have_count(1, timeout=FOLLOWS_MS)
        lines = game.events.get(number=1).lines
        owed = lines.exclude(item="payment").count()  # each who pays the head, once
        assert owed and lines.filter(item="payment").count() == owed
