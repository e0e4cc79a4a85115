"""What a request costs before the app does anything, and what each ORM read of the hot path costs.

1. The floor: granian as web_record.py runs it (2 workers × 1 thread, production serving, no access
   log) answering a static path that does not exist (404: every middleware, no view, no query),
   from 10 threads on http.client for BENCH_SECONDS (10): requests a second, and granian's CPU
   per request read from /proc.
2. In-process, on a SQLite file with debug off: each read that recording a game makes through the
   ORM, timed against the same statement sent as SQL on the same connection (the ORM's cost is
   building and compiling the statement and making the model instances).

    uv run python bench/web_floor.py
"""

import http.client
import os
import sys
import tempfile
import threading
import time
from decimal import Decimal
from pathlib import Path

from webbench import bounded, collectstatic, cpu_seconds, fresh_database, machine, production_env
from webbench import serve as serving

ROOT = Path(__file__).resolve().parents[1]
THREADS = 10


def floor(seconds: float) -> str:
    with tempfile.TemporaryDirectory() as static_root, fresh_database("sqlite") as db:
        extra = production_env(static_root)
        collectstatic(db, extra)
        with serving(db, env=extra, workers=2, threads=1, access_log=False) as server:
            assert server.process is not None
            done = [0] * THREADS
            until = time.monotonic() + seconds

            def hammer(n: int) -> None:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                while time.monotonic() < until:
                    connection.request("GET", "/static/no-such-file.css")
                    response = connection.getresponse()
                    response.read()
                    assert response.status == 404
                    done[n] += 1
                connection.close()

            cpu0, me0 = cpu_seconds(server.process.pid), sum(os.times()[:2])
            threads = [threading.Thread(target=hammer, args=(n,)) for n in range(THREADS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            cpu1, me1 = cpu_seconds(server.process.pid), sum(os.times()[:2])
    total = sum(done)
    return (
        f"floor: {total / seconds:.0f} requests/s (404, every middleware, no query); granian "
        f"{(cpu1 - cpu0) / total * 1000:.2f} ms of CPU a request, this client "
        f"{(me1 - me0) / total * 1000:.2f} ms"
    )


def orm_reads() -> list[str]:
    """Time each read of the hot path through the ORM and as SQL (a fresh SQLite file)."""
    tmp = tempfile.mkdtemp(prefix="scorekeeper-floor-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(
        SCOREKEEPER_SQLITE=f"{tmp}/floor.sqlite3",
        SCOREKEEPER_DEBUG="0",
        SCOREKEEPER_SECRET_KEY="bench-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scorekeeper.models import Game, Group, Membership
    from scorekeeper.services import games, sessions

    call_command("migrate", "--noinput", verbosity=0)
    group = Group.objects.create(name="Floor")
    session = sessions.session_open(
        group=group, players=["Ann", "Bee", "Cat", "Dan"], stake_level="sian",
        point_value=Decimal("0.5"),
    )  # fmt: skip
    outcome = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2}}
    outcome["points"]["Dan"] = 3
    for _ in range(20):
        games.game_finish(game=games.game_start(session=session), outcome=outcome)
    game = session.games.order_by("-number").first()
    assert game is not None
    reads = {
        "the game with its session and group (game_for)": Game.objects.select_related(
            "session__group"
        ).filter(pk=game.pk, session_id=session.pk),
        "the visitor's memberships of the group (membership_in)": Membership.objects.filter(
            device_id=1, group=group, revoked_at__isnull=True
        ),
        "the latest game (game_start)": session.games.order_by("-number", "-id")[:1],
        "the seats with their players (game_start)": session.seats.current().select_related(
            "player"
        ),
    }
    lines = []
    n = 2000
    for label, queryset in reads.items():
        sql, params = queryset.query.sql_with_params()

        def through_orm(qs=queryset) -> None:
            list(qs.all())  # a fresh copy each time: built, compiled and run

        def as_sql(sql=sql, params=params) -> None:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                cursor.fetchall()

        timed = []
        for f in (through_orm, as_sql):
            f()
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            timed.append((time.perf_counter() - t0) / n * 1e6)
        lines.append(f"{label}: ORM {timed[0]:.0f} µs, the same SQL {timed[1]:.0f} µs")
    return lines


def main() -> None:
    bounded(600)
    print(machine())
    print(floor(float(os.environ.get("BENCH_SECONDS", "10"))), flush=True)
    for line in orm_reads():
        print(line)


if __name__ == "__main__":
    main()
