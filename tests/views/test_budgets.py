"""Budgets a cheap phone depends on: SQL statements per page, whatever the size of the night."""

import html
import math
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, LedgerLine, Membership, Night, Player
from scorekeeper.reads.history import HISTORY_PAGE
from scorekeeper.services import access, costs, games, nights, sharing
from tests.views.conftest import HTMX

PAGE_BUDGET = 8
OVER_BUDGET = {
    # A closed night's history also lists its table fee, shared costs and rounding: one read more.
    "history, closed": 1,
    # A table lists its shared costs by its running settle-up: one read more, made only when a
    # cost stands (the scoreboard's statement tells), so a night without one costs no more.
    "table, a shared cost": 1,
}
NIGHTS = pytest.mark.parametrize(
    "played", [0, 100, 10_000], ids=["no game", "100 games", "10,000 games"]
)

# Long nights are copied in bulk by the database (add_settled_games), standings left as they
# were: not a night the app played, so the audit after each test (tests/conftest.py) skips them.
pytestmark = pytest.mark.ledger_broken

KNOCK = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2, "Dan": 3}}


def add_settled_games(night: Night, n: int) -> None:
    """Add `n` settled games with their lines: the shape of a long night, quickly.

    One game goes through the services; the database copies it and its lines n − 1 times, every
    column as it is but the number (70,000 rows built by the ORM took 11 seconds).
    """
    template = games.game_start(night=night, fool_swap=False)
    games.game_finish(game=template, outcome=KNOCK)
    if n < 2:
        return
    q = connection.ops.quote_name
    game_columns = [f.column for f in Game._meta.concrete_fields if not f.primary_key]
    copied = {"number": f"t.{q('number')} + n.i", "status": "%s"}
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %s) "
            f"INSERT INTO {q(Game._meta.db_table)} ({', '.join(map(q, game_columns))}) "
            f"SELECT {', '.join(copied.get(c, f't.{q(c)}') for c in game_columns)} "
            f"FROM {q(Game._meta.db_table)} t, n WHERE t.{q('id')} = %s",
            [n - 1, Game.Status.SETTLED, template.pk],
        )
        line_columns = [f.column for f in LedgerLine._meta.concrete_fields if not f.primary_key]
        game_id = LedgerLine._meta.get_field("game").column
        line_values = (f"g.{q('id')}" if c == game_id else f"l.{q(c)}" for c in line_columns)
        cursor.execute(
            f"INSERT INTO {q(LedgerLine._meta.db_table)} ({', '.join(map(q, line_columns))}) "
            f"SELECT {', '.join(line_values)} "
            f"FROM {q(LedgerLine._meta.db_table)} l, {q(Game._meta.db_table)} g "
            f"WHERE l.{q(game_id)} = %s AND g.{q('night_id')} = %s AND g.{q('id')} <> %s",
            [template.pk, night.pk, template.pk],
        )


def statements(client: Client, url: str, status: int = 200, **headers: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, **headers).status_code == status
    return len(queries.captured_queries)


def shared(night: Night) -> Night:
    sharing.share_link_for(night=night)
    return night


def night_open(played: int) -> Night:
    """Ann, Bee, Cat and Dan at sian stakes, `played` games into the night."""
    night = nights.night_open(
        group=access.group_create(name=f"{played} games"),
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal("0.5"),
    )
    if played:
        add_settled_games(night, played)
    return night


@pytest.fixture(scope="module")
def long_night(django_db_setup: None, django_db_blocker: Any) -> Iterator[Night]:
    """10,000 games, built once for the module; each test's own changes roll back after it."""
    with django_db_blocker.unblock():
        kept = transaction.atomic()
        kept.__enter__()
        night = night_open(10_000)
        # Check the deferred foreign keys now, once: left pending, PostgreSQL checks all 70,000
        # again as each test's savepoint rolls back and its teardown checks constraints.
        connection.check_constraints()
    yield night
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        kept.__exit__(None, None, None)


def host_of(client: Client, night: Night) -> Night:
    """Make the client's phone a host of the night's group (the same phone for every night)."""
    device = client.session.get("device") or access.device_create(user_agent="test").pk
    Membership.objects.get_or_create(
        group=night.group, device_id=device, defaults={"role": Membership.Role.HOST}
    )
    phone = client.session
    phone["device"] = device
    phone.save()
    return night


@pytest.fixture
def night_of(db: None, long_night: Night, en: Client) -> Callable[[int], Night]:
    """Give a night of so many games, the client's phone its host."""

    def of(played: int) -> Night:
        return host_of(en, long_night if played == 10_000 else night_open(played))

    return of


def finished(night: Night) -> Game:
    return games.game_finish(game=games.game_start(night=night, fool_swap=False), outcome=KNOCK)


def closed(night: Night) -> Night:
    """Close the night and mark one transfer paid, so the page reads both kinds."""
    transfers = nights.night_close(night=night)
    if transfers:
        nights.payment_record(transfer=transfers[0])
    return night


def in_play(night: Night) -> Game:
    """A game in play with an event paid at once: the busiest state of a table."""
    game = games.game_start(night=night, fool_swap=False)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    return game


def with_cost(night: Night) -> Game:
    """The busiest table with a shared cost standing in its running settle-up."""
    players = list(Player.objects.filter(standings__night=night).order_by("name"))
    costs.cost_add(night=night, reason="ข้าว", baht=Decimal(100), paid_by=players[0],
                   among=players)  # fmt: skip
    return in_play(night)


def voided(night: Night) -> Game:
    game = finished(night)
    games.game_void(game=game)
    return game


def last_history_page(night: Night) -> str:
    last = max(1, math.ceil(night.games.count() / HISTORY_PAGE))
    return f"/s/{night.pk}/history?page={last}"


LIVE = {**HTMX, "HTTP_HX_TARGET": "live"}

# Each page: put the night in the state the page is busiest in, and give the page's address.
PAGES: dict[str, Callable[[Night], str]] = {
    "table": lambda s: f"/s/{in_play(s).night_id}/",
    "table, a shared cost": lambda s: f"/s/{with_cost(s).night_id}/",
    "event form": lambda s: f"/s/{s.pk}/games/{in_play(s).pk}/events/head",
    "seats": lambda s: f"/s/{s.pk}/seats",
    "settle up, open": lambda s: f"/s/{s.pk}/settle",
    "settle up, closed": lambda s: f"/s/{closed(s).pk}/settle",
    # The first visit makes the night's share link, once (a write, audited): counted after it.
    "summary, open": lambda s: f"/s/{shared(s).pk}/summary",
    "summary, closed": lambda s: f"/s/{shared(closed(s)).pk}/summary",
    "history, open": lambda s: f"/s/{in_play(s).night_id}/history",
    "history, closed": lambda s: f"/s/{closed(s).pk}/history",
    "history, last page": last_history_page,
    "game": lambda s: f"/s/{s.pk}/games/{finished(s).pk}/",
    "game, finish": lambda s: f"/s/{s.pk}/games/{in_play(s).pk}/finish",
    "game, void": lambda s: f"/s/{s.pk}/games/{finished(s).pk}/void",
    "game, correct": lambda s: f"/s/{s.pk}/games/{voided(s).pk}/correct",
}


@NIGHTS
@pytest.mark.parametrize("page", PAGES)
def test_each_page_costs_the_same_few_statements_however_long_the_night(en, night_of, page, played):
    at_first = statements(en, PAGES[page](night_of(0)))
    budget = PAGE_BUDGET + OVER_BUDGET.get(page, 0)
    assert statements(en, PAGES[page](night_of(played))) == at_first <= budget


# A poll of a table that changed first learns which undo, if any, this phone is offered (the
# last game, and who saved it unless the phone hosts): what the region built once differs by.
KEY_STATEMENTS = 2


@NIGHTS
def test_a_poll_of_the_table_costs_the_same_few_statements_however_long_the_night(
    en, night_of, played
):
    def polls(night: Night) -> tuple[int, int, int]:
        in_play(night)
        built = statements(en, f"/s/{night.pk}/?v=0", **LIVE)
        again = statements(en, f"/s/{night.pk}/?v=0", **LIVE)  # another phone, the same version
        page = en.get(f"/s/{night.pk}/").content.decode()
        unchanged = html.unescape(re.search(r'id="live" hx-get="([^"]+)"', page)[1])  # type: ignore[index]
        return built, again, statements(en, unchanged, 204, **LIVE)

    at_first = polls(night_of(0))
    assert polls(night_of(played)) == at_first
    built, again, unchanged = at_first
    assert built <= PAGE_BUDGET + KEY_STATEMENTS
    # Built once: the next phone's poll of that version reads who it is, the night, the version
    # and its undo offer, and takes the region from the cache.
    assert again <= built - 4
    assert unchanged == 1  # the night's version, and nothing else: no night, no account
