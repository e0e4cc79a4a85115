"""How long a recorded game holds SQLite's write lock, a part no other save runs beside.

In-process, debug off, a fresh SQLite file: a phone's cookies made by Django's test Client, then
BENCH_HOLD_N (default 600) games recorded through the app's WSGI application
(scorekeeper/wsgi.py) as gunicorn or granian would call it (POST start, POST finish,
form-encoded), after 50 games of warm-up. The backend's
write queue (scorekeeper/db/sqlite3/base.py) is timed from taking its flock to letting it go:
that is the write transaction, from BEGIN to after COMMIT. With several writers, the games a
second SQLite can record are at most 1 / (the lock's hold per game). Python's garbage
collections during the games are timed too (gc.callbacks): each holds up the request it runs in.

    uv run python bench/write_hold.py
    ROOT=/path/to/another/checkout uv run python bench/write_hold.py   # the same, on other code
"""

import gc
import io
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(os.environ.get("ROOT", Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(ROOT))
TMP = tempfile.TemporaryDirectory(prefix="scorekeeper-hold-")
os.environ.pop("DATABASE_URL", None)
os.environ.update(
    SCOREKEEPER_SQLITE=str(Path(TMP.name) / "hold.sqlite3"),
    SCOREKEEPER_DEBUG="0",
    SCOREKEEPER_SECRET_KEY="bench-" + "x" * 50,
    SCOREKEEPER_ALLOWED_HOSTS="testserver",
    SCOREKEEPER_SSL_REDIRECT="0",  # plain HTTP in-process
    DJANGO_SETTINGS_MODULE="scorekeeper.settings",
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from scorekeeper.db.sqlite3 import base  # noqa: E402
from scorekeeper.models import Game, Group  # noqa: E402
from scorekeeper.services import sessions  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webbench import bounded, finish_data, machine  # noqa: E402

held: list[float] = []
commits: list[float] = []
collections: dict[int, list[float]] = {0: [], 1: [], 2: []}  # each generation's pauses
began: list[float] = []


def _collecting(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        began.append(time.perf_counter())
    elif began:
        collections[info["generation"]].append(time.perf_counter() - began.pop())


Wrapper = base.DatabaseWrapper  # the app's SQLite backend: its write queue and COMMIT timed
take, leave, commit = Wrapper._queue_take, Wrapper._queue_leave, Wrapper._commit
taken: dict[int, float] = {}


def _take(self: base.DatabaseWrapper) -> None:
    take(self)
    taken[id(self)] = time.perf_counter()


def _leave(self: base.DatabaseWrapper) -> None:
    if id(self) in taken:
        held.append(time.perf_counter() - taken.pop(id(self)))
    leave(self)


def _commit(self: base.DatabaseWrapper) -> Any:
    t0 = time.perf_counter()
    try:
        return commit(self)
    finally:
        commits.append(time.perf_counter() - t0)


Wrapper._queue_take, Wrapper._queue_leave, Wrapper._commit = _take, _leave, _commit  # type: ignore[method-assign]


def main() -> None:
    bounded(900)
    n = int(os.environ.get("BENCH_HOLD_N", "600"))
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    print(machine())
    if "ROOT" in os.environ:
        print(f"(the app measured is the one in {ROOT}, not the commit named above)")
    call_command("migrate", "--noinput", verbosity=0)
    client = Client(HTTP_ACCEPT_LANGUAGE="th")
    made = client.post("/groups/new", {"name": "Hold"})
    found = re.fullmatch(r"/g/(\d+)/", made["Location"])
    assert found is not None, made["Location"]
    group = Group.objects.get(pk=int(found[1]))
    sid = sessions.session_open(
        group=group, players=["Ann", "Bee", "Cat", "Dan"], stake_level="sian",
        point_value=Decimal("0.5"),
    ).pk  # fmt: skip
    csrf = "a" * 32
    cookies = "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())
    cookies += f"; csrftoken={csrf}"
    from scorekeeper.wsgi import application as app  # as granian loads it

    def post(path: str, data: dict[str, object]) -> str:
        body = urlencode(data).encode()
        environ = {
            "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
            "SERVER_NAME": "testserver", "SERVER_PORT": "80", "HTTP_HOST": "testserver",
            "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
            "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/x-www-form-urlencoded", "HTTP_COOKIE": cookies,
            "HTTP_X_CSRFTOKEN": csrf, "HTTP_ACCEPT_LANGUAGE": "th", "REMOTE_ADDR": "127.0.0.1",
        }  # fmt: skip
        status: list[str] = []
        answer = app(environ, lambda s, headers, exc=None: status.append(s))  # type: ignore[arg-type]
        b"".join(answer)
        answer.close()
        return status[0]

    def game() -> None:
        started = post(
            f"/s/{sid}/games/start", {"fool_swap": "on", "idempotency_key": uuid.uuid4().hex}
        )
        assert started.startswith("302"), started
        playing = Game.objects.filter(session_id=sid, status=Game.Status.IN_PLAY).get()
        done = post(
            f"/s/{sid}/games/{playing.pk}/finish", finish_data(idempotency_key=uuid.uuid4().hex)
        )
        assert done.startswith("302"), done

    for _ in range(50):
        game()
    held.clear()
    commits.clear()
    gc.callbacks.append(_collecting)
    cpu = time.process_time()
    for _ in range(n):
        game()
    cpu = (time.process_time() - cpu) / n
    gc.callbacks.remove(_collecting)
    hold = sorted(held)
    per_game = sum(hold) / n
    print(
        f"{n} games: {cpu * 1000:.2f} ms of CPU a game (start + finish, and the untimed read of "
        f"the game in play); {len(hold)} write transactions\n"
        f"the write lock held: median {statistics.median(hold) * 1000:.2f} ms, p95 "
        f"{hold[int(len(hold) * 0.95)] * 1000:.2f} ms; {per_game * 1000:.2f} ms a game, so at "
        f"most {1 / per_game:.0f} games/s however many writers\n"
        f"of it, COMMIT (fsync of the WAL): median {statistics.median(commits) * 1000:.2f} ms"
    )
    print(f"garbage collections in the {n} games ({gc.get_freeze_count()} objects frozen):")
    for generation, pauses in collections.items():
        longest = max(pauses, default=0) * 1000
        print(
            f"  generation {generation}: {len(pauses)}, {sum(pauses) * 1000:.1f} ms in all, "
            f"the longest {longest:.1f} ms"
        )


if __name__ == "__main__":
    try:
        main()
    finally:
        TMP.cleanup()
