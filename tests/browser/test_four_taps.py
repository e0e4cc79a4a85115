"""An ordinary Knock Dummy game in four taps and the points, on a 390 x 844 phone, without
scrolling: start, end of game, the knocker, Save."""

import re

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from scorekeeper.models import Game
from tests.browser import support
from tests.browser.conftest import open_page

pytestmark = pytest.mark.browser
SEATS = ["สมชาย", "สมศรี", "มานี", "ปิติ"]


def in_view(page: Page, target: Locator) -> None:
    """The target is on the screen as it is, without a scroll."""
    box = target.bounding_box()
    assert box is not None
    viewport = page.viewport_size
    assert viewport is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert page.evaluate("() => window.scrollY") == 0


def test_an_ordinary_game_takes_four_taps_and_the_points_without_a_scroll(
    page, live_server, screenshot
):
    support.open_night(page, live_server.url, group="วงสี่แตะ", seats=SEATS)
    taps = 0

    def tap(target: Locator) -> None:
        nonlocal taps
        in_view(page, target)
        target.click()
        taps += 1

    tap(page.locator("form.start button.primary"))
    end = page.locator('#live a[href$="/finish"]')
    expect(end).to_be_visible()
    tap(end)
    page.wait_for_url("**/finish")  # the form's page, not the table still going
    game = Game.objects.get(status=Game.Status.IN_PLAY)
    knocker, *losers = SEATS  # seat order, as the form lists them
    screenshot("four-taps-end-of-game", page)
    # Where Save is as each preview comes in: a tap on it as one arrives must land on it.
    page.evaluate("""() => {
      const save = () => document.querySelector(".sticky-actions button.primary");
      window.saveAt = [save().getBoundingClientRect().top];
      document.addEventListener("htmx:afterSettle", () => {
        if (save()) window.saveAt.push(save().getBoundingClientRect().top);
      });
    }""")
    tap(page.locator(f'.knocker-pick input[value="{knocker}"]'))
    points = {
        name: page.locator(f'tr[data-player="{name}"] input[name^="points_"]') for name in SEATS
    }
    expect(points[losers[0]]).to_be_focused()  # the first loser's points, without a tap
    expect(points[knocker]).to_be_disabled()
    for name, typed in zip(losers, ["๑๐", "20", "30"], strict=True):
        in_view(page, points[name])
        points[name].press_sequentially(typed)  # a phone's keyboard: a field after another
    page.locator(f'tr[data-player="{losers[1]}"] button.sign').click()  # no minus on the pad
    expect(points[losers[1]]).to_have_value("-20")
    save = page.locator(".sticky-actions button.primary")
    support.expect_preview(
        page,
        support.engine_nets(
            game.document["players"],
            {
                "knock": {"player": knocker, "kind": "normal"},
                "points": {losers[0]: 10, losers[1]: -20, losers[2]: 30},
            },
        ),  # fmt: skip
    )
    seen = page.evaluate("() => window.saveAt")
    assert len(seen) > 2 and len(set(seen)) == 1, seen  # Save stayed put through every preview
    tap(save)
    page.wait_for_url(f"**/s/{game.night_id}/")
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    assert game.document["points"] == {losers[0]: 10, losers[1]: -20, losers[2]: 30}
    assert taps == 4  # the sign was a fifth, for a negative hand only

    page.go_back()  # back, after the save: the saved game, not an empty form to fill again
    page.wait_for_url(f"**/s/{game.night_id}/games/{game.pk}/")
    expect(page.locator('input[name^="points_"]')).to_have_count(0)
    expect(page.locator("main")).to_contain_text(losers[2])


def ready_to_save(page: Page, base_url: str, group: str) -> Game:
    """A night's first game in play, its end of game filled in (the first seat knocks; the
    others 10, 20 and 30) and previewed: Save is the next tap."""
    support.open_night(page, base_url, group=group, seats=SEATS)
    support.start_game(page)
    support.open_finish(page)
    game = Game.objects.get(status=Game.Status.IN_PLAY)
    knocker, *losers = SEATS
    outcome = {
        "knock": {"player": knocker, "kind": "normal"},
        "points": dict(zip(losers, [10, 20, 30], strict=True)),
    }
    support.fill_result(page, outcome, SEATS)
    support.expect_preview(page, support.engine_nets(game.document["players"], outcome))
    return game


def test_save_is_disabled_while_it_runs_so_a_double_tap_sends_the_game_once(page, live_server):
    game = ready_to_save(page, live_server.url, "วงแตะสองที")
    save = page.locator(".sticky-actions button.primary")
    disabled: list[bool] = []

    def sent(route: Route) -> None:
        disabled.append(save.is_disabled())  # as the save leaves the phone
        route.continue_()

    page.route(f"**/s/{game.night_id}/games/{game.pk}/finish", sent)
    save.dblclick()
    page.wait_for_url(f"**/s/{game.night_id}/")
    expect(page.locator("form.start")).to_be_visible()  # the table, after the save
    assert disabled == [True]  # one save sent, Save disabled while it ran
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED


def test_a_save_made_further_down_the_page_brings_the_table_back_from_its_top(browser, live_server):
    """A phone shorter than the end-of-game page, scrolled down to Save: the table the save
    brings back is shown from its top (the page scrolled up just before the swap)."""
    with open_page(browser, "save-from-below", viewport={"width": 390, "height": 480}) as page:
        game = ready_to_save(page, live_server.url, "วงเลื่อนจอ")
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        assert page.evaluate("() => window.scrollY") > 0
        page.locator(".sticky-actions button.primary").click()
        page.wait_for_url(f"**/s/{game.night_id}/")
        expect(page.locator("form.start button.primary")).to_be_visible()
        assert page.evaluate("() => window.scrollY") == 0
        in_view(page, page.locator("form.start button.primary"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_number_pad_leaves_save_in_view(browser, live_server, scheme):
    """A phone's keyboard leaves 390 x 500 of the screen: Save stays in it, as the page asks."""
    with open_page(browser, f"number-pad-{scheme}", color_scheme=scheme) as page:
        number_pad_leaves_save_in_view(page, live_server)


KEYBOARD_LEAVES = 500  # px of a 390 x 844 screen above a phone's number pad


def interactive_widget(page: Page) -> str:
    """What the page's viewport meta asks a browser to do for its on-screen keyboard."""
    content = page.locator('meta[name="viewport"]').get_attribute("content") or ""
    asked = re.search(r"interactive-widget\s*=\s*([\w-]+)", content)
    modes = ("resizes-visual", "resizes-content", "overlays-content")
    return asked[1] if asked and asked[1] in modes else "resizes-visual"  # the default


def keyboard_opens(page: Page, focused: Locator) -> tuple[float, float]:
    """Do to the page what opening a phone's keyboard does, as its viewport meta asks; return
    the band of the viewport the keyboard leaves in sight (top, bottom), in CSS pixels.

    Headless Chromium has no on-screen keyboard, and no DevTools command applies
    interactive-widget, so this follows css-viewport: resizes-content shrinks the layout
    viewport to what is left (the page lays out again in 390 x 500); resizes-visual, the
    default, keeps the layout 844 px tall and shrinks only the visual viewport, which the
    browser pans down far enough to show the focused field; overlays-content shrinks nothing.
    """
    mode = interactive_widget(page)
    if mode == "resizes-content":
        page.set_viewport_size({"width": 390, "height": KEYBOARD_LEAVES})
        return 0, KEYBOARD_LEAVES
    top = 0.0
    if mode == "resizes-visual":
        box = focused.bounding_box()
        assert box is not None
        top = max(0.0, box["y"] + box["height"] - KEYBOARD_LEAVES)
    return top, top + KEYBOARD_LEAVES


def number_pad_leaves_save_in_view(page: Page, live_server) -> None:
    support.open_night(page, live_server.url, group="วงแป้นตัวเลข", seats=SEATS)
    page.locator("form.start button.primary").click()
    page.locator('#live a[href$="/finish"]').click()
    knocker, *losers = SEATS
    page.locator(f'.knocker-pick input[value="{knocker}"]').click()
    for name, typed in zip(losers[1:], ["15", "35"], strict=True):
        page.locator(f'tr[data-player="{name}"] input[name^="points_"]').fill(typed)
    points = page.locator(f'tr[data-player="{losers[0]}"] input[name^="points_"]')
    points.focus()
    points.press_sequentially("25")
    save = page.locator(".sticky-actions button.primary")
    seen_top, seen_bottom = keyboard_opens(page, points)
    expect(points).to_be_focused()
    box = save.bounding_box()
    assert box is not None
    assert seen_top <= box["y"] and box["y"] + box["height"] <= seen_bottom, (box, seen_bottom)
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.sticky-actions button.primary')"
        " !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit, "something covers Save"
    # Each player's points, brought into view as a browser brings a focused field (by the
    # nearest edge), show above the bar: none is typed in under it.
    bar = page.locator(".sticky-actions").bounding_box()
    assert bar is not None
    for name in losers:
        field = page.locator(f'tr[data-player="{name}"] input[name^="points_"]')
        field.focus()
        field.evaluate("field => field.scrollIntoView({block: 'nearest'})")
        shown = field.bounding_box()
        assert shown is not None and shown["y"] + shown["height"] <= bar["y"], (name, shown, bar)
    night = re.search(r"/s/(\d+)/", page.url)[1]
    points.focus()
    save.click()  # tapped where it is, no scroll first
    page.wait_for_url(f"**/s/{night}/")
    # Read once the save is answered, in the live server's turn: the table just loaded asks for
    # more (the next game's pages kept for offline), and a read of the test's one connection to
    # the database in memory while a request writes through it fails with "table is locked".
    with live_server.thread.httpd.turn:
        game = Game.objects.get()
    assert game.status == Game.Status.SETTLED
    assert game.document["points"] == {losers[0]: 25, losers[1]: 15, losers[2]: 35}
