"""Mistakes are cheap: an event taken back on its own, a save undone within a
minute by whoever saved it or a host; each a visible reversal, audited, the ledger clean."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.models import AuditEntry, Game, LedgerLine, Membership, Night
from scorekeeper.reads.game import UNDO_SECONDS, undone_outcome
from scorekeeper.services import games
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import nets

NORMAL = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}


def phone(night: Night, role: str, name: str) -> Membership:
    return Membership.objects.create(group=night.group, role=role, name=name)


@pytest.fixture
def bee(table: Night) -> Membership:
    return phone(table, Membership.Role.PLAYER, "Bee's phone")


@pytest.fixture
def cat(table: Night) -> Membership:
    return phone(table, Membership.Role.PLAYER, "Cat's phone")


@pytest.fixture
def host(table: Night) -> Membership:
    return phone(table, Membership.Role.HOST, "the host")


def test_an_event_taken_back_reverses_its_lines_alone_and_the_game_goes_on(table, bee):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    before = nets(table)
    wrong = games.event_remove(game=game, number=2, actor=bee)
    assert wrong.removed_at is not None
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
    assert nets(table) == {"Ann": 0, "Bee": 600, "Cat": 0, "Dan": -600} != before
    reversals = LedgerLine.objects.filter(reverses__event=wrong)
    assert reversals.count() == wrong.lines.filter(reverses__isnull=True).count() > 0
    entry = AuditEntry.objects.get(action="event-remove")
    assert (entry.membership, entry.detail["number"]) == (bee, 2)
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Dan"})
    assert game.events.get(number=3).document["player"] == "Dan"  # a number never used twice
    games.game_finish(game=game, outcome=NORMAL)
    assert night_audit(table) == []


def test_an_event_taken_back_twice_is_refused_the_second_time(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    games.event_remove(game=game, number=1)
    lines = LedgerLine.objects.count()
    with pytest.raises(ServiceError) as refused:
        games.event_remove(game=game, number=1)
    assert refused.value.code == "event-removed-twice"
    assert LedgerLine.objects.count() == lines


def test_an_event_of_a_game_with_a_result_is_not_taken_back(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    games.game_finish(game=game, outcome=NORMAL)
    with pytest.raises(ServiceError) as refused:
        games.event_remove(game=game, number=1)
    assert refused.value.code == "game-recorded"


def test_a_fine_taken_back_puts_its_game_in_play_again(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "fine", "player": "Ann", "reason": "misdeal"})
    games.event_remove(game=game, number=1)
    game.refresh_from_db()
    assert (game.status, game.finished_at) == (Game.Status.IN_PLAY, None)
    assert set(nets(table).values()) == {0}
    games.game_finish(game=game, outcome=NORMAL)
    assert night_audit(table) == []


def test_a_fine_is_not_taken_back_once_the_next_game_started(table):
    fined = games.game_start(night=table)
    games.event_add(game=fined, event={"type": "fine", "player": "Ann", "reason": "misdeal"})
    after_fine = nets(table)
    games.game_start(night=table)
    with pytest.raises(ServiceError) as refused:
        games.event_remove(game=fined, number=1)
    assert refused.value.code == "undo-not-last"  # one game in play at a time: void it instead
    fined.refresh_from_db()
    assert fined.status == Game.Status.FINED and not fined.events.get().removed_at
    assert nets(table) == after_fine
    assert night_audit(table) == []


def test_the_saver_undoes_a_save_and_the_game_is_in_play_with_its_events(table, bee):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    after_event = nets(table)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    games.game_undo(game=game, actor=bee)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
    assert "knock" not in game.document and game.finished_at is None
    assert nets(table) == after_event  # the event's lines stand; the result's are reversed
    assert undone_outcome(game) == NORMAL  # the form starts from what was saved
    entry = AuditEntry.objects.get(action="game-undo")
    assert (entry.membership, entry.detail) == (bee, NORMAL)
    games.game_finish(game=game, outcome={**NORMAL, "points": {"Bee": 5, "Cat": 5, "Dan": 5}})
    assert night_audit(table) == []


def test_a_host_may_undo_anyone_s_save_but_another_player_may_not(table, bee, cat, host):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    with pytest.raises(ServiceError) as refused:
        games.game_undo(game=game, actor=cat)
    assert refused.value.code == "undo-not-yours"
    games.game_undo(game=game, actor=host)
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PLAY


def test_a_save_older_than_a_minute_is_not_undone(table, bee):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    Game.objects.filter(pk=game.pk).update(
        finished_at=timezone.now() - timedelta(seconds=UNDO_SECONDS + 1)
    )
    with pytest.raises(ServiceError) as refused:
        games.game_undo(game=game, actor=bee)
    assert refused.value.code == "undo-too-late"


def test_a_save_is_not_undone_once_the_next_game_has_started(table, bee):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    games.game_start(night=table)
    with pytest.raises(ServiceError) as refused:
        games.game_undo(game=game, actor=bee)
    assert refused.value.code == "undo-not-last"


def test_an_undo_sent_twice_lands_once(table, bee):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    games.game_undo(game=game, actor=bee, idempotency_key="undo-1")
    lines = LedgerLine.objects.count()
    games.game_undo(game=game, actor=bee, idempotency_key="undo-1")
    assert LedgerLine.objects.count() == lines
    assert AuditEntry.objects.filter(action="game-undo").count() == 1


def test_a_pending_tie_can_be_undone_too(table, bee):
    game = games.game_start(night=table)
    tie = {
        "knock": {"player": "Cat", "kind": "normal"},
        "points": {"Ann": 10, "Bee": 10, "Dan": 25},
    }
    games.game_finish(game=game, outcome=tie, actor=bee)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PENDING_TIE
    games.game_undo(game=game, actor=bee)
    game.refresh_from_db()
    assert (game.status, game.tie) == (Game.Status.IN_PLAY, None)
    assert night_audit(table) == []


def test_a_game_voided_after_an_event_taken_back_and_an_undo_audits_clean(table, bee):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    games.event_remove(game=game, number=2)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    games.game_undo(game=game, actor=bee)
    games.game_finish(game=game, outcome=NORMAL, actor=bee)
    games.game_void(game=game)  # each line reversed once: none twice (it was a 500 before)
    assert set(nets(table).values()) == {0}
    assert night_audit(table) == []
