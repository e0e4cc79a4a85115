"""Settling the tab (เคลียร์ยอดค้าง) on a Thai phone at 390 × 844: the host's one tap nets nine
debts carried both ways into three transfers, each marked settled by the tab, and a transfer is
paid and received there."""

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.models import Group, Membership
from tests.browser import support
from tests.tab_nights import two_way_tab

pytestmark = pytest.mark.browser


def test_a_host_settles_the_tab_in_one_tap_and_a_transfer_is_paid_and_received(
    page: Page, live_server: Any
) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    page.goto(live_server.url + "/")
    page.fill('input[name="name"]', "ก๊วนยอดค้าง")
    page.fill('input[name="host_name"]', "ต้น")
    page.locator('form[action="/groups/new"] button').click()
    expect(page.locator("h1")).to_have_text("ก๊วนยอดค้าง")
    group = Group.objects.get(name="ก๊วนยอดค้าง")
    two_way_tab(group, Membership.objects.get(group=group))

    page.reload()
    tab = page.locator("#tab")
    expect(tab.locator("h2")).to_have_text("ยอดค้างรวม: ทุกยอดที่ติดไว้ข้ามวง")
    expect(tab.locator("tbody tr")).to_have_count(4)  # each player's total
    expect(tab.locator("tbody tr").first).to_contain_text("−433.32 ฿")
    assert page.evaluate(support.FIT_PROBLEMS, support.FINGER) == []
    tab.get_by_role("button", name="เคลียร์ยอดค้าง").click()

    settled = page.locator("article.settled-tab")
    expect(settled.locator("h3")).to_contain_text("เคลียร์ยอดค้างเมื่อ")
    expect(settled.locator("> ul.transfers > li")).to_have_count(3)  # nine debts, three transfers
    expect(page.locator("#owed")).to_have_count(0)  # nothing carried is owed one by one now
    settled.locator("details.more summary").click()
    expect(settled.locator("details.more li")).to_have_count(9)
    expect(settled.locator("details.more .tag").first).to_have_text("เคลียร์แล้วด้วยการหักกลบ")

    settled.locator("li").first.get_by_role("button", name="บันทึกว่าจ่ายแล้ว").click()
    first = page.locator("article.settled-tab > ul.transfers > li").first
    expect(first).to_contain_text("จ่ายแล้ว · ต้น กดไว้")
    first.get_by_role("button", name="ได้รับแล้ว").click()
    expect(page.locator("article.settled-tab > ul.transfers > li").first).to_contain_text(
        "ได้รับแล้ว · ต้น กดไว้"
    )
    expect(page.get_by_role("button", name="ถอนการเคลียร์ยอดค้าง")).to_have_count(0)
    assert page.evaluate(support.FIT_PROBLEMS, support.FINGER) == []
