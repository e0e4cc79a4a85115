"""A write on the embedded database waits its turn in the write queue (services/writing.py): it
holds the queue's lock from before BEGIN until its transaction has committed or rolled back; a
write inside it (a savepoint) or made as it commits does not queue again; on PostgreSQL or an
in-memory database there is no queue at all."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from scorekeeper.models import Device
from scorekeeper.services.writing import writing

ROOT = Path(__file__).resolve().parents[2]

# Whether another open file of the queue could take its lock at each step, in a process of its
# own on a file database.
STEPS = """
import fcntl, os, django
django.setup()
from django.db import transaction
from scorekeeper.services.writing import writing

queue = os.environ["SCOREKEEPER_SQLITE"] + ".write-queue"

def held():
    with open(queue, "ab") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "held"
        return "free"

def write_and_look():
    with writing():
        return held()

steps = [held()]
with writing():
    steps.append(held())
    with writing():  # a write made by a write: a savepoint, already queued
        steps.append(held())
steps.append(held())
try:
    with writing():
        steps.append(held())
        raise ValueError("refused")
except ValueError:
    steps.append(held())
with writing():  # a write made as another commits, the queue still held: no second turn
    transaction.on_commit(lambda: steps.append(write_and_look()))
steps.append(held())
print(" ".join(steps))
"""


def test_a_write_holds_the_queue_from_before_it_begins_until_it_commits_or_rolls_back(
    tmp_path: Path,
) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    environ.pop("DATABASE_URL", None)
    environ["SCOREKEEPER_SQLITE"] = str(tmp_path / "db.sqlite3")
    done = subprocess.run(
        [sys.executable, "-c", STEPS], cwd=ROOT, env=environ,
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["free", "held", "held", "free", "held", "free", "held", "free"]


@pytest.mark.django_db
def test_the_test_database_has_no_queue_and_a_write_is_one_transaction() -> None:
    """PostgreSQL queues its writers itself; an in-memory SQLite database has one connection."""
    with pytest.raises(ValueError), writing():
        Device.objects.create(user_agent="kept only if the write commits")
        raise ValueError("refused")
    assert not Device.objects.filter(user_agent__startswith="kept only").exists()
    assert not Path(f"{connection.settings_dict['NAME']}.write-queue").exists()
