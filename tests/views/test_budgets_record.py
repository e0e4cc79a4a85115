"""Writes cost a few SQL statements, however long the night: at most 10 each (docs/performance.md).

Counted: every statement the request runs, the session middleware's and the access check's
included, but not transaction control (BEGIN / COMMIT in production, savepoints under the test's
own transaction), which is the same for any write.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game
from scorekeeper.services import games, nights
from tests.views.conftest import HTMX, finish_data
from tests.views.test_budgets import add_settled_games

# Long nights are copied in bulk by the database (add_settled_games), standings left as they
# were: not a night the app played, so the audit after each test (tests/conftest.py) skips them.
pytestmark = pytest.mark.ledger_broken


# Saving a game: the Django session, the game with its night and group, the phone's
# memberships, the game locked, its events, INSERT the lines, UPDATE the standings, UPDATE the
# game, INSERT its audit entry.
BUDGET = 10
CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")


def written(client, url: str, data: dict[str, object]) -> list[str]:
    """POST `data`; return the statements it ran, transaction control left out."""
    with CaptureQueriesContext(connection) as queries:
        assert client.post(url, data).status_code == 302
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


@pytest.mark.parametrize("played", [0, 100, 10_000], ids=["no game", "100 games", "10,000 games"])
def test_saving_the_end_of_a_game_costs_at_most_ten_statements(en, table, played):
    if played:
        add_settled_games(table, played)
    game = games.game_start(night=table, fool_swap=False)
    url = f"/s/{table.pk}/games/{game.pk}/finish"
    sql = written(en, url, {**finish_data(), "idempotency_key": f"finish-{played}"})
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    assert len(sql) <= BUDGET, "\n".join(sql)


def test_a_game_with_events_costs_the_same(en, table):
    """Its events are read in one statement, however many."""
    game = games.game_start(night=table, fool_swap=False)
    url = f"/s/{table.pk}/games/{game.pk}/finish"
    plain = written(en, url, {**finish_data(), "idempotency_key": "plain"})
    game = games.game_start(night=table, fool_swap=False)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    games.event_add(game=game, event={"type": "speto", "player": "Cat"})
    url = f"/s/{table.pk}/games/{game.pk}/finish"
    with_events = written(en, url, {**finish_data(), "idempotency_key": "events"})
    assert len(with_events) == len(plain)
    game.refresh_from_db()
    assert [e.document["type"] for e in game.events.all()] == ["head", "speto"]
    assert "events" not in game.document  # kept once, in their rows


# Starting the next game: the 3 that admit the phone (the Django session; the night with its
# group; the phone's memberships), the night locked, the latest game (its number, dealer and
# fool decide the next deal; a voided one costs a read of the last standing), the seats, INSERT
# the game and its audit entry. A form's key is looked up only when the start is refused
# (services/games.py).


@pytest.mark.parametrize("played", [0, 100, 10_000], ids=["no game", "100 games", "10,000 games"])
def test_starting_a_game_costs_the_same_few_statements(en, table, played):
    if played:
        add_settled_games(table, played)
    sql = written(en, f"/s/{table.pk}/games/start", {"idempotency_key": f"start-{played}"})
    assert table.games.filter(status=Game.Status.IN_PLAY).count() == 1
    assert len(sql) <= BUDGET, "\n".join(sql)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query plans")
def test_starting_a_game_sorts_none_of_the_nights_games(en, table):
    """Every read of a start walks an index in order: none sorts the night's games (at 10,000
    games a sort made the start twice as slow as at 100)."""
    add_settled_games(table, 100)
    sql = written(en, f"/s/{table.pk}/games/start", {"idempotency_key": "plan"})
    with connection.cursor() as cursor:
        for statement in (q for q in sql if q.startswith("SELECT")):
            cursor.execute(f"EXPLAIN QUERY PLAN {statement}")
            plan = " / ".join(row[-1] for row in cursor.fetchall())
            assert "TEMP B-TREE" not in plan, f"{statement}\n{plan}"


def test_a_retried_start_answers_with_its_game_and_starts_nothing_more(en, table):
    url = f"/s/{table.pk}/games/start"
    written(en, url, {"idempotency_key": "again"})
    game = table.games.get(status=Game.Status.IN_PLAY)
    knock = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2, "Dan": 3}}
    games.game_finish(game=game, outcome=knock)
    assert en.post(url, {"idempotency_key": "again"}).status_code == 302  # as the first answer
    assert list(table.games.values_list("number", "status")) == [(1, Game.Status.SETTLED)]


# Marking a settle-up transfer paid writes a payment line (5 statements: the lock with the
# transfer, its standing payment, the line, the standings, the audit entry), after the 3 that
# admit the phone, and answers with the list of transfers (2: the scoreboard and the transfers).


@pytest.mark.parametrize("played", [1, 100, 10_000], ids=["1 game", "100 games", "10,000 games"])
def test_marking_a_transfer_paid_and_undoing_it_cost_the_same_few_statements(en, table, played):
    add_settled_games(table, played)
    transfer = nights.night_close(night=table)[0]
    url = f"/s/{table.pk}/transfers/{transfer.pk}/paid"
    paid = swapped(en, url, {"idempotency_key": "paid"})
    undone = swapped(en, url, {"undo": "1", "idempotency_key": "undone"})
    assert transfer.money_lines.count() == 2  # the payment, and its visible reversal
    assert len(paid) <= BUDGET and len(undone) <= BUDGET, "\n".join(paid + undone)


def swapped(client, url: str, data: dict[str, object]) -> list[str]:
    """POST through htmx; return the statements it ran, transaction control left out."""
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and b'id="transfers"' in response.content
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def _event(client, table) -> tuple[int, Game]:
    game = games.game_start(night=table, fool_swap=False)
    data = {"player": "Bee", "idempotency_key": "event"}
    return len(written(client, f"/s/{table.pk}/games/{game.pk}/events/head", data)), game


def _void(client, table) -> int:
    game = table.games.latest("number")
    return len(written(client, f"/s/{table.pk}/games/{game.pk}/void", {"idempotency_key": "v"}))


def _seats(client, table) -> int:
    return len(written(client, f"/s/{table.pk}/seats", {"position": "0", "name": "Zed"}))


def _close(client, table) -> int:
    return len(written(client, f"/s/{table.pk}/settle", {"mode": "fewest", "hub": ""}))


@pytest.mark.parametrize("played", [1, 10_000], ids=["1 game", "10,000 games"])
def test_every_other_write_of_the_table_costs_at_most_ten_statements(en, table, played):
    add_settled_games(table, played)
    counts = {
        "void": _void(en, table),
        "seats": _seats(en, table),
    }
    counts["event"], game = _event(en, table)
    assert game.events.count() == 1
    games.game_void(game=game)
    counts["close"] = _close(en, table)
    table.refresh_from_db()
    assert not table.is_open
    assert all(n <= BUDGET for n in counts.values()), counts


def test_resolving_a_tie_and_correcting_a_voided_game_cost_at_most_ten_statements(en, table):
    tied = games.game_start(night=table, fool_swap=False)
    draw = {"knock": {"player": "Dan", "kind": "normal"}, "points": {"Ann": 5, "Bee": 5, "Cat": 5}}
    games.game_finish(game=tied, outcome=draw)
    url = f"/s/{table.pk}/games/{tied.pk}"
    resolve = written(en, f"{url}/tie", {"order": "Cat, Ann, Bee", "idempotency_key": "tie"})
    games.game_void(game=tied)
    correct = written(
        en, f"{url}/correct", {**finish_data(knocker="Bee", points_0="10", points_1=""), "k": "k"}
    )
    assert Game.objects.get(replaces=tied).status == Game.Status.SETTLED
    assert len(resolve) <= BUDGET and len(correct) <= BUDGET, "\n".join(resolve + correct)
