"""Every test is bounded in time, so that a hang fails one test instead of the whole CI run.

pytest-timeout (pyproject: `timeout`) interrupts a test that runs too long with SIGALRM: a
test waiting on Chromium or a socket fails with the stacks of every thread, and the run goes
on (Playwright still answers afterwards). A wait it cannot interrupt (a thread stuck inside C)
is ended by the guard below: faulthandler's own thread writes every stack to
test-artifacts/hung.txt and ends the process, which `make test` then prints.
"""

import faulthandler
import gc
import os
import re
import shutil
import sqlite3
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from pytest_django import DjangoDbBlocker

from tests.migrated import kept, sqlite_template

HUNG = Path(__file__).resolve().parents[1] / "test-artifacts" / "hung.txt"

# Under pytest-xdist the workers (one more than the cores) share the machine's cores with their
# Chromiums and live servers: an example of a property test without a deadline of its own may
# wait for a core past Hypothesis's 200 ms and fail as flaky. What the tests assert and how many
# examples they try are unchanged; the deadline of a run in one process is Hypothesis's own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    settings.register_profile("shared-cores", deadline=timedelta(seconds=2))
    settings.load_profile("shared-cores")


def timeout_of(item: pytest.Item) -> float:
    """The seconds pytest-timeout allows `item`: its marker's, else the configured one."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    return float(item.config.getini("timeout") or 0)


# The longest tests start first (the ledger machine's halves, the screens and the evening, each a
# quarter to half a minute), so that pytest-xdist hands them out among its workers at the start of
# a run instead of leaving one worker to end it alone with a long test while the others wait. The
# other browser tests are spread evenly among most of the rest: a browser test mostly waits (on
# Chromium, on its live server), and a worker running one leaves its core to a worker running
# tests that compute.
LONGEST_FIRST = (
    "tests/services/test_ledger_machine.py",
    "tests/browser/test_screens.py",
    "tests/browser/test_evening.py",
)
BROWSER = "tests/browser/"
# The browser tests of five seconds and more, most of it waiting (a connection's retries, a
# phone's previews): first among the browser tests, while the tests beside them compute, rather
# than last, a core idle while the run waits for them to end.
WAIT_LONGEST = tuple(
    f"{BROWSER}{test}"
    for test in (
        "test_offline.py::test_a_start_sent_as_the_connection_fails_is_kept_and_sent_again",
        "test_phone_fit.py::test_the_table_the_finish_form_and_the_settle_up_fit_a_360px_phone",
        "test_scoresheet.py::test_a_gong_zhu_match_to_minus_150_finds_the_pig_and_settles_the_money",
        "test_scoresheet.py::test_a_classic_dummy_match_to_100_on_a_phone",
    )
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, path in enumerate(LONGEST_FIRST) if item.nodeid.startswith(path)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: each group keeps its order
    first = [item for item in items if rank(item) < len(LONGEST_FIRST)]
    browser = [item for item in items[len(first) :] if item.nodeid.startswith(BROWSER)]
    # The longest first; a browser test's variants (its parameters) apart, the first of each
    # before the second: two variants of one test that waits on a timer, handed to two workers
    # at once, idle a core.
    seen: Counter[Callable] = Counter()
    variant: dict[pytest.Item, int] = {}
    for item in browser:
        variant[item] = seen[item.function]
        seen[item.function] += 1
    browser.sort(key=lambda item: (not item.nodeid.startswith(WAIT_LONGEST), variant[item]))
    modules: list[list[pytest.Item]] = []  # the others, a module's tests together
    for item in items[len(first) :]:
        if not item.nodeid.startswith(BROWSER):
            if not modules or item.path != modules[-1][-1].path:
                modules.append([])
            modules[-1].append(item)
    # Each module's tests stay together (what a module builds once for them all is built once);
    # the browser tests go in between the first three quarters of the modules, at even steps, so
    # that the run ends on tests that compute, every core busy, rather than on phones waiting
    # for a stream or a timer while a core idles.
    spread, among = first, max(1, len(modules) * 3 // 4)
    for i, module in enumerate(modules):
        spread += browser[i * len(browser) // among : (i + 1) * len(browser) // among]
        spread += module
    items[:] = spread if modules else first + browser


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is there once the tests are collected (Django, Playwright, Hypothesis, every test
    module and item) lives until the run ends: frozen, the garbage collector leaves it alone, and
    each of its full collections reads only what the tests made since (a make test: 5.3 s of
    CPU in full collections, 2.9 s frozen; 9.3 s in all collections, 6.4 s)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    limit = timeout_of(item)
    if not limit:
        return (yield)
    HUNG.parent.mkdir(exist_ok=True)
    with HUNG.open("a") as file:
        # Past the soft limit of each try (a browser test has two: tests/browser/conftest.py).
        faulthandler.dump_traceback_later(limit * 3 + 60, exit=True, file=file)
        try:
            return (yield)
        finally:
            faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Generator[None]:
    """Hash passwords with MD5 in tests: a full-strength PBKDF2 hash costs about a second of this
    machine's CPU, and fixtures that sign people up would pay it in every test. What is tested
    is who may sign in and how often, never the strength of the hash (Django's own tests)."""
    from django.test.utils import override_settings  # noqa: PLC0415 (Django set up by now)

    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()


# Under pytest-xdist the controller finds the migrated SQLite file (tests/migrated.py, kept
# between runs), or migrates it while its workers start and collect: a worker's first test that
# needs a database finds it made, rather than two workers waiting, a core idle, while the third
# migrates.
MIGRATING = pytest.StashKey[threading.Thread]()


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not config.getoption("numprocesses", None):
        return
    migrating = threading.Thread(target=sqlite_template, args=(kept(),), daemon=True)
    migrating.start()
    config.stash[MIGRATING] = migrating


def pytest_unconfigure(config: pytest.Config) -> None:
    if MIGRATING in config.stash:
        config.stash[MIGRATING].join()


@pytest.fixture(scope="session")
def migrated_sqlite() -> Path:
    """An empty SQLite file migrated once (tests/migrated.py), not to be written: `fresh_sqlite`
    copies it. Under pytest-xdist the controller makes it for all its workers."""
    return sqlite_template(kept())


def on_sqlite() -> bool:
    from django.db import connection  # noqa: PLC0415 (Django set up by now)

    return connection.vendor == "sqlite"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """On SQLite, the test database is not migrated by each worker: `django_db_setup` copies the
    run's migrated file into it. Django then makes its tables from the models (TEST MIGRATE
    False), a small part of rendering every migration's state, and the copy replaces them."""
    from django.conf import settings as django_settings  # noqa: PLC0415 (Django set up by now)

    if on_sqlite():
        django_settings.DATABASES["default"].setdefault("TEST", {})["MIGRATE"] = False


@pytest.fixture(scope="session")
def django_db_setup(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker, request: pytest.FixtureRequest
) -> None:
    """The test database as `manage.py migrate` made it (tests/migrated.py): on SQLite, the
    run's migrated file copied into each worker's database in memory by SQLite's backup, every
    table, row and the migrations recorded as applied; on PostgreSQL, migrated by Django's test
    set-up. `migrate` itself is tested in tests/test_migrations.py, on this database."""
    from django.db import connection  # noqa: PLC0415 (Django set up by now)

    if not on_sqlite():
        return
    with django_db_blocker.unblock():
        connection.ensure_connection()
        with closing(sqlite3.connect(request.getfixturevalue("migrated_sqlite"))) as source:
            source.backup(connection.connection)


@pytest.fixture
def fresh_sqlite(migrated_sqlite: Path, tmp_path: Path) -> Path:
    """An empty, migrated SQLite file of the test's own, for the app run in another process."""
    return Path(shutil.copy(migrated_sqlite, tmp_path / "db.sqlite3"))


@pytest.fixture(autouse=True)
def cache_of_its_own() -> Generator[None]:
    """Every test has a cache of its own (a fresh key prefix): a table's region kept by one test
    (views/live.py) would otherwise be found by the next, whose rolled-back database gives its
    night the same id and version; on a Redis shared by the workers (REDIS_URL), by another
    worker's. A prefix, not a flush: a flush of Redis would empty the other workers' too."""
    from django.conf import settings as django_settings  # noqa: PLC0415 (Django set up by now)
    from django.test.utils import override_settings  # noqa: PLC0415

    prefix = f"test-{uuid.uuid4().hex}"
    caches = {name: {**conf, "KEY_PREFIX": prefix} for name, conf in django_settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def language_as_configured() -> Generator[None]:
    """Every test starts in the site's language: a request the test client made in English
    leaves English active in the thread, and the next test would read its strings in it."""
    yield
    from django.utils import translation  # noqa: PLC0415 (Django set up by now)

    translation.deactivate()


@contextmanager
def written_once(django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """Write data once for a class of tests that only read it, as Django's setUpTestData does.

    It is written in a transaction left open while the class runs and rolled back after its last
    test; each test (marked django_db) runs in a transaction of its own inside it, rolled back
    after it, so every test still starts from the same data and sees nothing another wrote.
    """
    from django.db import transaction  # noqa: PLC0415 (Django set up by now)

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


DATABASE_FIXTURES = (
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
)


# Tables the ledger audit never reads (sign-ins, devices, members, invites, limits, share links,
# the audit log): a test that wrote only these leaves the audit's answer as it was. Every audit
# checks that it read none of them (`ledger_audited`).
NOT_AUDITED = frozenset({
    "django_session", "auth_user", "axes_accessattempt", "axes_accessattemptexpiration",
    "axes_accessfailurelog", "axes_accesslog", "scorekeeper_device", "scorekeeper_membership",
    "scorekeeper_invite", "scorekeeper_limit", "scorekeeper_sharelink", "scorekeeper_auditentry",
})  # fmt: skip
WRITTEN_TABLE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.IGNORECASE)
READ_TABLES = re.compile(r'(?:FROM|JOIN)\s+"?(\w+)', re.IGNORECASE)
# Statements that change no data: reads, transactions and savepoints opened or let go, and the
# constraint checks Django runs at the end of each test (SQLite's PRAGMA reads the tables;
# PostgreSQL's SET CONSTRAINTS only says when they are checked).
CHANGE_NOTHING = ("SELECT", "BEGIN", "RELEASE", "PRAGMA FOREIGN_KEY_CHECK", "SET CONSTRAINTS")
SAVEPOINT = re.compile(r'\s*SAVEPOINT\s+"?(\w+)', re.IGNORECASE)
ROLLBACK_TO = re.compile(r'\s*ROLLBACK\s+TO\s+(?:SAVEPOINT\s+)?"?(\w+)', re.IGNORECASE)


class Written:
    """The state of what the ledger audit reads, as the statements sent to the test database
    leave it: `state` is a number given to each state, a fresh one at every statement that may
    have changed it (anything but `CHANGE_NOTHING`, and writes to a table of NOT_AUDITED).

    A rollback to a savepoint gives the data back as it was when the savepoint was made, and so
    the number it had then: the savepoint a test runs in (inside the data its class or module
    writes once), or one a view rolls back to when it refuses a write. Only if this connection
    alone wrote since: another's writes stay. A statement that fails is taken to have changed
    the data all the same.

    `clean` is the state, and the test's class or module, at which the data was last audited
    clean by a test that left it as it found it (`ledger_audited`)."""

    made = 0  # the states numbered so far, on every connection
    state = 0
    clean: tuple[int, str] | None = None

    def __init__(self) -> None:
        self.mine = 0  # the states this connection made
        self.savepoints: dict[str, tuple[int, int, int]] = {}  # state, made, mine when made

    def __call__(self, execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
        head = sql.lstrip()[:24].upper()
        if head.startswith(CHANGE_NOTHING):
            return execute(sql, params, many, context)
        if (savepoint := SAVEPOINT.match(sql)) is not None:
            result = execute(sql, params, many, context)
            self.savepoints[savepoint.group(1)] = (Written.state, Written.made, self.mine)
            return result
        if (rollback := ROLLBACK_TO.match(sql)) is not None:
            result = execute(sql, params, many, context)
            state, made, mine = self.savepoints.get(rollback.group(1), (None, 0, 0))
            if state is not None and Written.made - made == self.mine - mine:
                Written.state = state
            else:
                self.changed()
            return result
        table = WRITTEN_TABLE.match(sql)
        if table is not None and table.group(1) in NOT_AUDITED:
            return execute(sql, params, many, context)
        try:
            return execute(sql, params, many, context)
        finally:
            self.changed()

    def changed(self) -> None:
        Written.made += 1
        Written.state = Written.made
        self.mine += 1


def count_writes(connection: Any, **kwargs: Any) -> None:
    """Give `connection` the counter of writes, once (Django's `connection_created`)."""
    if not any(isinstance(wrapper, Written) for wrapper in connection.execute_wrappers):
        connection.execute_wrappers.append(Written())


@pytest.fixture(autouse=True, scope="session")
def writes_counted() -> Generator[None]:
    """Count the statements that may write (`Written`) from the run's start, the data that a
    class or module of tests writes once included, on every connection the tests use: once a
    browser test has run Playwright's loop in the test thread, Django's connections there are
    the loop's own (tests/browser/conftest.py), made after this fixture."""
    from django.db import connections  # noqa: PLC0415 (Django set up by now)
    from django.db.backends.signals import connection_created  # noqa: PLC0415

    count_writes(connections["default"])
    connection_created.connect(count_writes)
    yield
    connection_created.disconnect(count_writes)


def tables_read(into: set[str]) -> Callable[..., Any]:
    """An execute wrapper that notes the tables each statement of this thread reads into `into`
    (a browser test's connection also serves the live server's threads)."""
    here = threading.get_ident()

    def noted(execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
        if threading.get_ident() == here:
            into.update(READ_TABLES.findall(sql))
        return execute(sql, params, many, context)

    return noted


@pytest.fixture(autouse=True)
def ledger_audited(request: pytest.FixtureRequest) -> Generator[None]:
    """After every test that wrote to the database (the browser's nights, played through the live
    server, too), every night's ledger and every settled tab still audits clean (`manage.py
    ledger_audit`'s checks): whatever a test did through the app, the money adds up. A test
    that breaks the ledger on purpose, to see the audit find it, says so with
    `@pytest.mark.ledger_broken`. Data a class or module of tests writes once is audited after
    the first of them, and again after each that left what the audit reads changed (`Written`):
    a test run in a savepoint of the class's data, its own writes rolled back, leaves it as it
    was (in tests/views/test_access.py, 22 audits rather than 132)."""
    used = [name for name in DATABASE_FIXTURES if name in request.fixturenames]
    if (marker := request.node.get_closest_marker("django_db")) is not None:
        used.append("transactional_db" if marker.kwargs.get("transaction") else "db")
    if "live_server" in request.fixturenames:  # the nights a browser played, through the app
        used.append("transactional_db")
    if not used or request.node.get_closest_marker("ledger_broken"):
        yield
        return
    request.getfixturevalue(used[0])  # set up first, so torn down (rolled back) after the audit
    # A test inside one transaction of this connection sees every write made to its data, and
    # each gives it a new state. If it is in the state in which a test of the same class or
    # module (whose data, kept for all its tests, is rolled back only at its end) audited it
    # clean, the data is what that audit read: the audit would read it again.
    alone = set(used) == {"db"}
    where = request.node.parent.nodeid if request.node.parent else ""
    found = Written.state
    yield
    if alone and Written.clean == (Written.state, where):
        return
    from django.db import connection  # noqa: PLC0415 (Django set up by now)

    from scorekeeper.models import Night, Tab  # noqa: PLC0415 (Django set up by now)
    from scorekeeper.services.debts_audit import tab_audit  # noqa: PLC0415
    from scorekeeper.services.ledger_audit import night_audit  # noqa: PLC0415

    read: set[str] = set()
    with connection.execute_wrapper(tables_read(read)):
        problems = [f"night {s.pk}: {p}" for s in Night.objects.all() for p in night_audit(s)]
        problems += [f"settled tab {t.pk}: {p}" for t in Tab.objects.all() for p in tab_audit(t)]
    assert not read & NOT_AUDITED, f"the audit reads {read & NOT_AUDITED}: not in NOT_AUDITED"
    assert problems == [], "the ledger no longer audits clean after this test"
    # This test's own writes are rolled back after it: what the audit read is what the next
    # test finds only if the test left the data as it found it.
    Written.clean = (Written.state, where) if alone and Written.state == found else None
