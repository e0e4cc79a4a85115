"""SQLite's writers queue on a flock beside the database, and its connections leave the query
planner its statistics as they close: scorekeeper/db/sqlite3/base.py.

Each test opens its own connections on a file of its own, with SQLite's busy timeout at zero:
a writer that met SQLite's lock itself would fail at once with "database is locked", so a write
that succeeds here waited in the queue.
"""

import fcntl
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import OperationalError, connection

from scorekeeper.db.sqlite3.base import DatabaseWrapper
from scorekeeper.settings import SQLITE_OPTIONS


def _open(path: Path, alias: str) -> DatabaseWrapper:
    settings = {
        **connection.settings_dict,
        "ENGINE": "scorekeeper.db.sqlite3",
        "NAME": str(path),
        "OPTIONS": {**SQLITE_OPTIONS, "timeout": 0},  # no busy handler: only the queue waits
        "CONN_MAX_AGE": 0,
    }
    return DatabaseWrapper(settings, alias=alias)


def _begin(db: DatabaseWrapper) -> None:
    """Begin a transaction as transaction.atomic does on SQLite."""
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def _end(db: DatabaseWrapper, *, commit: bool) -> None:
    db.commit() if commit else db.rollback()
    db.set_autocommit(True)


@pytest.fixture
def path(tmp_path: Path, django_db_blocker) -> Iterator[Path]:
    """A database file of the test's own (not the test database: pytest-django lets it be)."""
    path = tmp_path / "queue.sqlite3"
    with django_db_blocker.unblock():
        db = _open(path, "setup")
        with db.cursor() as cursor:
            cursor.execute("CREATE TABLE saves (writer TEXT, at REAL)")
        db.close()
        yield path


def _writer(path: Path, name: str, hold: float, out: list[object], commit: bool = True) -> None:
    db = _open(path, name)
    try:
        _begin(db)
        with db.cursor() as cursor:
            cursor.execute("INSERT INTO saves VALUES (%s, %s)", [name, time.monotonic()])
        time.sleep(hold)
        _end(db, commit=commit)
        out.append((name, "done"))
    except OperationalError as e:
        out.append((name, str(e)))
    finally:
        db.close()


def _rows(path: Path) -> list[str]:
    db = _open(path, "read")
    try:
        with db.cursor() as cursor:
            cursor.execute("SELECT writer FROM saves ORDER BY at")
            return [row[0] for row in cursor.fetchall()]
    finally:
        db.close()


def test_a_second_writer_waits_its_turn_instead_of_failing_on_sqlites_lock(path):
    out: list[object] = []
    first = threading.Thread(target=_writer, args=(path, "first", 0.3, out))
    first.start()
    time.sleep(0.1)  # the first is inside its transaction, holding the write lock
    second = threading.Thread(target=_writer, args=(path, "second", 0.0, out))
    second.start()
    first.join(10)
    second.join(10)
    assert sorted(out) == [("first", "done"), ("second", "done")]
    assert _rows(path) == ["first", "second"]


def test_a_rolled_back_writer_lets_the_next_one_in(path):
    out: list[object] = []
    first = threading.Thread(target=_writer, args=(path, "first", 0.2, out, False))
    first.start()
    time.sleep(0.05)
    second = threading.Thread(target=_writer, args=(path, "second", 0.0, out))
    second.start()
    first.join(10)
    second.join(10)
    assert sorted(out) == [("first", "done"), ("second", "done")]
    assert _rows(path) == ["second"]  # the first's row went with its rollback


def _queue_is_free(path: Path) -> bool:
    with open(f"{path}.write-queue", "ab") as queue:
        try:
            fcntl.flock(queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(queue, fcntl.LOCK_UN)
        return True


def test_a_writer_holds_the_queue_from_begin_to_commit_rollback_or_close(path):
    db = _open(path, "holder")
    for end in ("commit", "rollback"):
        _begin(db)
        assert not _queue_is_free(path)
        _end(db, commit=end == "commit")
        assert _queue_is_free(path), end  # the connection stays open, the queue moves on
    _begin(db)
    assert not _queue_is_free(path)
    db.close()  # a worker that stops mid-write
    assert _queue_is_free(path)
    out: list[object] = []
    _writer(path, "next", 0.0, out)
    assert out == [("next", "done")]


def test_twenty_writers_at_once_all_land(path):
    """Connected one at a time and closed together after: only the writes meet at once. (Opening
    a connection runs PRAGMA journal_mode, which may meet SQLite's lock for an instant: the app's
    busy timeout waits that out, the zero timeout here would not.)"""
    out: list[object] = []
    opening = threading.Lock()
    connected = threading.Barrier(20)
    written = threading.Barrier(20)

    def writer(n: int) -> None:
        db = _open(path, f"w{n}")
        with opening:
            db.ensure_connection()
        connected.wait(10)
        try:
            _begin(db)
            with db.cursor() as cursor:
                cursor.execute("INSERT INTO saves VALUES (%s, %s)", [f"w{n}", time.monotonic()])
            time.sleep(0.005)
            _end(db, commit=True)
            out.append("done")
        except OperationalError as e:
            out.append(str(e))
        written.wait(10)
        db.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert out == ["done"] * 20
    assert sorted(_rows(path)) == sorted(f"w{n}" for n in range(20))


def test_a_closing_connection_leaves_the_planner_statistics_of_the_tables_it_searched(path):
    db = _open(path, "filler")
    with db.cursor() as cursor:
        cursor.execute("CREATE INDEX saves_by_writer ON saves (writer)")
        cursor.executemany(
            "INSERT INTO saves VALUES (%s, %s)", [(f"w{n % 7}", n) for n in range(500)]
        )
        cursor.execute("SELECT count(*) FROM saves WHERE writer = %s", ["w3"])
    db.close()
    db = _open(path, "reader")
    try:
        with db.cursor() as cursor:
            cursor.execute("SELECT tbl, idx, stat FROM sqlite_stat1")
            assert cursor.fetchall() == [("saves", "saves_by_writer", "500 72")]
    finally:
        db.close()
