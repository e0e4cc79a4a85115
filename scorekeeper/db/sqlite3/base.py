"""Django's SQLite backend, with the writers queued by the kernel instead of by SQLite.

A write transaction here begins IMMEDIATE (settings.py): it takes SQLite's write lock at BEGIN.
A writer that finds the lock taken is put to sleep by SQLite's busy handler, which polls after
1, 2, 5, 10, 15, 20, 25 ms and so on: the lock is often free long before the sleeper looks again.
With ten phones saving at once that made a save wait 30 to 90 ms for a lock held for 3 or 4.

So before BEGIN a writer takes an exclusive flock(2) on a file beside the database, and lets it
go at COMMIT or ROLLBACK: the kernel wakes the next writer as soon as the lock is free, and a
process that dies lets go of its lock with it. SQLite's own lock still guards the database, and
writers that do not come through here (another program) still meet SQLite's busy handler.

A connection also runs `PRAGMA optimize` as it closes, as SQLite advises: it gathers the query
planner's statistics for tables that need them. Without them SQLite takes `reverses_id IS NULL`
on the ledger's unique index for one row, and reads every unreversed line of the whole database to
show one table's latest games (2.9 ms for a 10-game session beside an 18,000-line one; 0.8 ms
with statistics).
"""

import contextlib
import fcntl
import sqlite3
from typing import IO, Any

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):  # the methods below are not in django-stubs
    _write_queue: IO[bytes] | None = None
    _queued = False

    def _start_transaction_under_autocommit(self) -> None:
        self._queue_take()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._queue_leave()
            raise

    def _commit(self) -> Any:
        try:
            return super()._commit()  # type: ignore[misc]
        finally:
            self._queue_leave()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()  # type: ignore[misc]
        finally:
            self._queue_leave()

    def _close(self) -> None:
        try:
            self._optimize()
            super()._close()  # type: ignore[misc]
        finally:
            self._queue_leave()
            if self._write_queue is not None:
                self._write_queue.close()
                self._write_queue = None

    def _optimize(self) -> None:
        """Refresh the planner's statistics where SQLite finds them missing or stale (usually
        nothing to do); bounded by `PRAGMA analysis_limit` (settings.py)."""
        if self.connection is None or self.is_in_memory_db() or not self.get_autocommit():
            return
        self._queue_take()  # ANALYZE writes: in turn with the other writers
        try:
            with contextlib.suppress(sqlite3.Error):  # a close must not fail for it
                self.connection.execute("PRAGMA optimize")
        finally:
            self._queue_leave()

    def _queue_take(self) -> None:
        if self.is_in_memory_db():  # one process: nobody else to queue behind
            return
        if self._write_queue is None:
            self._write_queue = open(f"{self.settings_dict['NAME']}.write-queue", "ab")  # noqa: SIM115 (open while the connection is)
        fcntl.flock(self._write_queue, fcntl.LOCK_EX)
        self._queued = True

    def _queue_leave(self) -> None:
        if self._queued and self._write_queue is not None:
            fcntl.flock(self._write_queue, fcntl.LOCK_UN)
        self._queued = False
