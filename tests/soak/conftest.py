"""Soak and crash runs: a real granian on a database of its own, phones as httpx clients.

Nothing here uses pytest-django's test database. A test gets a fresh database (`database`: a
SQLite file in tmp_path, or a uniquely named PostgreSQL database dropped afterwards), a copy of
one migrated by `manage.py migrate` once (tests/migrated.py); `serve` starts granian on it and
stops it at the end. A `Phone` is one browser with its own cookie jar; `set_up_table` makes a
group with a host and three players who joined by invite; `play` is one phone's loop at the
table. `database_problems` reads the database directly and lists every broken invariant;
`ledger_audit` runs the management command.

These runs take minutes: without `-m soak` they are skipped.
"""

import html
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.migrated import migrate

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("SCOREKEEPER_SOAK_PG", "postgres://postgres@127.0.0.1:5432/postgres")
NAMES = ("Ann", "Bee", "Cat", "Dan")
SOAK_TIMEOUT = 900  # seconds: the longest run takes about two minutes
HTTP_TIMEOUT = 60.0  # longer than SQLite's 20 s busy timeout: a slow answer is not a lost one


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the soak runs out of a plain `pytest`: they need `-m soak`. Each may take a quarter
    of an hour before it counts as hung (tests/conftest.py).

    `make test-soak` takes the runs against a real server in one pytest, one after another:
    each has the machine's other processes to itself but for the fuzz, which runs in-process
    in a second pytest meanwhile (on SQLite, then on PostgreSQL). The minute-long
    soaks go first, so that the fuzz runs beside them: a soak lasts its minute whatever else
    runs (its phones save fewer games), where the crash and nginx runs, which take as long as
    their work does, would wait for the cores the fuzz takes."""
    if "soak" in (config.getoption("markexpr") or ""):
        for item in items:
            if "soak" in item.keywords and item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(SOAK_TIMEOUT))
        items.sort(key=lambda item: item.path.name != "test_soak.py")  # stable: the rest in order
        return
    skip = pytest.mark.skip(reason="soak runs take minutes: select them with -m soak")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)


# -- the database ---------------------------------------------------------------------------------


def server_environment(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a server process or a manage.py command: ours, not the caller's DB.

    `extra` names the database and the secret key, which stays the same across restarts (the
    nights, so the phones' memberships, are signed with it).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SCOREKEEPER_SQLITE")}
    env.update(
        SCOREKEEPER_DEBUG="1",
        SCOREKEEPER_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


@dataclass
class Database:
    """A database of the test's own, and the environment that points the app at it."""

    kind: str  # "sqlite" or "postgresql"
    env: dict[str, str]
    path: Path | None = None
    url: str | None = None

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one read query straight on the database (no Django) and return its rows."""
        if self.kind == "sqlite":
            with closing(sqlite3.connect(str(self.path), timeout=30)) as conn:
                return conn.execute(sql).fetchall()
        assert self.url is not None
        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(sql).fetchall()

    def manage(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=server_environment(self.env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def ledger_audit(db: Database) -> subprocess.CompletedProcess[str]:
    """Run `manage.py ledger_audit` against `db`: returncode 0 when every night checks out."""
    return db.manage("ledger_audit")


def _pg_admin(sql: str) -> None:
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(sql)


def _pg_url(name: str) -> str:
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


def _pg_create(name: str, template: str = "") -> None:
    try:
        _pg_admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    except psycopg.OperationalError as e:
        pytest.fail(f"PostgreSQL is not answering at {PG_ADMIN} (make postgres): {e}")


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A PostgreSQL database migrated by `manage.py migrate` once for this run, whose tests
    each take a copy of it (tests/migrated.py); dropped at the end."""
    name = f"scorekeeper_soak_template_{uuid.uuid4().hex[:12]}"
    _pg_create(name)
    try:
        migrate(server_environment({"DATABASE_URL": _pg_url(name)}))
        yield name
    finally:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database: `sqlite` (default) or `postgresql`, by indirect parameter.
    Each is a copy of an empty database migrated once (tests/migrated.py)."""
    kind = getattr(request, "param", "sqlite")
    secret = {"SCOREKEEPER_SECRET_KEY": "soak-" + uuid.uuid4().hex}
    if kind == "sqlite":
        path = request.getfixturevalue("fresh_sqlite")
        yield Database(kind, {"SCOREKEEPER_SQLITE": str(path), **secret}, path=path)
    elif kind == "postgresql":
        name = f"scorekeeper_soak_{uuid.uuid4().hex[:12]}"
        _pg_create(name, template=request.getfixturevalue("postgres_template"))
        try:
            yield Database(kind, {"DATABASE_URL": _pg_url(name), **secret}, url=_pg_url(name))
        finally:
            _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        raise ValueError(kind)


# -- the server -----------------------------------------------------------------------------------


# `make serve`'s server, four processes of two threads: writes to one table meet across processes
# and within one. A worker that does not stop within 5 s of SIGTERM is killed.
SERVER_OPTIONS = ["--workers", "4", "--blocking-threads", "2", "--workers-kill-timeout", "5"]


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def granian(
    interface: str, port: int, arguments: list[str], env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    """granian serving `interface` ("wsgi", "asgi") at 127.0.0.1:`port`, in a process group of
    its own (a kill takes its workers too), its output written to `log`."""
    command = [sys.executable, "-m", "granian", "--interface", interface,
               "--host", "127.0.0.1", "--port", str(port), *arguments]  # fmt: skip
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


class Server:
    """granian serving the app on `db`, in a process group of its own: it can be killed whole."""

    def __init__(self, db: Database, logs: Path) -> None:
        self.db = db
        self.logs = logs
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def bind(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.bind}"

    @property
    def log(self) -> Path:
        return self.logs / f"granian-{self.port}-{self.starts}.log"

    def start(self) -> "Server":
        """Start (or start again, on the same port) and wait until the home page answers."""
        self.starts += 1
        self.process = granian(
            "wsgi", self.port, [*SERVER_OPTIONS, "scorekeeper.wsgi:application"],
            server_environment(self.db.env), self.log,
        )  # fmt: skip
        answering(self.process, self.url, 200, "granian", self.log_text)
        return self

    def _signal(self, sig: int) -> None:
        assert self.process is not None
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def kill(self) -> None:
        """SIGKILL the whole process group: main process and every worker, mid-request or not."""
        self._signal(signal.SIGKILL)
        assert self.process is not None
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """Terminate, then kill what is still there after 15 s."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        self._signal(signal.SIGKILL)  # stray workers too, even if the main process is gone
        self.process.wait(timeout=30)

    def log_text(self, tail: int = 20_000) -> str:
        try:
            return self.log.read_text(errors="replace")[-tail:]
        except FileNotFoundError:
            return ""

    def tracebacks(self) -> list[str]:
        """Every traceback granian and Django wrote to the logs of every start."""
        found = []
        for log in sorted(self.logs.glob(f"granian-{self.port}-*.log")):
            text = log.read_text(errors="replace")
            found += re.findall(r"Traceback \(most recent call last\):.*?(?=\n\S|\Z)", text, re.S)
        return found


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[[Database], Server]]:
    """Start granian on a database; every server started is stopped at the end of the test."""
    servers: list[Server] = []

    def start(db: Database) -> Server:
        server = Server(db, tmp_path)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def answering(
    process: subprocess.Popen[bytes],
    url: str,
    status: int,
    what: str,
    log_text: Callable[[], str],
    seconds: float = 60,
) -> None:
    """Wait until the server `process` started answers `url`/ with `status`; fail with its log
    if it exits first or stays silent for `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} exited at start:\n{log_text()}")
        with suppress(httpx.TransportError):
            if httpx.get(url + "/", timeout=5).status_code == status:
                return
        time.sleep(0.2)
    raise AssertionError(f"{what} did not answer in {seconds:.0f} s:\n{log_text()}")


class PushServer:
    """The push process on `db`, as `make serve` starts it beside the app: granian's ASGI
    interface, one worker (scorekeeper/push)."""

    def __init__(self, db: Database, logs: Path, extra: dict[str, str] | None = None) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = logs / f"push-{self.port}.log"
        self.extra = extra or {}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> "PushServer":
        options = ["--workers", "1", "--http1-buffer-size", "8192", "--no-ws"]
        self.process = granian(
            "asgi", self.port, [*options, "scorekeeper.push.asgi:application"],
            server_environment({**self.db.env, **self.extra}), self.log,
        )  # fmt: skip
        # Its one page is a stream: anything else is a 404, which says it is up.
        answering(self.process, self.url, 404, "the push process", self.log_text)
        return self

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-20_000:] if self.log.exists() else ""


@pytest.fixture
def serve_push(tmp_path: Path) -> Iterator[Callable[..., PushServer]]:
    """Start push processes on a database; every one is stopped at the end of the test."""
    started: list[PushServer] = []

    def start(db: Database, extra: dict[str, str] | None = None) -> PushServer:
        server = PushServer(db, tmp_path, extra)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def stream_pass(page: str) -> str:
    """The night's stream, as the table page names it: its path and pass."""
    found = re.search(r'data-push="([^"]+)"', page)
    assert found, "the table page names its stream"
    return html.unescape(found[1])


# -- phones ---------------------------------------------------------------------------------------


@dataclass
class Call:
    """One request a phone made and what came back (status 0: no answer at all)."""

    phone: str
    action: str
    method: str
    path: str
    status: int
    location: str = ""
    key: str = ""
    retry: str = ""  # "", "retry" (sent again after the answer) or "twin" (sent twice at once)
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    started: float = 0.0  # time.monotonic() when it was sent
    seconds: float = 0.0


class Recorder:
    """Every call of every phone, in order of completion."""

    def __init__(self, folder: Path | None = None) -> None:
        self.calls: list[Call] = []
        self.folder = folder  # where the bodies of 5xx answers are kept
        self._lock = threading.Lock()

    def add(self, call: Call, body: str = "") -> None:
        with self._lock:
            self.calls.append(call)
            if call.status >= 500 and self.folder is not None:
                n = sum(1 for c in self.calls if c.status >= 500)
                (self.folder / f"5xx-{n}.html").write_text(body)


def refusal_summary(body: str) -> str:
    """The error messages of a refused form, in a line."""
    found = re.findall(r'class="error[^"]*"[^>]*>(.*?)</', body, re.S)
    found += re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, re.S)
    text = " | ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).strip() for f in found)
    return " ".join(text.split())[:300]


def error_summary(body: str) -> str:
    """The exception in Django's debug page of a 500, in a line."""
    title = re.search(r"<title>(.*?)</title>", body, re.S)
    value = re.search(r'<pre class="exception_value">(.*?)</pre>', body, re.S)
    return " · ".join(m.group(1).strip() for m in (title, value) if m)[:500]


class Phone:
    """One browser: its own cookie jar (so its own Django session and device), CSRF handled."""

    def __init__(self, base_url: str, name: str, recorder: Recorder) -> None:
        self.name = name
        self.base_url = base_url
        self.recorder = recorder
        self.http = self._client()
        self._twin: httpx.Client | None = None

    def _client(self, cookies: httpx.Cookies | None = None) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url,
            follow_redirects=False,  # a 302 is an answer to look at
            timeout=HTTP_TIMEOUT,
            headers={"Accept-Language": "en", "User-Agent": f"soak {self.name}"},
            cookies=cookies,
            # A fresh connection for every request: reusing a kept-alive one races the server
            # closing it when idle, a reset browsers retry silently and httpx does not.
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    def close(self) -> None:
        self.http.close()
        if self._twin is not None:
            self._twin.close()

    def _send(
        self,
        client: httpx.Client,
        method: str,
        path: str,
        action: str,
        data: dict[str, Any],
        retry: str = "",
    ) -> tuple[Call, str]:
        """Send one request and record it; return the record and the body of the answer."""
        headers = {}
        if method == "POST":
            token = client.cookies.get("csrftoken")
            if token:
                headers["X-CSRFToken"] = token
        call = Call(
            self.name,
            action,
            method,
            path,
            0,
            key=data.get("idempotency_key", ""),
            retry=retry,
            data=data,
        )
        body = ""
        started = time.monotonic()
        try:
            response = client.request(
                method, path, data=data if method == "POST" else None, headers=headers
            )
            body = response.text
            call.status = response.status_code
            call.location = response.headers.get("location", "")
            if call.status >= 500:
                call.error = error_summary(body)
            elif call.status >= 400:
                call.error = refusal_summary(body) or f"(no message) {error_summary(body)}"
        except httpx.TransportError as e:
            call.error = f"{type(e).__name__}: {e}"
        call.started, call.seconds = started, time.monotonic() - started
        self.recorder.add(call, body)
        return call, body

    def page(self, path: str, action: str = "get") -> tuple[Call, str]:
        return self._send(self.http, "GET", path, action, {})

    def get(self, path: str, action: str = "get") -> Call:
        return self.page(path, action)[0]

    def submit(
        self, path: str, data: dict[str, Any], action: str, retry: str = ""
    ) -> tuple[Call, str]:
        if "csrftoken" not in self.http.cookies:
            self.get("/", "csrf")
        return self._send(self.http, "POST", path, action, data, retry)

    def post(self, path: str, data: dict[str, Any], action: str, retry: str = "") -> Call:
        return self.submit(path, data, action, retry)[0]

    def twin_post(self, path: str, data: dict[str, Any], action: str) -> tuple[Call, Call]:
        """Send the same POST twice at once, on two connections of this phone: a double tap."""
        if self._twin is None:
            self._twin = self._client(cookies=self.http.cookies)
        twin = self._twin
        results: list[Call] = []
        other = threading.Thread(
            target=lambda: results.append(self._send(twin, "POST", path, action, data, "twin")[0])
        )
        other.start()
        first = self.post(path, data, action)
        other.join()
        return first, results[0]

    # -- what a phone does -------------------------------------------------------------------

    @staticmethod
    def _expect(call: Call, status: int, pattern: str) -> re.Match[str]:
        match = re.fullmatch(pattern, call.location) if call.status == status else None
        if match is None:
            raise AssertionError(f"{call.method} {call.path} by {call.phone}: {call}")
        return match

    def create_group(self, name: str) -> int:
        call = self.post("/groups/new", {"name": name, "host_name": "host"}, "group-create")
        return int(self._expect(call, 302, r"/g/(\d+)/").group(1))

    def invite(self, group_id: int, role: str = "player") -> tuple[str, str]:
        """Make an invite on the members page; return its short code and its link token."""
        call, body = self.submit(f"/g/{group_id}/members", {"role": role}, "invite")
        code = re.search(r'class="code">\s*([A-Z0-9]{8})\s*<', body)
        token = re.search(r"/join/([A-Za-z0-9_-]{20,})", body)
        if call.status != 200 or code is None or token is None:
            raise AssertionError(f"no invite on the members page: {call} {body[:2000]}")
        return code.group(1), token.group(1)

    def join_link(self, token: str, name: str) -> int:
        self.get("/", "csrf")
        call = self.post(f"/join/{token}", {"name": name}, "join-link")
        return int(self._expect(call, 302, r"/g/(\d+)/").group(1))

    def join_code(self, code: str, name: str) -> int:
        self.get("/", "csrf")
        call = self.post("/join", {"code": code, "name": name}, "join-code")
        return int(self._expect(call, 302, r"/g/(\d+)/").group(1))

    def open_night(self, group_id: int, names: tuple[str, ...] = NAMES) -> int:
        data: dict[str, Any] = {f"seat_{i}": n for i, n in enumerate(names, start=1)}
        data.update(first_dealer="1", stake_level="sian", point_value="0.5")
        call = self.write(f"/g/{group_id}/sessions/new", data, "session-open")
        return int(self._expect(call, 302, r"/s/(\d+)/").group(1))

    def in_play(self, night_id: int) -> tuple[Call, int | None]:
        """Look at the table: the game in play, if any."""
        call, body = self.page(f"/s/{night_id}/", "table")
        found = re.search(rf"/s/{night_id}/games/(\d+)/finish", body)
        return call, int(found.group(1)) if found else None

    def finish_players(self, night_id: int, game_id: int) -> list[str] | None:
        """Open the end-of-game screen; return the players in the order of its points rows."""
        call, body = self.page(f"/s/{night_id}/games/{game_id}/finish", "finish-page")
        if call.status != 200:
            return None
        rows = [html.unescape(r) for r in re.findall(r'<tr data-player="([^"]+)">', body)]
        return rows if sorted(rows) == sorted(NAMES) else None

    def write(self, path: str, data: dict[str, Any], action: str, again: str = "") -> Call:
        """POST a form with a fresh idempotency key; `again`: "retry" sends it once more after
        the answer (a flaky network), "twin" twice at once (a double tap)."""
        data = {"idempotency_key": new_key(), **data}
        if again == "twin":
            return self.twin_post(path, data, action)[0]
        call = self.post(path, data, action)
        if again == "retry" and call.status:
            self.post(path, data, action, retry="retry")
        return call

    def start_game(self, night_id: int, data: dict[str, Any], again: str = "") -> Call:
        return self.write(f"/s/{night_id}/games/start", data, "start", again)

    def add_event(
        self, night_id: int, game_id: int, event_type: str, data: dict[str, Any], again: str = ""
    ) -> Call:
        path = f"/s/{night_id}/games/{game_id}/events/{event_type}"
        return self.write(path, data, "event", again)

    def finish(self, night_id: int, game_id: int, data: dict[str, Any], again: str = "") -> Call:
        return self.write(f"/s/{night_id}/games/{game_id}/finish", data, "finish", again)

    def void(self, night_id: int, game_id: int, again: str = "") -> Call:
        return self.write(f"/s/{night_id}/games/{game_id}/void", {}, "void", again)


def new_key() -> str:
    return uuid.uuid4().hex


# -- random valid input ---------------------------------------------------------------------------

KINDS = ["normal"] * 6 + ["dark", "dark", "light-color", "dark-color"]
LEVELS = ["less", "medium", "more"]
EVENT_TYPES = ["head", "speto", "dummy-discard", "full-discard", "show-speto", "fine"]
EVENT_WEIGHTS = [25, 12, 25, 25, 8, 3]
FINE_REASONS = ["misdeal", "false-knock", "unmeldable-pickup"]


def finish_form(rng: random.Random, order: list[str] | None = None) -> dict[str, Any]:
    """A valid end-of-game form; `order` (the players of the points rows) allows Spetos in hand.

    Points differ, except now and then two of them tie so that the game may wait for a tie-break.
    Spetos in the result can still meet Speto events another phone recorded: then the game is
    refused (422, too many Spetos), as it should be.
    """
    names = list(order or NAMES)
    points = rng.sample(range(-60, 200), 4)
    if rng.random() < 0.06:
        points[3] = points[2]
    data: dict[str, Any] = {
        "kind": "normal",
        "knocker_held": "0",
        "knocker_picked": "0",
        **{f"held_{i}": "0" for i in range(4)},
        **{f"points_{i}": str(p) for i, p in enumerate(points)},
        **({"listed": json.dumps(order)} if order else {}),  # the rows as the page listed them
    }
    spetos = 0
    if rng.random() < 0.85:
        knocker = rng.choice(names)
        losers = [n for n in names if n != knocker]
        data.update(ending="knock", knocker=knocker, kind=rng.choice(KINDS))
        if rng.random() < 0.2:
            data["fool"] = rng.choice(losers)
        if rng.random() < 0.1:
            data["total"] = rng.choice(losers)
        if rng.random() < 0.1:
            data["dark"] = rng.sample(losers, rng.randint(1, 2))
        if rng.random() < 0.05:
            data["color"] = [rng.choice(losers)]
        if rng.random() < 0.1:
            data["by_levels"] = "on"
            data.update({f"level_{i}": rng.choice(LEVELS) for i in range(4)})
        if rng.random() < 0.05:
            data["knocker_held"] = "1"
            spetos += 1
            data["face_down"] = rng.choice(["", "speto", "speto-dummy"])
        elif rng.random() < 0.05:
            data["face_down"] = "dummy"
        if rng.random() < 0.04:
            data["knocker_picked"] = "1"
            spetos += 1
    else:
        knocker = ""
        data.update(ending="stock-out", last_drawer=rng.choice(names))
        if rng.random() < 0.1:
            data["dark"] = [rng.choice(names)]
    if order is not None and spetos < 2 and rng.random() < 0.08:
        holder = rng.choice([i for i, n in enumerate(order) if n != knocker])
        data[f"held_{holder}"] = "1"
    return data


def event_form(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A valid event of a random type (a second head or show is refused by the rules: 422)."""
    kind = rng.choices(EVENT_TYPES, EVENT_WEIGHTS)[0]
    player = rng.choice(NAMES)
    data: dict[str, Any] = {"player": player}
    if kind in ("head", "speto") and rng.random() < 0.2:
        data["close"] = [rng.choice([n for n in NAMES if n != player])]
    if kind == "speto":
        data["count"] = "2" if rng.random() < 0.1 else "1"
    if kind == "fine":
        data["reason"] = rng.choice(FINE_REASONS)
    return kind, data


# -- a table and its phones -----------------------------------------------------------------------


@dataclass
class Table:
    number: int
    group_id: int
    night_id: int
    phones: list[Phone]  # phones[0] is the host's


def set_up_table(base_url: str, number: int, recorder: Recorder) -> Table:
    """A group with its host and three players (one joined by code, two by link), one night."""
    host = Phone(base_url, f"t{number}-host", recorder)
    group_id = host.create_group(f"Soak table {number} · วงที่ {number}")
    phones = [host]
    for i in range(1, 4):
        code, token = host.invite(group_id)
        phone = Phone(base_url, f"t{number}-p{i}", recorder)
        name = f"{NAMES[i]}'s phone"
        joined = phone.join_code(code, name) if i == 1 else phone.join_link(token, name)
        assert joined == group_id
        phones.append(phone)
    night_id = host.open_night(group_id)
    return Table(number, group_id, night_id, phones)


@dataclass
class Odds:
    """How often a phone does what, in its loop."""

    event: float = 0.45  # else it saves the end of the game
    void: float = 0.15  # the host voids a game it just saved
    retry: float = 0.10  # the same POST sent again after its answer: a flaky network
    twin: float = 0.05  # the same POST sent twice at once: a double tap
    head_color: float = 0.1  # the start form carries the next head card's colour


def play(
    phone: Phone,
    table: Table,
    *,
    until: float,
    rng: random.Random,
    stop: threading.Event,
    host: bool,
    odds: Odds | None = None,
) -> None:
    """One phone at the table: start, add events, finish, now and then void, retry, double-tap."""
    odds = odds or Odds()
    sid = table.night_id

    def again() -> str:
        roll = rng.random()
        return "twin" if roll < odds.twin else "retry" if roll < odds.twin + odds.retry else ""

    while time.monotonic() < until and not stop.is_set():
        look, game_id = phone.in_play(sid)
        if look.status != 200:
            if stop.wait(0.2):
                return
            continue
        if game_id is None:
            data: dict[str, Any] = {"fool_swap": "on"} if rng.random() < 0.8 else {}
            if rng.random() < odds.head_color:
                data["head_color"] = rng.choice(["black", "red"])
            phone.start_game(sid, data, again())
            continue
        if rng.random() < odds.event:
            kind, data = event_form(rng)
            phone.add_event(sid, game_id, kind, data, again())
            continue
        order = phone.finish_players(sid, game_id)
        saved = phone.finish(sid, game_id, finish_form(rng, order), again())
        won = saved.status == 302 and saved.location == f"/s/{sid}/"
        if host and won and rng.random() < odds.void:
            phone.void(sid, game_id, again())


def run_phones(
    tables: list[Table], seconds: float, seed: str, stop: threading.Event | None = None
) -> list[BaseException]:
    """Every phone of every table in a thread of its own for `seconds`; return their crashes."""
    stop = stop or threading.Event()
    until = time.monotonic() + seconds
    errors: list[BaseException] = []
    phones = [(t, i, p) for t in tables for i, p in enumerate(t.phones)]
    gate = threading.Barrier(len(phones))

    def run(table: Table, i: int, phone: Phone) -> None:
        try:
            gate.wait()
            play(
                phone,
                table,
                until=until,
                rng=random.Random(f"{seed}-{table.number}-{i}"),
                stop=stop,
                host=i == 0,
            )
        except BaseException as e:  # a bug of the test itself: report it
            errors.append(e)

    threads = [threading.Thread(target=run, args=p, name=p[2].name) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


# -- what the database must say -------------------------------------------------------------------

WRITE_ACTIONS = ("session-open", "game-start", "event-add", "game-finish")


def _json(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else dict(value)


@dataclass
class Facts:
    games: dict[int, tuple[int, int, str]]  # id -> night, number, status
    events: int
    lines: int
    nights: int
    finished: int  # games saved from the end-of-game screen (settled, waiting or since voided)


def database_problems(db: Database, calls: list[Call] | None = None) -> tuple[list[str], Facts]:
    """Read the database directly; list every game that is lost, doubled or half-written."""
    problems: list[str] = []
    games = {
        gid: (sid, number, status)
        for gid, sid, number, status in db.rows(
            "SELECT id, night_id, number, status FROM scorekeeper_game"
        )
    }
    lines = db.rows(
        "SELECT id, game_id, event_id, due, reverses_id, transfer_id FROM scorekeeper_ledgerline"
    )
    events = dict(db.rows("SELECT id, game_id FROM scorekeeper_event"))
    # Each form's key is stored on the audit entry of its write, which names what it made.
    keys = [
        (key, action, {"night": sid} if action == "session-open" else {"game": gid})
        for key, action, gid, sid in db.rows(
            "SELECT key, action, game_id, night_id FROM scorekeeper_auditentry "
            "WHERE key IS NOT NULL"
        )
    ]
    audit = db.rows(
        "SELECT action, game_id, night_id FROM scorekeeper_auditentry WHERE action IN "
        "('session-open', 'game-start', 'event-add', 'game-finish', 'game-void')"
    )
    sums = db.rows(
        "SELECT night_id, SUM(net), SUM(settled), COUNT(*) FROM scorekeeper_standing "
        "GROUP BY night_id"
    )

    # One standing game per number in a night, one game in play at most.
    standing = Counter((sid, n) for sid, n, status in games.values() if status != "voided")
    for (sid, number), count in standing.items():
        if count > 1:
            problems.append(f"night {sid}: game number {number} stands {count} times")
    in_play = Counter(sid for sid, _n, status in games.values() if status == "in-play")
    for sid, count in in_play.items():
        if count > 1:
            problems.append(f"night {sid}: {count} games in play at once")

    # Every game whole: settled games have their after-game lines, the others none.
    after = Counter(g for _id, g, _e, due, rev, _t in lines if due == "after-game" and rev is None)
    for gid, (sid, number, status) in sorted(games.items()):
        where = f"night {sid} game {number} (id {gid}, {status})"
        if status == "settled" and not after[gid]:
            problems.append(f"{where}: settled without after-game lines")
        if status in ("in-play", "pending-tie", "fined") and after[gid]:
            problems.append(f"{where}: {after[gid]} after-game lines but not settled")
    # Every event has its lines, written for its own game.
    event_lines: dict[int, set[int]] = defaultdict(set)
    for _id, gid, event, _due, rev, _t in lines:
        if event is not None and rev is None:
            event_lines[event].add(gid)
    for event, gid in events.items():
        if event_lines[event] != {gid}:
            problems.append(f"event {event} of game id {gid}: lines on games {event_lines[event]}")
    # Each line reversed at most once; every line of a voided game reversed.
    reversed_ = Counter(rev for *_x, rev, _t in lines if rev is not None)
    for line, count in reversed_.items():
        if count > 1:
            problems.append(f"line {line} reversed {count} times")
    for line, gid, _e, _due, rev, _t in lines:
        if gid is not None and rev is None and games[gid][2] == "voided" and not reversed_[line]:
            problems.append(f"line {line} of voided game id {gid} is not reversed")
    # Every night sums to zero.
    for sid, net, settled, _players in sums:
        if net or settled:
            problems.append(f"night {sid}: standings sum to net {net}, settled {settled}")

    # Each write made with an idempotency key once: as many writes as keys, each key its own.
    by_action: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for _key, action, result in keys:
        by_action[action].append(_json(result))
    written = Counter(action for action, _g, _s in audit)
    for action in WRITE_ACTIONS:
        if written[action] != len(by_action[action]):
            problems.append(
                f"{action}: {written[action]} writes in the audit log, "
                f"{len(by_action[action])} idempotency keys"
            )
    finished_games = [g for action, g, _s in audit if action == "game-finish"]
    for gid, count in Counter(finished_games).items():
        if count > 1:
            problems.append(f"game id {gid} saved {count} times")
    key_games = Counter(r["game"] for r in by_action["game-finish"])
    for gid, count in key_games.items():
        if count > 1:
            problems.append(f"game id {gid} saved under {count} keys")
    if set(key_games) != set(finished_games):
        problems.append(
            f"games saved per the audit log {sorted(set(finished_games) - set(key_games))} "
            f"differ from those per the keys {sorted(set(key_games) - set(finished_games))}"
        )
    voided = {g for action, g, _s in audit if action == "game-void"}
    for gid, (sid, number, status) in games.items():
        if status in ("settled", "pending-tie") and gid not in key_games:
            problems.append(f"night {sid} game {number} is {status} but no save made it")
        if status == "voided" and gid not in voided:
            problems.append(f"night {sid} game {number} is voided but nobody voided it")
    if len(by_action["game-start"]) != len(games):
        problems.append(f"{len(games)} games, {len(by_action['game-start'])} start keys")
    if len(by_action["event-add"]) != len(events):
        problems.append(f"{len(events)} events, {len(by_action['event-add'])} event keys")

    if calls is not None:
        problems += _answers_kept(calls, games, keys, voided)
    facts = Facts(games, len(events), len(lines), len(sums), len(key_games))
    return problems, facts


def _answers_kept(
    calls: list[Call],
    games: dict[int, tuple[int, int, str]],
    keys: list[tuple[Any, ...]],
    voided: set[int],
) -> list[str]:
    """What the phones were told is what the database holds."""
    problems = []
    stored = {key: (action, _json(result)) for key, action, result in keys}
    for call in calls:
        if call.status != 302:
            continue
        what = (
            f"{call.method} {call.path} by {call.phone} ({call.retry or 'first'}, key {call.key})"
        )
        table = re.fullmatch(r"/s/(\d+)/", call.location)
        if call.action in ("start", "finish") and table:
            action = {"start": "game-start", "finish": "game-finish"}[call.action]
            if stored.get(call.key, ("",))[0] != action:
                problems.append(f"{what}: told 302 to the table, but nothing was written")
                continue
            gid = stored[call.key][1]["game"]
            if call.action == "finish":
                sid, number, status = games[gid]
                path_game = int(call.path.split("/")[4])
                if gid != path_game:
                    problems.append(f"{what}: the key saved game id {gid}")
                if status not in ("settled", "pending-tie", "voided"):
                    problems.append(f"{what}: game {number} is {status}")
                if status == "voided" and gid not in voided:
                    problems.append(f"{what}: game {number} voided by nobody")
        if call.action == "void":
            gid = int(call.path.split("/")[4])
            if games.get(gid, (0, 0, ""))[2] != "voided":
                problems.append(f"{what}: told 302, but the game is not voided")
    return problems


# -- the numbers of a run -------------------------------------------------------------------------

EXPECTED = {
    "table": {200},
    "finish-page": {200, 302},
    # 409: the page the phone wrote from was out of date (another phone started, saved, voided
    # or corrected the game first): refused, nothing booked, the phone shown the table as it is.
    "start": {302, 409, 422},
    "event": {302, 409, 422},
    "finish": {302, 409, 422},
    "void": {302, 409},
    "csrf": {200},
}


def summary(calls: list[Call], seconds: float, facts: Facts | None = None) -> str:
    """Requests per second, answers per action and status, games recorded."""
    by = Counter((c.action, c.retry, c.status) for c in calls)
    rows = [
        f"  {a:<12} {r or 'first':<6} {s or 'no answer'}: {n}"
        for (a, r, s), n in sorted(by.items())
    ]
    finished = [c for c in calls if c.action == "finish" and c.status == 302 and not c.retry]
    won = sum(1 for c in finished if re.fullmatch(r"/s/\d+/", c.location))
    posts = sum(1 for c in calls if c.method == "POST")
    text = [
        f"{len(calls)} requests in {seconds:.1f} s: {len(calls) / seconds:.1f} requests/s, "
        f"{posts / seconds:.1f} POSTs/s",
        f"5xx answers: {sum(1 for c in calls if c.status >= 500)}, "
        f"no answer: {sum(1 for c in calls if c.status == 0)}",
        f"finish taps answered 302: {len(finished)} ({won} saved it, "
        f"{len(finished) - won} sent to the game another phone saved)",
        *rows,
    ]
    refusals = Counter((c.action, c.error) for c in calls if 400 <= c.status < 500)
    if refusals:
        text.append("refusals (4xx), most common first:")
        text += [f"  {n:>5} × {a}: {e[:150]}" for (a, e), n in refusals.most_common(12)]
    slow = sorted(c.seconds for c in calls)
    if slow:
        text.append(
            f"latency: median {slow[len(slow) // 2] * 1000:.0f} ms, "
            f"p99 {slow[int(len(slow) * 0.99)] * 1000:.0f} ms, max {slow[-1] * 1000:.0f} ms"
        )
    if facts is not None:
        status = Counter(s for _sid, _n, s in facts.games.values())
        text.append(
            f"database: {len(facts.games)} games ({dict(status)}), {facts.finished} saved from the "
            f"end-of-game screen, {facts.events} events, {facts.lines} ledger lines, "
            f"{facts.finished / seconds:.2f} games recorded/s"
        )
    return "\n".join(text)


def unexpected(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.action in EXPECTED and c.status not in EXPECTED[c.action]]
