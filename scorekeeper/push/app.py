"""The streams, as a pure ASGI application: `GET /push/<night id>/?t=<token>`.

Each answer is `text/event-stream`: a `retry:` line, the table's version as it opens (a phone
that missed a change while it reconnected catches up at once), each new version after it, and a
comment line when nothing was sent for a while, so that proxies and phones keep it open. It
carries version numbers only; the phone fetches the table's region when one differs from the
version it shows.

No Django request handler: a stream is a coroutine waiting on an event, a few kilobytes, where
the handler would hold an OS thread for its whole life (docs/performance.md). Django is set up
for the settings, the token's signature and the watcher's reads.
"""

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.db import DatabaseError, connection

from scorekeeper.models import Membership
from scorekeeper.push import tokens
from scorekeeper.push.watch import Moved, Watcher

logger = logging.getLogger(__name__)

PREFIX = "/push/"  # nginx routes it to the push process; the service worker leaves it alone
STREAM = re.compile(r"^/push/(\d+)/$")
RETRY_MS = 3000  # how soon a phone's EventSource tries again when its stream drops

type Scope = MutableMapping[str, Any]
type Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
type Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Table:
    """The streams open for one night, and its version once known."""

    __slots__ = ("listeners", "version")

    def __init__(self) -> None:
        self.version: int | None = None
        self.listeners: set[asyncio.Event] = set()


class Tables:
    """Night id → its open streams, in the process's event loop."""

    def __init__(self, look_up: Callable[[int], None]) -> None:
        self.nights: dict[int, Table] = {}
        self.look_up = look_up

    def join(self, night_id: int, listener: asyncio.Event) -> Table:
        table = self.nights.get(night_id)
        if table is None:
            table = self.nights[night_id] = Table()
            self.look_up(night_id)  # the first phone of the table: its version is asked once
        table.listeners.add(listener)
        return table

    def leave(self, night_id: int, listener: asyncio.Event) -> None:
        table = self.nights.get(night_id)
        if table is not None:
            table.listeners.discard(listener)
            if not table.listeners:
                del self.nights[night_id]

    def forget(self) -> None:
        """Ask every open night's version again (a new watcher knows none of them)."""
        for night_id, table in self.nights.items():
            table.version = None
            self.look_up(night_id)

    def moved(self, moved: Moved) -> None:
        """Wake the streams of every night whose version moved (versions only grow)."""
        for night_id, newest in moved.items():
            table = self.nights.get(night_id)
            if table is not None and (table.version is None or newest > table.version):
                table.version = newest
                for listener in table.listeners:
                    listener.set()


class Push:
    """The push application: the streams, and the watcher that moves them."""

    def __init__(
        self,
        *,
        every: float = 0.25,
        backup: float = 15.0,
        in_turn: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.watcher_options: dict[str, Any] = {"every": every, "backup": backup}
        self.in_turn = in_turn
        self.watcher: Watcher | None = None
        self.tables = Tables(self._look_up)

    def _look_up(self, night_id: int) -> None:
        assert self.watcher is not None
        self.watcher.look_up(night_id)

    def start(self) -> None:
        """Start the process's watcher, handing what moved to this event loop."""
        if self.watcher is not None:
            return
        loop = asyncio.get_running_loop()

        def tell(moved: Moved) -> None:
            loop.call_soon_threadsafe(self.tables.moved, moved)

        self.watcher = Watcher(tell, in_turn=self.in_turn, **self.watcher_options)
        self.watcher.start()
        self.tables.forget()

    def stop(self) -> None:
        """Stop the watcher (from any thread); the next stream starts another."""
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.join(5)
            self.watcher = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = STREAM.match(scope["path"])
        if match is None or scope["method"] != "GET":
            await _plain(send, 404, b"Not found")
            return
        night_id = int(match[1])
        query = parse_qs(scope["query_string"].decode("latin-1"))
        holder = tokens.holder_of(query.get("t", [""])[0], night_id)
        if holder is None:
            await _plain(send, 403, b"Forbidden")  # no pass from this night's page
            return
        try:
            admitted = await asyncio.to_thread(self.admitted, holder)
        except DatabaseError:
            logger.warning("the database cannot be reached: a stream is refused for now")
            await _plain(send, 503, b"Service unavailable")
            return
        if not admitted:
            await _plain(send, 403, b"Forbidden")  # removed from the group since the page
            return
        self.start()  # a server without lifespan events starts it with the first stream
        await self.stream(night_id, receive, send)

    def admitted(self, holder: tokens.Holder) -> bool:
        """Whether the pass's holder is still a member of the night's group, as the table page
        admits a visitor: one indexed read (the membership's primary key) when the stream opens,
        in a thread of the loop's pool, on a connection of its own closed after it, as Django's
        request handler closes a request's (none is left open in a thread nothing else
        manages; SQLite's tests' in-memory database is left open by Django)."""
        with self.in_turn():
            try:
                live = Membership.objects.filter(
                    pk=holder.membership_id, group_id=holder.group_id, revoked_at__isnull=True
                )
                return live.exists()
            finally:
                connection.close()

    async def stream(self, night_id: int, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),  # nginx passes each event on at once
                    # Any page may open it with the night's pass; it carries no cookie.
                    (b"access-control-allow-origin", b"*"),
                ],
            }
        )
        await _part(send, b"retry: %d\n\n" % RETRY_MS)
        keepalive = settings.PUSH_KEEPALIVE_SECONDS
        listener = asyncio.Event()
        table = self.tables.join(night_id, listener)
        gone = asyncio.ensure_future(_disconnected(receive))
        sent: int | None = None
        try:
            while True:
                listener.clear()
                if table.version is not None and table.version != sent:
                    sent = table.version
                    body = b"data: %d\n\n" % sent
                else:
                    body = b""
                if body:
                    await _part(send, body)
                woken = asyncio.ensure_future(listener.wait())
                done, _ = await asyncio.wait(
                    {gone, woken}, timeout=keepalive, return_when=asyncio.FIRST_COMPLETED
                )
                woken.cancel()
                if gone in done:
                    return
                if not done:
                    await _part(send, b": keep-alive\n\n")
        except OSError:
            return  # the phone went while an event was on its way
        finally:
            gone.cancel()
            self.tables.leave(night_id, listener)


async def _part(send: Send, body: bytes) -> None:
    await send({"type": "http.response.body", "body": body, "more_body": True})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _plain(send: Send, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"cache-control", b"no-store"),
        (b"access-control-allow-origin", b"*"),  # the page sees the refusal, as a refusal
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
