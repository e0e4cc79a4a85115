"""Pay as you go (rule 80): a night that pays at the table hands every line over as it
is written; on a night settled at the end, any game or event can be marked paid at the table.
Either way those lines leave the settle-up, nobody is asked twice, and the ledger stays clean."""

import pytest

from scorekeeper.models import AuditEntry, Game, LedgerLine, Membership, Night
from scorekeeper.services import games, nights
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night, nets

RESULT = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}
HEAD = {"type": "head", "player": "Bee", "close": ["Dan"]}


def balances(night: Night) -> dict[str, int]:
    return {s.player.name: s.balance for s in night.standings.select_related("player")}


def test_a_night_paid_at_the_table_leaves_nothing_to_settle_at_the_end(db):
    night = make_night(pays_at_table=True)
    game = games.game_start(night=night)
    games.event_add(game=game, event=HEAD)
    games.game_finish(game=game, outcome=RESULT)
    assert set(balances(night).values()) == {0}  # every line handed over as it came
    assert nets(night)["Ann"] > 0  # the night's result still stands, in the standings' net
    net_of_game = LedgerLine.objects.game_nets(night)[game.pk]
    assert sum(v for v in net_of_game.values() if v > 0) > 0  # the games list shows the game
    assert nights.night_close(night=night) == []
    assert night_audit(night) == []


def test_an_event_marked_paid_at_the_table_leaves_the_settle_up_once(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event=HEAD)
    games.game_paid_at_table(game=game, event_number=1)
    assert set(balances(table).values()) == {0}
    with pytest.raises(ServiceError) as twice:
        games.game_paid_at_table(game=game, event_number=1)
    assert twice.value.code == "paid-at-table-twice"
    games.game_finish(game=game, outcome=RESULT)
    owed = balances(table)
    transfers = nights.night_close(night=table)
    assert sum(t.baht for t in transfers) == sum(table.baht(v) for v in owed.values() if v > 0)
    assert AuditEntry.objects.filter(action="paid-at-table").count() == 1
    assert night_audit(table) == []


def test_a_void_an_undo_and_an_event_taken_back_reverse_what_was_handed_over(db):
    night = make_night(pays_at_table=True)
    game = games.game_start(night=night)
    games.event_add(game=game, event=HEAD)
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    games.event_remove(game=game, number=2)
    games.game_finish(game=game, outcome=RESULT)
    games.game_void(game=game)
    assert set(nets(night).values()) == {0} and set(balances(night).values()) == {0}
    assert Game.objects.get(pk=game.pk).status == Game.Status.VOIDED
    assert night_audit(night) == []


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_a_payment_at_the_table_that_pays_no_line_is_found_by_the_audit(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event=HEAD)
    games.game_paid_at_table(game=game, event_number=1)
    payment = LedgerLine.objects.filter(item=LedgerLine.PAYMENT).first()
    assert payment is not None
    LedgerLine.objects.bulk_create([
        LedgerLine(night=table, game=game, payer=payment.payer, payee=payment.payee,
                   amount=payment.amount + 1, item=LedgerLine.PAYMENT)
    ])  # fmt: skip
    assert any("pays no line" in p for p in night_audit(table))


def test_an_undone_save_takes_back_what_its_result_handed_over(db):
    night = make_night(pays_at_table=True)
    host = Membership.objects.create(group=night.group, role=Membership.Role.HOST)
    game = games.game_start(night=night)
    games.event_add(game=game, event=HEAD)
    after_event = nets(night)
    games.game_finish(game=game, outcome=RESULT, actor=host)
    games.game_undo(game=game, actor=host)
    assert nets(night) == after_event and set(balances(night).values()) == {0}
    assert night_audit(night) == []
