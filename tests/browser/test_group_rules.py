"""The group's own rules (กติกาประจำวง) on a Thai phone: set on the group's page, the night
opens with them."""

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_host_sets_the_rules_on_the_group_page_and_the_night_opens_with_them(
    page: Page, live_server: Any
) -> None:
    page.goto(live_server.url + "/")
    page.fill('input[name="name"]', "ก๊วนกติกา")
    page.fill('input[name="host_name"]', "ต้น")
    page.locator('form[action="/groups/new"] button').click()
    expect(page.locator("h1")).to_have_text("ก๊วนกติกา")

    page.locator("#rules summary").click()
    expect(page.locator("#rules summary")).to_have_text("กติกาประจำก๊วน")
    page.check('input[name="kd-stake_level"][value="custom"]', force=True)
    page.fill('input[name="kd-less"]', "50")
    page.fill('input[name="kd-medium"]', "100")
    page.fill('input[name="kd-more"]', "150")
    page.fill('input[name="kd-point_value"]', "0.25")
    page.fill('input[name="close-fee"]', "20")
    page.locator("#rules button.primary").click()
    expect(page.locator("#rules summary")).to_be_visible()

    page.locator('a[href$="/sessions/new"]').click()
    expect(page.locator('input[name="stake_level"][value="custom"]')).to_be_checked()
    expect(page.locator('input[name="less"]')).to_have_value("50")
    expect(page.locator('input[name="more"]')).to_have_value("150")
    expect(page.locator('input[name="point_value"]')).to_have_value("0.25")
