"""A whole evening at one Thai table, driven only through the screens: ten games, then settle up.

Every amount on the screens is checked against the engine settling the same game written as the
settle contract's document (docs/rules/knock-dummy.md), summed game after game.
"""

import re
from collections.abc import Mapping
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.errors import TieUnresolved
from scorekeeper.rules.transfers import fewest_transfers
from tests.browser.conftest import Shoot
from tests.browser.support import (
    HALF_BAHT,
    add,
    board,
    engine_nets,
    event_nets,
    expect_preview,
    expected_board,
    fill_result,
    games_header,
    games_rows,
    open_finish,
    open_night,
    radio_values,
    record_event,
    save_result,
    seat_order,
    signed,
    signed_baht,
    start_game,
    transfers,
)

pytestmark = pytest.mark.browser

SOMCHAI, SOMSRI, MANEE, PITI = "สมชาย", "สมศรี", "มานี", "ปิติ"
GROUP = "วงวันเสาร์ซอยสาม"


class Evening:
    """The table as the test expects it: seats, this game's turn order and events, the nets."""

    def __init__(self, page: Page, base_url: str, shoot: Shoot) -> None:
        self.page, self.base_url, self.shoot = page, base_url, shoot
        self.seats = [SOMCHAI, SOMSRI, MANEE, PITI]  # seat order is turn order
        self.running = dict.fromkeys(self.seats, 0)
        self.at_start = dict(self.running)
        self.number = 0
        self.order: list[str] = []  # this game's turn order, the dealer first
        self.events: list[dict[str, Any]] = []
        self.table = ""

    def open(self) -> None:
        self.table = open_night(
            self.page, self.base_url, group=GROUP, seats=self.seats, shoot=self.shoot
        )
        self.check_board()

    def check_board(self) -> None:
        assert board(self.page) == expected_board(self.running)

    def check_game_row(self, number: int, status: str, nets: Mapping[str, int]) -> None:
        names = games_header(self.page)
        rows = [r for r in games_rows(self.page) if r[0] == str(number) and r[1] == status]
        assert [r[2] for r in rows] == [[signed(nets[p]) for p in names]]

    def start(
        self,
        dealer: str,
        *,
        head_color: str | None = None,
        settles: Mapping[str, int] | None = None,
    ) -> None:
        """Start the next game and check who deals and where everyone sits."""
        start_game(self.page, head_color=head_color)
        self.running = add(self.running, settles or {})
        self.at_start = dict(self.running)
        self.number += 1
        at = self.seats.index(dealer)
        self.order = self.seats[at:] + self.seats[:at]
        self.events = []
        title = self.page.locator("#play-title")
        expect(title).to_contain_text(str(self.number))
        expect(title).to_contain_text(dealer)
        assert seat_order(self.page) == self.seats
        self.check_board()

    def event(self, event: dict[str, Any], *, shoot: bool = False) -> None:
        """Record an event: it is paid at once."""
        record_event(self.page, event, shoot=self.shoot if shoot else None)
        self.events.append(event)
        self.running = add(self.at_start, event_nets(self.order, self.events))
        self.check_board()

    def enter_result(
        self, outcome: Mapping[str, Any], *, last_drawer: str | None = None
    ) -> dict[str, int]:
        """Fill the end-of-game form; wait for its preview to agree with the engine."""
        nets = engine_nets(self.order, outcome, self.events)
        open_finish(self.page)
        assert radio_values(self.page, "knocker") == self.seats  # seat order, whoever deals
        fill_result(self.page, outcome, self.order, last_drawer)
        expect_preview(self.page, nets)
        return nets

    def save(self, nets: Mapping[str, int]) -> None:
        save_result(self.page)
        self.running = add(self.at_start, nets)
        self.check_board()
        self.check_game_row(self.number, "settled", nets)

    def finish(
        self, outcome: Mapping[str, Any], *, last_drawer: str | None = None
    ) -> dict[str, int]:
        nets = self.enter_result(outcome, last_drawer=last_drawer)
        self.save(nets)
        return nets

    def open_game(self, number: int, status: str) -> None:
        row = self.page.locator(f"table.games tbody tr.{status}")
        row.locator("td:first-child a").filter(has_text=re.compile(rf"^{number}$")).click()
        expect(self.page.locator("h1")).to_contain_text(str(number))

    def back_to_table(self) -> None:
        self.page.locator(f'main a[href="{self.table}"]').first.click()
        self.page.wait_for_url(self.base_url + self.table)


def handover(page: Page, player: str) -> tuple[str, str]:
    """The 86-87 line of one loser, from the preview or the game page: (amount shown, formula)."""
    item = page.locator(".handovers > li").filter(
        has=page.locator("strong", has_text=re.compile(rf"^{player}$"))
    )
    text = item.inner_text()
    return text, item.locator(".formula").inner_text()


def test_an_evening_of_ten_games_settles_as_the_engine_says(
    page: Page, live_server: Any, screenshot: Shoot
) -> None:
    t = Evening(page, live_server.url, screenshot)
    t.open()
    expect(page.locator("main .meta")).to_contain_text("200")  # fine: the medium rate
    screenshot("table-empty")

    # 1. สมชาย deals. มานี picks up the head off สมศรี's close discard (ตีปี้หัว: สมศรี alone pays
    # 3 × M), ปิติ's dummy discard is called (ตีดัมมี่), then สมศรี knocks.
    t.start(SOMCHAI)
    t.event({"type": "head", "player": MANEE, "close": [SOMSRI]}, shoot=True)
    assert t.running == {SOMCHAI: 0, SOMSRI: -600, MANEE: 600, PITI: 0}
    t.event({"type": "dummy-discard", "player": PITI}, shoot=True)
    screenshot("table")
    t.finish(
        {
            "knock": {"player": SOMSRI, "kind": "normal"},
            "points": {SOMCHAI: 30, MANEE: 10, PITI: -20},
        }
    )

    # 2. The knocker deals (rule 10). มานี knocks dark; ปิติ discarded the fool (ตีโง่); สมชาย
    # never collected and holds Q♠: the worked example of the settlement page (86.2).
    t.start(SOMSRI)
    dark_fool = {
        "knock": {"player": MANEE, "kind": "dark"},
        "fool": PITI,
        "collected": [SOMSRI, MANEE, PITI],
        "speto_held": {SOMCHAI: 1},
        "points": {SOMSRI: 35, PITI: 10},
    }
    nets = t.enter_result(dark_fool)
    assert nets == {SOMSRI: 200, MANEE: 4200, PITI: -2000, SOMCHAI: -2400}
    fool_says, fool_formula = handover(page, PITI)
    assert "+2,000" in fool_says and "86.2" in fool_says
    assert fool_formula.startswith("5 × ")
    assert fool_formula.endswith("= 5 × 400 + 400 − 400 = 2,000")  # 5 × fool + lv(F) − hold
    holder_says, holder_formula = handover(page, SOMCHAI)
    assert "+2,400" in holder_says and "87.4" in holder_says
    assert holder_formula.endswith("= 1,200 + 3 × 400 = 2,400")  # lv(H) + 3 × hold
    screenshot("finish-form-preview")
    t.save(nets)
    t.open_game(2, "settled")
    assert handover(page, PITI)[1].endswith("= 5 × 400 + 400 − 400 = 2,000")
    screenshot("game-page")
    t.back_to_table()

    # 3. The fool discarder and the knocker swap seats before the deal (rule 17); มานี deals.
    t.seats = [SOMCHAI, SOMSRI, PITI, MANEE]
    t.start(MANEE)
    page.locator('nav.actions a[href$="/seats"]').click()
    expect(page.locator("main ol.list > li")).to_have_text(t.seats)  # once the page is there
    expect(page.locator("main ul.list")).to_contain_text(PITI)
    screenshot("seats")
    t.back_to_table()
    # สมศรี still holds a Speto when สมชาย knocks (87.1).
    t.finish(
        {
            "knock": {"player": SOMCHAI, "kind": "normal"},
            "speto_held": {SOMSRI: 1},
            "points": {SOMSRI: 20, MANEE: 5, PITI: -30},
        }
    )

    # 4. สมชาย deals; the stock runs out and สมศรี and ปิติ tie for second: the game waits for the
    # colour of the next head card (rule 65).
    t.start(SOMCHAI)
    stock_out = {"points": {SOMCHAI: 40, SOMSRI: 10, PITI: 10, MANEE: -20}}
    with pytest.raises(TieUnresolved) as tie:
        engine_nets(t.order, stock_out)
    assert (tie.value.black, tie.value.red) == (SOMSRI, PITI)
    open_finish(page)
    fill_result(page, stock_out, t.order, last_drawer=PITI)
    expect(page.locator("#preview .warn")).to_contain_text(SOMSRI)
    expect(page.locator("#preview .warn")).to_contain_text(PITI)
    expect(page.locator("#preview [data-preview-net]")).to_have_count(0)
    screenshot("finish-form-tie")
    save_result(page)
    t.check_board()  # nothing paid until the tie is resolved
    pending = page.locator("#live section.card.warn")
    expect(pending).to_contain_text(SOMSRI)
    expect(pending).to_contain_text(PITI)
    assert [r[1] for r in games_rows(page) if r[0] == "4"] == ["pending-tie"]
    screenshot("table-pending-tie")
    order_4 = t.order

    # 5. The player after the last drawer deals (rule 11). The head card is red: ปิติ, the red one,
    # takes the lesser loss. สมศรี collects a Speto; the game is entered wrong, voided, corrected.
    tie_break = {**stock_out, "tie_break": {"head_color": "red"}}
    settled_4 = engine_nets(order_4, tie_break)
    assert (settled_4[PITI], settled_4[SOMSRI]) == (-100, -200)
    t.start(MANEE, head_color="red", settles=settled_4)
    t.check_game_row(4, "settled", settled_4)
    t.event({"type": "speto", "player": SOMSRI}, shoot=True)
    wrong = {
        "knock": {"player": SOMSRI, "kind": "normal"},
        "points": {SOMCHAI: 10, MANEE: -5, PITI: -40},
    }
    t.finish(wrong)
    before_5 = t.at_start
    t.open_game(5, "settled")
    page.locator('main a[href$="/void"]').click()
    screenshot("void-confirm")
    page.locator("main form button.danger").click()
    # The void brings the table back in the one answer, game 5 struck in its list.
    page.wait_for_url(t.base_url + t.table)
    expect(page.locator("table.games tbody tr.voided")).to_have_count(1)
    t.open_game(5, "voided")
    expect(page.locator("h1 del")).to_contain_text("5")
    reversed_lines = page.locator("main ul.lines > li.reversal")
    assert reversed_lines.count() == page.locator("main ul.lines > li").count() / 2 > 0
    page.locator('main a[href$="/correct"]').click()
    expect(page.locator('input[name="keep"]')).to_be_checked()
    corrected = {**wrong, "knock": {"player": SOMSRI, "kind": "dark"}}
    fill_result(page, corrected, t.order)
    screenshot("correction")
    page.locator("main form button.primary").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("h1")).to_contain_text("5")
    expect(page.locator("h1 del")).to_have_count(0)  # the correction's own page, standing
    expect(page.locator('main a[href$="/correct"]')).to_have_count(0)
    t.back_to_table()
    nets_5 = engine_nets(t.order, corrected, t.events)
    t.running = add(before_5, nets_5)
    t.check_board()
    t.check_game_row(5, "settled", nets_5)
    t.check_game_row(5, "voided", engine_nets(t.order, wrong, t.events))
    expect(page.locator("table.games tr.voided del").first).to_have_text("5")

    # 6. The corrected game's knocker deals, and misdeals: a fine round the table ends the game.
    t.start(SOMSRI)
    fine = {"type": "fine", "player": SOMSRI, "reason": "misdeal"}
    record_event(page, fine, shoot=screenshot)
    expect(page.locator("#play-title")).to_have_count(0)  # the fine ended the game
    expect(page.locator("form.start")).to_be_visible()
    nets = engine_nets(t.order, {}, [fine])
    t.running = add(t.at_start, nets)
    t.check_board()
    t.check_game_row(6, "fined", nets)

    # 7. A misdeal passes the deal on (rule 16). สมชาย's full discard is called (ตีเต็ม); ปิติ
    # knocks in light colour and มานี sleeps in light colour (4 × 4 at the rate of more).
    t.start(PITI)
    t.event({"type": "full-discard", "player": SOMCHAI}, shoot=True)
    t.finish(
        {
            "knock": {"player": PITI, "kind": "light-color"},
            "color": [MANEE],
            "points": {SOMCHAI: 15, SOMSRI: 5},
        }
    )

    # 8. ปิติ deals again; the stock runs out, สมชาย never collected (forced to more).
    t.start(PITI)
    t.finish(
        {
            "points": {PITI: -10, MANEE: 30, SOMCHAI: 5, SOMSRI: -40},
            "collected": [PITI, MANEE, SOMSRI],
        },
        last_drawer=SOMSRI,
    )

    # 9. The player after the last drawer deals: ปิติ. สมศรี knocks with a Speto in a meld and
    # มานี is left holding the other (87.3).
    t.start(PITI)
    t.finish(
        {
            "knock": {"player": SOMSRI, "kind": "normal"},
            "knocker_speto": {"held": 1},
            "speto_held": {MANEE: 1},
            "points": {PITI: 10, SOMCHAI: -10, MANEE: 0},
        }
    )

    # 10. สมศรี deals. ปิติ shows both Spetos in the first round; สมชาย knocks dark and มานี's
    # play let him, so มานี pays the total (เหมา, rule 82).
    t.start(SOMSRI)
    t.event({"type": "show-speto", "player": PITI}, shoot=True)
    t.finish(
        {
            "knock": {"player": SOMCHAI, "kind": "dark"},
            "total": MANEE,
            "points": {SOMSRI: 10, PITI: 20, MANEE: -5},
        }
    )
    assert len(games_rows(page)) == 11  # ten games and the voided one
    final = dict(t.running)

    # Settle up: the fewest transfers, each marked paid.
    page.locator('nav.actions a[href$="/settle"]').click()
    expect(page.locator('input[name="mode"][value="fewest"]')).to_be_checked()  # the page is there
    shown = page.eval_on_selector_all(
        "main table.board tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    assert {name: (net, baht) for name, net, baht in shown} == {
        name: (signed(net), f"{signed_baht(net)} ฿") for name, net in final.items()
    }
    screenshot("settle-up")
    page.locator("main form.card button.primary").click()
    expect(page.locator("#transfers ul.transfers > li").first).to_be_visible()  # closed
    plan = transfers(page)
    assert len(plan) == len(fewest_transfers(final))
    balance = {name: net * HALF_BAHT for name, net in final.items()}  # in baht
    for payer, payee, baht, paid in plan:
        assert not paid
        balance[payer] += baht
        balance[payee] -= baht
    assert balance == dict.fromkeys(final, 0)
    screenshot("settle-up-transfers")
    for left in range(len(plan), 0, -1):
        page.locator("#transfers button.primary").first.click()
        expect(page.locator("#transfers button.primary")).to_have_count(left - 1)
    page.reload()
    assert [p[:3] for p in transfers(page)] == [p[:3] for p in plan]
    assert all(paid for *_, paid in transfers(page))
    screenshot("settle-up-paid")
    page.locator('main a[href$="/summary"]').first.click()
    share = (page.locator("button[data-share]").get_attribute("data-text") or "").splitlines()
    paid_lines = [line for line in share if "→" in line]
    assert len(paid_lines) == len(plan)
    assert all(line.endswith("✓") for line in paid_lines)
    for name, net in final.items():  # no fee, cost or rounding: the game money is the total
        line = next(line for line in share if line.startswith(f"{name}: "))
        assert line.startswith(f"{name}: เกม {signed_baht(net)} ฿"), line
        if net:
            total = signed_baht(net).lstrip("+−")
            assert line.endswith(f"= {'รับ' if net > 0 else 'จ่าย'} {total} ฿"), line
    summary = page.locator(".summary ul.transfers > li").all_inner_texts()
    assert len(summary) == len(plan)
    assert all(item.rstrip().endswith("✓") for item in summary)
    rows = page.eval_on_selector_all(
        ".summary table.board tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))",
    )
    assert dict(rows) == {name: f"{signed_baht(net)} ฿" for name, net in final.items()}
    screenshot("summary")
