"""Budgets of the group pages and the score sheets: SQL statements per page, however long the night.

Each page costs the same statements with no game, 100 and 10,000 games (hands of a score sheet) in
the group, and at most PAGE_BUDGET. The long nights are built once for the module, by copying one
recorded game (hand) in SQL, with an audit entry for each copy as a real night would have.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import AuditEntry, Game, Membership, Night, Player, Standing
from scorekeeper.services import access, nights, scoresheet
from scorekeeper.views.live import signed_version, version
from tests.views.conftest import HTMX
from tests.views.test_budgets import PAGE_BUDGET, add_settled_games
from tests.views.test_budgets_record import BUDGET as PAYMENT_BUDGET
from tests.views.test_scoresheet import dummy_data

# Long nights are copied in bulk by the database (add_settled_games), standings left as they
# were: not a night the app played, so the audit after each test (tests/conftest.py) skips them.
pytestmark = pytest.mark.ledger_broken


SIZES = [0, 100, 10_000]
NIGHTS = pytest.mark.parametrize("played", SIZES[1:], ids=["100 games", "10,000 games"])
PLAYERS = ["Ann", "Bee", "Cat", "Dan"]
HEARTS = [f"H{n}" for n in range(2, 11)] + ["HJ", "HQ", "HK", "HA"]
GONG_ZHU_HAND = {"captured": {"Ann": ["SQ", "DJ", "C10"], "Bee": HEARTS}}
DUMMY_HAND = {  # Ann knocks; Bee's fool discard turns the deal, so the deal's direction is read
    "knock": {"player": "Ann", "kind": "normal"},
    "fool": "Bee",
    "counts": {"Ann": {"table": 40}, "Bee": {"table": 20, "hand": 35}, "Cat": {"table": 10}},
}
FAR = 10**9  # a target nobody reaches, however long the match
CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")


def unchanged_poll(night: Night) -> str:
    """The poll a sheet page makes, with the version it was given."""
    path = f"/s/{night.pk}/"
    return f"{path}?v={quote(signed_version(path, night.pk, version(night.pk)))}"


def _copy(model: type[Model], source: str, where: str, params: list[Any], **columns: str) -> None:
    """INSERT INTO model SELECT from `source` (its row aliased t), every column as is but these."""
    q = connection.ops.quote_name
    names = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    unique = {f.column: "NULL" for f in model._meta.concrete_fields if f.unique and f.null}
    values = [{**unique, **columns}.get(c, f"t.{q(c)}") for c in names]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {q(model._meta.db_table)} ({', '.join(map(q, names))}) "
            f"SELECT {', '.join(values)} FROM {source} WHERE {where}",
            params,
        )


def audit_copies(night: Night, template: Game) -> None:
    """Give each game copied from `template` the audit entries the template has: one per write."""
    q = connection.ops.quote_name
    games, entries = q(Game._meta.db_table), q(AuditEntry._meta.db_table)
    _copy(
        AuditEntry,
        f"{entries} t, {games} g",
        f"t.{q('game_id')} = %s AND g.{q('night_id')} = %s AND g.{q('id')} <> %s",
        [template.pk, night.pk, template.pk],
        game_id=f"g.{q('id')}",
    )


def add_hands(night: Night, n: int, hand: dict[str, Any]) -> None:
    """Add `n` hands of `hand` to a score sheet, the first recorded, the rest copied in SQL."""
    if not n:
        return
    first = scoresheet.hand_record(night=night, hand=hand)
    q = connection.ops.quote_name
    _copy(
        Game,
        f"{q(Game._meta.db_table)} t, "
        f"(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %s) "
        f"SELECT i FROM n) n",
        f"t.{q('id')} = %s",
        [n - 1, first.pk],
        number=f"t.{q('number')} + n.i",
    )
    audit_copies(night, first)
    for name, player_id in zip(first.document["players"], first.seating, strict=True):
        Standing.objects.filter(night=night, player_id=player_id).update(
            net=(first.scores or {}).get(name, 0) * n
        )


@dataclass(frozen=True)
class Club:
    """A group with a Knock Dummy night and score sheets of `played` games (hands) each."""

    knock: Night
    gong_zhu: Night  # open, for money
    dummy: Night  # open, classic Dummy, its deal turned by fool discards
    settled: Night  # Gong Zhu for money, closed, one transfer marked paid
    ann: Player

    @property
    def group(self) -> int:
        return self.knock.group_id


def club(played: int) -> Club:
    group = access.group_create(name=f"{played} games")
    knock = nights.night_open(
        group=group, players=PLAYERS, stake_level="sian", point_value=Decimal("0.5")
    )
    if played:
        add_settled_games(knock, played)
        audit_copies(knock, knock.games.order_by("pk").first())

    def gong_zhu() -> Night:
        sheet = scoresheet.scoresheet_open(
            group=group,
            ruleset="gong-zhu",
            players=PLAYERS,
            house={},
            target={"points": FAR, "direction": "down"},
            point_value=Decimal(1),
        )
        add_hands(sheet, played, GONG_ZHU_HAND)
        return sheet

    dummy = scoresheet.scoresheet_open(
        group=group, ruleset="dummy-points", players=PLAYERS[:3], house={}, target=FAR
    )
    add_hands(dummy, played, DUMMY_HAND)
    settled = gong_zhu()
    scoresheet.hand_record(night=settled, hand=GONG_ZHU_HAND)  # someone owes something
    transfers = scoresheet.scoresheet_close(night=settled)
    nights.payment_record(transfer=transfers[0])
    return Club(knock, gong_zhu(), dummy, settled, group.players.get(name="Ann"))


@pytest.fixture(scope="module")
def clubs(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[int, Club]]:
    """A club of each size, built once for the module; what a test changes rolls back after it."""
    with django_db_blocker.unblock():
        kept = transaction.atomic()
        kept.__enter__()
        made = {played: club(played) for played in SIZES}
        # PostgreSQL checks deferred foreign keys at each test's end, the copies' among them,
        # unless they are checked once here.
        connection.check_constraints()
    yield made
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        kept.__exit__(None, None, None)


@pytest.fixture
def phone(db: None, clubs: dict[int, Club], en: Client) -> Callable[[int], Club]:
    """Give the club of so many games, the client's phone a host of it."""

    def of(played: int) -> Club:
        device = en.session.get("device") or access.device_create(user_agent="test").pk
        made = clubs[played]
        Membership.objects.create(group_id=made.group, role=Membership.Role.HOST, device_id=device)
        known = en.session
        known["device"] = device
        known.save()
        return made

    return of


@dataclass(frozen=True)
class Visit:
    """A request a phone makes of a page: a GET, or a POST of `data`, and the status it expects."""

    url: str
    status: int = 200
    data: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def statements(client: Client, visit: Visit) -> list[str]:
    """Make the request; return the SQL it ran, transaction control left out."""
    with CaptureQueriesContext(connection) as queries:
        if visit.data is None:
            response = client.get(visit.url, **visit.headers)
        else:
            response = client.post(visit.url, visit.data, **visit.headers)
    assert response.status_code == visit.status, visit.url
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def newest_hand(sheet: Night) -> int:
    """The classic Dummy sheet's newest hand; a sheet without one gets one."""
    hand = sheet.games.order_by("-number").first()
    return (hand or scoresheet.hand_record(night=sheet, hand=DUMMY_HAND)).pk


def loser(club: Club) -> Player:
    return Player.objects.get(group_id=club.group, name="Bee")


SHEET = {**HTMX, "HTTP_HX_TARGET": "sheet"}
PREVIEW = {**HTMX, "HTTP_HX_TARGET": "preview"}

# Each page of a club, in its busiest state: what the phone asks for.
PAGES: dict[str, Callable[[Club], Visit]] = {
    "home": lambda c: Visit("/"),
    "group": lambda c: Visit(f"/g/{c.group}/"),
    "player": lambda c: Visit(f"/g/{c.group}/players/{c.ann.pk}"),
    # Bee loses every game Ann knocks: a record of losses reads as few statements as of wins.
    "player who lost": lambda c: Visit(f"/g/{c.group}/players/{loser(c).pk}"),
    "members": lambda c: Visit(f"/g/{c.group}/members"),
    "audit log": lambda c: Visit(f"/g/{c.group}/audit"),
    "audit log, past the last page": lambda c: Visit(f"/g/{c.group}/audit?page=99999"),
    "open a night": lambda c: Visit(f"/g/{c.group}/sessions/new"),
    "open a score sheet": lambda c: Visit(f"/g/{c.group}/race/dummy-points/new"),
    "sheet, Gong Zhu": lambda c: Visit(f"/s/{c.gong_zhu.pk}/"),
    "sheet, classic Dummy": lambda c: Visit(f"/s/{c.dummy.pk}/"),
    "sheet, closed": lambda c: Visit(f"/s/{c.settled.pk}/"),
    "sheet, past the last page": lambda c: Visit(f"/s/{c.dummy.pk}/?page=99999"),
    "sheet, a page not a number": lambda c: Visit(f"/s/{c.dummy.pk}/?page=x"),
    "sheet poll, changed": lambda c: Visit(f"/s/{c.dummy.pk}/?v=0", headers=SHEET),
    "sheet poll, unchanged": lambda c: Visit(unchanged_poll(c.dummy), 204, headers=SHEET),
    "hand form, Gong Zhu": lambda c: Visit(f"/s/{c.gong_zhu.pk}/hands/new"),
    "hand form, classic Dummy": lambda c: Visit(f"/s/{c.dummy.pk}/hands/new"),
    "hand preview swap": lambda c: Visit(
        f"/s/{c.dummy.pk}/hands/preview", data=dummy_data(), headers=PREVIEW
    ),
    "hand preview without JavaScript": lambda c: Visit(
        f"/s/{c.dummy.pk}/hands/preview", data=dummy_data()
    ),
    "hand": lambda c: Visit(f"/s/{c.dummy.pk}/hands/{newest_hand(c.dummy)}/"),
    "hand, void": lambda c: Visit(f"/s/{c.dummy.pk}/hands/{newest_hand(c.dummy)}/void"),
    "end of the match, open": lambda c: Visit(f"/s/{c.gong_zhu.pk}/race/settle"),
    "end of the match, closed": lambda c: Visit(f"/s/{c.settled.pk}/race/settle"),
    "history, open": lambda c: Visit(f"/s/{c.dummy.pk}/race/history"),
    "history, closed": lambda c: Visit(f"/s/{c.settled.pk}/race/history"),
    "history, past the last page": lambda c: Visit(f"/s/{c.gong_zhu.pk}/race/history?page=99999"),
}


@NIGHTS
@pytest.mark.parametrize("page", list(PAGES))
def test_each_page_costs_the_same_few_statements_however_long_the_night(en, phone, page, played):
    at_first = statements(en, PAGES[page](phone(0)))
    long = statements(en, PAGES[page](phone(played)))
    assert len(long) == len(at_first) <= PAGE_BUDGET, "\n".join(long)


@NIGHTS
def test_a_payment_undone_on_a_score_sheet_costs_a_write_and_the_list(en, phone, played):
    """A write, not a page: held to the budget of marking a transfer paid (test_budgets_record)."""
    counts = []
    for club in (phone(0), phone(played)):
        paid = club.settled.transfers.filter(money_lines__isnull=False).distinct().get()
        url = f"/s/{club.settled.pk}/race/transfers/{paid.pk}/paid"
        sql = statements(en, Visit(url, data={"undo": "1"}, headers=HTMX))
        assert paid.money_lines.filter(reverses__isnull=False).exists()  # the undo's reversal
        assert len(sql) <= PAYMENT_BUDGET, "\n".join(sql)
        counts.append(len(sql))
    assert counts[0] == counts[1]


# -- a long night reads in pages -----------------------------------------------------------------


def test_the_audit_log_of_a_long_night_reads_fifty_entries_a_page(en, phone):
    group = phone(10_000).group
    entries = AuditEntry.objects.filter(group_id=group).count()
    first = en.get(f"/g/{group}/audit").content.decode()
    last_page = -(-entries // 50)
    assert first.count("<li><strong>") == 50
    assert 'href="?page=2"' in first
    assert f"Page 1 of {last_page}" in first
    past = en.get(f"/g/{group}/audit?page=99999").content.decode()
    assert past.count("<li><strong>") == entries - 50 * (last_page - 1)
    assert f'href="?page={last_page - 1}"' in past
    assert 'rel="next"' not in past


def test_the_last_page_of_a_sheet_of_10000_hands_ends_with_the_first_hand(en, phone):
    sheet = phone(10_000).gong_zhu
    body = en.get(f"/s/{sheet.pk}/?page=99999").content.decode()
    assert re.findall(r'data-hand="(\d+)"', body) == [str(n) for n in range(20, 0, -1)]
    assert 'data-running="Bee">= +194<' in body  # hand 1: a Shuan, Bee took the hearts
    assert 'data-running="Bee">= +3,880<' in body  # hand 20
    history = en.get(f"/s/{sheet.pk}/race/history").content.decode()
    assert len(re.search(r'<polyline points="([^"]+)"', history)[1].split()) == 120  # type: ignore[index]
