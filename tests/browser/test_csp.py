"""The Content Security Policy holds in a real browser, and the tests would see it broken; a
server error is noted for the test whatever asked for it."""

import httpx
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


def test_a_server_error_is_noted_for_the_test_whatever_asked(live_server, settings):
    """A request no page made (as a service worker's is) meets a bug: the live server notes the
    answer, and `served_whole` would fail the test with it."""
    settings.ROOT_URLCONF = "tests.views.crashing_urls"
    noted = live_server.thread.httpd.server_errors
    before = len(noted)
    assert httpx.get(live_server.url + "/crash", timeout=10).status_code == 500
    assert noted[before:] == ["HTTP 500 Internal Server Error from GET /crash"]
    del noted[before:]  # looked at here: this test passes
