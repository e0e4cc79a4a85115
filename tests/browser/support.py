"""Filling the table's screens as a player would, reading them back, and what the engine expects.

Screens are found by what does not change with the language (field names, values, links, the
`data-*` hooks of the scoreboard and the preview), so the Thai catalogue can grow under the tests.
"""

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, Response, expect

from scorekeeper.rules import knock_dummy
from scorekeeper.rules.knock_dummy_document import game_from_document

SIAN = {"rules": "knock-dummy-2025", "level": "sian", "fine": 200}  # 100/200/300, fine = M
HALF_BAHT = Decimal("0.5")
FINGER = 44  # px: the smallest target a thumb hits reliably (WCAG 2.5.5, Apple's HIG)

# Everything that does not fit, as sentences: a page wider than the screen, small targets.
FIT_PROBLEMS = """(finger) => {
    const problems = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth) {
        problems.push(`scrolls sideways: ${width} px wide on a ${window.innerWidth} px screen`);
    }
    const shown = (el) => el.checkVisibility({ visibilityProperty: true });
    const name = (el) => `${el.tagName.toLowerCase()}${el.className ? "." + el.className : ""}`
        + ` "${el.textContent.replace(/\\s+/g, " ").trim().slice(0, 50)}"`;
    const targets = [...document.querySelectorAll("button, a.button, input[type=submit]")];
    for (const input of document.querySelectorAll("input[type=radio], input[type=checkbox]")) {
        if (!shown(input)) continue;
        if (input.labels.length === 0) {
            problems.push(`input[name=${input.name}][value=${input.value}] has no label`);
        }
        targets.push(...input.labels);
    }
    for (const el of new Set(targets)) {
        if (!shown(el)) continue;
        const height = el.getBoundingClientRect().height;
        if (height < finger) problems.push(`${name(el)} is ${height.toFixed(1)} px tall`);
    }
    return problems;
}"""


def signed(points: int) -> str:
    """Write points as the scoreboard does: +1,200 / −300 (a real minus) / 0."""
    if points > 0:
        return f"+{points:,}"
    if points < 0:
        return f"−{-points:,}"
    return "0"


def signed_baht(points: int, rate: Decimal = HALF_BAHT) -> str:
    """Write points as baht the way the scoreboard does: +600 / −12.50 / 0 (satang only if any)."""
    value = (Decimal(points) * rate).quantize(Decimal("0.01"))
    text = f"{abs(value):,.0f}" if value == value.to_integral_value() else f"{abs(value):,.2f}"
    return f"+{text}" if value > 0 else f"−{text}" if value < 0 else text


def game_document(
    players: Iterable[str], outcome: Mapping[str, Any], events: Iterable[dict]
) -> dict:
    return {**SIAN, "players": list(players), **outcome, "events": list(events)}


def engine_nets(
    players: Iterable[str], outcome: Mapping[str, Any], events: Iterable[dict] = ()
) -> dict[str, int]:
    """Settle one game's settle-contract document with the engine: each player's net."""
    return knock_dummy.settle(game_from_document(game_document(players, outcome, events))).net()


def event_nets(players: Iterable[str], events: Iterable[dict]) -> dict[str, int]:
    """What the events of a game still in play have made each player pay (-) or win (+)."""
    game = game_from_document(game_document(players, {}, events))
    nets = dict.fromkeys(game.players, 0)
    for line in knock_dummy.settle_events(game):
        nets[line.payer] -= line.amount
        nets[line.payee] += line.amount
    return nets


def add(running: Mapping[str, int], nets: Mapping[str, int]) -> dict[str, int]:
    return {p: running[p] + nets.get(p, 0) for p in running}


# -- the screens ---------------------------------------------------------------------------------


def open_night(
    page: Page,
    base_url: str,
    *,
    group: str,
    seats: list[str],
    first_dealer: int = 1,
    point_value: str = "0.5",
    shoot: Any = None,
) -> str:
    """Create a group on the home page and open a sian night in it; return the table's path."""
    page.goto(base_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "th")
    if shoot:
        shoot("home")
    page.fill('input[name="name"]', group)
    page.fill('input[name="host_name"]', "ต้น")
    page.locator('form[action="/groups/new"] button').click()
    expect(page.locator("h1")).to_have_text(group)
    if shoot:
        shoot("group")
    page.locator('a[href$="/sessions/new"]').click()
    for i, name in enumerate(seats, start=1):
        page.fill(f'input[name="seat_{i}"]', name)
    page.select_option('select[name="first_dealer"]', str(first_dealer))
    page.check('input[name="stake_level"][value="sian"]')
    page.fill('input[name="point_value"]', point_value)
    if shoot:
        shoot("open-night")
    page.locator("main form button.primary").click()
    page.wait_for_url(re.compile(r"/s/\d+/$"))
    return page.url.removeprefix(base_url)


def start_game(page: Page, *, head_color: str | None = None) -> None:
    """Start the next game from the table page; `head_color` settles the pending tie before it."""
    if head_color is not None:
        page.select_option('form.start select[name="head_color"]', head_color)
    page.locator("form.start button.primary").click()
    expect(page.locator("#play-title")).to_be_visible()


def record_event(page: Page, event: Mapping[str, Any], *, shoot: Any = None) -> None:
    """Tap the event's button on the table page and record it as the settle contract writes it."""
    table = page.url
    page.locator(f'.events a[href$="/events/{event["type"]}"]').click()
    form = page.locator("main form")
    form.locator('select[name="player"]').select_option(event["player"])
    for name in event.get("close", ()):
        form.locator(f'input[name="close"][value="{name}"]').check()
    if "count" in event:
        form.locator('select[name="count"]').select_option(str(event["count"]))
    if "reason" in event:
        form.locator('select[name="reason"]').select_option(event["reason"])
    if shoot:
        shoot(f"event-{event['type']}")
    form.locator("button.primary").click()
    page.wait_for_url(table)


def open_finish(page: Page) -> None:
    page.locator('#live a[href$="/finish"]').click()
    expect(page.locator('input[name="ending"]').first).to_be_visible()


def radio_values(page: Page, name: str) -> list[str]:
    return page.locator(f'input[name="{name}"]').evaluate_all("els => els.map(e => e.value)")


def _row(page: Page, player: str) -> Locator:
    header = page.get_by_role("rowheader", name=player, exact=True)
    return page.locator("table.entry tbody tr").filter(has=header)


def more(page: Page) -> None:
    """Open the end-of-game form's fields beyond an ordinary game, if they are closed."""
    details = page.locator("details.more")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()


def fill_result(
    page: Page, outcome: Mapping[str, Any], players: list[str], last_drawer: str | None = None
) -> None:
    """Fill the end-of-game form with a result written as the settle contract writes it."""
    knock = outcome.get("knock")
    page.check(f'input[name="ending"][value="{"knock" if knock else "stock-out"}"]')
    if knock:
        page.check(f'input[name="knocker"][value="{knock["player"]}"]', force=True)
    extras = {
        "knocker_held": outcome.get("knocker_speto", {}).get("held"),
        "knocker_picked": outcome.get("knocker_speto", {}).get("picked"),
        "face_down": outcome.get("face_down"),
        "total": outcome.get("total"),
    }
    unusual = (
        (knock and knock["kind"] != "normal")
        or outcome.get("fool")
        or "collected" in outcome
        or outcome.get("color")
        or outcome.get("speto_held")
        or any(v is not None for v in extras.values())
    )
    if unusual:
        more(page)
    if knock and knock["kind"] != "normal":
        page.check(f'input[name="kind"][value="{knock["kind"]}"]')
    if outcome.get("fool"):
        page.check(f'input[name="fool"][value="{outcome["fool"]}"]')
    if "collected" in outcome:
        for name in players:
            if name not in outcome["collected"]:
                page.check(f'input[name="dark"][value="{name}"]')
    for name in outcome.get("color", ()):
        page.check(f'input[name="color"][value="{name}"]')
    for name, count in outcome.get("speto_held", {}).items():
        page.locator(".held .field").filter(has=page.get_by_text(name, exact=True)).locator(
            "select"
        ).select_option(str(count))
    for field, value in extras.items():
        if value is not None:
            page.check(f'input[name="{field}"][value="{value}"]')
    if last_drawer is not None:
        page.check(f'input[name="last_drawer"][value="{last_drawer}"]')
    for name, points in outcome.get("points", {}).items():
        _row(page, name).locator('input[name^="points_"]').fill(str(points))


def expect_preview(page: Page, nets: Mapping[str, int]) -> None:
    """Wait for the live preview to show exactly these nets."""
    for name, net in nets.items():
        expect(page.locator(f'#preview [data-preview-net="{name}"]')).to_have_text(signed(net))
    expect(page.locator("#preview [data-preview-net]")).to_have_count(len(nets))


def save_result(page: Page) -> None:
    """Tap Save and wait for the table; if it does not come, say what the tap's POSTs got."""
    answered: list[str] = []

    def seen(response: Response) -> None:
        if response.request.method == "POST":
            answered.append(f"{response.status} {response.url}")

    page.on("response", seen)
    page.locator(".sticky-actions button.primary").click()
    try:
        page.wait_for_url(re.compile(r"/s/\d+/$"))
    except PlaywrightError as error:
        error.add_note(f"the POSTs answered after the tap on Save: {answered or 'none'}")
        raise
    finally:
        page.remove_listener("response", seen)


def board(page: Page) -> dict[str, tuple[int, str, str]]:
    """Read the scoreboard: each player's `data-net`, the points shown and the baht shown."""
    rows = page.eval_on_selector_all(
        "tr[data-player]",
        """rows => rows.map(r => {
            const net = r.querySelector('td[data-net]');
            return [r.dataset.player, net.dataset.net, net.textContent.trim(),
                    r.cells[3].textContent.trim()];
        })""",
    )
    return {name: (int(net), text, baht) for name, net, text, baht in rows}


def expected_board(nets: Mapping[str, int]) -> dict[str, tuple[int, str, str]]:
    return {name: (net, signed(net), signed_baht(net)) for name, net in nets.items()}


def seat_order(page: Page) -> list[str]:
    """The players of the scoreboard in seat order, from its Seat column."""
    rows = page.eval_on_selector_all(
        "tr[data-player]",
        "rows => rows.map(r => [r.cells[0].textContent.trim(), r.dataset.player])",
    )
    return [name for seat, name in sorted(rows) if seat.isdigit()]


def games_header(page: Page) -> list[str]:
    """The players' names heading the columns of the games list."""
    return page.locator("table.games thead th.num").all_inner_texts()


def games_rows(page: Page) -> list[tuple[str, str, list[str]]]:
    """Each row of the games list, newest first: (number, status, the nets shown)."""
    rows = page.eval_on_selector_all(
        "table.games tbody tr",
        """rows => rows.map(r => [r.cells[0].querySelector('a').textContent.trim(),
            r.className, Array.from(r.cells).slice(1).map(c => c.textContent.trim())])""",
    )
    return [(number, status, nets) for number, status, nets in rows]


TRANSFER = re.compile(r"^(?P<payer>.+?) → (?P<payee>.+?) (?P<baht>[\d,]+(?:\.\d\d)?) ฿$")


def transfers(page: Page) -> list[tuple[str, str, Decimal, bool]]:
    """The settle-up's transfers as shown, in baht: (payer, payee, baht, marked paid)."""
    items = page.locator("#transfers ul.transfers > li").evaluate_all(
        """lis => lis.map(li => [li.querySelector(':scope > span').textContent
            .replace(/\\s+/g, ' ').trim(), li.classList.contains('paid')])"""
    )
    shown = []
    for text, paid in items:
        match = TRANSFER.match(text)
        assert match, f"a transfer reads {text!r}"
        shown.append(
            (match["payer"], match["payee"], Decimal(match["baht"].replace(",", "")), paid)
        )
    return shown


# Resolves at the region's next fetch (told by the stream, or polled), once live.js has judged
# it: true if it was sent, false if it was skipped (a hidden page, or a form in the region being
# filled in).
NEXT_POLL = """() => new Promise((resolve) => {
    const tick = (event) => {
        if (!event.detail.elt.matches("[data-live]")) return;
        if (event.detail.requestConfig.verb !== "get") return;
        document.removeEventListener("htmx:beforeRequest", tick);
        resolve(!event.defaultPrevented);
    };
    document.addEventListener("htmx:beforeRequest", tick);
})"""


def next_poll(page: Page) -> bool:
    """Wait for the live region's next fetch; say whether it was sent."""
    return page.evaluate(NEXT_POLL)


def arm_next_poll(page: Page) -> None:
    """Catch the live region's next fetch from now on, for `armed_poll`: a change told by the
    stream may bring it before the test could start waiting."""
    page.evaluate(f"() => {{ window.nextPoll = ({NEXT_POLL})(); }}")


def armed_poll(page: Page) -> bool:
    """Wait for the fetch `arm_next_poll` caught; say whether it was sent."""
    return page.evaluate("() => window.nextPoll")
