"""The benchmark of docs/performance.md: each figure beside its aim, this tree against c8ffc3b.

Both trees are served as `make serve` serves them (granian, 2 workers, DEBUG off, collected
static files) on plain HTTP at 127.0.0.1, on a fresh SQLite file and a fresh PostgreSQL database
(127.0.0.1:5432, user postgres, trust; dropped after). The code of c8ffc3b is a git worktree inside
this checkout, in the folder .bench/ that git ignores (.bench/scorekeeper-c8ffc3b, made here if
missing, with its own `uv sync --frozen`): nothing is written beside the checkout.

The client behaves as the phone's htmx does: a form with hx-post is posted with `HX-Request` and
`HX-Target`; a 302, `HX-Redirect` or `HX-Location` is followed with a GET, and an answer that is
itself the page is read as it is. The poll sends the version (and ETag, if any) the page gave.

    make bench                                   # everything, both databases
    uv run python bench/bench.py --only cpu,poll --db sqlite
Parts: cpu (a game saved as the table sees it: the saving phone's start and end of game, each
followed by one poll of each of the table's 3 other phones), load (10 tables saving at once), poll
(an unchanged table), statements, phone (a throttled Chromium, both trees), push (HEAD only: the
tables' streams on one push process, the other phones' catch-up, another phone showing a write;
bench/streams.py).
"""

import argparse
import copy
import html
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streams

ROOT = Path(__file__).resolve().parents[1]
BASE_COMMIT = "c8ffc3b"
BASE_TREE = ROOT / ".bench" / f"scorekeeper-{BASE_COMMIT}"  # ignored by git, ruff and pytest
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PARTS = ("cpu", "load", "poll", "statements", "phone", "push")
FLOWS = int(os.environ.get("BENCH_FLOWS", "200"))  # saves as a player sees them, per tree
WRITERS, LOAD_SECONDS = 10, float(os.environ.get("BENCH_LOAD_SECONDS", "15"))
POLLS = int(os.environ.get("BENCH_POLLS", "2000"))
ROUNDS = 4  # HEAD and c8ffc3b take turns in each part
PHONE_RUNS = 5
WATCHERS = 3  # the table's other phones: each polls once after every tap of the saving phone
NAMES = ("Ann", "Bee", "Cat", "Dan")
FINISH = {  # Ann knocks; Bee 10, Cat 20, Dan 30 (tests/views/conftest.py)
    "ending": "knock", "knocker": "Ann", "kind": "normal", "points_1": "10", "points_2": "20",
    "points_3": "30", "knocker_held": "0", "knocker_picked": "0",
    **{f"held_{i}": "0" for i in range(4)},
}  # fmt: skip
# Served as `make serve` does, on plain HTTP: no redirect to HTTPS, cookies not marked Secure.
SETTINGS = """\
import os
from pathlib import Path
from scorekeeper.settings import *  # noqa: F403
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
GROUPS_AN_HOUR = 10**6  # every phone of the run makes its group from 127.0.0.1
STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
"""


def new_key() -> str:
    return uuid.uuid4().hex


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else float("nan")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True).stdout.strip()


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a tree's commands: none of this process's venv or database."""
    drop = ("VIRTUAL_ENV", "DATABASE_URL", "SCOREKEEPER_SQLITE", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(UV_PYTHON_DOWNLOADS="never", PYTHONUNBUFFERED="1", **extra)
    return env


def base_tree() -> Path:
    """A worktree of c8ffc3b in .bench/, installed as `make sync` installs it."""
    if not (BASE_TREE / "manage.py").exists():
        git("worktree", "prune")  # a worktree folder deleted by hand would block the add
        BASE_TREE.parent.mkdir(exist_ok=True)
        git("worktree", "add", "--detach", str(BASE_TREE), BASE_COMMIT)
    at = git("rev-parse", "--short=7", "HEAD", cwd=BASE_TREE)
    if at != BASE_COMMIT:
        sys.exit(f"{BASE_TREE} is at {at}, not {BASE_COMMIT}: move it aside")
    env = clean_env(UV_COMPILE_BYTECODE="1")
    subprocess.run(["uv", "sync", "--frozen", "--quiet"], cwd=BASE_TREE, env=env, check=True)
    subprocess.run(
        [".venv/bin/python", "manage.py", "compilemessages", "--ignore=.venv", "-v0"],
        cwd=BASE_TREE, env=env, check=True,
    )  # fmt: skip
    return BASE_TREE


# -- a database and a server ------------------------------------------------------------------


def pg(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[dict[str, str]]:
    """The environment that points a tree at a fresh database of its own."""
    if kind == "sqlite":
        yield {"SCOREKEEPER_SQLITE": str(tmp / f"{new_key()}.sqlite3")}
        return
    name = f"scorekeeper_bench_{new_key()[:12]}"
    pg(f'CREATE DATABASE "{name}"')
    try:
        yield {"DATABASE_URL": PG_ADMIN.rsplit("/", 1)[0] + "/" + name}
    finally:
        pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_env(tmp: Path, db: dict[str, str]) -> dict[str, str]:
    (tmp / "bench_settings.py").write_text(SETTINGS)
    return clean_env(
        **db,
        SCOREKEEPER_DEBUG="0",
        SCOREKEEPER_SSL_REDIRECT="0",
        SCOREKEEPER_SECRET_KEY="bench-" + new_key(),
        SCOREKEEPER_ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DJANGO_SETTINGS_MODULE="bench_settings",
        PYTHONPATH=str(tmp),
        BENCH_STATIC_ROOT=str(tmp / "static"),
        # Two worker processes share the table's region built once, as the README says to set
        # up several processes (`make bench` starts the machine's Redis); a prefix of its own.
        REDIS_URL="redis://127.0.0.1:6379/0",
        SCOREKEEPER_CACHE_PREFIX="bench-" + new_key(),
    )


class Server:
    """granian serving a tree on a free port, in a process group of its own."""

    def __init__(self, tree: Path, env: dict[str, str], log: Path) -> None:
        python = str(tree / ".venv/bin/python")
        for command in (["collectstatic", "--noinput", "-v0"], ["migrate", "--noinput", "-v0"]):
            subprocess.run([python, "manage.py", *command], cwd=tree, env=env, check=True)
        with socket_free() as port:
            self.port = port
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(tree / ".venv/bin/granian"), "--interface", "wsgi", "--host", "127.0.0.1",
                 "--port", str(port), "--workers", "2", "scorekeeper.wsgi:application"],
                cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with suppress(OSError):
                if Client(port).get("/").status == 200:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"granian did not start:\n{log.read_text(errors='replace')[-3000:]}")

    def cpu(self) -> float:
        """CPU seconds (user + system) of granian's processes: the group started here."""
        tick, total = os.sysconf("SC_CLK_TCK"), 0.0
        for entry in filter(str.isdigit, os.listdir("/proc")):
            with suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                if int(fields[2]) == self.process.pid:
                    total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def errors(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback")

    def stop(self) -> None:
        streams.stop_group(self.process)


@contextmanager
def socket_free() -> Iterator[int]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


# -- a phone over HTTP, as htmx drives it --------------------------------------------------


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: str, requests: int) -> None:
        self.status, self.headers, self.body, self.requests = status, headers, body, requests


class Client:
    """One phone: its cookies, Django's CSRF token, one kept-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, data: dict[str, Any] | None = None, **headers: str
    ) -> Answer:
        headers = {"Accept-Language": "th", **headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method == "POST":
            if "csrftoken" not in self.cookies:
                self.get("/")
                return self.request(method, path, data, **headers)
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode(data or {}, doseq=True)
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closed the kept-alive connection while the phone sat idle (the push
            # part holds its streams for a minute): sent again on a new one, as a browser does.
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        got = {k.lower(): v for k, v in response.getheaders()}
        return Answer(response.status, got, text, 1)

    def get(self, path: str, **headers: str) -> Answer:
        return self.request("GET", path, **headers)

    def tap(self, form: dict[str, str], data: dict[str, Any]) -> Answer:
        """Submit a form as the page would; follow what the answer says, as htmx or the
        browser would, to the page the player then sees. Answer.requests counts the requests."""
        hx = {"HX-Request": "true", "HX-Target": form["target"]} if form["htmx"] else {}
        answer = self.request("POST", form["action"], data, **hx)
        if answer.status in (301, 302, 303):  # the browser (or htmx's XHR) follows it
            answer = self.get(answer.headers["location"], **hx)
            answer.requests = 2
        elif "hx-redirect" in answer.headers:  # htmx navigates: a full page
            answer = self.get(answer.headers["hx-redirect"])
            answer.requests = 2
        elif "hx-location" in answer.headers:  # htmx GETs it into a target
            where = answer.headers["hx-location"]
            spec = json.loads(where) if where.startswith("{") else {"path": where}
            target = spec.get("target", "body").lstrip("#")
            answer = self.get(spec["path"], **{"HX-Request": "true", "HX-Target": target})
            answer.requests = 2
        return answer


def form_of(page: str, action: str) -> dict[str, str]:
    """How the page submits to `action`: through htmx (hx-post, its hx-target) where a form or
    its button says so, else plainly."""
    found: list[dict[str, str]] = []
    for tag in re.findall(r"<(?:form|button)\b[^>]*>", page):
        hx_post = re.search(r'hx-post="([^"]*)"', tag)
        plain = re.search(r'action="([^"]*)"', tag)
        url = html.unescape((hx_post or plain).group(1)) if hx_post or plain else ""
        if url.endswith(action) or re.fullmatch(r".*" + action, url):
            target = re.search(r'hx-target="#?([^"]*)"', tag)
            htmx = hx_post is not None
            found.append(
                {
                    "action": url,
                    "htmx": "1" if htmx else "",
                    "target": target.group(1) if target else "",
                }
            )
    if not found:
        raise RuntimeError(f"no form for {action} on the page:\n{page[:2000]}")
    return max(found, key=lambda form: bool(form["htmx"]))  # a button's hx-post is what is sent


class Table:
    """A table: a group, a night, and the forms its pages submit."""

    def __init__(self, port: int, name: str, watchers: int = 0) -> None:
        self.phone = Client(port)
        answer = self.phone.request("POST", "/groups/new", {"name": name, "host_name": "เจ้าของ"})
        group = re.search(r"/g/(\d+)/", answer.headers.get("location", ""))
        assert group, (answer.status, answer.body[:500])
        seats = {f"seat_{i}": n for i, n in enumerate(NAMES, start=1)}
        data = {**seats, "first_dealer": "1", "stake_level": "sian", "point_value": "0.5"}
        answer = self.phone.request(
            "POST", f"/g/{group.group(1)}/sessions/new", {**data, "idempotency_key": new_key()}
        )
        found = re.search(r"/s/(\d+)/", answer.headers.get("location", ""))
        assert found, (answer.status, answer.body[:500])
        self.path = found.group(0)
        page = self.phone.get(self.path).body
        self.start = form_of(page, rf"{self.path}games/start")
        game = self.game_in(self.phone.tap(self.start, self.start_data()).body)
        self.finish = form_of(self.phone.get(f"{self.path}games/{game}/finish").body, r"/finish")
        self.phone.tap(
            {**self.finish, "action": f"{self.path}games/{game}/finish"}, self.finish_data()
        )
        self.watchers = [
            Watcher(port, self.phone, group.group(1), self.path, name)
            for name in NAMES[1 : 1 + watchers]
        ]
        self.polled: Counter[int] = Counter()  # the other phones' polls, by the answer's status

    def start_data(self) -> dict[str, str]:
        return {"fool_swap": "on", "idempotency_key": new_key()}

    def finish_data(self) -> dict[str, str]:
        return {**FINISH, "idempotency_key": new_key()}

    def game_in(self, page: str) -> str:
        found = re.search(rf"{self.path}games/(\d+)/finish", page)
        assert found, f"no game in play on the page:\n{page[:2000]}"
        return found.group(1)

    def save(self, times: list[float] | None = None) -> int:
        """Start a game and finish it as a player does, each tap followed by one poll of each
        other phone at the table: the requests the saving phone took."""
        t0 = time.monotonic()
        started = self.phone.tap(self.start, self.start_data())
        t1 = time.monotonic()
        self.watch()
        action = f"{self.path}games/{self.game_in(started.body)}/finish"
        t2 = time.monotonic()
        finished = self.phone.tap({**self.finish, "action": action}, self.finish_data())
        t3 = time.monotonic()
        assert finished.status < 400, (finished.status, finished.body[:500])
        self.watch()
        if times is not None:
            times += [t1 - t0, t3 - t2]
        return started.requests + finished.requests

    def watch(self) -> None:
        for watcher in self.watchers:
            answer = watcher.poll()
            assert answer.status in (200, 204, 304), (answer.status, answer.body[:500])
            self.polled[answer.status] += 1


# -- the parts through the server ---------------------------------------------------------


def save_cpu(server: Server, table: Table, flows: int) -> tuple[float, int]:
    """Server CPU seconds and requests of `flows` saves."""
    before, requests = server.cpu(), 0
    for _ in range(flows):
        requests += table.save()
    return server.cpu() - before, requests


def load(tables: list[Table], seconds: float) -> tuple[list[float], float]:
    """Every table saving in a closed loop: each save's time, and the time it all took."""
    times: list[list[float]] = [[] for _ in tables]
    failed: list[BaseException] = []
    until = time.monotonic() + seconds

    def write(table: Table, mine: list[float]) -> None:
        try:
            while time.monotonic() < until:
                table.save(mine)
        except BaseException as e:  # reported below
            failed.append(e)

    threads = [
        threading.Thread(target=write, args=pair) for pair in zip(tables, times, strict=True)
    ]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        print(f"  writers failed: {failed[:3]}")
    return [s for mine in times for s in mine], time.monotonic() - began


POLLED = r'<[^>]*hx-trigger="[^"]*every[^>]*>'  # the region a page polls


def polled(page: str) -> tuple[str, str] | None:
    """The address and id of the region `page` polls, if it polls one."""
    tag = re.search(POLLED, page)
    if tag is None:
        return None
    target = re.search(r'\bid="([^"]+)"', tag.group(0))
    url = re.search(r'hx-get="([^"]+)"', tag.group(0))
    assert target and url, tag.group(0)
    return html.unescape(url.group(1)), target.group(1)


def poller(phone: Client, path: str) -> tuple[str, dict[str, str]]:
    """The URL and headers of the page's poll, with the ETag its first answer gave, if any."""
    found = polled(phone.get(path).body)
    assert found, "no polled region on the table page"
    url, target = found
    hx = {"HX-Request": "true", "HX-Target": target, "HX-Trigger": target}
    first = phone.get(url, **hx)
    if "etag" in first.headers:
        hx["If-None-Match"] = first.headers["etag"]
    return url, hx


class Watcher:
    """Another phone at the table: a member who joined by the host's invite link and, where the
    tree knows "this is me", says which player it is; it polls the table as its page does, the
    next poll's address taken from the region each answer brings."""

    def __init__(self, port: int, host: Client, group: str, path: str, name: str) -> None:
        self.phone = Client(port)
        made = host.request(
            "POST", f"/g/{group}/members",
            {"role": "player", "life": "24", "idempotency_key": new_key()},
        )  # fmt: skip
        token = re.search(r"/join/([\w-]+)", made.body)
        assert token, (made.status, made.body[:500])
        joined = self.phone.request("POST", f"/join/{token.group(1)}", {"name": name})
        assert joined.status in (200, 302), (joined.status, joined.body[:500])
        page = self.phone.get(f"/g/{group}/").body
        me = re.search(rf'<option value="(\d+)"[^>]*>{name}</option>', page)
        if me and f'action="/g/{group}/me"' in page:  # trees before "this is me" have no claim
            self.phone.request("POST", f"/g/{group}/me", {"player": me.group(1)})
        self.url, self.hx = poller(self.phone, path)

    def poll(self) -> Answer:
        answer = self.phone.get(self.url, **self.hx)
        if answer.status == 200 and (found := polled(answer.body)):
            self.url = found[0]  # the region swapped in polls at its own version
        if "etag" in answer.headers:
            self.hx["If-None-Match"] = answer.headers["etag"]
        return answer


@contextmanager
def scratch(kind: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """A temporary directory and a fresh database of `kind`."""
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as name,
        database(kind, Path(name)) as db,
    ):
        yield Path(name), db


def compare(trees: dict[str, Path], kind: str, parts: list[str]) -> dict[str, dict[str, Any]]:
    """Serve each tree on a database of its own; the trees take turns, ROUNDS times a part, so
    that a change in what else the machine does falls on both."""
    with ExitStack() as stack:
        servers: dict[str, Server] = {}
        for name, tree in trees.items():
            tmp, db = stack.enter_context(scratch(kind))
            servers[name] = Server(tree, server_env(tmp, db), tmp / "granian.log")
            stack.callback(servers[name].stop)
        found: dict[str, dict[str, Any]] = {name: {} for name in servers}
        if "cpu" in parts:
            tables = {
                name: Table(s.port, "CPU · วงวัดเวลา", watchers=WATCHERS)
                for name, s in servers.items()
            }
            for table in tables.values():
                for _ in range(5):  # both workers warm
                    table.save()
            flows = FLOWS // ROUNDS
            spent = {name: [0.0, 0] for name in servers}
            for _ in range(ROUNDS):
                for name, server in servers.items():
                    cpu, requests = save_cpu(server, tables[name], flows)
                    spent[name][0] += cpu
                    spent[name][1] += requests
            for name, (cpu, requests) in spent.items():
                found[name]["cpu"] = {
                    "cpu": cpu / (flows * ROUNDS),
                    "requests": requests / (flows * ROUNDS),
                    "polled": dict(tables[name].polled),
                }
        if "load" in parts:
            writers = {
                name: [Table(s.port, f"Load {n} · วงที่ {n}") for n in range(WRITERS)]
                for name, s in servers.items()
            }
            saves: dict[str, tuple[list[float], float]] = {name: ([], 0.0) for name in servers}
            for _ in range(ROUNDS):
                for name in servers:
                    times, seconds = load(writers[name], LOAD_SECONDS / ROUNDS)
                    saves[name] = (saves[name][0] + times, saves[name][1] + seconds)
            for name, (times, seconds) in saves.items():
                found[name]["load"] = {"rate": len(times) / seconds, "p95": p95(times)}
        if "poll" in parts:
            polls = {name: Table(s.port, "Poll · วงดู") for name, s in servers.items()}
            asked = {name: poller(table.phone, table.path) for name, table in polls.items()}
            seen: dict[str, dict[str, Any]] = {
                name: {"cpu": 0.0, "statuses": set(), "bytes": 0} for name in servers
            }
            for _ in range(ROUNDS):
                for name, server in servers.items():
                    url, hx = asked[name]
                    before = server.cpu()
                    for _ in range(POLLS // ROUNDS):
                        answer = polls[name].phone.get(url, **hx)
                        seen[name]["statuses"].add(answer.status)
                        seen[name]["bytes"] = max(seen[name]["bytes"], len(answer.body))
                    seen[name]["cpu"] += server.cpu() - before
            for name, r in seen.items():
                found[name]["poll"] = {**r, "cpu": r["cpu"] / (POLLS // ROUNDS * ROUNDS)}
        for name, server in servers.items():
            found[name]["tracebacks"] = server.errors()
        return found


# -- statements per page and per write: in-process, this tree only ---------------------------


def statements_here() -> None:
    """Run inside a fresh process pointed at a fresh database: print the counts as JSON."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, models
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.models import Game

    call_command("migrate", "--noinput", "-v0")
    call_command("collectstatic", "--noinput", "-v0")
    phone = DjangoClient()

    def count(method: str, path: str, data: dict[str, Any] | None = None, **headers: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            answer = getattr(phone, method.lower())(path, data or {}, headers=headers)
        assert answer.status_code < 400, (method, path, answer.status_code)
        # Transaction control (BEGIN, COMMIT, savepoints) is the same for any write: not counted,
        # as tests/views/test_budgets_record.py counts.
        control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
        return sum(not q["sql"].startswith(control) for q in queries.captured_queries)

    answer = phone.post("/groups/new", {"name": "Statements", "host_name": "เจ้าของ"})
    group = re.search(r"/g/(\d+)/", answer["Location"]).group(1)  # type: ignore[union-attr]
    seats = {f"seat_{i}": n for i, n in enumerate(NAMES, start=1)}
    data = {**seats, "first_dealer": "1", "stake_level": "sian", "point_value": "0.5"}
    answer = phone.post(f"/g/{group}/sessions/new", {**data, "idempotency_key": new_key()})
    sid = re.search(r"/s/(\d+)/", answer["Location"]).group(1)  # type: ignore[union-attr]
    table = f"/s/{sid}/"

    def played() -> int:
        return Game.objects.filter(night_id=sid).count()

    def add_games(n: int) -> None:
        """Copy the newest game and every row pointing at it n times: a long night, quickly."""
        template = Game.objects.filter(night_id=sid).order_by("-number").first()
        if n <= 0 or template is None:
            return
        top = template.number
        copies = []
        for i in range(1, n + 1):
            game = copy.copy(template)
            game.pk, game.number = None, top + i
            copies.append(game)
        Game.objects.bulk_create(copies, batch_size=500)
        for rel in Game._meta.related_objects:
            if rel.related_model is Game or rel.many_to_many:
                continue
            rows = list(rel.related_model.objects.filter(**{rel.field.name: template}))
            clones = []
            for game in copies:
                for row in rows:
                    clone = copy.copy(row)
                    clone.pk = None
                    setattr(clone, rel.field.attname, game.pk)
                    for field in clone._meta.concrete_fields:  # a copy claims no unique key
                        if (
                            field is not rel.field
                            and field.null
                            and (field.unique or isinstance(field, models.OneToOneField))
                        ):
                            setattr(clone, field.attname, None)
                    clones.append(clone)
            rel.related_model.objects.bulk_create(clones, batch_size=500)

    def start() -> int:
        return count(
            "POST", f"{table}games/start", {"fool_swap": "on", "idempotency_key": new_key()}
        )

    def finish() -> int:
        game = Game.objects.filter(night_id=sid).order_by("-id").first()
        data = {**FINISH, "idempotency_key": new_key()}
        return count("POST", f"{table}games/{game.pk}/finish", data)  # type: ignore[union-attr]

    result: dict[str, Any] = {"pages": {}}
    for games in (0, 100, 10_000):
        add_games(games - played())
        start()  # a game in play: the table at its busiest (as tests/views/test_budgets.py)
        result["pages"][games] = {
            "table": count("GET", table),
            "history": count("GET", f"{table}history"),
        }
        finish()
    started = start()
    game = Game.objects.filter(night_id=sid).order_by("-id").first().pk  # type: ignore[union-attr]
    result["writes"] = {
        "start": started,
        "event": count("POST", f"{table}games/{game}/events/head", {"player": "Bee"}),
        "finish": finish(),
        "void": count("POST", f"{table}games/{game}/void", {}),
    }
    print(json.dumps(result))


def statements(kind: str) -> dict[str, Any]:
    with scratch(kind) as (tmp, db):
        env = server_env(tmp, db)
        env["PYTHONPATH"] += os.pathsep + str(ROOT)
        done = subprocess.run(
            [sys.executable, __file__, "--statements-here"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
        return result


# -- the phone: Chromium, throttled -------------------------------------------------------------

TAP_SCRIPT = """
(() => {
  // The tap: in the capture phase, before htmx sends anything. The answer: the first frame
  // drawn with the table's scoreboard on the screen (a task queued from that frame runs once
  // drawn). The end-of-game page's preview is a table.board too, and the tap's blur sends a
  // preview of its own: its answer is not the table's.
  addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("button[hx-post$='/finish']"))
      window.__tap = performance.now();
  }, true);
  const seen = () => {
    if (window.__tap === undefined) return;
    const board = [...document.querySelectorAll("table.board")].find((t) => !t.closest("#preview"));
    if (!board) return;
    observer.disconnect();
    const drawn = () => {
      const top = board.getBoundingClientRect().top;
      if (top < 0 || top >= innerHeight) return requestAnimationFrame(drawn);
      setTimeout(() => { window.__board = performance.now(); }, 0);
    };
    requestAnimationFrame(drawn);
  };
  const observer = new MutationObserver(seen);
  addEventListener("DOMContentLoaded", () =>
    observer.observe(document.body, { childList: true, subtree: true }));
})();
"""


def phone(kind: str, tree: Path) -> list[float]:
    """Tap on "save" → the updated scoreboard drawn, on a throttled phone: ms, each run."""
    from playwright.sync_api import expect, sync_playwright

    with scratch(kind) as (tmp, db):
        server = Server(tree, server_env(tmp, db), tmp / "granian.log")
        base = f"http://127.0.0.1:{server.port}"
        try:
            table = Table(server.port, "Phone · วงมือถือ")
            for _ in range(20):  # an evening's games at the table
                table.save()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium",
                    args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
                )
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, locale="th-TH", service_workers="block"
                )
                context.set_default_timeout(60_000)
                context.add_init_script(TAP_SCRIPT)
                context.add_cookies(
                    [{"name": k, "value": v, "url": base} for k, v in table.phone.cookies.items()]
                )
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": 150,
                    "downloadThroughput": 200_000, "uploadThroughput": 200_000,
                })  # fmt: skip
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(base + table.path)  # the static files cached, as on a phone in use
                runs = []
                for _ in range(PHONE_RUNS):
                    started = table.phone.tap(table.start, table.start_data())
                    page.goto(f"{base}{table.path}games/{table.game_in(started.body)}/finish")
                    page.check('input[name="ending"][value="knock"]')
                    page.check('input[name="knocker"][value="Ann"]')
                    page.check('input[name="kind"][value="normal"]')
                    for name, points in (("Bee", 10), ("Cat", 20), ("Dan", 30)):
                        header = page.get_by_role("rowheader", name=name, exact=True)
                        row = page.locator("table.entry tbody tr").filter(has=header)
                        row.locator('input[name^="points_"]').fill(str(points))
                    expect(page.locator("#preview [data-preview-net]")).to_have_count(4)
                    page.wait_for_load_state("networkidle")  # no preview still on its way
                    page.click("button[hx-post$='/finish']")
                    page.wait_for_function("() => window.__board !== undefined")
                    runs.append(page.evaluate("() => window.__board - window.__tap"))
                browser.close()
            return runs
        finally:
            server.stop()


# -- the report -----------------------------------------------------------------------------


def ratio_line(
    what: str, head: float, base: float, unit: str, scale: float, aim: str, ok: bool
) -> str:
    return (
        f"  {what}: HEAD {head * scale:.1f} {unit}, {BASE_COMMIT} {base * scale:.1f} {unit}, "
        f"HEAD/{BASE_COMMIT} {head / base:.2f} · aim {aim}: {verdict(ok)}"
    )


def report_server(kind: str, head: dict[str, Any], base: dict[str, Any]) -> None:
    print(f"\n== {kind}: through granian, 2 workers (server tracebacks: HEAD "
          f"{head['tracebacks']}, {BASE_COMMIT} {base['tracebacks']}) ==")  # fmt: skip
    if "cpu" in head:
        h, b = head["cpu"], base["cpu"]
        print(
            f"  a save as the table sees it: one phone starts and ends a game, and after each "
            f"tap the {WATCHERS} other phones poll once; {FLOWS} games (their polls' answers: "
            f"HEAD {h['polled']}, {BASE_COMMIT} {b['polled']})"
        )
        print(
            ratio_line(
                "server CPU a game",
                h["cpu"],
                b["cpu"],
                "ms",
                1000,
                "≤ 0.30",
                h["cpu"] <= 0.3 * b["cpu"],
            )
        )
        print(
            f"  requests a game on the phone that saves (start, end of game): HEAD "
            f"{h['requests']:.0f}, {BASE_COMMIT} {b['requests']:.0f} · aim 2: "
            f"{verdict(h['requests'] <= 2)}"
        )
    if "load" in head:
        h, b = head["load"], base["load"]
        print(f"  {WRITERS} tables saving at once, closed loop, {LOAD_SECONDS:.0f} s "
              "(a save: a tap on start or finish, to the page it brings)")  # fmt: skip
        print(
            ratio_line("saves/s", h["rate"], b["rate"], "/s", 1, "≥ 2", h["rate"] >= 2 * b["rate"])
        )
        print(
            ratio_line(
                "p95 per save", h["p95"], b["p95"], "ms", 1000, "≤ 0.50", h["p95"] <= 0.5 * b["p95"]
            )
        )
    if "poll" in head:
        h, b = head["poll"], base["poll"]
        for name, r in (("HEAD", h), (BASE_COMMIT, b)):
            print(
                f"  poll of an unchanged table, {name}: {sorted(r['statuses'])}, {r['bytes']} B, "
                f"{r['cpu'] * 1000:.2f} ms CPU a poll over {POLLS} · 10,000 tables × 4 phones "
                f"every 2 s: {20_000 * r['cpu']:.1f} cores"
            )
        empty = h["statuses"] <= {204} and h["bytes"] == 0
        print(
            ratio_line(
                "server CPU a poll, an empty 204",
                h["cpu"],
                b["cpu"],
                "ms",
                1000,
                "≤ 0.40",
                empty and h["cpu"] <= 0.4 * b["cpu"],
            )
        )


def report_statements(kind: str, r: dict[str, Any]) -> None:
    pages, writes = r["pages"], r["writes"]
    print(f"\n== {kind}: statements, HEAD, Django's test client, DEBUG off ==")
    for page in ("table", "history"):
        counts = [pages[str(n)][page] for n in (0, 100, 10_000)]
        print(f"  {page} page, 0 / 100 / 10,000 games: {' / '.join(map(str, counts))} · "
              f"aim the same for each: {verdict(len(set(counts)) == 1)}")  # fmt: skip
    print("  per write: " + ", ".join(f"{k} {v}" for k, v in writes.items())
          + f" · aim ≤ 10 each: {verdict(max(writes.values()) <= 10)}")  # fmt: skip


def push(kind: str) -> None:
    """The push part, HEAD only, on a fresh database (bench/streams.py)."""

    streams.more_files()
    with socket_free() as push_port:
        pass
    with scratch(kind) as (tmp, db):
        env = {**server_env(tmp, db), "SCOREKEEPER_PUSH_PORT": str(push_port)}
        server = Server(ROOT, env, tmp / "granian.log")
        pusher = streams.Push(ROOT, env, tmp / "push.log", push_port)
        writer = streams.Writer(ROOT, env)
        try:
            table = Table(server.port, "Push · วงแจ้ง", watchers=WATCHERS)
            night = int(table.path.strip("/").split("/")[1])
            found = streams.streams_part(pusher, writer, night, tmp / "push.log")
            streams.report_streams(kind, found)
            saver_url, saver_hx = poller(table.phone, table.path)
            caught = streams.catch_up(
                server, night, lambda: table.phone.get(saver_url, **saver_hx), table.watchers,
                writer,
            )  # fmt: skip
            streams.report_catch_up(caught, len(table.watchers), found["change_cpu"])
            base = f"http://127.0.0.1:{server.port}"
            taken = streams.shows(base, table, push_port)
            streams.report_shows(kind, "granian as make serve, its push process", taken)
            if kind == "sqlite":  # make run: Django's runserver beside the same push process
                with socket_free() as port:
                    pass
                run = streams.Runserver(ROOT, env, tmp / "runserver.log", port)
                try:
                    table = Table(port, "Run · วงในเครื่อง", watchers=1)
                    taken = streams.shows(f"http://127.0.0.1:{port}", table, push_port)
                    streams.report_shows(kind, "runserver as make run, its push process", taken)
                finally:
                    run.stop()
        finally:
            writer.stop()
            pusher.stop()
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help=f"some of {','.join(PARTS)}")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--statements-here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.statements_here:
        return statements_here()
    parts = [p for p in args.only.split(",") if p]
    if unknown := set(parts) - set(PARTS):
        parser.error(f"unknown part {unknown}: choose from {PARTS}")
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the finally blocks run
    began = time.monotonic()
    load_avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · nproc {os.cpu_count()} · "
          f"load average {load_avg}")  # fmt: skip
    dirty = (
        " (with uncommitted changes)"
        if git("status", "--porcelain", "scorekeeper", "templates")
        else ""
    )
    print(f"HEAD {git('rev-parse', '--short', 'HEAD')}{dirty} {git('log', '-1', '--format=%s')}")
    server_parts = [p for p in parts if p in ("cpu", "load", "poll")]
    if server_parts:
        base = base_tree()
        print(f"against {BASE_COMMIT} {git('log', '-1', '--format=%s', cwd=base)} ({base})")
        for kind in kinds:
            figures = compare({"HEAD": ROOT, BASE_COMMIT: base}, kind, server_parts)
            report_server(kind, figures["HEAD"], figures[BASE_COMMIT])
    if "statements" in parts:
        for kind in kinds:
            report_statements(kind, statements(kind))
    if "phone" in parts:
        medians = {}
        print(f"\n== phone: Chromium 390×844, CPU ÷4, 150 ms RTT, 1.6 Mbit/s, {kinds[0]} ==")
        for name, tree in (("HEAD", ROOT), (BASE_COMMIT, base_tree())):
            runs = phone(kinds[0], tree)
            medians[name] = statistics.median(runs)
            shown = ", ".join(f"{x:.0f}" for x in runs)
            print(f"  {name}: tap on save → updated scoreboard: {shown} ms; median "
                  f"{medians[name]:.0f} ms")  # fmt: skip
        h, b = medians["HEAD"], medians[BASE_COMMIT]
        print(
            ratio_line("median", h / 1000, b / 1000, "ms", 1000, "≤ 0.75 and ≤ 200 ms",
                       h <= 0.75 * b and h <= 200)
        )  # fmt: skip
    if "push" in parts:
        for kind in kinds:
            push(kind)
    load_avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n{time.monotonic() - began:.0f} s in all; load average {load_avg}")
    return None


if __name__ == "__main__":
    main()
