"""`manage.py backup DEST`: a consistent copy of the live SQLite database, checked before it counts.

SQLite's online backup API copies the database in one read transaction: with the WAL journal the
phones keep writing meanwhile, and the copy is the database as it stood at one instant.
"""

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.utils import timezone


class Command(BaseCommand):
    help = (
        "Copy the live SQLite database to DEST with SQLite's online backup API, then run "
        "PRAGMA integrity_check on the copy. For PostgreSQL, use pg_dump."
    )
    # The checks open the database, which would create an empty file where none should be.
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dest", help="the copy's file, or a folder to write a dated copy in")

    def handle(self, *args: Any, dest: str, **options: Any) -> None:
        source = live_database()
        target = Path(dest)
        if target.is_dir():
            target /= f"{source.stem}-{timezone.now():%Y%m%d-%H%M%S}.sqlite3"
        if target.resolve() == source.resolve():
            raise CommandError("DEST is the live database itself: choose another file")
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)  # left by a run that was killed
        try:
            problems = sqlite_backup(source, partial)
        except sqlite3.Error as error:
            partial.unlink(missing_ok=True)
            raise CommandError(f"backup of {source} failed: {error}") from error
        if problems != ["ok"]:
            partial.unlink(missing_ok=True)
            found = [p for row in problems for p in row.splitlines()]
            shown = "; ".join(found[:5]) + (f" … ({len(found)} problems)" if len(found) > 5 else "")
            raise CommandError(f"the copy of {source} failed PRAGMA integrity_check: {shown}")
        os.replace(partial, target)  # only a checked copy takes the name
        size = target.stat().st_size
        self.stdout.write(
            f"backed up {source} to {target}: {size:,} bytes ({size / 2**20:.1f} MiB), "
            f"integrity_check: ok"
        )


def live_database() -> Path:
    """Return the default database's file; refuse anything but SQLite on disk."""
    vendor = connections["default"].vendor
    if vendor == "postgresql":
        raise CommandError(
            "the default database is PostgreSQL: back it up with pg_dump "
            "(pg_dump --format=custom --file=scorekeeper.dump DATABASE)"
        )
    if vendor != "sqlite":
        raise CommandError(f"backup copies SQLite only; the default database is {vendor}")
    name = str(settings.DATABASES["default"]["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        raise CommandError("the default database lives in memory: there is no file to copy")
    source = Path(name)
    if not source.is_file():
        raise CommandError(f"there is no database at {source}")
    return source


def sqlite_backup(source: Path, dest: Path) -> list[str]:
    """Copy `source` into `dest` by the online backup API; return integrity_check's rows."""
    # mode=rw: a mistyped path must fail, not create an empty database to back up.
    live = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=20)
    with closing(live), closing(sqlite3.connect(dest)) as copy:
        live.backup(copy)  # all pages in one step: one read transaction, one instant
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        return [row[0] for row in copy.execute("PRAGMA integrity_check")]
