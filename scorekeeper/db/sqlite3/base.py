"""Django's SQLite backend, with the writers queued by the kernel instead of by SQLite.

A write transaction here begins IMMEDIATE (settings.py): it takes SQLite's write lock at BEGIN.
A writer that finds the lock taken is put to sleep by SQLite's busy handler, which polls after
1, 2, 5, 10, 15, 20, 25 ms and so on: the lock is often free long before the sleeper looks again.
With ten phones saving at once that made a save wait 30 to 90 ms for a lock held for 3 or 4.

So before BEGIN a writer takes an exclusive flock(2) on a file beside the database, and lets it
go at COMMIT or ROLLBACK: the kernel wakes the next writer as soon as the lock is free, and a
process that dies lets go of its lock with it. SQLite's own lock still guards the database, and
writers that do not come through here (another program) still meet SQLite's busy handler.
"""

import fcntl
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
            super()._close()  # type: ignore[misc]
        finally:
            self._queue_leave()
            if self._write_queue is not None:
                self._write_queue.close()
                self._write_queue = None

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
