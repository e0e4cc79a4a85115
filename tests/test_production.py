"""The app as production runs it: DEBUG off, static files collected (hashed, the manifest
storage), granian serving over real HTTP. What works only in debug does not
work."""

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
# One worker serves them all: the server's static files are collected once (about 1 s), not once
# by each worker that runs one of them.
pytestmark = pytest.mark.xdist_group("production")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Production:
    url: str
    log: Path  # what the server wrote: its access and error log
    database: Path


@pytest.fixture(scope="module")
def production(tmp_path_factory, migrated_sqlite) -> Iterator[Production]:
    """granian serving the app with production settings on a fresh, migrated SQLite file."""
    tmp = tmp_path_factory.mktemp("production")
    shutil.copy(migrated_sqlite, tmp / "db.sqlite3")
    env = {
        **os.environ,
        "SCOREKEEPER_DEBUG": "0",
        "SCOREKEEPER_SECRET_KEY": "p" * 64,
        "SCOREKEEPER_SSL_REDIRECT": "0",  # plain HTTP on 127.0.0.1
        "SCOREKEEPER_SQLITE": str(tmp / "db.sqlite3"),
        "SCOREKEEPER_STATIC_ROOT": str(tmp / "static"),
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(collect, cwd=ROOT, env=env, check=True)
    port = free_port()
    log = (tmp / "granian.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
         "--port", str(port), "--workers", "1", "scorekeeper.wsgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(f"{url}/offline", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield Production(url, tmp / "granian.log", tmp / "db.sqlite3")
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.mark.parametrize(
    "path", ["/", "/sw.js", "/manifest.webmanifest", "/offline", "/accounts/login"]
)
def test_every_page_a_phone_needs_first_answers_200_in_production(production, path):
    response = httpx.get(production.url + path, headers={"Accept-Language": "th"})
    assert response.status_code == 200, response.text[:500]


def test_the_service_worker_names_the_hashed_static_files(production):
    worker = httpx.get(production.url + "/sw.js").text
    assert "/static/css/app." in worker and ".css" in worker
    assert '"/static/css/app.css"' not in worker  # the collected, hashed name
    listed = worker.split("const SHELL = [")[1].split("]")[0]
    for escaped in [part.split('"')[1] for part in listed.split(",") if '"' in part]:
        url = escaped.encode().decode("unicode_escape")  # as JavaScript reads its string
        assert httpx.get(production.url + url).status_code == 200, url


def test_an_id_too_large_for_the_database_is_not_found(production):
    assert httpx.get(production.url + "/s/99999999999999999999999/").status_code == 404
    assert httpx.get(production.url + "/g/99999999999999999999999/").status_code == 404


def test_a_server_error_is_logged_with_its_traceback(production):
    """A 500 in production leaves its traceback in the server's log: here a table gone missing
    under a running server (a real failure of the database, not one of ours made up)."""
    with sqlite3.connect(production.database) as db:
        db.execute("ALTER TABLE scorekeeper_invite RENAME TO scorekeeper_invite_away")
    try:
        response = httpx.get(production.url + "/join/some-token")
    finally:
        with sqlite3.connect(production.database) as db:
            db.execute("ALTER TABLE scorekeeper_invite_away RENAME TO scorekeeper_invite")
    assert response.status_code == 500
    logged = production.log.read_text()
    assert "Internal Server Error: /join/some-token" in logged
    assert "Traceback (most recent call last)" in logged
    assert "no such table: scorekeeper_invite" in logged


def test_make_serve_refuses_a_port_another_server_listens_on():
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            ["make", "--no-print-directory", "serve", f"PORT={port}"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert result.returncode != 0
    assert f"port {port} is in use" in result.stderr
