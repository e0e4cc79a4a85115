"""The audit after each test (tests/conftest.py: `ledger_audited`) is skipped only when the data
is what an audit already found clean: `Written` numbers each state of the data, and a rollback
to a savepoint gives back the number of the state it restores."""

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from scorekeeper.models import Group
from tests.conftest import Written


def sent(written: Written, sql: str) -> None:
    """Send `sql` through `written` alone, to a database that does nothing with it."""
    written(lambda *args: None, sql, None, False, {})


@pytest.mark.django_db
def test_a_write_rolled_back_to_its_savepoint_gives_back_the_state_before_it() -> None:
    before = Written.state
    with pytest.raises(IntegrityError), transaction.atomic():
        Group.objects.create(name="วงที่ถอยกลับ")
        assert Written.state != before
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO scorekeeper_group (id) VALUES (NULL)")  # no name: refused
    assert Written.state == before
    Group.objects.create(name="วงที่อยู่")
    assert Written.state != before


@pytest.mark.django_db
def test_a_write_kept_inside_a_savepoint_is_a_new_state() -> None:
    before = Written.state
    with transaction.atomic():
        Group.objects.create(name="วงที่อยู่")
    assert Written.state != before


@pytest.mark.django_db
def test_a_constraint_check_changes_nothing() -> None:
    before = Written.state
    connection.check_constraints()
    assert Written.state == before


def test_another_connections_write_since_the_savepoint_stays_after_its_rollback() -> None:
    mine, theirs = Written(), Written()
    sent(mine, 'SAVEPOINT "s1_x1"')
    saved = Written.state
    sent(theirs, 'INSERT INTO "scorekeeper_group" ("name") VALUES (%s)')
    sent(mine, 'ROLLBACK TO SAVEPOINT "s1_x1"')
    assert Written.state != saved


def test_a_rollback_to_a_savepoint_never_seen_is_a_new_state() -> None:
    before = Written.state
    sent(Written(), 'ROLLBACK TO SAVEPOINT "s9_x9"')
    assert Written.state != before


def test_a_failed_write_is_taken_to_have_changed_the_data() -> None:
    def refused(*args: Any) -> None:
        raise IntegrityError("refused")

    before = Written.state
    with pytest.raises(IntegrityError):
        Written()(refused, 'UPDATE "scorekeeper_game" SET "number" = 1', None, False, {})
    assert Written.state != before
