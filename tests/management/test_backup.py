"""`manage.py backup`: a consistent, checked copy of the live SQLite file while the phones write.

Each test runs on its own SQLite file in subprocesses, as the server would; the SQLite tests skip
when the suite runs on PostgreSQL, and the PostgreSQL refusal runs only there.
"""

import os
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scorekeeper.management.commands.backup import sqlite_backup

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRESQL = connection.vendor == "postgresql"
sqlite_only = pytest.mark.skipif(ON_POSTGRESQL, reason="backup copies SQLite; see pg_dump")

# Plays Knock Dummy games through the real services until told to stop, printing each game's count.
WRITER = """
import os, sys
from decimal import Decimal
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup()
from scorekeeper.services import access, games, nights

stop = Path(sys.argv[1])
group = access.group_create(name="วงทดสอบ")
table = nights.night_open(
    group=group, players=["สมชาย", "Bee", "Cat", "Dan"], stake_level="sian",
    point_value=Decimal("0.5"),
)
played = 0
while not stop.exists():
    game = games.game_start(night=table, fool_swap=False)
    knocker, *losers = game.document["players"]
    games.event_add(game=game, event={"type": "head", "player": losers[0]})
    games.game_finish(
        game=game,
        outcome={"knock": {"player": knocker, "kind": "normal"},
                 "points": dict(zip(losers, (10, 20, 30)))},
    )
    played += 1
    print(played, flush=True)
"""


def environment(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["SCOREKEEPER_SQLITE"] = str(database)
    return env


def manage(*args: str, database: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_ROOT,
        env=environment(database),
        capture_output=True,
        text=True,
        timeout=120,
    )


def count(database: Path, table: str) -> int:
    with closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=20)) as db:
        return db.execute(f"SELECT count(*) FROM scorekeeper_{table}").fetchone()[0]


@sqlite_only
def test_a_backup_taken_while_another_process_writes_passes_its_checks_and_audits_clean(
    tmp_path, fresh_sqlite
):
    live = fresh_sqlite  # an empty, migrated database of its own (tests/migrated.py)
    stop = tmp_path / "stop"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(stop)],
        cwd=PROJECT_ROOT,
        env=environment(live),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        while int(writer.stdout.readline() or "-1") < 3:  # the writer is well under way
            assert writer.poll() is None, writer.stderr.read()  # type: ignore[union-attr]
        command = manage("backup", str(tmp_path / "by-command.sqlite3"), database=live)
        copies: list[Path] = []
        deadline = time.monotonic() + 60
        # Back to back until the writer has played two more games: some copies overlap writes.
        while len(copies) < 8 or count(live, "game") < count(copies[0], "game") + 2:
            copies.append(tmp_path / f"copy-{len(copies)}.sqlite3")
            assert sqlite_backup(live, copies[-1]) == ["ok"]
            assert time.monotonic() < deadline, "the writer stalled"
    finally:
        stop.touch()
        out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    assert command.returncode == 0, command.stderr
    assert "integrity_check: ok" in command.stdout
    assert " bytes " in command.stdout
    assert not list(tmp_path.glob("*.partial"))

    assert count(copies[-1], "game") > count(copies[0], "game")  # each copy is one instant
    for copy in copies:
        with closing(sqlite3.connect(copy)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    for copy in (tmp_path / "by-command.sqlite3", copies[-1]):
        audit = manage("ledger_audit", database=copy)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert "1 nights, no problem" in audit.stdout


@sqlite_only
def test_a_copy_that_fails_integrity_check_is_refused_and_not_kept(tmp_path):
    broken = tmp_path / "broken.sqlite3"
    with closing(sqlite3.connect(broken)) as db, db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.execute("CREATE INDEX t_x ON t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [(f"row {n:05}",) for n in range(5000)])
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 't_x'").fetchone()
        (page,) = db.execute("PRAGMA page_size").fetchone()
    with broken.open("r+b") as raw:  # the index's root page: a leaf that claims five cells
        raw.seek((root - 1) * page)
        raw.write(b"\x0a\x00\x00\x00\x05" + bytes(20))
    result = manage("backup", str(tmp_path / "copy.sqlite3"), database=broken)
    assert result.returncode == 1
    assert "failed PRAGMA integrity_check" in result.stderr
    assert "corruption" in result.stderr
    assert not (tmp_path / "copy.sqlite3").exists()
    assert not (tmp_path / "copy.sqlite3.partial").exists()


@sqlite_only
def test_a_backup_into_a_folder_gets_a_dated_name_and_a_missing_database_is_refused(tmp_path):
    live = tmp_path / "live.sqlite3"
    with closing(sqlite3.connect(live)) as db:
        db.execute("CREATE TABLE t (x)")
    folder = tmp_path / "backups"
    folder.mkdir()
    result = manage("backup", str(folder), database=live)
    assert result.returncode == 0, result.stderr
    (copy,) = folder.glob("live-*.sqlite3")
    assert str(copy) in result.stdout
    missing = manage("backup", str(folder), database=tmp_path / "nowhere.sqlite3")
    assert missing.returncode == 1
    assert "there is no database at" in missing.stderr
    assert not (tmp_path / "nowhere.sqlite3").exists()  # not created by looking for it
    itself = manage("backup", str(live), database=live)
    assert (itself.returncode, "the live database itself" in itself.stderr) == (1, True)


@sqlite_only
def test_a_backup_refuses_a_database_in_memory(db, tmp_path):
    with pytest.raises(CommandError, match="in memory"):  # the SQLite test database
        call_command("backup", str(tmp_path / "copy.sqlite3"))


@pytest.mark.skipif(not ON_POSTGRESQL, reason="the refusal is for PostgreSQL")
def test_a_backup_on_postgresql_is_refused_with_pg_dump_named(db, tmp_path):
    with pytest.raises(CommandError, match="PostgreSQL: back it up with pg_dump"):
        call_command("backup", str(tmp_path / "copy.sqlite3"))
    assert not (tmp_path / "copy.sqlite3").exists()
