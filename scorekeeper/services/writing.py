"""A write's transaction, with the writers of the embedded database woken in turn.

On SQLite a write transaction begins IMMEDIATE (settings.py): it takes the database's write lock
at BEGIN. A writer that finds the lock taken sleeps in SQLite's busy handler, which looks again
after 1, 2, 5, 10, 15, 20 and 25 ms and so on: the lock is often free long before the sleeper
looks. With ten tables saving at once through two processes, the slowest saves (p95) took three
times as long as in turn (docs/performance.md, "One writer after another").

So a write (`writing`, in place of `transaction.atomic`) first takes an exclusive flock(2) on a
file beside the database and lets go once its transaction has committed or rolled back: the
kernel wakes the next writer as soon as the lock is free, and a process that dies lets go with
it. SQLite's own lock still guards the database; a writer that does not come this way (Django's
sessions, another program) still meets the busy handler. PostgreSQL queues its writers itself,
and an in-memory database has one connection: there it is `transaction.atomic` alone.

A place in the queue has no time limit of its own, as c8ffc3b's had none: the 20 s of
settings.py count once a writer waits for SQLite's lock. A write made while this thread holds the
queue (inside another, or by a callback run at its commit) does not queue again.
"""

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLite

_holding = threading.local()  # whether this thread holds the queue now


@contextmanager
def writing() -> Iterator[None]:
    """One transaction, as `transaction.atomic()`, queued behind the other writers on SQLite.
    Inside another (a write made by a write) it is a savepoint, as atomic's: already queued."""
    with _queued(), transaction.atomic():
        yield


@contextmanager
def _queued() -> Iterator[None]:
    """Hold the write queue's lock: it is let go when its file is closed."""
    database = transaction.get_connection()
    if (
        not isinstance(database, SQLite)
        or database.in_atomic_block
        or database.is_in_memory_db()
        or getattr(_holding, "queue", False)
    ):
        yield
        return
    with open(f"{database.settings_dict['NAME']}.write-queue", "ab") as queue:
        fcntl.flock(queue, fcntl.LOCK_EX)
        _holding.queue = True
        try:
            yield
        finally:
            _holding.queue = False
