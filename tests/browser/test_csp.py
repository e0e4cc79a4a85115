"""The Content Security Policy holds in a real browser, and the tests would see it broken."""

import pytest

from tests.browser.conftest import new_context, watch

pytestmark = pytest.mark.browser


def test_an_inline_handler_is_blocked_and_reported_as_a_violation(browser, live_server):
    context = new_context(browser)
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(live_server.url + "/")
        page.evaluate(
            "document.body.insertAdjacentHTML('beforeend', "
            '\'<img src="data:," onerror="window.ran = true">\')'
        )
        page.wait_for_timeout(300)
        assert page.evaluate("window.ran === true") is False  # the policy blocked it
        assert any(p.startswith("CSP violation") for p in problems)
    finally:
        context.close()
