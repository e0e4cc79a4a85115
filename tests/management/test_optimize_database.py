import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_command_gathers_the_planners_statistics_of_the_embedded_database(fresh_sqlite):
    env = {**os.environ, "SCOREKEEPER_SQLITE": str(fresh_sqlite)}
    env.pop("DATABASE_URL", None)

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout

    with sqlite3.connect(fresh_sqlite) as raw:
        raw.execute("DELETE FROM sqlite_stat1")  # as a database made before ANALYZE ever ran
    assert "refreshed" in manage("optimize_database")
    with sqlite3.connect(fresh_sqlite) as raw:
        tables = {t for (t,) in raw.execute("SELECT tbl FROM sqlite_stat1")}
    assert "django_migrations" in tables  # every table with rows: the others have nothing to say
