"""Shared pieces of the web benchmarks: a fresh database, a granian server, a phone over HTTP.

Only 127.0.0.1 is ever talked to. Every server started here runs in a process group of its own
and is stopped (SIGTERM, then SIGKILL of that group only) when the benchmark ends.
"""

import math
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = os.environ.get("SCOREKEEPER_BENCH_PG", "postgres://postgres@127.0.0.1:5432/postgres")
NAMES = ("Ann", "Bee", "Cat", "Dan")


def finish_data(**overrides: object) -> dict[str, object]:
    """The end-of-game form of tests/views/conftest.py: Ann knocks; Bee 10, Cat 20, Dan 30."""
    data: dict[str, object] = {
        "ending": "knock",
        "knocker": "Ann",
        "kind": "normal",
        "points_1": "10",
        "points_2": "20",
        "points_3": "30",
        "knocker_held": "0",
        "knocker_picked": "0",
        **{f"held_{i}": "0" for i in range(4)},
    }
    data.update(overrides)
    return data


def new_key() -> str:
    return uuid.uuid4().hex


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of `values`."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def machine() -> str:
    """What the figures depend on: date, cores, load average, the cores' speed just now."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())} · nproc {os.cpu_count()} · "
        f"load average {load} · {cpu_probe()} · Python {sys.version.split()[0]} · "
        f"code {code_version()}"
    )


def cpu_probe() -> str:
    """How fast this machine's cores are just now: a fixed loop of pure Python, timed 3 times.

    On this virtual machine, idle, the same loop took 60 ms and, a minute later, 115 ms
    (2026-11-21): the host's other tenants share its cores. Figures from different times compare
    only alongside this.
    """
    times = []
    for _ in range(3):
        t0, total = time.process_time(), 0
        for i in range(1_000_000):
            total += i * i
        times.append(time.process_time() - t0)
    return "CPU probe " + " / ".join(f"{t * 1000:.0f}" for t in times) + " ms"


def code_version() -> str:
    """The commit measured, and whether the app's files differ from it (read-only git)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "scorekeeper", "templates", "static"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return head + (" with uncommitted changes in the app" if dirty else "")


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bounded(seconds: float) -> None:
    """Stop by itself: after `seconds`, or on SIGTERM, raise SystemExit, so that the `finally`
    blocks stop the servers this process started and drop its PostgreSQL database."""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(f"stopped by signal {signum} (time limit {seconds:.0f} s, or SIGTERM)")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGALRM, stop)
    signal.alarm(int(seconds))


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


# -- the database ---------------------------------------------------------------------------------


@dataclass
class Database:
    kind: str  # "sqlite" or "postgresql"
    env: dict[str, str]
    path: Path | None = None
    url: str | None = None
    name: str = ""

    def connect(self) -> Any:
        """A read-only connection for the benchmark's own look-ups (never timed)."""
        if self.kind == "sqlite":
            return sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
        import psycopg

        return psycopg.connect(self.url, autocommit=True)


def server_env(db: Database, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SCOREKEEPER_SQLITE")}
    env.update(
        SCOREKEEPER_DEBUG="1",
        SCOREKEEPER_SECRET_KEY="bench-" + uuid.uuid4().hex,
        SCOREKEEPER_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        PYTHONUNBUFFERED="1",
        UV_PYTHON_DOWNLOADS="never",
        **db.env,
    )
    env.update(extra or {})
    return env


def _pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


@contextmanager
def fresh_database(kind: str) -> Iterator[Database]:
    """A migrated database of the benchmark's own: a SQLite file, or a PostgreSQL database that is
    created here and dropped at the end."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        name = ""
        if kind == "sqlite":
            path = Path(tmp) / "bench.sqlite3"
            db = Database(kind, {"SCOREKEEPER_SQLITE": str(path)}, path=path)
        elif kind == "postgresql":
            name = f"scorekeeper_bench_{uuid.uuid4().hex[:12]}"
            _pg_admin(f'CREATE DATABASE "{name}"')
            url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name
            db = Database(kind, {"DATABASE_URL": url}, url=url, name=name)
        else:
            raise ValueError(kind)
        try:
            done = subprocess.run(
                ["uv", "run", "python", "manage.py", "migrate", "--noinput", "-v0"],
                cwd=ROOT,
                env=server_env(db),
                capture_output=True,
                text=True,
                timeout=300,
            )
            if done.returncode != 0:
                raise RuntimeError(f"migrate failed:\n{done.stdout}{done.stderr}")
            yield db
        finally:
            if name:
                _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- the server -----------------------------------------------------------------------------------


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_answering(
    name: str, process: subprocess.Popen[bytes], url: str, seconds: float, log: Path
) -> None:
    """Wait until `url` answers 200; RuntimeError, with the log, if the process exits first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"{name} exited at start:\n{text}")
        with suppress(httpx.TransportError):
            if httpx.get(url + "/", timeout=5).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{name} did not answer in {seconds:.0f} s")


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the process and its group (started with start_new_session: the group id is its
    pid): SIGTERM, then SIGKILL for whatever is left."""
    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


# Each request's line in the server's log: method, path, status and granian's own time of it in ms
# (from handing the request to the app to having its response).
ACCESS_FORMAT = "ACCESS %(method)s %(path)s %(status)d %(dt_ms).3f"


@dataclass
class Server:
    db: Database
    logs: Path
    workers: int = 4
    threads: int = 2
    access_log: bool = True
    env: dict[str, str] = field(default_factory=dict)  # over server_env's: settings, debug
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def command(self) -> list[str]:
        """`make serve`'s server, on loopback: WORKERS processes of THREADS threads each."""
        cmd = [
            "uv", "run", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
            "--port", str(self.port), "--workers", str(self.workers),
            "--blocking-threads", str(self.threads),
        ]  # fmt: skip
        if self.access_log:
            cmd += ["--access-log", "--access-log-fmt", ACCESS_FORMAT]
        return [*cmd, "scorekeeper.wsgi:application"]

    @property
    def log_path(self) -> Path:
        return self.logs / f"granian-{self.port}.log"

    def start(self) -> "Server":
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=server_env(self.db, self.env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped whole, and only it
            )
        try:
            _wait_answering("granian", self.process, self.url, 90, self.log_path)
        except RuntimeError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.process is not None:
            _stop_group(self.process)

    @property
    def groups(self) -> list[int]:
        """The process groups serving: granian's (start_new_session: its pid)."""
        assert self.process is not None
        return [self.process.pid]

    @property
    def app_ports(self) -> list[int]:
        return [self.port]

    def log_mark(self) -> dict[Path, int]:
        """How many lines each access log has now: access_times(since=…) reads only later ones."""
        return {self.log_path: len(self.log_path.read_text(errors="replace").splitlines())}

    def access_times(
        self, method: str, pattern: str, status: str = "", since: dict[Path, int] | None = None
    ) -> list[float]:
        """Server-side request times (seconds) from the access log for matching requests."""
        found = []
        regex = re.compile(pattern)
        lines = self.log_path.read_text(errors="replace").splitlines()
        for line in lines[(since or {}).get(self.log_path, 0) :]:
            parts = line.split()
            if len(parts) != 5 or parts[0] != "ACCESS" or (status and parts[3] != status):
                continue
            if parts[1] == method and regex.fullmatch(parts[2]):
                found.append(float(parts[4]) / 1000)
        return found

    def tracebacks(self) -> int:
        return self.log_path.read_text(errors="replace").count("Traceback (most recent call last)")


NGINX_CONF = """\
user root;
worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    upstream app {{
        least_conn;
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
    }}
}}
"""


@dataclass
class Front:
    """nginx in front of several single-worker granian servers on one database.

    Each request goes to the server with the fewest requests in flight (`least_conn`), over
    connections nginx keeps alive to them: the balance is per request, whatever connection the
    phone came on. The README's "Serving it for real" describes this deployment.
    """

    apps: list[Server]
    logs: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def groups(self) -> list[int]:
        assert self.process is not None
        return [group for app in self.apps for group in app.groups] + [self.process.pid]

    @property
    def app_ports(self) -> list[int]:
        return [app.port for app in self.apps]

    def start(self) -> "Front":
        if shutil.which("nginx") is None:
            raise RuntimeError("no nginx: `apt-get install nginx-light` (Debian) for --front nginx")
        servers = "\n".join(f"        server 127.0.0.1:{app.port};" for app in self.apps)
        conf = self.logs / "nginx.conf"
        conf.write_text(NGINX_CONF.format(d=self.logs, servers=servers, port=self.port))
        self.process = subprocess.Popen(
            ["nginx", "-c", str(conf), "-p", str(self.logs)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_answering("nginx", self.process, self.url, 30, self.logs / "error.log")
        except RuntimeError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.process is not None:
            _stop_group(self.process)

    def log_mark(self) -> dict[Path, int]:
        return {path: n for app in self.apps for path, n in app.log_mark().items()}

    def access_times(
        self, method: str, pattern: str, status: str = "", since: dict[Path, int] | None = None
    ) -> list[float]:
        return [t for app in self.apps for t in app.access_times(method, pattern, status, since)]

    def tracebacks(self) -> int:
        return sum(app.tracebacks() for app in self.apps)


def collectstatic(db: Database, extra: dict[str, str]) -> None:
    """Collect the static files as `make serve` does, into the directory `extra` names."""
    done = subprocess.run(
        ["uv", "run", "python", "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=server_env(db, extra),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)


def production_env(static_root: str) -> dict[str, str]:
    """Serve as `make serve` does (debug off, collected static files), over plain HTTP."""
    return {
        "DJANGO_SETTINGS_MODULE": "phone_settings",
        "PYTHONPATH": str(ROOT / "bench") + os.pathsep + str(ROOT),
        "SCOREKEEPER_DEBUG": "0",
        "BENCH_STATIC_ROOT": static_root,
    }


@contextmanager
def serve(db: Database, **options: Any) -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-granian-") as logs:
        server = Server(db, Path(logs), **options)
        try:
            yield server.start()
        finally:
            server.stop()


@contextmanager
def serve_behind_nginx(
    db: Database, apps: int, env: dict[str, str], threads: int = 1
) -> Iterator[Front]:
    """`apps` granian servers of one worker each, with one secret, and nginx in front (Front)."""
    env = {**env, "SCOREKEEPER_SECRET_KEY": "bench-" + uuid.uuid4().hex}  # one for all of them
    with ExitStack() as stack:
        servers = [
            stack.enter_context(serve(db, env=env, workers=1, threads=threads)) for _ in range(apps)
        ]
        logs = stack.enter_context(tempfile.TemporaryDirectory(prefix="scorekeeper-nginx-"))
        front = Front(servers, Path(logs))
        try:
            yield front.start()
        finally:
            front.stop()


def cpu_seconds(pgid: int | None = None, cmdline: str = "") -> float:
    """CPU time (user + system) of the live processes in process group `pgid`, or whose command
    line contains `cmdline` (a PostgreSQL backend shows its database there). Reads /proc only."""
    return sum(cpu_by_process(pgid, cmdline).values())


def cpu_by_process(pgid: int | None = None, cmdline: str = "") -> dict[int, float]:
    """cpu_seconds, process by process: {pid: seconds}."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if pgid is not None and int(fields[2]) != pgid:
                continue
            if cmdline and cmdline not in Path(f"/proc/{entry}/cmdline").read_bytes().decode(
                errors="replace"
            ):
                continue
            found[int(entry)] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
            continue
    return found


def connections_by_process(port: int) -> dict[int, int]:
    """How many established connections to `port` each server process holds: {pid: count}.

    Read with iproute2's `ss`; empty if it is missing. A kept-alive connection stays with the
    worker that accepted it, so this is how the writers' requests are split between workers.
    """
    try:
        out = subprocess.run(
            ["ss", "-tnpH", "state", "established", f"( sport = :{port} )"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return {}
    counts: dict[int, int] = {}
    for pid in re.findall(r"pid=(\d+)", out):
        counts[int(pid)] = counts.get(int(pid), 0) + 1
    return counts


# -- a phone --------------------------------------------------------------------------------------


class Phone:
    """One browser over HTTP: its own cookie jar, Django's CSRF token sent with every POST."""

    def __init__(self, base_url: str, name: str = "bench") -> None:
        self.http = httpx.Client(
            base_url=base_url,
            follow_redirects=False,
            timeout=60.0,
            headers={"User-Agent": f"bench {name}", "Accept-Language": "th"},
        )

    def close(self) -> None:
        self.http.close()

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.get(path, **kwargs)

    def post(self, path: str, data: dict[str, Any], **kwargs: Any) -> httpx.Response:
        if "csrftoken" not in self.http.cookies:
            self.get("/")  # the home page's form sets Django's CSRF cookie
        headers = {"X-CSRFToken": self.http.cookies["csrftoken"], **kwargs.pop("headers", {})}
        return self.http.post(path, data=data, headers=headers, **kwargs)

    @staticmethod
    def _expect(response: httpx.Response, pattern: str) -> re.Match[str]:
        location = response.headers.get("location", "")
        match = re.fullmatch(pattern, location) if response.status_code == 302 else None
        if match is None:
            raise RuntimeError(
                f"{response.request.method} {response.request.url}: {response.status_code} "
                f"{location!r} {response.text[:500]}"
            )
        return match

    def create_group(self, name: str) -> int:
        """POST /groups/new: this phone becomes the group's host."""
        return int(self._expect(self.post("/groups/new", {"name": name}), r"/g/(\d+)/").group(1))

    def open_session(self, group_id: int) -> int:
        data: dict[str, Any] = {f"seat_{i}": n for i, n in enumerate(NAMES, start=1)}
        data.update(
            first_dealer="1", stake_level="sian", point_value="0.5", idempotency_key=new_key()
        )
        response = self.post(f"/g/{group_id}/sessions/new", data)
        return int(self._expect(response, r"/s/(\d+)/").group(1))

    def start_game(self, session_id: int) -> httpx.Response:
        data = {"fool_swap": "on", "idempotency_key": new_key()}
        return self.post(f"/s/{session_id}/games/start", data)

    def finish(self, session_id: int, game_id: int) -> httpx.Response:
        data = finish_data(idempotency_key=new_key())
        return self.post(f"/s/{session_id}/games/{game_id}/finish", data)
