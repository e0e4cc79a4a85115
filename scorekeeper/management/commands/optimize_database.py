"""`manage.py optimize_database`: refresh SQLite's query planner statistics (`make serve` runs it).

SQLite has no statistics until ANALYZE runs (migration 0007 ran it once); without them it reads
every unreversed ledger line of the database to show one table's latest games (2.9 ms for a
10-game night beside an 18,000-line one, against 0.8 ms with them). ANALYZE gathers them again,
bounded by `analysis_limit` to a few milliseconds however large the file (`PRAGMA optimize` alone
does nothing on a fresh connection before SQLite 3.46). PostgreSQL's autovacuum keeps its own.
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection


class Command(BaseCommand):
    help = "Refresh SQLite's query planner statistics where they are missing or stale."

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "sqlite":
            self.stdout.write("nothing to do: PostgreSQL keeps its own statistics")
            return
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA analysis_limit=1000")  # rows looked at an index, at most
            cursor.execute("ANALYZE")
        self.stdout.write("planner statistics refreshed")
