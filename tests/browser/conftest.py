"""Chromium at a phone's size, driving the real app served by pytest-django's live_server.

Playwright's sync API runs an event loop in the test thread, and Django refuses database work
where a loop runs unless told otherwise: the flag is set before anything touches the database.

The live server runs the app for one request at a time. The test database is SQLite in memory,
and every request thread of the live server shares the test's one connection to it: two requests
at once (a preview still on its way when Save is tapped, the scoreboard's poll during a write)
fail with "database table is locked", which a real deployment (a file in WAL mode, or PostgreSQL)
never does. Running the app in turn keeps that artefact of the test set-up out of the results.
Each connection is still read in a thread of its own: a connection Chromium opens ahead and
never uses holds nobody up.
"""

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.servers.basehttp import WSGIServer
from django.db import connections
from django.test import override_settings
from django.test.testcases import LiveServerThread
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from scorekeeper.settings import push_sources
from tests.browser.wifi import Wifi
from tests.push.serve import Served, push_served

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# Debian's headless shell (Playwright cannot download browsers here): the same Blink and V8 as
# Debian's chromium, without the desktop browser around them, as Playwright itself runs headless
# Chromium. The whole browser, headless, spent a quarter more CPU on the same browser tests.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
TIMEOUT_MS = 10_000  # a page answers in milliseconds: fail well before Playwright's 30 s
# The screens the tests pass through are saved to look at when asked (`make screens`): a
# full-page capture costs about 0.1 s, over 150 of them a run, and no test reads them. A failed
# test's page is saved always (`keep_failed`).
SAVE_SCREENS = os.environ.get("SCOREKEEPER_SCREENSHOTS") == "1"

type Shoot = Callable[..., Path]

expect.set_options(timeout=TIMEOUT_MS)


class InTurn(WSGIServer):
    """A thread a connection, the app run for one request at a time in a thread of its own, its
    answer read whole.

    Threads of its own rather than socketserver's ThreadingMixIn: Django's server keeps
    connections open only for a ThreadingMixIn, and a connection kept open would carry a phone's
    next request past the test's Wi-Fi (tests/browser/wifi.py), which judges a connection by
    its first request. Each answer says "Connection: close", as a server in one thread does.

    The app runs in one thread for the whole run, as a production server's worker thread does,
    and keeps its database connection from request to request (CONN_MAX_AGE): on PostgreSQL a
    thread a request opened a connection a request, a server process each time (396 in a run,
    131 since). On SQLite in memory it uses the test's own connection."""

    def __init__(self, *args: Any, connections_override: dict | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.connections_override = connections_override or {}
        self.serving: set[threading.Thread] = set()
        self.server_errors: list[str] = []  # every answer of 500 and above, for its test
        self.app_thread = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="live-app", initializer=self.on_the_tests_database
        )

    def on_the_tests_database(self) -> None:
        for alias, connection in self.connections_override.items():
            connections[alias] = connection  # the test's SQLite in memory

    def set_app(self, application: Callable[..., Iterable[bytes]]) -> None:
        turn = self.turn = threading.Lock()  # the push watcher takes its turn here too

        def whole(environ: dict, start_response: Callable) -> list[bytes]:
            def noted(status: str, headers: list, exc_info: Any = None) -> Callable:
                if int(status[:3]) >= 500:
                    asked = f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}"
                    self.server_errors.append(f"HTTP {status} from {asked}")
                return start_response(status, headers, exc_info)

            answer = application(environ, noted)
            try:
                return [b"".join(answer)]  # a streamed answer reads the database too
            finally:
                if hasattr(answer, "close"):
                    answer.close()

        def in_turn(environ: dict, start_response: Callable) -> list[bytes]:
            with turn:
                return self.app_thread.submit(whole, environ, start_response).result()

        super().set_app(in_turn)

    def server_close(self) -> None:
        """Close the app thread's own connection (PostgreSQL's test database is dropped after)."""
        self.app_thread.submit(connections.close_all).result()
        self.app_thread.shutdown()
        super().server_close()

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(target=self.serve, args=(request, client_address), daemon=True)
        thread.start()
        self.serving.add(thread)

    def served(self, timeout: float) -> None:
        """Wait until every request received has been answered (or its phone has gone)."""
        for thread in list(self.serving):
            thread.join(timeout)
            self.serving.discard(thread)

    def serve(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 (socketserver's way: printed, the server goes on)
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            self.serving.discard(threading.current_thread())


class OneAtATime(LiveServerThread):
    """A live server thread that runs the app in turn, on the test's database connection."""

    server_class = InTurn


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A browser test that hangs is tried once more, and only then fails.

    Chromium, rarely, stops answering while a context with a service worker closes or goes
    offline (a CI run once waited 85 minutes inside one offline test; puppeteer#11627 reports
    the same). pytest-timeout interrupts such a wait (tests/conftest.py); the second try starts
    from a fresh page. A test that fails in any other way, or hangs twice, fails.
    """
    again = pytest.mark.flaky(reruns=1, only_rerun=[r"Timeout \(>"])
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(again)


@pytest.fixture(scope="session")
def live_server(django_db_setup: None) -> Iterator[LiveServer]:
    """pytest-django's live server, serving one request at a time (see above).

    It asks for the test database's set-up so that it is stopped first, with its connection:
    PostgreSQL will not drop a database someone is still connected to.
    """
    server = LiveServer("localhost", start=False)
    threaded = server.thread
    server.thread = OneAtATime(
        "localhost",
        static_handler=threaded.static_handler,
        connections_override=threaded.connections_override,
    )
    server.thread.daemon = True
    server.start()
    yield server
    server.stop()


# Set while a browser test runs: the push process reaches the database only then.
PUSH_OPEN = threading.Event()


@pytest.fixture(scope="session")
def push(live_server: LiveServer) -> Iterator[Served]:
    """The push application beside the live server, as `make run` has it (each test points its
    pages at it: `served_whole`). Its watcher reads the live server's database connection in
    turn with the requests, at the production pace."""
    server = live_server.thread
    shared = server.connections_override.get("default")
    with push_served(
        in_turn=lambda: server.httpd.turn, shared=shared, every=0.25, open_=PUSH_OPEN
    ) as served:
        yield served


@pytest.fixture(autouse=True)
def served_whole(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test ends with its last request answered: a request still waiting its turn when
    the test's phones close would run in the next test, against its database (the tests that run
    among the browser tests have theirs closed, or a transaction of their own).

    It fails if the app or the push application answered any request of it with a server error
    (500 and above), whatever asked: a page, its htmx, its service worker. The servers note them
    as they answer; a 503 the test's Wi-Fi gives in place of the server (tests/browser/wifi.py)
    is not the server's."""
    if "live_server" not in request.fixturenames:
        yield
        return
    # Every table page holds a stream, at the push port on the page's own host, the policy
    # allowing it. The watcher reads the test's one connection: it stops with the test (the
    # tests run after it count their statements there), and the test's first stream starts
    # another, from the newest entry of the next test's database (its ids start from 1 again).
    push = request.getfixturevalue("push")
    port = int(push.url.rsplit(":", 1)[1])
    server = request.getfixturevalue("live_server").thread.httpd
    app_errors, push_errors = len(server.server_errors), len(push.server_errors)
    PUSH_OPEN.set()
    try:
        with override_settings(
            PUSH_PORT=port, SECURE_CSP={**settings.SECURE_CSP, "connect-src": push_sources(port)}
        ):
            yield
    finally:
        # From here a stream is refused on purpose (503), as a closing page may still ask one.
        push_errors_seen = push.server_errors[push_errors:]
        PUSH_OPEN.clear()
        push.app.stop()
    server.served(timeout=TIMEOUT_MS / 1000)
    errors = server.server_errors[app_errors:] + push_errors_seen
    if errors:
        pytest.fail("server errors:\n" + "\n".join(errors), pytrace=False)


@pytest.fixture
def wifi(live_server: LiveServer) -> Iterator[Wifi]:
    """The live server behind a connection the test can cut (tests/browser/wifi.py)."""
    port = int(live_server.url.rsplit(":", 1)[1])
    hop = Wifi("localhost", port)
    yield hop
    hop.close()


@pytest.fixture(scope="session")
def browser(django_db_setup: None) -> Iterator[Browser]:
    """Chromium, for the whole run.

    While Playwright's loop runs in the test thread, Django's connections there are the loop's
    own (asgiref's Local follows the context): every test after the first browser test uses
    them. They are closed before the loop stops, and before the test database is dropped, which
    PostgreSQL refuses while someone is connected.
    """
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: `make test` installs Debian's chromium-headless-shell",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
        connections.close_all()


def new_context(browser: Browser, **options: object) -> BrowserContext:
    """Open a context as a Thai phone: 390 × 844, th-TH, unless `options` say otherwise."""
    context = browser.new_context(
        **{"viewport": PHONE, "locale": "th-TH", **options}  # type: ignore[arg-type]
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


def csp_violation(text: str) -> bool:
    """Chromium reports a blocked script, style or handler on the console, citing the policy."""
    return "Content Security Policy" in text


def watch(page: Page) -> list[str]:
    """Collect what goes wrong on `page` that no assertion looks at.

    JavaScript errors, and every Content Security Policy violation: the policy must hold on
    every screen the tests visit. (A server error fails the test however it came:
    `served_whole`.)
    """
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"CSP violation: {message.text}")
            if csp_violation(message.text)
            else None
        ),
    )
    return problems


@contextmanager
def open_page(browser: Browser, name: str, **options: object) -> Iterator[Page]:
    """Open a page in a fresh context; fail if it met a JavaScript error or broke the policy.

    When the test fails, the page as it was is saved as test-artifacts/screens/failed-<name>.png.
    """
    context = new_context(browser, **options)
    page = context.new_page()
    problems = watch(page)
    hung = False
    try:
        yield page
    except BaseException as error:
        # Interrupted by pytest-timeout: Chromium may not answer a close either (closing has
        # no time limit), so the context is left behind for the browser's own end.
        hung = "pytest-timeout" in str(error)
        error.add_note(keep_failed(page, name))
        for problem in problems:
            error.add_note(problem)
        raise
    finally:
        if not hung:
            context.close()  # stops the htmx polls before the database is flushed
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def full_page(page: Page, path: Path) -> None:
    """Screenshot the whole page, then put the scroll back where it was.

    Chromium restores the scroll after a full-page capture a few frames late; a click in between
    lands where the button was a moment ago, and nothing happens.
    """
    scrolled = page.evaluate("() => window.scrollY")
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("y => window.scrollTo(0, y)", scrolled)
    page.wait_for_function("y => window.scrollY === y", arg=scrolled, polling=20)


def keep_failed(page: Page, name: str) -> str:
    """Save the page as it is when a test fails; say where."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"failed-{name}.png"
    try:
        full_page(page, path)
    except Exception as error:  # the page may have gone with the failure
        return f"no screenshot of the failed page: {error}"
    return f"the page at {page.url} when the test failed: {path}"


CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    with open_page(browser, request.node.name) as page:
        yield page
        if request.node.stash.get(CALL_FAILED, False):
            print(keep_failed(page, request.node.name))  # shown with the failure's output


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Shoot:
    """Save the whole `page` (or `on`) as test-artifacts/screens/<name>.png, when asked
    (`SAVE_SCREENS`); return the path."""
    SCREENS.mkdir(parents=True, exist_ok=True)

    def shoot(name: str, on: Page | None = None) -> Path:
        path = SCREENS / f"{name}.png"
        if SAVE_SCREENS:
            full_page(on or request.getfixturevalue("page"), path)
        return path

    return shoot
