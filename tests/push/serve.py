"""The push application served for real beside a test: granian's embedded server in a thread,
on a free port, with the watcher looking often (a test waits for it, a phone would not)."""

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass

import httpx
from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from granian.constants import Interfaces
from granian.server.embed import Server

from scorekeeper.models import Membership, Night
from scorekeeper.push import tokens
from scorekeeper.push.app import PREFIX, Push
from scorekeeper.services import access

type InTurn = Callable[[], AbstractContextManager[object]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def push_served(
    *,
    in_turn: InTurn | None = None,
    shared: BaseDatabaseWrapper | None = None,
    every: float = 0.05,
    open_: threading.Event | None = None,
) -> Iterator["Served"]:
    """Serve the push application until the block ends; yield its address and app.

    The test database in memory is one connection, the test's (or `shared`, the live
    server's): the watcher reads through it, taking its turn by `in_turn` when given. Its
    commits leave PRAGMA data_version where it was, so the watcher looks every tick there
    (push/watch.py); the data_version path is tested across processes on a file
    (tests/soak/test_push.py).

    With `open_`, the database is reached only while it is set: a server kept for a session
    (the browser tests') answers a stream a closing page opened after its test with 503 and
    starts no watcher, which would read the next test's connection."""
    default = connections["default"]
    if shared is None and default.vendor == "sqlite" and default.is_in_memory_db():
        shared = default
    memory = shared is not None
    turn = in_turn or nullcontext

    @contextmanager
    def on_the_tests_connection() -> Iterator[None]:
        if open_ is not None and not open_.is_set():
            raise DatabaseError("no test is running")
        with turn():
            if memory:
                connections["default"] = shared
            yield

    # A backup look far off: a change told within the second came by notification.
    push = Push(every=every, backup=60.0, in_turn=on_the_tests_connection)
    errors: list[str] = []

    async def noting_errors(scope: dict, receive: Callable, send: Callable) -> None:
        """The app, each answer of 500 and above noted (`Served.server_errors`)."""

        async def sent(message: dict) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 500:
                errors.append(f"HTTP {message['status']} from {scope['method']} {scope['path']}")
            await send(message)

        await push(scope, receive, sent if scope["type"] == "http" else send)

    port = free_port()
    running: dict[str, object] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        server = Server(
            noting_errors,
            address="127.0.0.1",
            port=port,
            interface=Interfaces.ASGI,
            log_enabled=False,
        )
        running.update(loop=loop, server=server)
        loop.run_until_complete(server.serve())
        loop.close()

    if memory:
        shared.inc_thread_sharing()
    thread = threading.Thread(target=serve, name="push-server", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            httpx.get(url + "/", timeout=1)
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    try:
        yield Served(url, push, errors)
    finally:
        loop, server = running["loop"], running["server"]
        loop.call_soon_threadsafe(server.stop)  # type: ignore[attr-defined]
        thread.join(10)
        push.stop()
        if memory:
            shared.dec_thread_sharing()


@dataclass(frozen=True)
class Served:
    url: str
    app: Push
    server_errors: list[str]  # each answer of 500 and above, as "HTTP 503 from GET /push/1/"

    def __str__(self) -> str:
        return self.url


def pass_for(night_id: int) -> str:
    """The pass the night's table page gives a member of its group (a phone that joined)."""
    night = Night.objects.get(pk=night_id)
    device = access.device_create(user_agent="test")
    joined = Membership.objects.create(group_id=night.group_id, role="player", device=device)
    return tokens.token_for(night_id, tokens.Holder(night.group_id, joined.pk))


def stream_url(base: "str | Served", night_id: int, token: str | None = None) -> str:
    """The night's stream at `base`, with the pass its table page gives (`pass_for`)."""
    given = pass_for(night_id) if token is None else token
    return f"{base}{PREFIX}{night_id}/?t={given}"


class Stream:
    """A phone's stream, read event by event; a read waits at most `wait` seconds."""

    def __init__(self, url: str, wait: float = 3.0) -> None:
        self.client = httpx.Client(timeout=httpx.Timeout(5, read=wait))
        self.response = self.client.send(self.client.build_request("GET", url), stream=True)
        self.lines = self.response.iter_lines()

    def next(self) -> str:
        """The next event or comment, its lines joined: "data: 12", ": keep-alive"."""
        block: list[str] = []
        for line in self.lines:
            if line:
                block.append(line)
            elif block:
                return "\n".join(block)
        raise EOFError("the stream ended")

    def version(self) -> int:
        """The next version told, passing over comments."""
        while not (event := self.next()).startswith("data: "):
            pass
        return int(event.removeprefix("data: "))

    def close(self) -> None:
        self.response.close()
        self.client.close()
