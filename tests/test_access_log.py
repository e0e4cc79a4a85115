"""The access log `make serve` turns on: a crafted path cannot give it a fake line or move the
terminal of whoever reads it. granian runs with the options the Makefile gives it."""

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKE = '[2026-11-27 00:00:00 +0000] 6.6.6.6 - "GET /admin HTTP/1.1" 200 0.1'


def serve_options(port: int) -> list[str]:
    """The options of the granian command of `make serve`, on `port` with one worker."""
    recipe = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    command = re.search(r"run granian (.+?) scorekeeper\.wsgi:application", recipe)
    assert command is not None, "make serve runs granian"
    values = {"$(PORT)": str(port), "$(WORKERS)": "1", "$(THREADS)": "1", "0.0.0.0": "127.0.0.1"}
    return [values.get(word, word) for word in command.group(1).split()]


def ask(port: int, target: bytes) -> bytes:
    """Send one GET for `target`, as raw bytes on the wire, and return the status line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return s.recv(100).split(b"\r\n")[0]


def test_a_path_with_an_encoded_line_break_or_escape_stays_on_its_own_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "SCOREKEEPER_SQLITE": str(tmp_path / "db.sqlite3")}
    env.pop("DATABASE_URL", None)
    log_path = tmp_path / "granian.log"
    granian = Path(sys.executable).parent / "granian"  # the script `uv run granian` runs
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [granian, *serve_options(port), "scorekeeper.wsgi:application"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            for _ in range(100):
                try:
                    ask(port, b"/offline")
                    break
                except OSError:
                    time.sleep(0.1)
            crafted = "/a%0a" + FAKE.replace(" ", "%20").replace('"', "%22")
            assert ask(port, crafted.encode()).startswith(b"HTTP/1.1 ")
            status = ask(port, b"/b%0d%0a%1b%5b2Kfake%c2%85x")
            assert status.startswith(b"HTTP/1.1 "), status
            for _ in range(50):  # the log is written after the answer
                if '"GET /b' in log_path.read_text():
                    break
                time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=10)
    lines = log_path.read_text().splitlines()
    asked = [line for line in lines if '"GET /' in line]
    assert len(asked) == 3, lines
    assert not any(line.startswith("[2026-11-27 00:00:00") for line in lines), lines
    assert "GET /a\\n[2026-11-27 00:00:00 +0000] 6.6.6.6" in asked[1]
    assert "GET /b\\r\\n\\x1b[2Kfake" in asked[2]
    assert "\x1b" not in log_path.read_text()
