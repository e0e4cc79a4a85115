"""What a request costs before the app does anything, and what each ORM read of the hot path costs.

1. The floor: granian as web_record.py runs it (2 workers × 1 thread, production serving, no access
   log) answering a static path that does not exist (404: every middleware, no view, no query),
   from 10 threads on http.client for BENCH_SECONDS (10): requests a second, and granian's CPU
   per request read from /proc.
2. In-process, on a SQLite file with debug off, in one transaction: each statement that recording
   a game makes, 2,000 times through the ORM and 2,000 times as the app now runs it (SQL written
   by hand, model instances made from the rows as the ORM makes them): CPU time each.

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


def hot_path() -> list[str]:
    """Time each statement of recording a game through the ORM and as the app now runs it (SQL,
    model instances made as the ORM makes them), on a fresh SQLite file."""
    tmp = tempfile.mkdtemp(prefix="scorekeeper-floor-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(
        SCOREKEEPER_SQLITE=f"{tmp}/floor.sqlite3",
        SCOREKEEPER_DEBUG="0",
        SCOREKEEPER_SECRET_KEY="bench-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
    )
    sys.path.insert(0, str(ROOT))
    import itertools

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from scorekeeper.db import rows
    from scorekeeper.models import (
        AuditEntry,
        Device,
        Game,
        Group,
        LedgerLine,
        Membership,
        Player,
        Session,
    )
    from scorekeeper.services import games, sessions
    from scorekeeper.services.access import audit

    call_command("migrate", "--noinput", verbosity=0)
    group = Group.objects.create(name="Floor")
    session = sessions.session_open(
        group=group, players=["Ann", "Bee", "Cat", "Dan"], stake_level="sian",
        point_value=Decimal("0.5"),
    )  # fmt: skip
    phone = Device.objects.create()
    Membership.objects.create(group=group, role=Membership.Role.HOST, device=phone)
    outcome = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2}}
    outcome["points"]["Dan"] = 3
    for _ in range(20):
        games.game_finish(game=games.game_start(session=session), outcome=outcome)
    game = session.games.order_by("-number").first()
    assert game is not None
    ann, bee, cat, dan = Player.objects.seated_at(session.pk)
    numbers = itertools.count(1000)

    def new_game() -> Game:
        return Game(
            session=session, number=next(numbers), dealer=ann, seating=game.seating,
            document=game.document,
        )  # fmt: skip

    def new_lines() -> list[LedgerLine]:  # a knock's three after-game lines
        return [
            LedgerLine(
                session=session,
                game=game,
                payer=p,
                payee=ann,
                amount=100,
                item="knock",
                rule="11",
                due="after-game",
            )  # fmt: skip
            for p in (bee, cat, dan)
        ]

    def memberships() -> list[Membership]:  # the phone's, as the ORM read them
        return list(
            Membership.objects.for_visitor(phone.pk, None).filter(
                group_id=group.pk, revoked_at__isnull=True
            )
        )

    pairs = {
        "the game with its session and group, and the phone's memberships (game_for)": (
            lambda: (
                Game.objects.select_related("session__group").get(
                    pk=game.pk, session_id=session.pk
                ),
                memberships(),
            ),
            lambda: Game.objects.admitting(game.pk, session.pk, phone.pk, None),
        ),
        "the session with its group, and the phone's memberships (session_for)": (
            lambda: (Session.objects.select_related("group").get(pk=session.pk), memberships()),
            lambda: Session.objects.admitting(session.pk, phone.pk, None),
        ),
        "the game and its session, locked (lock_game)": (
            lambda: (
                Game.objects.select_related("session")
                .select_for_update(of=("session", "self"))
                .get(pk=game.pk)
            ),
            lambda: Game.objects.locked(game.pk),
        ),
        "the latest game (game_start)": (
            lambda: session.games.order_by("-number", "-id").first(),
            lambda: Game.objects.latest_of(session.pk),
        ),
        "the seated players (game_start)": (
            lambda: [s.player for s in session.seats.current().select_related("player")],
            lambda: Player.objects.seated_at(session.pk),
        ),
        "INSERT the game (game_start)": (
            lambda: new_game().save(force_insert=True),  # Game.objects.create
            lambda: rows.insert([new_game()]),
        ),
        "INSERT a knock's 3 ledger lines (lines_write)": (
            lambda: LedgerLine.objects.bulk_create(new_lines()),
            lambda: rows.insert(new_lines()),
        ),
        "UPDATE the finished game's 5 columns (_settle)": (
            lambda: game.save(
                update_fields=["document", "last_drawer", "finished_at", "status", "tie"]
            ),
            lambda: rows.update(game, ["document", "last_drawer", "finished_at", "status", "tie"]),
        ),
        "INSERT an audit entry (audit)": (
            lambda: AuditEntry.objects.create(
                group_id=group.pk,
                session=session,
                game=game,
                action="game-finish",
                detail=outcome,
            ),  # fmt: skip
            lambda: audit(
                actor=None, action="game-finish", session=session, game=game, detail=outcome
            ),  # fmt: skip
        ),
    }
    lines = []
    n = 2000
    with transaction.atomic():  # one transaction: the writes' COMMIT is not what is timed
        for label, pair in pairs.items():
            timed = []
            for f in pair:
                f()
                t0 = time.process_time()
                for _ in range(n):
                    f()
                timed.append((time.process_time() - t0) / n * 1e6)
            lines.append(f"{label}: ORM {timed[0]:.0f} µs, as the app runs it {timed[1]:.0f} µs")
    return lines


def main() -> None:
    bounded(600)
    print(machine())
    print(floor(float(os.environ.get("BENCH_SECONDS", "10"))), flush=True)
    for line in hot_path():
        print(line)


if __name__ == "__main__":
    main()
