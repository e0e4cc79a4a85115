"""Recording games through a real server: 10 tables, one writer each, start + finish in a loop.

For SQLite (a fresh file) and then PostgreSQL (a fresh database, dropped at the end): migrate,
start `uv run gunicorn scorekeeper.wsgi -b 127.0.0.1:<port> -w 4 --threads 2` (plain HTTP, plus
an access log that gives gunicorn's own request time), set up each table over HTTP as a
phone does (POST /groups/new makes the phone the host, POST /g/<id>/sessions/new), then every
writer loops: POST /s/<sid>/games/start, find the game in play, POST .../finish (timed).

Finding the game in play:
  --loop lean   (default) a read-only query on the database, untimed: only the two writes go to
                the server, so the server does nothing but record games.
  --loop phone  as a phone does: follow the start's redirect (GET the table page) and read the
                finish link there, and follow the finish's redirect (GET the table page) too.

Serving:
  --serve production  (default) debug off, as `make serve`: collected static files, the app's
                      production settings but plain HTTP (bench/phone_settings.py)
  --serve debug       SCOREKEEPER_DEBUG=1: Django keeps every statement of every request

Time of the finish POST: the client's wall time of the request on loopback (httpx, the writer's
own thread), and gunicorn's own request time from its access log (%(D)s), for the same requests.

    uv run python bench/web_record.py                  # both databases, 30 s each
    BENCH_SECONDS=10 uv run python bench/web_record.py --db sqlite --loop phone
    BENCH_TABLES=1 uv run python bench/web_record.py    # one writer: the time without contention

Aims (reported, not asserted): p95 of the finish POST <= 20 ms, >= 150 games recorded per second.
"""

import argparse
import os
import re
import tempfile
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field

from webbench import (
    Database,
    Phone,
    Server,
    bounded,
    collectstatic,
    cpu_seconds,
    fresh_database,
    loadavg,
    machine,
    percentile,
    production_env,
    serve,
    verdict,
)

TABLES = int(os.environ.get("BENCH_TABLES", "10"))
P95_AIM = 0.020
RATE_AIM = 150.0


@dataclass
class Writer:
    number: int
    phone: Phone
    group_id: int
    session_id: int
    finishes: list[tuple[float, float]] = field(default_factory=list)  # (started, seconds)
    starts: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    crashed: BaseException | None = None


def in_play(db: Database, conn: object, session_id: int) -> int | None:
    sql = (
        "SELECT id FROM scorekeeper_game WHERE session_id = {p} AND status = 'in-play' "
        "ORDER BY id DESC LIMIT 1"
    ).format(p="?" if db.kind == "sqlite" else "%s")
    row = conn.execute(sql, (session_id,)).fetchone()  # type: ignore[attr-defined]
    return int(row[0]) if row else None


def loop(writer: Writer, db: Database, mode: str, until: float) -> None:
    conn = db.connect() if mode == "lean" else None
    sid = writer.session_id
    try:
        while time.monotonic() < until:
            t_start = time.monotonic()
            start = writer.phone.start_game(sid)
            writer.starts.append((t_start, time.monotonic() - t_start))
            if start.status_code != 302:
                writer.errors.append(f"start {start.status_code}")
                continue
            if mode == "phone":
                table = writer.phone.get(start.headers["location"])
                found = re.search(rf"/s/{sid}/games/(\d+)/finish", table.text)
                game_id = int(found.group(1)) if found else None
            else:
                game_id = in_play(db, conn, sid)
            if game_id is None:
                writer.errors.append("no game in play after start")
                continue
            t0 = time.monotonic()
            done = writer.phone.finish(sid, game_id)
            seconds = time.monotonic() - t0
            if done.status_code == 302 and done.headers["location"] == f"/s/{sid}/":
                writer.finishes.append((t0, seconds))
            else:
                writer.errors.append(f"finish {done.status_code}")
            if mode == "phone":
                writer.phone.get(done.headers.get("location") or f"/s/{sid}/")
    except BaseException as e:  # reported, and the other writers go on
        writer.crashed = e
    finally:
        if conn is not None:
            conn.close()  # type: ignore[attr-defined]


def run(kind: str, seconds: float, warmup: float, mode: str, serving: str) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-static-") as static_root,
        fresh_database(kind) as db,
    ):
        extra = production_env(static_root) if serving == "production" else {}
        if extra:
            collectstatic(db, extra)
        workers = int(os.environ.get("BENCH_WORKERS", "4"))
        threads = int(os.environ.get("BENCH_THREADS", "2"))
        with serve(db, env=extra, workers=workers, threads=threads) as server:
            return _record(db, server, seconds, warmup, mode)


def _record(
    db: Database, server: Server, seconds: float, warmup: float, mode: str
) -> dict[str, object]:
    writers = []
    for n in range(1, TABLES + 1):
        phone = Phone(server.url, f"writer {n}")
        group_id = phone.create_group(f"Bench table {n} · วงที่ {n}")
        session_id = phone.open_session(group_id)
        writers.append(Writer(n, phone, group_id, session_id))
    load_before = loadavg()
    began = time.monotonic()
    window_start = began + warmup
    until = window_start + seconds
    threads = [
        threading.Thread(target=loop, args=(w, db, mode, until), daemon=True) for w in writers
    ]
    for t in threads:
        t.start()
    time.sleep(max(0.0, window_start - time.monotonic()))
    assert server.process is not None
    pg = f" {db.name} " if db.kind == "postgresql" else ""  # a backend of our database
    cpu0 = (cpu_seconds(server.process.pid), cpu_seconds(cmdline=pg) if pg else 0.0)
    me0 = sum(os.times()[:2])
    for t in threads:
        t.join(timeout=seconds + warmup + 120)
    ended = time.monotonic()
    cpu1 = (cpu_seconds(server.process.pid), cpu_seconds(cmdline=pg) if pg else 0.0)
    me1 = sum(os.times()[:2])
    load_after = loadavg()
    for w in writers:
        w.phone.close()
    # The window: finishes sent after the warm-up; games/s over the window's length plus the
    # tail of the requests still in flight when it closed.
    timed = [s for w in writers for (t0, s) in w.finishes if t0 >= window_start]
    starts = [s for w in writers for (t0, s) in w.starts if t0 >= window_start]
    window = max(ended, until) - window_start
    server_side = server.access_times("POST", r"/s/\d+/games/\d+/finish")
    warm_count = sum(1 for w in writers for (t0, _s) in w.finishes if t0 < window_start)
    server_side = server_side[warm_count:]  # the access log is in order of completion
    with closing(db.connect()) as conn:
        settled = conn.execute(
            "SELECT count(*) FROM scorekeeper_game WHERE status = 'settled'"
        ).fetchone()[0]
    return {
        "kind": db.kind,
        "mode": mode,
        "seconds": window,
        "count": len(timed),
        "rate": len(timed) / window,
        "p50": percentile(timed, 50),
        "p95": percentile(timed, 95),
        "p99": percentile(timed, 99),
        "max": max(timed, default=float("nan")),
        "start_p50": percentile(starts, 50),
        "start_p95": percentile(starts, 95),
        "server_p50": percentile(server_side, 50),
        "server_p95": percentile(server_side, 95),
        "server_p99": percentile(server_side, 99),
        "errors": sum(len(w.errors) for w in writers),
        "error_kinds": sorted({e for w in writers for e in w.errors})[:5],
        "crashed": [repr(w.crashed) for w in writers if w.crashed],
        "tracebacks": server.tracebacks(),
        "settled": settled,
        "warm_count": warm_count,
        "load": f"{load_before} → {load_after}",
        "cpu_gunicorn": cpu1[0] - cpu0[0],
        "cpu_postgres": cpu1[1] - cpu0[1],
        "cpu_client": me1 - me0,
    }


def cpu_line(r: dict[str, object]) -> str:
    games = max(1, int(r["count"]))  # type: ignore[call-overload]
    g, pg, me = (float(r[k]) for k in ("cpu_gunicorn", "cpu_postgres", "cpu_client"))  # type: ignore[arg-type]
    cores = os.cpu_count() or 1
    per_game = (g + pg) / games
    return (
        f"CPU in the window: gunicorn {g:.1f} s, PostgreSQL backends {pg:.1f} s, this client "
        f"{me:.1f} s; the server side spends {per_game * 1000:.0f} ms of CPU per game (start + "
        f"finish): at most {cores / per_game:.0f} games/s on {cores} idle cores"
    )


def report(r: dict[str, object]) -> str:
    keys = ("p50", "p95", "p99", "max", "server_p50", "server_p95", "server_p99")
    keys += ("start_p50", "start_p95")
    ms = {k: float(r[k]) * 1000 for k in keys}  # type: ignore[arg-type]
    lines = [
        f"== {r['kind']} · loop {r['mode']} · {TABLES} writers · {float(r['seconds']):.1f} s "  # type: ignore[arg-type]
        f"(load average {r['load']}) ==",
        f"finish POST, client wall time: p50 {ms['p50']:.1f} ms · p95 {ms['p95']:.1f} ms · "
        f"p99 {ms['p99']:.1f} ms · max {ms['max']:.1f} ms",
        f"finish POST, gunicorn request time: p50 {ms['server_p50']:.1f} ms · "
        f"p95 {ms['server_p95']:.1f} ms · p99 {ms['server_p99']:.1f} ms",
        f"start POST, client wall time: p50 {ms['start_p50']:.1f} ms · "
        f"p95 {ms['start_p95']:.1f} ms",
        f"games recorded: {r['count']} in the window, {float(r['rate']):.1f} games/s "  # type: ignore[arg-type]
        f"({r['warm_count']} more in the warm-up; {r['settled']} settled in the database)",
        cpu_line(r),
        f"errors: {r['errors']} {r['error_kinds']} · writer crashes: {r['crashed']} · "
        f"server tracebacks: {r['tracebacks']}",
        f"aim p95 <= {P95_AIM * 1000:.0f} ms: {verdict(float(r['p95']) <= P95_AIM)} · "  # type: ignore[arg-type]
        f"aim >= {RATE_AIM:.0f} games/s: {verdict(float(r['rate']) >= RATE_AIM)}",  # type: ignore[arg-type]
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--loop", choices=["lean", "phone"], default="lean")
    parser.add_argument("--serve", choices=["production", "debug"], default="production")
    args = parser.parse_args()
    seconds = float(os.environ.get("BENCH_SECONDS", "30"))
    warmup = float(os.environ.get("BENCH_WARMUP", "3"))
    bounded(2 * (seconds + warmup + 150) + 120)
    print(machine())
    print(
        f"{TABLES} writers, {seconds:.0f} s measured after {warmup:.0f} s of warm-up, "
        f"serving {args.serve}"
    )
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    for kind in kinds:
        print(report(run(kind, seconds, warmup, args.loop, args.serve)), flush=True)


if __name__ == "__main__":
    main()
