"""An empty database migrated once a run, to copy: into each test worker's SQLite database
(tests/conftest.py, `django_db_setup`), and for the tests that run the app in processes of their
own (an import, a backup, a server) on a fresh database.

`manage.py migrate` on an empty database costs about 3 s of CPU: Django renders the models' state
for each of its fifty-odd migrations. A copy costs milliseconds and is what `migrate` made: the
SQLite file byte for byte, or PostgreSQL's own `CREATE DATABASE … TEMPLATE`. `migrate` itself is
tested where it is the subject (tests/test_migrations.py).
"""

import fcntl
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def migrate(env: dict[str, str]) -> None:
    """`manage.py migrate` on the database `env` names (SCOREKEEPER_SQLITE or DATABASE_URL)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def sqlite_template(folder: Path) -> Path:
    """An empty SQLite file migrated once in `folder`. The first caller migrates it, holding a
    lock; pytest-xdist's other workers, sharing `folder`, wait for it and find it made."""
    template = folder / "migrated.sqlite3"
    with (folder / "migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            making = folder / "migrating.sqlite3"
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            migrate({**env, "SCOREKEEPER_SQLITE": str(making)})
            # migrate's last connection checkpointed its write-ahead log into the file on closing
            assert not making.with_name(making.name + "-wal").exists()
            making.rename(template)
    return template
