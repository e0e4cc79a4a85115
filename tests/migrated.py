"""An empty database migrated once, to copy: into each test worker's SQLite database
(tests/conftest.py, `django_db_setup`), and for the tests that run the app in processes of their
own (an import, a backup, a server) on a fresh database.

`manage.py migrate` on an empty database costs about 3.5 s of CPU: Django renders the models' state
for each of its fifty-odd migrations. A copy costs milliseconds and is what `migrate` made: the
SQLite file byte for byte, or PostgreSQL's own `CREATE DATABASE … TEMPLATE`. `migrate` itself is
tested where it is the subject (tests/test_migrations.py).

The SQLite file is kept between runs in test-artifacts/migrated/ (ignored by git), in a folder
named by everything `migrate` makes it from (`kept`): a run after one with the same migrations,
libraries, settings and SQLite copies it rather than migrating again. A fresh clone migrates.
"""

import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "test-artifacts" / "migrated"


def kept() -> Path:
    """The folder of the migrated file for this checkout as it is now: named by a digest of every
    migration, the locked libraries (uv.lock: Django's own migrations, axes'), the settings, the
    interpreter and the SQLite library, so that a change to any of them migrates afresh. Folders
    of other digests are removed as a new one is made."""
    digest = hashlib.sha256(f"{sys.version}\n{sqlite3.sqlite_version}\n".encode())
    sources = [ROOT / "uv.lock", ROOT / "scorekeeper" / "settings.py"]
    for path in [*sources, *sorted((ROOT / "scorekeeper" / "migrations").glob("*.py"))]:
        digest.update(f"{path.relative_to(ROOT)}\n".encode() + path.read_bytes())
    folder = KEPT / digest.hexdigest()[:16]
    if not folder.exists():
        if KEPT.exists():
            for other in KEPT.iterdir():
                shutil.rmtree(other, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def migrate(env: dict[str, str]) -> None:
    """`manage.py migrate` on the database `env` names (SCOREKEEPER_SQLITE or DATABASE_URL)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def sqlite_template(folder: Path) -> Path:
    """An empty SQLite file migrated once in `folder`. The first caller migrates it, holding a
    lock; pytest-xdist's other workers, and the runs after, sharing `folder`, wait for it and
    find it made."""
    template = folder / "migrated.sqlite3"
    with (folder / "migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            making = folder / "migrating.sqlite3"
            for left in folder.glob("migrating.sqlite3*"):  # a run stopped while it migrated
                left.unlink()
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            migrate({**env, "SCOREKEEPER_SQLITE": str(making)})
            # migrate's last connection checkpointed its write-ahead log into the file on closing
            assert not making.with_name(making.name + "-wal").exists()
            making.rename(template)
    return template
