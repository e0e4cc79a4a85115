"""Twenty trickled request bodies through nginx leave an ordinary save under a second.

granian times out a slow header (`--http1-header-read-timeout`) but not a slow body: a phone (or
anyone) that sends its form one byte at a time holds an app thread until the last byte. The
README's production recipe ("Serving it for real") therefore puts nginx in front, which reads each
request whole before it passes it on (`proxy_request_buffering on`), and runs granian as a proxy's
backend: one worker a core, one thread each, `SCOREKEEPER_TRUSTED_PROXIES=1` for the address
nginx puts in `X-Forwarded-For`.

This run installs nginx with apt when it is missing, serves the README's nginx configuration (the
TLS lines aside) from tmp_path in front of granian, sets up a table through it, then holds twenty
connections that each POST to the table's game-start address with a large Content-Length and
trickle one byte every half second, with the host phone's cookies and CSRF token (a form the app
would accept, so read to its end). While all twenty are held, unanswered and open, starting a
game, recording an event and saving the game through nginx must each answer within a second. As
a control of the tricklers themselves, the same twenty sent straight at granian leave even the
table page unanswered for 2 s (granian waits for the bodies), and the server answers again once
they are gone.

The recipe also routes /push/ to the push process: a table's stream passes through nginx
unbuffered, its comments one by one, a change told within a second, a forged pass refused.
"""

import os
import random
import re
import select
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.push.serve import Stream
from tests.soak import conftest
from tests.soak.conftest import (
    Database,
    PushServer,
    Recorder,
    Server,
    answering,
    finish_form,
    free_port,
    set_up_table,
    stream_pass,
)

pytestmark = [pytest.mark.soak]

TRICKLERS = 20
TRICKLE_EVERY = 0.5  # seconds between two bytes of a trickled body
CONTENT_LENGTH = 65_536  # what a trickler promises: far more than it will ever send
HELD_BEFORE_SAVING = 3.0  # seconds the tricklers trickle before the saves
SAVE_WITHIN = 1.0

# `make serve` behind a buffering proxy (Makefile, README): WORKERS=<cores> THREADS=1, a header
# within 10 s. With one thread a worker, a body granian waited for would stall the whole worker.
PROXIED_SERVER_OPTIONS = [
    "--workers", str(os.cpu_count() or 1),
    "--blocking-threads", "1",
    "--http1-header-read-timeout", "10000",
    "--workers-kill-timeout", "5",
]  # fmt: skip

# The README's nginx recipe, on a free local port instead of 443 with TLS, with the paths of a
# run of its own. `{upstream}` is granian's port.
NGINX_CONF = """\
{user}daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{
    worker_connections 1024;
}}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
{other_temp_paths}
    upstream scorekeeper {{
        least_conn;
        server 127.0.0.1:{upstream};
        keepalive 32;
    }}
    upstream scorekeeper_push {{
        server 127.0.0.1:{push};
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name 127.0.0.1;
        client_body_timeout 10s;
        client_header_timeout 10s;
        location / {{
            proxy_pass http://scorekeeper;
            proxy_http_version 1.1;
            proxy_request_buffering on;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
        location /push/ {{
            proxy_pass http://scorekeeper_push;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_buffering off;
            proxy_read_timeout 75s;
        }}
    }}
}}
"""


# -- nginx ----------------------------------------------------------------------------------------


def _find_nginx() -> str | None:
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


@pytest.fixture(scope="session")
def nginx_binary() -> str:
    """nginx, installed with apt (nginx-light, else nginx) when it is not there yet."""
    found = _find_nginx()
    if found:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log = []
    for package in ("nginx-light", "nginx"):
        done = subprocess.run(
            f"apt-get update -qq && apt-get install -y -qq {package}",
            shell=True,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        log.append(f"apt-get install {package}: exit {done.returncode}\n{done.stderr[-2000:]}")
        found = _find_nginx()
        if found:
            return found
    pytest.fail("nginx is missing and apt could not install it:\n" + "\n".join(log))


class Nginx:
    """nginx in the foreground (`daemon off`), configured and logging in a folder of its own."""

    def __init__(
        self, binary: str, upstream: Server, folder: Path, push: PushServer | None = None
    ) -> None:
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        folder.mkdir()
        modules = subprocess.run([binary, "-V"], capture_output=True, text=True).stderr
        # Debian's default temporary folders are /var/lib/nginx/*: keep every one in ours, for
        # the modules this build has (nginx-light leaves some out).
        other = [
            f"    {name}_temp_path {folder}/{name};"
            for name in ("fastcgi", "uwsgi", "scgi")
            if f"--without-http_{name}_module" not in modules
        ]
        # As root the workers would run as nobody, who may not write in tmp_path.
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.conf = folder / "nginx.conf"
        self.conf.write_text(
            NGINX_CONF.format(
                user=user,
                tmp=folder,
                other_temp_paths="\n".join(other),
                upstream=upstream.port,
                push=push.port if push is not None else free_port(),
                port=self.port,
            )
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> "Nginx":
        test = subprocess.run(
            [self.binary, "-t", "-c", str(self.conf), "-p", str(self.folder)],
            capture_output=True,
            text=True,
        )
        assert test.returncode == 0, f"nginx -t:\n{test.stderr}\n{self.conf.read_text()}"
        with (self.folder / "nginx.out").open("wb") as out:
            self.process = subprocess.Popen(
                [self.binary, "-c", str(self.conf), "-p", str(self.folder)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        answering(self.process, self.url, 200, "nginx", self.log_text, seconds=30)
        return self

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # SIGTERM: nginx's fast shutdown
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)

    def log_text(self) -> str:
        return "\n".join(
            f"== {p.name}\n{p.read_text(errors='replace')[-5000:]}"
            for p in (self.folder / "nginx.out", self.folder / "error.log")
            if p.exists()
        )


@pytest.fixture
def nginx(nginx_binary: str, tmp_path: Path) -> Iterator[Callable[..., Nginx]]:
    """Start nginx in front of a server (and its push process); stopped at the end of the test."""
    started: list[Nginx] = []

    def start(upstream: Server, push: PushServer | None = None) -> Nginx:
        proxy = Nginx(nginx_binary, upstream, tmp_path / f"nginx-{len(started)}", push)
        started.append(proxy)
        return proxy.start()

    yield start
    for proxy in started:
        proxy.stop()


# -- the tricklers --------------------------------------------------------------------------------


@dataclass
class Trickler:
    """One raw connection that POSTs a form one byte at a time, from a thread of its own."""

    host: str
    port: int
    path: str
    headers: dict[str, str]  # the phone's cookies and CSRF token: the app would read the body
    sock: socket.socket = field(init=False)
    sent: int = 0
    error: str = ""
    thread: threading.Thread | None = None

    def open(self) -> None:
        self.sock = socket.create_connection((self.host, self.port), timeout=10)
        head = (
            f"POST {self.path} HTTP/1.1\r\n"
            f"Host: {self.host}:{self.port}\r\n"
            "User-Agent: soak trickler\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
            + f"Content-Length: {CONTENT_LENGTH}\r\n"
            "\r\n"
        )
        self.sock.sendall(head.encode())

    def run(self, stop: threading.Event) -> None:
        body = b"idempotency_key=" + b"7" * CONTENT_LENGTH
        try:
            while not stop.wait(TRICKLE_EVERY) and self.sent < CONTENT_LENGTH - 1:
                self.sock.sendall(body[self.sent : self.sent + 1])
                self.sent += 1
        except OSError as e:
            self.error = f"{type(e).__name__}: {e}"

    def answered(self) -> bytes | None:
        """What came back on the connection so far (b"" once closed); None while nothing did."""
        readable, _w, _x = select.select([self.sock], [], [], 0)
        if not readable:
            return None
        try:
            return self.sock.recv(65_536, socket.MSG_PEEK)
        except OSError as e:
            return f"{type(e).__name__}: {e}".encode()

    def close(self) -> None:
        with suppress(OSError):
            self.sock.close()


@contextmanager
def trickling(port: int, path: str, headers: dict[str, str]) -> Iterator[list[Trickler]]:
    """Twenty tricklers at `path` on `port`, each in a thread, all closed on the way out."""
    stop = threading.Event()
    tricklers = [Trickler("127.0.0.1", port, path, headers) for _ in range(TRICKLERS)]
    try:
        for t in tricklers:
            t.open()
            t.thread = threading.Thread(target=t.run, args=(stop,), name="trickler", daemon=True)
            t.thread.start()
        yield tricklers
    finally:
        stop.set()
        for t in tricklers:
            if t.thread is not None:
                t.thread.join(timeout=5)
            t.close()


# -- the test -------------------------------------------------------------------------------------


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
def test_trickled_bodies_through_nginx_leave_a_save_under_a_second(
    database: Database,
    serve: Callable[[Database], Server],
    nginx: Callable[..., Nginx],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    began = time.monotonic()
    monkeypatch.setattr(conftest, "SERVER_OPTIONS", PROXIED_SERVER_OPTIONS)
    proxied = Database(
        database.kind,
        {**database.env, "SCOREKEEPER_TRUSTED_PROXIES": "1"},
        path=database.path,
        url=database.url,
    )
    server = serve(proxied)
    proxy = nginx(server)

    recorder = Recorder(tmp_path)
    table = set_up_table(proxy.url, 1, recorder)
    host, phone = table.phones[0], table.phones[1]
    sid = table.night_id
    # The host's own cookies and CSRF token: were a trickled form passed on, the app would accept
    # it and read its body (without them it refuses the form at once, body unread).
    cookies = host.http.cookies
    headers = {
        "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "X-CSRFToken": cookies["csrftoken"],
    }
    timings: dict[str, float] = {}
    try:
        with trickling(proxy.port, f"/s/{sid}/games/start", headers) as tricklers:
            time.sleep(HELD_BEFORE_SAVING)
            # The control: every trickler is still sending, unanswered, on an open connection.
            answers = {i: t.answered() for i, t in enumerate(tricklers)}
            held = [t for i, t in enumerate(tricklers) if not t.error and answers[i] is None]
            trickled = sum(t.sent for t in tricklers)

            started = time.monotonic()
            start = host.start_game(sid, {"fool_swap": "on"})
            timings["start a game"] = time.monotonic() - started
            assert start.status == 302, start

            look, game_id = phone.in_play(sid)
            assert look.status == 200 and game_id is not None, look
            started = time.monotonic()
            event = phone.add_event(sid, game_id, "dummy-discard", {"player": "Cat"})
            timings["record an event"] = time.monotonic() - started
            assert event.status == 302, event

            order = host.finish_players(sid, game_id)
            assert order is not None
            form = finish_form(random.Random("nginx"), order)
            started = time.monotonic()
            save = host.finish(sid, game_id, form)
            timings["save the game"] = time.monotonic() - started
            assert save.status == 302 and save.location == f"/s/{sid}/", save

            # Still held after the saves: the tricklers were there the whole time.
            still = [t for t in held if not t.error and t.answered() is None]
        games = database.rows("SELECT status FROM scorekeeper_game")
        # nginx passed none of the trickled forms on: the one game start in its log is the phone's.
        log = (proxy.folder / "access.log").read_text()
        passed_on = re.findall(r'"POST /s/\d+/games/start HTTP/1.1" 302', log)

        # The control of the control: the same tricklers straight at granian hold its threads, and
        # a page does not answer in 2 s; once they are gone, the server answers again.
        with trickling(server.port, f"/s/{sid}/games/start", headers) as direct:
            time.sleep(1.0)
            started = time.monotonic()
            try:
                unproxied = str(host.http.get(f"{server.url}/s/{sid}/", timeout=2.0).status_code)
            except httpx.TimeoutException as e:
                unproxied = type(e).__name__
            unproxied_seconds = time.monotonic() - started
            direct_errors = [t.error for t in direct if t.error]
        recovered = phone.get(f"/s/{sid}/", "table")
    finally:
        for p in table.phones:
            p.close()

    seconds = time.monotonic() - began
    print(
        f"\n== nginx in front of granian ({' '.join(PROXIED_SERVER_OPTIONS[:4])}) "
        f"on {database.kind}: {len(held)} of {TRICKLERS} trickled connections held "
        f"({trickled} bytes trickled before the saves), still held after them: {len(still)} =="
    )
    print("  through nginx: " + ", ".join(f"{w} {s * 1000:.0f} ms" for w, s in timings.items()))
    print(
        f"  straight at granian: the table page {unproxied} after {unproxied_seconds:.1f} s; "
        f"after the tricklers left: {recovered.status} in {recovered.seconds * 1000:.0f} ms"
    )
    print(f"  games: {games}; the run took {seconds:.1f} s")

    failures = [f"trickler {i}: {t.error}" for i, t in enumerate(tricklers) if t.error]
    failures += [
        f"trickler {i} was answered before its body was whole: {answer!r}"
        for i, answer in answers.items()
        if answer is not None
    ]
    assert len(held) == TRICKLERS, "\n".join(failures) + "\n" + proxy.log_text()
    assert len(still) == TRICKLERS, f"tricklers dropped during the saves: {TRICKLERS - len(still)}"
    assert trickled >= TRICKLERS * 2, f"only {trickled} bytes trickled: the control did nothing"
    slow = {what: s for what, s in timings.items() if s >= SAVE_WITHIN}
    assert not slow, f"a write took {SAVE_WITHIN} s or longer behind 20 tricklers: {slow}"
    assert [s for (s,) in games] in (["settled"], ["pending-tie"]), games
    assert len(passed_on) == 1, log[-3000:]
    assert not direct_errors, direct_errors
    assert unproxied == "ReadTimeout", (
        f"without nginx the tricklers did not stall the server (the page: {unproxied}): "
        "they are no test of the proxy"
    )
    assert recovered.status == 200, recovered


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_tables_stream_passes_through_nginx_unbuffered_and_stays_open(
    database: Database,
    serve: Callable[[Database], Server],
    serve_push: Callable[..., PushServer],
    nginx: Callable[..., Nginx],
    tmp_path: Path,
) -> None:
    """The README's route: /push/ on the app's own origin to the push process, unbuffered, read
    for longer than the stream's comments come (here every second, every 25 s at the table)."""
    proxied = Database(
        database.kind,
        {**database.env, "SCOREKEEPER_TRUSTED_PROXIES": "1"},
        path=database.path,
        url=database.url,
    )
    push = serve_push(proxied, {"SCOREKEEPER_PUSH_KEEPALIVE": "1"})
    proxy = nginx(serve(proxied), push)
    table = set_up_table(proxy.url, 1, Recorder(tmp_path))
    host, sid = table.phones[0], table.night_id
    _, page = host.page(f"/s/{sid}/")
    assert 'data-push-port=""' in page  # the stream on the page's own origin
    stream = Stream(proxy.url + stream_pass(page), wait=2.0)
    try:
        shown = stream.version()
        quiet = time.monotonic()
        assert [stream.next() for _ in range(3)] == [": keep-alive"] * 3  # one by one
        assert time.monotonic() - quiet < 4.5  # passed on as they came, not held in a buffer
        start = host.start_game(sid, {"fool_swap": "on"})
        answered = time.monotonic()
        assert start.status == 302, start
        assert stream.version() > shown
        assert time.monotonic() - answered < 1.0
    finally:
        stream.close()
        for phone in table.phones:
            phone.close()
    refused = httpx.get(f"{proxy.url}/push/{sid}/?t=forged", timeout=5)
    assert refused.status_code == 403, proxy.log_text()
