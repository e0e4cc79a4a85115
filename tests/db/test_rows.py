"""scorekeeper.db.rows writes what the ORM would have written: every column, each value prepared
by its field, ids in the order given, and an UPDATE of the named columns only."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, models, transaction

from scorekeeper.db import rows
from scorekeeper.models import AuditEntry, Game, LedgerLine, Standing
from scorekeeper.services import games
from tests.services.conftest import make_session, player

OUTCOME = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 1, "Cat": 2, "Dan": 3}}


@pytest.fixture
def table(db):
    return make_session()


def values(instance: models.Model) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_an_inserted_game_reads_back_column_for_column_as_the_orm_creates_it(table):
    made = games.game_start(session=table)  # through the ORM's create, as a model is made
    games.game_finish(game=made, outcome=OUTCOME)
    game = Game(
        session=table,
        number=2,
        dealer_id=made.dealer_id,
        seating=list(reversed(made.seating)),
        document={"players": ["Ann", "Bee"], "ไทย": "ดัมมี่"},
        tie={"tied": ["Ann"]},
    )
    rows.insert([game])
    assert game.pk is not None and not game._state.adding
    made_by_orm = {k: v for k, v in values(game).items() if k not in ("id", "number")}
    twin = Game.objects.create(**made_by_orm, number=3)
    stored = Game.objects.get(pk=game.pk)
    assert values(stored) == values(game)
    same = {"id": None, "number": None}
    assert {**values(stored), **same} == {**values(Game.objects.get(pk=twin.pk)), **same}


def test_lines_learn_their_ids_in_the_order_given(table):
    ann, bee, cat = player(table, "Ann"), player(table, "Bee"), player(table, "Cat")
    lines = [
        LedgerLine(session=table, payer=ann, payee=bee, amount=amount, item="knock", rule="11")
        for amount in (5, 7, 11)
    ] + [LedgerLine(session=table, payer=cat, payee=ann, amount=13, item="payment")]
    rows.insert(lines)
    ids = [line.pk for line in lines]
    assert ids == sorted(ids) and len(set(ids)) == 4
    stored = LedgerLine.objects.filter(pk__in=ids).order_by("id")
    assert [values(line) for line in stored] == [values(line) for line in lines]
    rows.insert([])  # nothing to write: no statement, no error


def test_a_constraint_still_refuses_and_nothing_is_written(table):
    ann = player(table, "Ann")
    before = LedgerLine.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert([LedgerLine(session=table, payer=ann, payee=ann, amount=5, item="knock")])
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert([AuditEntry(group_id=table.group_id, action="x", key="k")] * 2)
    assert LedgerLine.objects.count() == before


def test_an_update_writes_the_named_columns_only(table):
    standing = Standing.objects.filter(session=table).first()
    assert standing is not None
    standing.net, standing.settled = 40, 15
    rows.update(standing, ["net"])
    standing.refresh_from_db()
    assert (standing.net, standing.settled) == (40, 0)
    game = games.game_start(session=table)
    game.status, game.document = Game.Status.SETTLED, {**game.document, "note": "ข"}
    game.finished_at = None
    rows.update(game, ["document"])
    stored = Game.objects.get(pk=game.pk)
    assert stored.document["note"] == "ข" and stored.status == Game.Status.IN_PLAY
    assert table.point_value == Decimal("0.5")
