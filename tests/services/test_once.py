"""A form's idempotency key: a retry of a write records nothing twice, whatever came between."""

import pytest

from scorekeeper.models import AuditEntry, Event, Game, LedgerLine
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import games
from tests.services.conftest import nets

KNOCK = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}


def test_a_retried_finish_returns_the_game_and_writes_nothing_more(table):
    game = games.game_start(night=table)
    first = games.game_finish(game=game, outcome=KNOCK, idempotency_key="k1")
    lines, totals = LedgerLine.objects.count(), nets(table)
    again = games.game_finish(game=game, outcome=KNOCK, idempotency_key="k1")
    assert again.pk == first.pk
    assert (LedgerLine.objects.count(), nets(table)) == (lines, totals)
    assert AuditEntry.objects.filter(action="game-finish").count() == 1


def test_a_retried_finish_after_a_void_is_still_the_same_write(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=KNOCK, idempotency_key="k1")
    games.game_void(game=game)
    lines = LedgerLine.objects.count()
    assert games.game_finish(game=game, outcome=KNOCK, idempotency_key="k1").pk == game.pk
    assert LedgerLine.objects.count() == lines


def test_another_phones_finish_is_refused_with_who_was_first(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=KNOCK, idempotency_key="mine")
    with pytest.raises(RuleError) as refused:
        games.game_finish(game=game, outcome=KNOCK, idempotency_key="theirs")
    assert refused.value.code == "game-recorded"


def test_a_key_used_for_another_write_is_refused_and_nothing_is_written(table):
    game = games.game_start(night=table, idempotency_key="k1")
    with pytest.raises(RuleError) as refused:
        games.game_finish(game=game, outcome=KNOCK, idempotency_key="k1")
    assert refused.value.code == "key-reused"
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
    assert not LedgerLine.objects.filter(game=game).exists()
    assert set(nets(table).values()) == {0}


def test_a_retried_start_after_its_game_ended_starts_nothing(table):
    """The offline queue sends start then finish again when neither answer came back."""
    game = games.game_start(night=table, idempotency_key="start")
    games.game_finish(game=game, outcome=KNOCK, idempotency_key="finish")
    assert games.game_start(night=table, idempotency_key="start").pk == game.pk
    assert games.game_finish(game=game, outcome=KNOCK, idempotency_key="finish").pk == game.pk
    assert table.games.count() == 1


def test_a_retried_event_returns_that_event_even_after_another(table):
    game = games.game_start(night=table)
    head = games.event_add(game=game, event={"type": "head", "player": "Bee"}, idempotency_key="e1")
    games.event_add(game=game, event={"type": "speto", "player": "Cat"}, idempotency_key="e2")
    again = games.event_add(
        game=game, event={"type": "head", "player": "Bee"}, idempotency_key="e1"
    )
    assert again.pk == head.pk
    assert Event.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert [e.document["type"] for e in game.events.all()] == ["head", "speto"]


@pytest.mark.parametrize("key", ["x" * 65, "nul\x00key", "ก" * 200], ids=["long", "NUL", "Thai"])
def test_an_unstorable_key_is_kept_by_its_hash_and_still_replays(table, key):
    game = games.game_start(night=table, idempotency_key=key)
    assert games.game_start(night=table, idempotency_key=key).pk == game.pk
    stored = AuditEntry.objects.get(action="game-start").key
    assert stored is not None and len(stored) == 64 and stored != key[:64]
