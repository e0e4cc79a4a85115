"""The push part of the benchmark (bench.py --only push): this tree only, on a fresh database.

- Streams: one push process (granian's ASGI interface, one worker, as `make serve` starts it)
  holds BENCH_STREAMS open streams, four a table, from an asyncio client beside it (raw
  sockets); its memory (RSS) and CPU are read from /proc before and after they open, while they
  sit idle (a comment every 25 s each), and while one table changes CHANGES times (an audit
  entry written by a process of its own, as every write leaves one): the CPU a change costs the
  push process, and how long each takes to reach its table's four streams. Figures for 40,000
  streams (10,000 tables × 4 phones, one change a table every 2 minutes) follow from these.
- Catch-up: the app server's CPU for the table's three other phones to fetch the region after a
  save (cache hits: the save's answer built it), plus the push process's CPU for the change,
  against the CPU of one build of the region (a change made elsewhere, then one fetch).
- Another phone shows a write: Chromium holds the table page (its stream open); the saving
  phone taps start and end of game; the time from the tap's answer to the page showing the new
  version, median of 10.
"""

import asyncio
import http.client
import os
import random
import resource
import signal
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

STREAMS = int(os.environ.get("BENCH_STREAMS", "10000"))
CHANGES = int(os.environ.get("BENCH_CHANGES", "200"))
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "30"))  # past one comment each
CATCH_UPS = int(os.environ.get("BENCH_CATCH_UPS", "200"))
SHOWS = 10
TABLES_AT_SCALE, PHONES_AT_SCALE, CHANGE_EVERY = 10_000, 4, 120.0  # the aim's night


def more_files() -> int:
    """Raise this process's open-file limit as far as it goes (its children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for want in (200_000, hard):
        with suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, max(want, hard)))
            return want
    return soft


def proc_cpu(pids: list[int]) -> float:
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in pids:
        with suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def group_pids(leader: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(stat[stat.rindex(")") + 2 :].split()[2]) == leader:
                found.append(int(entry))
    return found


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def stop_group(process: subprocess.Popen) -> None:
    """Stop a server started in a process group of its own: asked first, then made to."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def answers(port: int, status: int, log: Path, what: str) -> None:
    """Wait up to a minute for the server at `port` to answer / with `status`."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/")
            if connection.getresponse().status == status:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not start:\n{log.read_text(errors='replace')[-3000:]}")


class Push:
    """The push process of a tree, started as `make serve` starts it."""

    def __init__(self, tree: Path, env: dict[str, str], log: Path, port: int) -> None:
        self.port = port
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(tree / ".venv/bin/granian"), "--interface", "asgi", "--host", "127.0.0.1",
                 "--port", str(port), "--workers", "1", "--backlog", "65536",
                 "--backpressure", "65536", "--http1-buffer-size", "8192", "--no-ws",
                 "scorekeeper.push.asgi:application"],
                cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        answers(port, 404, log, "the push process")  # its one page is a stream

    def pids(self) -> list[int]:
        return group_pids(self.process.pid)

    def cpu(self) -> float:
        return proc_cpu(self.pids())

    def rss_kb(self) -> int:
        return rss_kb(self.pids())

    def stop(self) -> None:
        stop_group(self.process)


class Runserver:
    """`make run`'s server: Django's runserver, DEBUG on, one process, no autoreload."""

    def __init__(self, tree: Path, env: dict[str, str], log: Path, port: int) -> None:
        self.port = port
        env = {**env, "SCOREKEEPER_DEBUG": "1"}
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(tree / ".venv/bin/python"), "manage.py", "runserver", "--noreload",
                 f"127.0.0.1:{port}"],
                cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        answers(port, 200, log, "runserver")

    def stop(self) -> None:
        stop_group(self.process)


WRITER = """
import sys, time
from scorekeeper.models import AuditEntry, Membership, Night
from scorekeeper.push import tokens
for line in sys.stdin:
    words = line.split()
    if words[0] == "passes":
        first, count = int(words[1]), int(words[2])
        night = Night.objects.get(pk=first)  # the table's night; its host is the passes' holder
        host = Membership.objects.filter(group_id=night.group_id).earliest("pk")
        holder = tokens.Holder(night.group_id, host.pk)
        given = [tokens.token_for(n, holder) for n in range(first, first + count)]
        print(" ".join(given), flush=True)
    elif words[0] == "change":
        night = Night.objects.get(pk=int(words[1]))
        entry = AuditEntry.objects.create(group_id=night.group_id, night=night, action="bench")
        print(entry.pk, time.time(), flush=True)
"""


class Writer:
    """A process of its own that writes a night's change (one audit entry) when asked, and
    hands out the passes a table page would give."""

    def __init__(self, tree: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(tree / ".venv/bin/python"), "manage.py", "shell", "-v", "0", "-c", WRITER],
            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

    def ask(self, line: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def passes(self, first: int, count: int) -> list[str]:
        return self.ask(f"passes {first} {count}").split()

    def change(self, night: int) -> tuple[int, float]:
        entry, at = self.ask(f"change {night}").split()
        return int(entry), float(at)

    def stop(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=30)


class Phones:
    """Many phones' streams from one asyncio loop in a thread: every version each one is told,
    with the time it came."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.told: dict[int, list[tuple[int, float]]] = {}  # stream → (version, time)
        self.comments = 0
        self.failed: list[str] = []
        self.writers: list[asyncio.StreamWriter] = []

    def run(self, coroutine: Any, timeout: float = 600) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def open(self, streams: list[tuple[int, str]]) -> float:
        """Open a stream for each (night, pass); wait until each told its first version."""
        began = time.monotonic()
        self.run(self._open_all(streams))
        return time.monotonic() - began

    async def _open_all(self, streams: list[tuple[int, str]]) -> None:
        gate = asyncio.Semaphore(500)
        firsts = [self.loop.create_future() for _ in streams]

        async def one(index: int, night: int, token: str) -> None:
            async with gate:
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                except OSError as error:
                    self.failed.append(str(error))
                    firsts[index].set_result(None)
                    return
                self.writers.append(writer)
                writer.write(
                    f"GET /push/{night}/?t={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Accept: text/event-stream\r\n\r\n".encode()
                )
                self.told[index] = []
                self.loop.create_task(self._read(index, reader, firsts[index]))
                await firsts[index]

        await asyncio.gather(*(one(i, n, t) for i, (n, t) in enumerate(streams)))

    async def _read(self, index: int, reader: asyncio.StreamReader, first: Any) -> None:
        try:
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    self.told[index].append((int(line[6:]), time.time()))
                    if not first.done():
                        first.set_result(None)
                elif line.startswith(b": keep-alive"):
                    self.comments += 1
        except (OSError, ValueError) as error:
            self.failed.append(str(error))
        if not first.done():
            first.set_result(None)

    def close(self) -> None:
        async def shut() -> None:
            for writer in self.writers:
                writer.close()

        with suppress(Exception):
            self.run(shut(), timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)


def streams_part(push: Push, writer: Writer, night: int, log: Path) -> dict[str, Any]:
    """Open STREAMS streams on one push process; its memory and CPU; a change's fan-out."""
    limit = more_files()
    phones = Phones(push.port)
    try:
        tables = STREAMS // 4
        passes = writer.passes(night, tables)  # the table's night, and nights of other tables
        streams = [(night + t, passes[t]) for t in range(tables) for _ in range(4)]
        time.sleep(1)
        rss0, cpu0 = push.rss_kb(), push.cpu()
        opened = phones.open(streams)
        rss1, cpu1 = push.rss_kb(), push.cpu()
        time.sleep(IDLE_SECONDS)
        cpu2 = push.cpu()
        comments = phones.comments
        ours = [i for i, (n, _) in enumerate(streams) if n == night]
        latencies = []
        cpu3 = push.cpu()
        began = time.monotonic()
        for _ in range(CHANGES):
            time.sleep(random.uniform(0, 0.5))  # a write comes when it comes, not on a tick
            entry, at = writer.change(night)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                arrived = [next((t for v, t in phones.told[i] if v >= entry), None) for i in ours]
                if all(arrived):
                    latencies.append(max(arrived) - at)  # type: ignore[type-var]
                    break
                time.sleep(0.002)
        spent = time.monotonic() - began
        cpu4 = push.cpu()
        idle_rate = (cpu2 - cpu1) / IDLE_SECONDS  # CPU seconds a second, all streams idle
        per_change = ((cpu4 - cpu3) - idle_rate * spent) / CHANGES
        return {
            "limit": limit,
            "streams": len(streams) - len(phones.failed),
            "failed": len(phones.failed),
            "opened_s": opened,
            "rss0_kb": rss0,
            "rss1_kb": rss1,
            "open_cpu": cpu1 - cpu0,
            "idle_cpu_rate": idle_rate,
            "comments": comments,
            "changes": len(latencies),
            "latency_median": statistics.median(latencies) if latencies else float("nan"),
            "latency_max": max(latencies) if latencies else float("nan"),
            "change_cpu": max(per_change, 0.0),
            "tracebacks": log.read_text(errors="replace").count("Traceback"),
        }
    finally:
        phones.close()


def report_streams(kind: str, r: dict[str, Any]) -> None:
    n = r["streams"]
    per_stream_kb = (r["rss1_kb"] - r["rss0_kb"]) / n
    idle_per_stream = r["idle_cpu_rate"] / n  # cores a stream, idle
    print(
        f"\n== {kind}: one push process (granian ASGI, 1 worker), {n} streams open "
        f"({r['failed']} failed; open files {r['limit']}; tracebacks {r['tracebacks']}) =="
    )
    print(f"  opened in {r['opened_s']:.1f} s ({r['open_cpu']:.1f} s CPU); RSS "
          f"{r['rss0_kb'] / 1024:.0f} MB → {r['rss1_kb'] / 1024:.0f} MB: "
          f"{per_stream_kb:.1f} KB a stream")  # fmt: skip
    print(f"  idle {IDLE_SECONDS:.0f} s: {r['idle_cpu_rate'] * 100:.2f} % of a core "
          f"({r['comments']} comments sent)")  # fmt: skip
    print(f"  a change told to its table's 4 streams: CPU {r['change_cpu'] * 1000:.2f} ms; "
          f"write → all 4 told: median {r['latency_median'] * 1000:.0f} ms, "
          f"max {r['latency_max'] * 1000:.0f} ms over {r['changes']}")  # fmt: skip
    scale = TABLES_AT_SCALE * PHONES_AT_SCALE
    memory_gb = (r["rss0_kb"] + per_stream_kb * scale) / 1024 / 1024
    cores = idle_per_stream * scale + (TABLES_AT_SCALE / CHANGE_EVERY) * r["change_cpu"]
    ok = n >= 10_000 and memory_gb <= 2 and cores <= 1
    print(f"  at {scale:,} streams (10,000 tables × 4, a change a table every 2 min): "
          f"{memory_gb:.2f} GB, {cores:.3f} cores · aim ≥ 10,000 held, ≤ 1 core, ≤ 2 GB: "
          f"{'PASS' if ok else 'MISS'}")  # fmt: skip


def catch_up(
    server: Any, night: int, saver: Callable[[], Any], others: list[Any], writer: Writer
) -> dict[str, Any]:
    """The app server's CPU for the other phones' fetches after a save, against one build.

    One build: a change made elsewhere, then one player's fetch (nobody built that version).
    A save: a change, then the saving phone's fetch, which builds the region for itself and
    for the players, as the save's own answer does; then each other phone's fetch is counted."""
    builds, catches = 0.0, 0.0
    statuses: dict[str, set[int]] = {"build": set(), "catch": set()}
    for _ in range(5):  # warm
        writer.change(night)
        saver()
        for other in others:
            other.poll()
    for _ in range(CATCH_UPS):
        writer.change(night)
        before = server.cpu()
        statuses["build"].add(others[0].poll().status)
        builds += server.cpu() - before
        writer.change(night)
        saver()
        before = server.cpu()
        for other in others:
            statuses["catch"].add(other.poll().status)
        catches += server.cpu() - before
    return {
        "build": builds / CATCH_UPS,
        "fetches": catches / CATCH_UPS,
        "statuses": {k: sorted(v) for k, v in statuses.items()},
    }


def report_catch_up(r: dict[str, Any], phones: int, push_cpu: float) -> None:
    r = {**r, "push": push_cpu}
    total = r["fetches"] + r["push"]
    print(f"  catch-up after a save: {phones} phones' fetches {r['fetches'] * 1000:.2f} ms + the "
          f"change told {r['push'] * 1000:.2f} ms = {total * 1000:.2f} ms server CPU, against "
          f"one build of the region {r['build'] * 1000:.2f} ms ({r['statuses']}): "
          f"{total / r['build']:.2f} × · aim ≤ 1.5 ×: "
          f"{'PASS' if total <= 1.5 * r['build'] else 'MISS'}")  # fmt: skip


def shows(base: str, table: Any, push_port: int) -> list[float]:
    """Seconds from the saving phone's tap answered to the other phone's page showing it."""
    from playwright.sync_api import sync_playwright

    taken = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="th-TH")
        watcher = table.watchers[0]
        context.add_cookies(
            [{"name": k, "value": v, "url": base} for k, v in watcher.phone.cookies.items()]
        )
        page = context.new_page()
        page.goto(base + table.path)
        page.wait_for_selector("body[data-stream=open]")
        for _ in range(SHOWS):
            shown = int(page.locator("[data-live]").get_attribute("data-version") or 0)
            answered = table.phone.tap(table.start, table.start_data())
            done = time.monotonic()
            assert answered.status < 400
            page.wait_for_function(
                "v => Number(document.querySelector('[data-live]').dataset.version) > v",
                arg=shown,
                polling=10,
                timeout=30_000,
            )
            taken.append(time.monotonic() - done)
            game = table.game_in(answered.body)
            table.phone.tap(
                {**table.finish, "action": f"{table.path}games/{game}/finish"}, table.finish_data()
            )
            page.wait_for_timeout(300)
        browser.close()
    return taken


def report_shows(kind: str, under: str, taken: list[float]) -> None:
    median = statistics.median(taken)
    print(f"  another phone shows a write ({under}): "
          + ", ".join(f"{t * 1000:.0f}" for t in taken)
          + f" ms; median {median * 1000:.0f} ms · aim ≤ 1 s: "
          f"{'PASS' if median <= 1 else 'MISS'}")  # fmt: skip
