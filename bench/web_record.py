"""Recording games through a real server: 10 tables, one writer each, start + finish in a loop.

For SQLite (a fresh file) and then PostgreSQL (a fresh database, dropped at the end): migrate,
start `make serve`'s server, `uv run granian --interface wsgi --workers 2 --blocking-threads 1`
on 127.0.0.1 (plain HTTP, plus an access log that gives granian's own request time), set up each
table over HTTP as a phone does (POST /groups/new makes the phone the host, POST
/g/<id>/sessions/new), then every writer loops: POST /s/<sid>/games/start, find the game in
play, POST .../finish (timed).

Finding the game in play:
  --loop lean   (default) a read-only query on the database, untimed: only the two writes go to
                the server, so the server does nothing but record games.
  --loop phone  as a phone does: follow the start's redirect (GET the table page) and read the
                finish link there, and follow the finish's redirect (GET the table page) too.

Serving:
  --serve production  (default) debug off, as `make serve`: collected static files, the app's
                      production settings but plain HTTP (bench/phone_settings.py)
  --serve debug       SCOREKEEPER_DEBUG=1: Django keeps every statement of every request

Pace:
  --rate 0      (default) closed loop: every writer sends its next game as soon as the last is
                recorded, so the run finds the most games a second the server records.
  --rate R      open loop: the writers together offer R games a second (each writer one game
                every 10/R s, the writers spread over that interval), as tables do; the run
                tells the time a save takes at that load. A writer that falls behind sends its
                next game at once and is counted late.

In a closed loop the ten writers wait on each other's turn at the server: by Little's law each
game then takes writers / rate seconds, so a p95 of 20 ms with 10 writers would need 500 games
recorded a second. The two aims are therefore read together in the open loop: 150 games a second
offered by 10 writers, each save's p95 at most 20 ms.

Time of the finish POST: the client's wall time of the request on loopback (the writer's own
thread), and granian's own request time from its access log (%(dt_ms)s), for the same requests.
The lean loop's writers post with http.client, the phone's cookies and CSRF token copied from its
httpx set-up: the client shares the two cores with the server, and httpx cost it about 2 ms of
CPU a request, http.client about a fifth of that.

    uv run python bench/web_record.py                  # both databases, 30 s each
    BENCH_SECONDS=10 uv run python bench/web_record.py --db sqlite --loop phone
    BENCH_TABLES=1 uv run python bench/web_record.py    # one writer: the time without contention
    BENCH_CONNECT=request uv run python bench/web_record.py --rate 150   # a connection a request
    uv run python bench/web_record.py --rate 150        # the aims: 150 games/s offered, p95

Aims (reported, not asserted): p95 of the finish POST <= 20 ms, >= 150 games recorded per second.
"""

import argparse
import http.client
import os
import re
import tempfile
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from webbench import (
    Database,
    Front,
    Phone,
    Server,
    bounded,
    collectstatic,
    connections_by_process,
    cpu_by_process,
    cpu_probe,
    cpu_seconds,
    finish_data,
    fresh_database,
    loadavg,
    machine,
    new_key,
    percentile,
    production_env,
    serve,
    serve_behind_nginx,
    verdict,
)

TABLES = int(os.environ.get("BENCH_TABLES", "10"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))  # a process a core, 1 thread: best measured
THREADS = int(os.environ.get("BENCH_THREADS", "1"))
# kept: each writer's connection is kept alive for the whole run, with the worker that accepted
# it; request: a new connection for every request, as a phone whose saves are minutes apart
CONNECT = os.environ.get("BENCH_CONNECT", "kept")
P95_AIM = 0.020
RATE_AIM = 150.0
KEPT_PACE = 0.99  # of the games an open loop offers in its window: a server that keeps pace


@dataclass
class Writer:
    number: int
    phone: Phone
    group_id: int
    session_id: int
    finishes: list[tuple[float, float]] = field(default_factory=list)  # (started, seconds)
    starts: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    late: int = 0  # games sent behind the open loop's schedule
    crashed: BaseException | None = None


class Wire:
    """A writer's posts through http.client, as the phone: its cookies and its CSRF token.

    The connection is kept alive between requests, as a phone's browser keeps it.
    """

    def __init__(self, phone: Phone, url: str) -> None:
        address = urlsplit(url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        cookies = phone.http.cookies
        self.headers = {
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "X-CSRFToken": cookies["csrftoken"],
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept-Language": "th",
        }

    def post(self, path: str, data: dict[str, object]) -> tuple[int, str]:
        """POST the form; return the status and the Location header."""
        self.connection.request("POST", path, urlencode(data), self.headers)
        response = self.connection.getresponse()
        response.read()
        if CONNECT == "request":  # the next request connects again, to whichever worker accepts
            self.connection.close()
        return response.status, response.getheader("Location", "")

    def close(self) -> None:
        self.connection.close()


def in_play(db: Database, conn: object, session_id: int) -> int | None:
    sql = (
        "SELECT id FROM scorekeeper_game WHERE session_id = {p} AND status = 'in-play' "
        "ORDER BY id DESC LIMIT 1"
    ).format(p="?" if db.kind == "sqlite" else "%s")
    row = conn.execute(sql, (session_id,)).fetchone()  # type: ignore[attr-defined]
    return int(row[0]) if row else None


def loop(writer: Writer, db: Database, mode: str, until: float, url: str, rate: float) -> None:
    if mode == "lean":
        _lean(writer, db, until, url, rate)
    else:
        _phone(writer, until)


def _lean(writer: Writer, db: Database, until: float, url: str, rate: float) -> None:
    """Only the two writes go to the server; the game in play is read from the database."""
    conn = db.connect()
    wire = Wire(writer.phone, url)
    writer.phone.close()  # its set-up connection: only the wire's stays open, one a writer
    sid = writer.session_id
    every = TABLES / rate if rate else 0.0  # this writer's interval between games
    due = time.monotonic() + every * writer.number / TABLES  # the writers spread over it
    try:
        while time.monotonic() < until:
            if every:
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                else:
                    writer.late += 1
                due += every
            t_start = time.monotonic()
            status, _ = wire.post(
                f"/s/{sid}/games/start", {"fool_swap": "on", "idempotency_key": new_key()}
            )
            writer.starts.append((t_start, time.monotonic() - t_start))
            if status != 302:
                writer.errors.append(f"start {status}")
                continue
            game_id = in_play(db, conn, sid)
            if game_id is None:
                writer.errors.append("no game in play after start")
                continue
            t0 = time.monotonic()
            status, location = wire.post(
                f"/s/{sid}/games/{game_id}/finish", finish_data(idempotency_key=new_key())
            )
            seconds = time.monotonic() - t0
            if status == 302 and location == f"/s/{sid}/":
                writer.finishes.append((t0, seconds))
            else:
                writer.errors.append(f"finish {status}")
    except BaseException as e:  # reported, and the other writers go on
        writer.crashed = e
    finally:
        wire.close()
        conn.close()  # type: ignore[attr-defined]


def _phone(writer: Writer, until: float) -> None:
    """As a phone does: the start's and the finish's redirects followed to the table page."""
    sid = writer.session_id
    try:
        while time.monotonic() < until:
            t_start = time.monotonic()
            start = writer.phone.start_game(sid)
            writer.starts.append((t_start, time.monotonic() - t_start))
            if start.status_code != 302:
                writer.errors.append(f"start {start.status_code}")
                continue
            table = writer.phone.get(start.headers["location"])
            found = re.search(rf"/s/{sid}/games/(\d+)/finish", table.text)
            if found is None:
                writer.errors.append("no game in play after start")
                continue
            t0 = time.monotonic()
            done = writer.phone.finish(sid, int(found.group(1)))
            seconds = time.monotonic() - t0
            if done.status_code == 302 and done.headers["location"] == f"/s/{sid}/":
                writer.finishes.append((t0, seconds))
            else:
                writer.errors.append(f"finish {done.status_code}")
            writer.phone.get(done.headers.get("location") or f"/s/{sid}/")
    except BaseException as e:  # reported, and the other writers go on
        writer.crashed = e


def run(
    kind: str, seconds: float, warmup: float, mode: str, serving: str, rate: float, front: str
) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-static-") as static_root,
        fresh_database(kind) as db,
    ):
        extra = production_env(static_root) if serving == "production" else {}
        if extra:
            collectstatic(db, extra)
        if front == "nginx":  # WORKERS single-worker servers, each request to the least busy
            with serve_behind_nginx(db, WORKERS, extra, THREADS) as front_server:
                return _record(db, front_server, seconds, warmup, mode, rate)
        with serve(db, env=extra, workers=WORKERS, threads=THREADS) as server:
            return _record(db, server, seconds, warmup, mode, rate)


def _record(
    db: Database, server: Server | Front, seconds: float, warmup: float, mode: str, rate: float
) -> dict[str, object]:
    writers = []
    for n in range(1, TABLES + 1):
        phone = Phone(server.url, f"writer {n}")
        group_id = phone.create_group(f"Bench table {n} · วงที่ {n}")
        session_id = phone.open_session(group_id)
        writers.append(Writer(n, phone, group_id, session_id))
    load_before, probe_before = loadavg(), cpu_probe()
    began = time.monotonic()
    window_start = began + warmup
    until = window_start + seconds
    threads = [
        threading.Thread(target=loop, args=(w, db, mode, until, server.url, rate), daemon=True)
        for w in writers
    ]
    for t in threads:
        t.start()
    time.sleep(max(0.0, window_start - time.monotonic()))
    pg = f" {db.name} " if db.kind == "postgresql" else ""  # a backend of our database
    cpu0 = (_cpu(server), cpu_seconds(cmdline=pg) if pg else 0.0)
    me0 = sum(os.times()[:2])
    by_worker0 = _cpu_by_process(server)
    connections = {
        pid: n for port in server.app_ports for pid, n in connections_by_process(port).items()
    }
    mark = server.log_mark()  # the warm-up's requests are in the log before this
    for t in threads:
        t.join(timeout=seconds + warmup + 120)
    ended = time.monotonic()
    cpu1 = (_cpu(server), cpu_seconds(cmdline=pg) if pg else 0.0)
    me1 = sum(os.times()[:2])
    by_worker1 = _cpu_by_process(server)
    load_after = loadavg()
    for w in writers:
        w.phone.close()
    # The window: finishes sent after the warm-up; games/s over the window's length plus the
    # tail of the requests still in flight when it closed.
    timed = [s for w in writers for (t0, s) in w.finishes if t0 >= window_start]
    starts = [s for w in writers for (t0, s) in w.starts if t0 >= window_start]
    window = max(ended, until) - window_start
    server_side = server.access_times("POST", r"/s/\d+/games/\d+/finish", since=mark)
    warm_count = sum(1 for w in writers for (t0, _s) in w.finishes if t0 < window_start)
    with closing(db.connect()) as conn:
        settled = conn.execute(
            "SELECT count(*) FROM scorekeeper_game WHERE status = 'settled'"
        ).fetchone()[0]
    return {
        "kind": db.kind,
        "mode": mode,
        "offered": rate,
        "late": sum(w.late for w in writers),
        "seconds": window,
        "measured": seconds,
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
        "probe": f"{probe_before} → {cpu_probe()}",
        "cpu_server": cpu1[0] - cpu0[0],
        "cpu_postgres": cpu1[1] - cpu0[1],
        "cpu_client": me1 - me0,
        "workers": _workers(by_worker0, by_worker1, connections),
    }


def _cpu(server: Server | Front) -> float:
    """CPU of every process serving: granian's, and nginx's in front of them."""
    return sum(cpu_seconds(group) for group in server.groups)


def _cpu_by_process(server: Server | Front) -> dict[int, float]:
    return {pid: s for group in server.groups for pid, s in cpu_by_process(group).items()}


def _workers(
    before: dict[int, float], after: dict[int, float], connections: dict[int, int]
) -> list[tuple[float, int]]:
    """Each granian worker's CPU in the window and the writers' connections it holds, busiest
    first. The WORKERS busiest processes of the group (uv and granian's main process idle)."""
    spent = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
    busiest = sorted(spent, key=lambda pid: spent[pid], reverse=True)[:WORKERS]
    return [(spent[pid], connections.get(pid, 0)) for pid in busiest]


def cpu_line(r: dict[str, object]) -> str:
    games = max(1, int(r["count"]))  # type: ignore[call-overload]
    g, pg, me = (float(r[k]) for k in ("cpu_server", "cpu_postgres", "cpu_client"))  # type: ignore[arg-type]
    cores = os.cpu_count() or 1
    per_game = (g + pg) / games
    return (
        f"CPU in the window: the server (granian, and nginx in front if any) {g:.1f} s, "
        f"PostgreSQL backends {pg:.1f} s, this client "
        f"{me:.1f} s ({me / games * 1000:.1f} ms a game); the server side spends "
        f"{per_game * 1000:.1f} ms of CPU per game (start + finish): at most "
        f"{cores / per_game:.0f} games/s on {cores} idle cores"
    )


def worker_line(r: dict[str, object]) -> str:
    workers: list[tuple[float, int]] = r["workers"]  # type: ignore[assignment]
    cpu = " / ".join(f"{seconds:.1f} s" for seconds, _ in workers)
    held = " / ".join(str(count) for _, count in workers)
    return f"granian's workers, busiest first: CPU {cpu}; connections held {held}"


def pace(r: dict[str, object]) -> str:
    if not r["offered"]:
        return "closed loop"
    return f"open loop, {float(r['offered']):.0f} games/s offered ({r['late']} sent late)"  # type: ignore[arg-type]


def throughput(r: dict[str, object]) -> str:
    """The closed loop finds the most games a second, against the aim. An open loop records at
    most what it offers: there the question is whether the server kept pace with it."""
    if not r["offered"]:
        return f"aim >= {RATE_AIM:.0f} games/s: {verdict(float(r['rate']) >= RATE_AIM)}"  # type: ignore[arg-type]
    due = float(r["offered"]) * float(r["measured"])  # type: ignore[arg-type]
    kept = int(r["count"]) >= KEPT_PACE * due  # type: ignore[call-overload]
    offered = float(r["offered"])  # type: ignore[arg-type]
    return f"kept pace with the {offered:.0f} offered ({r['count']} of {due:.0f}): {verdict(kept)}"


def report(r: dict[str, object]) -> str:
    keys = ("p50", "p95", "p99", "max", "server_p50", "server_p95", "server_p99")
    keys += ("start_p50", "start_p95")
    ms = {k: float(r[k]) * 1000 for k in keys}  # type: ignore[arg-type]
    lines = [
        f"== {r['kind']} · loop {r['mode']} · {TABLES} writers · {pace(r)} · "
        f"{float(r['seconds']):.1f} s (load average {r['load']}; {r['probe']}) ==",  # type: ignore[arg-type]
        f"finish POST, client wall time: p50 {ms['p50']:.1f} ms · p95 {ms['p95']:.1f} ms · "
        f"p99 {ms['p99']:.1f} ms · max {ms['max']:.1f} ms",
        f"finish POST, granian request time: p50 {ms['server_p50']:.1f} ms · "
        f"p95 {ms['server_p95']:.1f} ms · p99 {ms['server_p99']:.1f} ms",
        f"start POST, client wall time: p50 {ms['start_p50']:.1f} ms · "
        f"p95 {ms['start_p95']:.1f} ms",
        f"games recorded: {r['count']} in the window, {float(r['rate']):.1f} games/s "  # type: ignore[arg-type]
        f"({r['warm_count']} more in the warm-up; {r['settled']} settled in the database)",
        cpu_line(r),
        worker_line(r),
        f"errors: {r['errors']} {r['error_kinds']} · writer crashes: {r['crashed']} · "
        f"server tracebacks: {r['tracebacks']}",
        f"aim p95 <= {P95_AIM * 1000:.0f} ms: {verdict(float(r['p95']) <= P95_AIM)} · "  # type: ignore[arg-type]
        + throughput(r),
    ]
    if not r["offered"]:
        lines.append("(a closed loop: the aims are read together with --rate 150)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--loop", choices=["lean", "phone"], default="lean")
    parser.add_argument("--serve", choices=["production", "debug"], default="production")
    parser.add_argument("--rate", type=float, default=0.0, help="games/s offered; 0: closed loop")
    parser.add_argument(
        "--front",
        choices=["none", "nginx"],
        default="none",
        help="nginx: BENCH_WORKERS granian servers of one worker each, nginx balancing in front",
    )
    args = parser.parse_args()
    if args.rate and args.loop != "lean":
        parser.error("--rate paces the lean loop only")
    seconds = float(os.environ.get("BENCH_SECONDS", "30"))
    warmup = float(os.environ.get("BENCH_WARMUP", "3"))
    bounded(2 * (seconds + warmup + 150) + 120)
    print(machine())
    print(
        f"{TABLES} writers, {seconds:.0f} s measured after {warmup:.0f} s of warm-up, "
        f"serving {args.serve}, "
        + (
            f"nginx (least_conn) in front of {WORKERS} granian servers of 1 worker × {THREADS} "
            "threads"
            if args.front == "nginx"
            else f"granian {WORKERS} workers × {THREADS} threads"
        )
        + f", connections: {CONNECT}"
    )
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    for kind in kinds:
        result = run(kind, seconds, warmup, args.loop, args.serve, args.rate, args.front)
        print(report(result), flush=True)


if __name__ == "__main__":
    main()
