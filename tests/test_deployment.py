"""The web layer's safety: CSP, production settings, and the database's write discipline."""

import os
import subprocess
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, LedgerLine
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access, games, nights
from scorekeeper.services.nights import lock

ROOT = Path(__file__).resolve().parent.parent
KNOCK = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2, "Dan": 3}}


def test_every_page_carries_a_content_security_policy_with_a_script_nonce(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"' in response.content.decode()  # on the htmx script tag


def test_htmx_is_served_from_our_own_static_files(client, db):
    body = client.get("/").content.decode()
    assert 'src="/static/django_htmx/htmx-2.min.js' in body or "/static/django_htmx/htmx" in body
    assert "http://" not in body.split("<body")[0] and "https://" not in body.split("<body")[0]


def test_the_deploy_check_reports_nothing_with_production_settings(tmp_path):
    env = {
        **os.environ,
        "SCOREKEEPER_DEBUG": "0",
        "SCOREKEEPER_SECRET_KEY": "k" * 64 + "production-secret-for-the-check-only-0123456789",
        "SCOREKEEPER_ALLOWED_HOSTS": "scorekeeper.example",
        "SCOREKEEPER_SQLITE": str(tmp_path / "db.sqlite3"),
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests, never in production
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_its_own_secret(tmp_path):
    env = {**os.environ, "SCOREKEEPER_DEBUG": "0", "SCOREKEEPER_SECRET_KEY": ""}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SCOREKEEPER_SECRET_KEY" in result.stderr


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's own settings")
def test_sqlite_connections_use_wal_full_sync_immediate_writes_and_a_busy_timeout(
    transactional_db, tmp_path
):
    # The test database may be in memory (no WAL there), so open the configured file settings
    # on a real file, exactly as the app's connections are opened.
    from django.db.backends.sqlite3.base import DatabaseWrapper

    from scorekeeper.settings import SQLITE_OPTIONS

    wrapper = DatabaseWrapper(
        {
            **connection.settings_dict,
            "NAME": str(tmp_path / "live.sqlite3"),
            "OPTIONS": SQLITE_OPTIONS,
        },
        alias="pragma-check",
    )
    try:
        with wrapper.cursor() as cursor:
            pragmas = {}
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
                cursor.execute(f"PRAGMA {name}")
                pragmas[name] = cursor.fetchone()[0]
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 2,
            "busy_timeout": 20000,
            "foreign_keys": 1,
        }
        assert wrapper.transaction_mode == "IMMEDIATE"
    finally:
        wrapper.close()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_recording_games_on_postgresql_runs_prepared_statements(db):
    """Bound by the server, and prepared on the connection after 5 runs (settings.py)."""
    assert connection.features.uses_server_side_binding
    table = nights.night_open(
        group=access.group_create(name="prepared"),
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal("0.5"),
    )
    for _ in range(7):
        games.game_finish(game=games.game_start(night=table), outcome=KNOCK)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(s.startswith('INSERT INTO "scorekeeper_game"') for s in prepared), prepared
    assert any(s.startswith('INSERT INTO "scorekeeper_ledgerline"') for s in prepared), prepared


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row lock")
def test_writes_for_one_night_serialise_on_the_night_row(db):
    group = access.group_create(name="Saturday")
    table = nights.night_open(
        group=group,
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal(1),
    )
    with CaptureQueriesContext(connection) as queries:
        lock(table)
    assert "FOR UPDATE" in queries.captured_queries[-1]["sql"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row lock")
@pytest.mark.django_db(transaction=True)
@pytest.mark.ledger_broken  # the first "save" only sets the status, to hold the lock
def test_a_save_that_waited_for_the_lock_sees_the_game_as_the_first_save_left_it():
    """Two phones save one game at once: the second waits, then must see the first's save.

    PostgreSQL returns a joined row that was not itself locked as it was before the wait, so
    lock_game locks the game with its night (and the night first, as game_start does).
    """
    group = access.group_create(name="Saturday")
    table = nights.night_open(
        group=group, players=["Ann", "Bee", "Cat", "Dan"], stake_level="sian",
        point_value=Decimal(1),
    )  # fmt: skip
    game = games.game_start(night=table)
    locked, release, refused = threading.Event(), threading.Event(), []

    def first() -> None:
        try:
            with transaction.atomic():
                mine = nights.lock_game(game)
                locked.set()
                release.wait(10)
                mine.status = Game.Status.SETTLED
                mine.save(update_fields=["status"])
        finally:
            connection.close()

    def second() -> None:
        try:
            games.game_finish(game=game, outcome=KNOCK, idempotency_key="second")
        except RuleError as error:
            refused.append(error.code)
        finally:
            connection.close()

    one = threading.Thread(target=first)
    one.start()
    assert locked.wait(10)
    two = threading.Thread(target=second)
    two.start()
    with connection.cursor() as cursor:  # until the second save waits for the lock
        for _ in range(100):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the second save never waited for the lock")
    release.set()
    one.join(10)
    two.join(10)
    assert refused == ["game-recorded"]
    assert not LedgerLine.objects.filter(game=game).exists()
