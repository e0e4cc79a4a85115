"""One watcher a push process: which nights' versions moved, found without a query per phone.

A night's version is the id of its newest audit entry (views/live.py). The watcher runs in a
thread of its own (the ORM is synchronous; one thread a process, not one a stream) and hands
each batch of moved nights, night id → newest audit id, to the streams' event loop.

- SQLite: `PRAGMA data_version` every quarter second on the watcher's own connection, which
  moves when another connection committed; only then one query over the primary key for the
  entries above the last one seen. SQLite lets one writer at a time (IMMEDIATE transactions),
  so ids are committed in order and none is passed over.
- PostgreSQL: LISTEN on the watcher's connection; a trigger on the audit table (migration 0027)
  notifies every insert, whoever writes it (other app servers, manage.py commands), at its
  commit, with no statement added to the write. A slow backup query, over the ids of the last
  two backups' span, catches what was lost while the connection was re-made: ids are taken
  before commit there, so a later commit may carry a smaller id.
"""

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext

from django.db import connection
from django.db.models import Max

from scorekeeper.models import AuditEntry

logger = logging.getLogger(__name__)

CHANNEL = "scorekeeper_audit"  # the trigger's pg_notify channel (migration 0027)
type Moved = dict[int, int]  # night id → its newest audit id


def newest() -> int:
    """The newest audit id of the database: where watching starts."""
    return AuditEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0


def moved_since(floor: int) -> Moved:
    """The nights with an audit entry above `floor`, each with its newest: a range of the
    primary key, a few rows since the last look."""
    entries = AuditEntry.objects.filter(id__gt=floor, night__isnull=False)
    rows = entries.values("night_id").annotate(newest=Max("id")).values_list("night_id", "newest")
    return dict(rows)


def versions(nights: list[int]) -> Moved:
    """The versions of `nights`, a night without an entry at 0: one query a few hundred nights
    (the audit table's night index), for the nights whose first phone just opened a stream."""
    found: Moved = {}
    for start in range(0, len(nights), 500):
        some = nights[start : start + 500]
        rows = AuditEntry.objects.filter(night_id__in=some).values("night_id")
        found |= dict.fromkeys(some, 0)
        found |= dict(rows.annotate(newest=Max("id")).values_list("night_id", "newest"))
    return found


class Watcher(threading.Thread):
    """Hand `tell` every night whose version moved, as long as the process runs.

    `in_turn` wraps each database read: the browser tests' live server runs requests one at a
    time on one in-memory connection (tests/browser/conftest.py), and the watcher takes its
    turn there like a request."""

    def __init__(
        self,
        tell: Callable[[Moved], None],
        *,
        every: float = 0.25,
        backup: float = 15.0,
        in_turn: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        super().__init__(name="push-watcher", daemon=True)
        self.tell = tell
        self.every = every
        self.backup = backup
        self.in_turn = in_turn
        self.stopping = threading.Event()
        self.asked: set[int] = set()
        self.asking = threading.Lock()
        self.floor: int | None = None  # the newest audit id told (or there when watching began)

    def look_up(self, night_id: int) -> None:
        """Have the night's version told at the next tick (from any thread)."""
        with self.asking:
            self.asked.add(night_id)

    def _answer(self) -> None:
        with self.asking:
            asked, self.asked = self.asked, set()
        if not asked:
            return
        try:
            with self.in_turn():
                found = versions(sorted(asked))
        except Exception:
            with self.asking:
                self.asked |= asked  # asked again once the database is back
            raise
        self.tell(found)

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                if self.floor is None:
                    with self.in_turn():
                        self.floor = newest()
                if connection.vendor == "postgresql":
                    self.listen()
                else:
                    self.look()
            except Exception:  # noqa: BLE001 (a database gone for a while: try again)
                logger.warning("the push watcher lost its database: trying again", exc_info=True)
                connection.close()
                self.stopping.wait(1)
        connection.close()

    def _moved(self, floor: int) -> None:
        """Tell what moved above `floor`; raise the floor past it."""
        with self.in_turn():
            moved = moved_since(floor)
        if moved:
            self.tell(moved)
            self.floor = max(self.floor or 0, *moved.values())

    def look(self) -> None:
        """SQLite: look again whenever another connection committed."""
        # An in-memory database is the tests' one connection, whose own commits leave
        # data_version where it was: there every tick looks.
        memory = getattr(connection, "is_in_memory_db", lambda: False)()  # SQLite's
        seen = None
        while not self.stopping.is_set():
            # Raw SQL: the pragma is how SQLite says another connection committed; the ORM has
            # no word for it.
            with self.in_turn(), connection.cursor() as cursor:
                cursor.execute("PRAGMA data_version")
                committed = cursor.fetchone()[0]
            if committed != seen or memory:
                seen = committed
                self._moved(self.floor or 0)
            self._answer()
            self.stopping.wait(self.every)

    def listen(self) -> None:
        """PostgreSQL: wait for notifications; look back over two backups' span now and then,
        and over what was committed while nobody listened (a connection made again)."""
        connection.ensure_connection()
        # Raw SQL: LISTEN is how PostgreSQL delivers the trigger's notifications; the ORM has
        # no word for it.
        with connection.cursor() as cursor:
            cursor.execute(f"LISTEN {CHANNEL}")
        floors = [self.floor or 0] * 2  # the floor two backups ago, and one
        self._moved(floors[1])
        raw = connection.connection
        backed_up = time.monotonic()
        while not self.stopping.is_set():
            moved: Moved = {}
            # Each handed on as it comes (with any that came in the same packet).
            for night_id, audit_id in _parsed(raw.notifies(timeout=self.every, stop_after=1)):
                moved[night_id] = max(moved.get(night_id, 0), audit_id)
            if moved:
                self.tell(moved)
                self.floor = max(self.floor or 0, *moved.values())
            self._answer()
            if time.monotonic() - backed_up >= self.backup:
                backed_up = time.monotonic()
                self._moved(floors[0])
                floors = [floors[1], self.floor or 0]


def _parsed(notes: Iterator) -> Iterator[tuple[int, int]]:
    for note in notes:
        night_id, _, audit_id = note.payload.partition(":")
        yield int(night_id), int(audit_id)
