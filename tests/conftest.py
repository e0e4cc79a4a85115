"""Every test is bounded in time, so that a hang fails one test instead of the whole CI run.

pytest-timeout (pyproject: `timeout`) interrupts a test that runs too long with SIGALRM: a
test waiting on Chromium or a socket fails with the stacks of every thread, and the run goes
on (Playwright still answers afterwards). A wait it cannot interrupt (a thread stuck inside C)
is ended by the guard below: faulthandler's own thread writes every stack to
test-artifacts/hung.txt and ends the process, which `make test` then prints.
"""

import faulthandler
from collections.abc import Generator
from pathlib import Path

import pytest

HUNG = Path(__file__).resolve().parents[1] / "test-artifacts" / "hung.txt"


def timeout_of(item: pytest.Item) -> float:
    """The seconds pytest-timeout allows `item`: its marker's, else the configured one."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    return float(item.config.getini("timeout") or 0)


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
