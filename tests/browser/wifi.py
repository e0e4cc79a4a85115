"""The Wi-Fi of a card table: a TCP hop between the browser and the live server that the test
can cut while the phone still believes it is online (`navigator.onLine` stays true).

`down()` drops every connection and closes each new one unanswered, as a dead access point
does; `busy()` answers every request with 503, as a proxy whose app is away (`busy(path)`: only
the requests to that address); `up()` forwards again. Nothing of the app is replaced: its
pages, its service worker and its server are real.
"""

import contextlib
import socket
import threading
from typing import Literal

type Mode = Literal["up", "down", "busy"]

BUSY = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class Wifi:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.mode: Mode = "up"
        self.busy_path: bytes | None = None  # in "up", the one address answered 503
        self.requests_refused = 0  # requests answered 503 or cut
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def up(self) -> None:
        self.busy_path = None
        self._switch("up")

    def down(self) -> None:
        self._switch("down")

    def busy(self, path: str | None = None) -> None:
        if path is None:
            self._switch("busy")
        else:
            self.busy_path = path.encode()
            self._switch("up")

    def close(self) -> None:
        self.listener.close()
        self._switch("down")

    def _switch(self, mode: Mode) -> None:
        with self._lock:
            self.mode = mode
            for sock in self._open:  # kept-alive connections go too
                sock.close()
            self._open.clear()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        if self.mode != "up":
            self._refuse(client)
            return
        with self._lock:
            self._open.add(client)
        try:
            # The server is reached once a request comes: a connection the browser opens ahead
            # and never uses reaches nothing.
            first = client.recv(65536)
            if not first or self.mode != "up":
                raise OSError("nothing to pass on")
            request_line = first.split(b"\r\n", 1)[0]
            if self.busy_path is not None and self.busy_path in request_line:
                self.requests_refused += 1
                client.sendall(BUSY)
                raise OSError("answered 503")
            upstream = socket.create_connection(self.target)
            upstream.sendall(first)
        except OSError:
            client.close()
            return
        with self._lock:
            self._open.add(upstream)
        threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()
        self._pump(client, upstream)

    def _refuse(self, client: socket.socket) -> None:
        with client:
            client.settimeout(2)
            try:
                if client.recv(65536):
                    self.requests_refused += 1
                    if self.mode == "busy":
                        client.sendall(BUSY)
            except OSError:
                pass

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
