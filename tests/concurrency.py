"""Two writes at once on two PostgreSQL connections, the first holding its locks until the
second waits for them: what each did, and whether the second waited."""

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from scorekeeper.services.errors import ServiceError

WAIT = 10  # seconds: far longer than any of these writes takes; a hang fails the test instead


def _waiting_for_a_lock() -> bool:
    """Whether another connection to the test database is waiting for a row lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return bool(cursor.fetchone()[0])


def _attempt(write: Callable[[], Any]) -> Any:
    try:
        return write()
    except ServiceError as refused:
        return refused


def race(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Any, Any]:
    """Run `first` on one connection and hold its transaction open until `second`, on another,
    waits for its locks (or is done without waiting); then commit it. Return what each returned,
    or the ServiceError that refused it, and assert that `second` did wait."""
    held, release = threading.Event(), threading.Event()
    results: dict[str, Any] = {}

    def run_first() -> None:
        try:
            with transaction.atomic():
                results["first"] = _attempt(first)
                held.set()
                release.wait(WAIT)
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            results["first"] = error
        finally:
            held.set()
            connection.close()

    def run_second() -> None:
        held.wait(WAIT)
        try:
            results["second"] = _attempt(second)
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            results["second"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for thread in threads:
        thread.start()
    held.wait(WAIT)
    deadline, waited = time.monotonic() + WAIT, False
    while threads[1].is_alive() and time.monotonic() < deadline:
        if _waiting_for_a_lock():
            waited = True
            break
        time.sleep(0.005)
    release.set()
    for thread in threads:
        thread.join(WAIT)
    for outcome in results.values():
        if isinstance(outcome, BaseException) and not isinstance(outcome, ServiceError):
            raise outcome
    assert waited, f"the second write did not wait for the first: {results}"
    return results["first"], results["second"]


def refused(outcome: Any, code: str) -> bool:
    return isinstance(outcome, ServiceError) and outcome.code == code
