"""Every screen looked at: a 390 × 844 phone in Thai, light and dark.

Each screen is checked (and saved as test-artifacts/screens/390-<scheme>-<screen>.png when asked:
`make screens`): it fits the phone (no sideways scroll, targets a thumb hits), no text is cut off,
numbers line up, and axe-core finds nothing against WCAG 2.1 A and AA. The screens are walked once,
each looked at in light, then in dark (the phone's colour scheme switched on the page as it
stands). Every problem is collected; the test fails at the end naming them all. The night is begun
through the screens, the rest made with the services (the live server shares the test's database)
to keep the run short.
"""

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from scorekeeper.models import Game, Group, Membership, Night, ShareLink
from scorekeeper.services import access, games, scoresheet
from tests.browser import support
from tests.browser.conftest import Shoot, open_page
from tests.scoresheet_nights import score_sheets as make_sheets
from tests.tab_nights import carried_night

pytestmark = pytest.mark.browser

SEATS = ["นก", "หนู", "แมว", "ปลาทอง"]
NOK, NOO, MAEW, PLATHONG = SEATS
EVENTS = ["head", "speto", "dummy-discard", "full-discard", "show-speto", "fine"]
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
# The dark scheme changes colours alone (app.css: custom properties under prefers-color-scheme),
# never the page's elements or layout: in dark, the rules of WCAG 2.1 A and AA that judge colour
# (contrast, 1.4.3; a link told from its text by colour alone, 1.4.1). Every other rule judges
# the same elements it judged in light.
AXE_COLOUR = {"runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
              "resultTypes": ["violations"]}  # fmt: skip
# axe-core 4.14.1 as npm ships it (tests/browser/axe/README.md): over the screens, 20.7 s against
# 24-26 s with the 4.12.1 axe-playwright-python bundled; and it judges a button's name against
# its visible label (2.5.3).
AXE_SCRIPT = (Path(__file__).parent / "axe" / "axe.min.js").read_text()
SCHEMES = {"light": AXE_OPTIONS, "dark": AXE_COLOUR}
# The README's screens, made only when asked (`make screens`) so that an ordinary run leaves the
# committed files alone: a phone's screen in light, as a small JPEG.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screens"
TO_DOCS = os.environ.get("SCOREKEEPER_SCREENS_TO_DOCS") == "1"

# What else looks wrong, as sentences. A link standing alone in its block (a list item, a cell, a
# paragraph of its own) is the only way somewhere: a target like a button. Text wider than its
# box is cut off unless the box ellipsizes on purpose. A number column is right-aligned in
# figures of one width, so that the digits of a column line up.
LOOK_PROBLEMS = """(finger) => {
    const problems = [];
    const shown = (el) => el.checkVisibility({ visibilityProperty: true });
    const text = (el) => el.textContent.replace(/\\s+/g, " ").trim();
    const name = (el) => `${el.tagName.toLowerCase()}${el.className ? "." + el.className : ""}`
        + ` "${text(el).slice(0, 50)}"`;
    for (const link of document.querySelectorAll("a:not(.button)")) {
        if (!shown(link) || link.closest(".sr")) continue;
        const block = link.parentElement;
        if (!block || text(block) !== text(link)) continue;
        const height = link.getBoundingClientRect().height;
        if (height < finger) problems.push(`link ${name(link)} is ${height.toFixed(1)} px tall`);
    }
    const boxes = "button, .button, th, td, .choice, .tag, label, summary, legend, h1, h2, h3";
    for (const el of document.querySelectorAll(boxes)) {
        if (!shown(el) || el.closest(".sr")) continue;
        const style = getComputedStyle(el);
        if (style.display === "inline" || style.textOverflow === "ellipsis") continue;
        if (el.scrollWidth > el.clientWidth + 1) {
            problems.push(`${name(el)} is cut off: ${el.scrollWidth} px of text`
                + ` in ${el.clientWidth} px`);
        }
    }
    for (const el of document.querySelectorAll("td.num, th.num")) {
        if (!shown(el)) continue;
        const style = getComputedStyle(el);
        if (style.textAlign !== "right") problems.push(`${name(el)} is aligned ${style.textAlign}`);
        if (!style.fontVariantNumeric.includes("tabular-nums")) {
            problems.push(`${name(el)} has no tabular figures`);
        }
    }
    return problems;
}"""


@dataclass
class Look:
    """Shoot and check each screen in each colour scheme, keeping every problem found."""

    page: Page
    shoot: Shoot
    problems: list[str] = field(default_factory=list)
    screens: list[str] = field(default_factory=list)

    def __call__(self, screen: str) -> None:
        self.page.wait_for_load_state()
        self.page.evaluate("window.scrollTo(0, 0)")  # sticky bars where they belong in the shot
        for scheme, options in SCHEMES.items():
            self.page.emulate_media(color_scheme=scheme)
            name = f"390-{scheme}-{screen}"
            self.shoot(name, on=self.page)
            found = []
            if options is AXE_OPTIONS:  # the layout, once: the schemes differ in colour only
                found += self.page.evaluate(support.FIT_PROBLEMS, support.FINGER)
                found += self.page.evaluate(LOOK_PROBLEMS, support.FINGER)
            for rule in axe_violations(self.page, options):
                targets = ", ".join(" ".join(node["target"]) for node in rule["nodes"])
                found.append(f"axe {rule['id']} ({rule['impact']}): {targets}")
            self.problems += [f"{name}: {problem}" for problem in found]
        self.page.emulate_media(color_scheme="light")
        self.screens.append(screen)

    def visit(self, path: str, screen: str) -> None:
        self.page.goto(self.base + path)
        self(screen)

    @property
    def to_docs(self) -> bool:
        return TO_DOCS

    def docs(self, name: str, first: str | None = None) -> None:
        """Save the phone's screen as docs/screens/<name>.jpg for the README, if asked: the top of
        the page, or scrolled so that the element `first` names sits just under the bar."""
        if not self.to_docs:
            return
        DOCS.mkdir(parents=True, exist_ok=True)
        self.page.evaluate("window.scrollTo(0, 0)")
        if first:
            bar = self.page.locator(".bar").first.bounding_box()
            box = self.page.locator(first).bounding_box()
            assert bar and box, f"{first} is not on the page"
            self.page.evaluate("y => window.scrollTo(0, y)", box["y"] - bar["height"] - 8)
        self.page.screenshot(path=str(DOCS / f"{name}.jpg"), type="jpeg", quality=75)

    @property
    def base(self) -> str:
        return re.match(r"https?://[^/]+", self.page.url)[0]  # type: ignore[index]


def axe_violations(page: Page, options: dict[str, Any]) -> list[dict[str, Any]]:
    """axe-core's violations of the rules `options` name on the page as it is now: axe is put
    into each document once (half a megabyte of script) and run as often as it is looked at."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate("async (options) => (await axe.run(document, options)).violations",
                         options)  # fmt: skip


def knock(knocker: str, kind: str, **points: int) -> dict[str, Any]:
    return {"knock": {"player": knocker, "kind": kind}, "points": points}


def knock_dummy_night(look: Look, base_url: str, group_name: str) -> tuple[Night, Membership]:
    """Open a night on the screens, play a game on them, then fill the night with the services."""
    page = look.page
    table = support.open_night(page, base_url, group=group_name, seats=SEATS, shoot=look)
    night = Night.objects.get(pk=int(table.strip("/").split("/")[1]))
    host = Membership.objects.get(group=night.group, role=Membership.Role.HOST)
    look("table")

    support.start_game(page)
    in_play = Game.objects.get(night=night, status=Game.Status.IN_PLAY)
    for event in EVENTS:
        look.visit(f"{table}games/{in_play.pk}/events/{event}", f"event-{event}")
    page.goto(base_url + table)
    support.record_event(page, {"type": "head", "player": MAEW, "close": [NOO]})
    support.record_event(page, {"type": "dummy-discard", "player": NOK})
    support.record_event(page, {"type": "full-discard", "player": NOO})
    page.locator('form[action$="/events/3/remove"] button').click()  # struck through, and who
    expect(page.locator("ul.played li.reversal del")).to_have_count(1)
    look("table-play")
    look.docs("table")
    # A shared cost at the table while the game goes on: its form opened in place, one tap.
    page.locator("#cost-add summary").click()
    expect(page.locator("#cost-add form")).to_be_visible()
    look("table-cost-form")
    page.locator("#cost-add summary").click()

    support.open_finish(page)
    look("finish")
    if look.to_docs:  # the README's end of a game: filled in, its summary below; then afresh
        support.fill_result(page, knock(NOK, "normal", **{NOO: 10, MAEW: 25, PLATHONG: 5}), SEATS)
        expect(page.locator("#preview [data-preview-net]")).to_have_count(len(SEATS))
        look.docs("finish")
        page.goto(page.url)
        expect(page.locator('input[name="ending"]').first).to_be_visible()
    page.check('input[name="ending"][value="knock"]')
    page.check(f'input[name="knocker"][value="{NOK}"]', force=True)
    page.locator(f'tr[data-player="{MAEW}"] input[name^=points_]').fill("99999999999")
    page.locator(".sticky-actions button.primary").click()
    # The save's refusal (the form's errors), or the preview's if it came first: a tap made
    # within the preview's 0.4 s wait swaps the form before the preview is asked for.
    expect(page.locator("#main .error").first).to_be_visible()
    look("finish-errors")
    outcome = {**knock(NOK, "dark", **{MAEW: 12, PLATHONG: 3}), "fool": NOO}
    support.fill_result(page, outcome, SEATS)
    support.more(page)
    expect(page.locator("#preview [data-preview-net]")).to_have_count(len(SEATS))
    look("finish-more")
    support.save_result(page)
    expect(page.locator("form.undo")).to_be_visible()
    look("table-saved")
    formulas = Game.objects.get(night=night, number=1)

    settled = games.game_start(night=night, actor=host)
    games.game_finish(game=settled, outcome=knock(MAEW, "normal", นก=10, หนู=20, ปลาทอง=3))
    voided = games.game_start(night=night, actor=host)
    games.game_finish(game=voided, outcome=knock(PLATHONG, "dark-color", นก=5, หนู=2, แมว=3))
    games.game_void(game=voided, actor=host)
    tie = games.game_start(night=night, actor=host)
    games.game_finish(game=tie, outcome=knock(NOK, "normal", **{NOO: 10, MAEW: 10, PLATHONG: 25}))
    look.visit(table, "table-tie")
    look.visit(f"{table}games/{tie.pk}/", "game-tie")
    look.visit(f"{table}games/{formulas.pk}/", "game-formulas")
    look.visit(f"{table}games/{settled.pk}/", "game-settled")
    look.visit(f"{table}games/{voided.pk}/", "game-voided")
    look.visit(f"{table}games/{voided.pk}/correct", "game-correct")
    look.visit(f"{table}games/{settled.pk}/void", "game-void")
    look.visit(f"{table}seats", "seats")
    look.visit(f"{table}history", "history")

    last = games.game_start(night=night, head_color="red", actor=host)
    games.game_finish(game=last, outcome=knock(NOO, "normal", **{NOK: 15, MAEW: -5, PLATHONG: 40}))
    look.visit(f"{table}settle", "settle")
    # A shared cost, entered on the phone: the form opens under its summary.
    page.locator("section.costs summary").click()
    page.fill('input[name="cost-reason"]', "ข้าวมันไก่")
    page.fill('input[name="cost-baht"]', "๒๐๐")
    page.select_option('select[name="cost-paid_by"]', NOK)
    look("settle-cost-form")
    page.locator("section.costs form button.primary").click()
    expect(page.locator("section.costs ul.lines")).to_contain_text("ข้าวมันไก่")
    # The host's choices at the close: a table fee to the house per game, rounding to 5 baht.
    page.check('input[name="mode"][value="fewest"]')
    page.locator("main form.card details summary").click()
    page.fill('input[name="fee"]', "20")
    page.select_option('select[name="rounding"]', "5")
    look("settle-fee-rounding")
    page.locator("main form.card button.primary").click()
    expect(page.locator("section.money-lines")).to_contain_text("ข้าวมันไก่")
    expect(page.locator("#transfers")).to_contain_text("เจ้าบ้าน")
    expect(page.locator("#transfers")).to_be_visible()
    page.locator("#transfers button.primary").first.click()
    expect(page.locator("#transfers li.paid")).to_have_count(1)
    look("settle-closed")
    look.docs("settle-up", first="#sums-title")  # what each pays, then who pays whom
    # One carried to next time (ติดไว้ก่อน): owed on the group's page and at the next sheet.
    page.locator('#transfers li:not(.paid) form:has(input[name="carry"]) button').first.click()
    expect(page.locator("#transfers")).to_contain_text("ติดไว้ก่อน ·")
    look("settle-carried")
    # Every payee's id saved after the close, read by a member who is none of the players: each
    # id masked, no QR code, and each transfer saying the number changed.
    night.group.players.update(
        promptpay="1111111111119", promptpay_changed_at=timezone.now(), promptpay_changed_by="ต้น"
    )
    Membership.objects.filter(pk=host.pk).update(role=Membership.Role.PLAYER)
    look.visit(f"{table}settle", "settle-masked")
    look.visit(f"/g/{night.group_id}/", "group-masked")
    Membership.objects.filter(pk=host.pk).update(role=Membership.Role.HOST)
    look.visit(f"{table}summary", "summary")
    # The share link, as a stranger's phone opens it: each player's sum, part by part.
    link = ShareLink.objects.get(night=night, revoked_at__isnull=True)
    look.visit(f"/n/{link.token}", "shared")
    return night, host


def score_sheets(look: Look, group: Group, host: Membership) -> None:
    """A classic Dummy sheet in play and a Gong Zhu sheet closed, each screen of them."""
    dummy, hand, gong, gong_hand = make_sheets(group, host, SEATS)
    for ruleset, sheet, shown in (("dummy", dummy, hand), ("gong-zhu", gong, gong_hand)):
        look.visit(f"/s/{sheet.pk}/", f"{ruleset}-table")
        look.visit(f"/s/{sheet.pk}/hands/new", f"{ruleset}-hand-new")
        look.visit(f"/s/{sheet.pk}/hands/{shown.pk}/", f"{ruleset}-hand")
        look.visit(f"/s/{sheet.pk}/race/history", f"{ruleset}-history")
        if sheet == gong:
            scoresheet.scoresheet_close(night=gong, actor=host)
        look.visit(f"/s/{sheet.pk}/race/settle", f"{ruleset}-settle")


def test_every_screen_fits_a_thai_phone_reads_well_and_passes_axe(
    browser: Browser, live_server: Any, screenshot: Shoot
) -> None:
    base = live_server.url
    with open_page(browser, "screens") as page:
        look = Look(page, screenshot)
        night, host = knock_dummy_night(look, base, "วงดูจอ")
        group = night.group
        look.visit(f"/g/{group.pk}/", "group-history")
        page.locator("#rules summary").click()  # the group's own rules, its form opened
        expect(page.locator('#rules input[name="kd-point_value"]')).to_be_visible()
        look("group-rules")
        # Debts carried both ways over two more nights: the tab to settle, then settled.
        carried_night(group, NOO, "0.5", host, SEATS)
        carried_night(group, MAEW, "0.3333", host, SEATS)
        look.visit(f"/g/{group.pk}/", "group-tab")
        page.locator('form[action$="/tab/settle"] button').click()
        expect(page.locator("article.settled-tab")).to_have_count(1)
        page.locator("article.settled-tab li form button.primary").first.click()
        expect(page.locator("article.settled-tab > ul > li.paid")).to_have_count(1)
        page.locator("article.settled-tab details.more summary").click()
        look("group-tab-settled")
        player = group.players.get(name=NOK)
        look.visit(f"/g/{group.pk}/players/{player.pk}", "player")
        for role in (Membership.Role.PLAYER, Membership.Role.VIEWER):
            invite = access.invite_create(group=group, role=role, by=host)
        look.visit(f"/g/{group.pk}/members", "members")
        look.visit(f"/g/{group.pk}/audit", "audit")
        score_sheets(look, group, host)

        elsewhere = access.group_create(name="วงอื่น", device=access.device_create(), host_name="ใหม่")
        Membership.objects.create(
            group=elsewhere, role=Membership.Role.VIEWER, device=host.device, name="ต้น"
        )
        look.visit(f"/g/{elsewhere.pk}/members", "403")
        look.visit("/s/999999/", "404")
        look.visit("/offline", "offline")

        page.context.clear_cookies()  # a stranger's phone: joining and signing in
        look.visit("/join", "join")
        look.visit(f"/join/{invite.token}", "join-link")
        look.visit("/accounts/login", "sign-in")
        look.visit("/accounts/signup", "sign-up")
    print(f"{len(look.screens)} screens, each in {' and '.join(SCHEMES)}")
    assert look.problems == [], "\n".join(look.problems)
