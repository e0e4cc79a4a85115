"""Budgets a cheap phone depends on: SQL statements per page, whatever the size of the night."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, LedgerLine, Session
from scorekeeper.services import games

PAGE_BUDGET = 8


def add_settled_games(session: Session, n: int) -> None:
    """Add `n` settled games with their lines in bulk: the shape of a long night, quickly."""
    template = games.game_start(session=session, fool_swap=False)
    games.game_finish(
        game=template,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    template.refresh_from_db()  # the service finished its own copy
    lines = list(template.lines.all())
    made = Game.objects.bulk_create(
        Game(
            session=session,
            number=template.number + i,
            dealer=template.dealer,
            seating=template.seating,
            status=Game.Status.SETTLED,
            document=template.document,
        )
        for i in range(1, n)
    )
    LedgerLine.objects.bulk_create(
        LedgerLine(
            session=session,
            game=game,
            payer_id=line.payer_id,
            payee_id=line.payee_id,
            amount=line.amount,
            item=line.item,
            rule=line.rule,
            due=line.due,
        )
        for game in made
        for line in lines
    )


def statements(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


@pytest.mark.parametrize("played", [0, 100, 10_000], ids=["no game", "100 games", "10,000 games"])
def test_the_table_page_costs_the_same_few_statements_however_long_the_night(en, table, played):
    if played:
        add_settled_games(table, played)
    games.game_start(session=table)  # a game in play: the page's busiest state
    assert statements(en, f"/s/{table.pk}/") <= PAGE_BUDGET


def test_the_table_page_statements_do_not_grow_with_games(en, table):
    games.game_start(session=table)
    small = statements(en, f"/s/{table.pk}/")
    games.game_void(game=table.games.get())
    add_settled_games(table, 300)
    games.game_start(session=table, fool_swap=False)
    assert statements(en, f"/s/{table.pk}/") == small
