"""Scoresheet-to-a-target score sheets: classic Dummy to 500 and Gong Zhu, through the services."""

from decimal import Decimal
from typing import Any

import pytest

from scorekeeper.models import AuditEntry, Game, Membership, MoneyLine, Night, Standing, Transfer
from scorekeeper.reads.scoresheet import next_dealer, scoresheet_state
from scorekeeper.rules import dummy_points_document, gong_zhu, gong_zhu_document
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access, nights, scoresheet
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit

HEARTS = [f"H{n}" for n in range(2, 11)] + ["HJ", "HQ", "HK", "HA"]
DUMMY_HOUSE = {"knock_card_speto_100": True}
DOWN_300 = {"points": 300, "direction": "down"}


def make_scoresheet(
    ruleset: str = "gong-zhu",
    names: tuple[str, ...] = ("Ann", "Bee", "Cat", "Dan"),
    **kwargs: Any,
) -> Night:
    group = access.group_create(name="วงหมู")
    options: dict[str, Any] = {
        "house": {} if ruleset == "gong-zhu" else DUMMY_HOUSE,
        "target": DOWN_300 if ruleset == "gong-zhu" else 100,
        "point_value": Decimal(1) if ruleset == "gong-zhu" else Decimal(0),
    }
    options.update(kwargs)
    return scoresheet.scoresheet_open(group=group, ruleset=ruleset, players=list(names), **options)


def totals(night: Night) -> dict[str, int]:
    return {s.player.name: s.net for s in Standing.objects.filter(night=night)}


def captured(**cards: list[str]) -> dict[str, Any]:
    return {"captured": cards}


def pig_hand(pig: str, rest: str) -> dict[str, Any]:
    """`pig` takes Q♠ and 2♥ (−102); `rest` the other hearts, J♦ and the glass (−184)."""
    return captured(**{pig: ["SQ", "H2"], rest: [*HEARTS[1:], "DJ", "C10"]})


def dummy_hand(knocker: str, **counts: int) -> dict[str, Any]:
    """`knocker` knocks normally (0 unless given); everyone's table − hand as given."""
    return {
        "knock": {"player": knocker, "kind": "normal"},
        "counts": {name: {"difference": d} for name, d in {knocker: 0, **counts}.items()},
    }


@pytest.fixture
def gong(db: None) -> Night:
    return make_scoresheet()


@pytest.fixture
def dummy(db: None) -> Night:
    return make_scoresheet("dummy-points", ("Ann", "Bee", "Cat"))


def test_opening_a_gong_zhu_sheet_seats_the_players_with_no_stakes_and_the_settings(gong):
    assert gong.is_scoresheet
    assert gong.stake_level == Night.StakeLevel.NONE
    assert gong.scoresheet == {"house": {}, "target": DOWN_300}
    assert [s.player.name for s in gong.seats.current()] == ["Ann", "Bee", "Cat", "Dan"]
    assert totals(gong) == {"Ann": 0, "Bee": 0, "Cat": 0, "Dan": 0}
    assert AuditEntry.objects.filter(night=gong, action="scoresheet-open").exists()


@pytest.mark.parametrize(
    ("ruleset", "names"),
    [
        ("gong-zhu", ("Ann", "Bee")),
        ("gong-zhu", ("Ann", "Bee", "Cat", "Dan", "Eve")),
        ("dummy-points", ("Ann",)),
        ("dummy-points", ("Ann", "Ann", "Bee")),
    ],
    ids=["gong-zhu-two", "gong-zhu-five", "dummy-one", "dummy-twice-the-same"],
)
def test_a_sheet_needs_the_games_number_of_different_players(db, ruleset, names):
    with pytest.raises(ServiceError) as refused:
        make_scoresheet(ruleset, names)
    assert refused.value.code == "scoresheet-players"
    assert not Night.objects.exists()


def test_classic_dummy_has_no_point_value(db):
    with pytest.raises(ServiceError) as refused:
        make_scoresheet("dummy-points", point_value=Decimal(1))
    assert refused.value.code == "scoresheet-money"


def test_a_house_option_the_engine_does_not_know_is_refused(db):
    with pytest.raises(RuleError):
        make_scoresheet(house={"no_point_cards": -20})
    with pytest.raises(RuleError):
        make_scoresheet("dummy-points", house={"mystery": 1})
    assert not Night.objects.exists()


def test_opening_twice_with_one_key_opens_one_sheet(db):
    group = access.group_create(name="วง")
    options: dict[str, Any] = {
        "group": group,
        "ruleset": "gong-zhu",
        "players": ["Ann", "Bee", "Cat"],
        "house": {},
        "target": DOWN_300,
        "point_value": Decimal(1),
        "idempotency_key": "o" * 32,
    }
    assert scoresheet.scoresheet_open(**options) == scoresheet.scoresheet_open(**options)
    assert Night.objects.count() == 1


def test_a_gong_zhu_hand_is_scored_by_the_engine_and_added_to_the_totals(gong):
    game = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    # Cat: hearts −192 + J♦ 100 = −92, doubled by the glass: −184; Ann and Dan took nothing.
    assert game.scores == {"Ann": -50, "Bee": -102, "Cat": -184, "Dan": -50}
    assert game.status == Game.Status.SETTLED
    assert game.number == 1
    assert game.dealer.name == "Ann"
    assert totals(gong) == game.scores
    assert night_audit(gong) == []


def test_the_deal_goes_round_the_table_one_seat_a_hand(gong):
    dealers = [
        scoresheet.hand_record(
            night=gong, hand=captured(Ann=[str(c) for c in gong_zhu.Card])
        ).dealer.name
        for _ in range(3)
    ]
    assert dealers == ["Ann", "Bee", "Cat"]
    assert next_dealer(gong).name == "Dan"


def test_a_fool_turns_the_next_deal_of_classic_dummy_the_other_way_round(dummy):
    fooled = {**dummy_hand("Bee", Ann=-10, Cat=5), "fool": "Ann"}
    first = scoresheet.hand_record(night=dummy, hand=fooled)
    assert first.dealer.name == "Ann"
    # Seats Ann, Bee, Cat: Bee would deal next; after the fool the deal goes back to Cat.
    assert next_dealer(dummy).name == "Cat"
    second = scoresheet.hand_record(night=dummy, hand=dummy_hand("Bee", Ann=-5, Cat=-5))
    assert second.dealer.name == "Cat"
    assert next_dealer(dummy).name == "Bee"


def test_a_voided_fool_discard_leaves_the_deal_as_it_was(dummy):
    fooled = {**dummy_hand("Bee", Ann=-10, Cat=5), "fool": "Ann"}
    scoresheet.hand_void(game=scoresheet.hand_record(night=dummy, hand=fooled))
    assert next_dealer(dummy).name == "Ann"  # as if never dealt
    again = scoresheet.hand_record(night=dummy, hand=fooled)
    after = scoresheet.hand_record(night=dummy, hand=dummy_hand("Bee", Ann=-5, Cat=-5))
    assert (again.dealer.name, after.dealer.name) == ("Ann", "Cat")
    assert after.document["players"] == ["Cat", "Bee", "Ann"]  # the play goes round turned too


def test_the_preview_reads_the_totals_and_the_last_hand_only(db, django_assert_num_queries):
    dummy = make_scoresheet("dummy-points", ("Ann", "Bee", "Cat"), target=10**6)
    fooled = {**dummy_hand("Bee", Ann=-10, Cat=5), "fool": "Ann"}
    for _ in range(5):
        scoresheet.hand_record(night=dummy, hand=fooled)
    with django_assert_num_queries(2):
        result = scoresheet.hand_preview(night=dummy, hand=dummy_hand("Bee", Ann=-5, Cat=-5))
    recorded = scoresheet.hand_record(night=dummy, hand=dummy_hand("Bee", Ann=-5, Cat=-5))
    assert result["scores"] == recorded.scores
    assert result["match"]["totals"] == {s.player.name: s.net for s in dummy.standings.all()}


def test_a_gong_zhu_match_ends_at_the_target_with_the_pig_and_the_winner(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    scoresheet.hand_record(
        night=gong, hand=captured(Ann=["DJ"], Bee=["SQ", *HEARTS[:4]], Cat=[*HEARTS[4:], "C10"])
    )
    state = scoresheet_state(gong)
    # Bee: −100 − (2 + 3 + 4 + 5); Cat: −(6 + 7 + 8 + 9 + 10 + 20 + 30 + 40 + 50), doubled.
    assert state.totals == {"Ann": 50, "Bee": -102 - 114, "Cat": -184 - 360, "Dan": -100}
    assert state.ended
    assert state.pigs == ("Cat",)
    assert state.winners == ("Ann",)
    assert sum(state.money.values()) == 0


def test_a_hand_after_the_end_of_the_match_is_refused_clearly(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    with pytest.raises(ServiceError) as refused:
        scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    assert refused.value.code == "match-over"
    assert "Ann, Dan won" in refused.value.message
    assert gong.games.count() == 2


def test_a_classic_dummy_match_is_won_by_the_first_to_the_target(dummy):
    scoresheet.hand_record(night=dummy, hand=dummy_hand("Ann", Ann=20, Bee=-20, Cat=10))
    assert not scoresheet_state(dummy).ended
    scoresheet.hand_record(night=dummy, hand=dummy_hand("Bee", Ann=35, Bee=10, Cat=-10))
    state = scoresheet_state(dummy)
    # Ann: 20 + 50 (the knock card) + 35 = 105, past 100; Bee: −20 + 10 + 50.
    assert state.totals == {"Ann": 105, "Bee": 40, "Cat": 0}
    assert (state.ended, state.winners) == (True, ("Ann",))


def test_a_dummy_hand_is_stored_as_the_engines_deal_and_scores_as_it_does(dummy):
    hand = {
        "knock": {"player": "Bee", "kind": "dark", "speto": True},
        "fool": "Ann",
        "head": {"player": "Cat"},
        "counts": {
            "Ann": {"table": 45, "hand": 30, "penalties": {"dummy-discard": 1}},
            "Bee": {"table": 50},
            "Cat": {"difference": -20},
        },
    }
    game = scoresheet.hand_record(night=dummy, hand=hand)
    assert game.document["house"] == DUMMY_HOUSE
    assert game.document["players"] == ["Ann", "Bee", "Cat"]
    assert game.scores == dummy_points_document.game_document_result(game.document)["scores"]
    assert game.scores == {"Ann": -85, "Bee": 300, "Cat": 30}


def test_an_engine_error_writes_nothing(dummy):
    with pytest.raises(RuleError) as refused:
        scoresheet.hand_record(night=dummy, hand={**dummy_hand("Ann", Bee=0, Cat=0), "fool": "Ann"})
    assert refused.value.code == "knocker-fool"
    assert not dummy.games.exists()
    assert totals(dummy) == {"Ann": 0, "Bee": 0, "Cat": 0}


def test_a_hand_with_a_field_of_the_other_game_is_refused(dummy):
    with pytest.raises(ServiceError) as refused:
        scoresheet.hand_record(night=dummy, hand={"captured": {}})
    assert refused.value.code == "hand-field"


def test_a_retried_hand_is_recorded_once(gong):
    key = "h" * 32
    first = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"), idempotency_key=key)
    again = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"), idempotency_key=key)
    assert first == again
    assert gong.games.count() == 1
    assert totals(gong)["Bee"] == -102


def test_the_preview_scores_the_next_hand_and_writes_nothing(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    result = scoresheet.hand_preview(night=gong, hand=pig_hand("Bee", "Cat"))
    assert result["scores"]["Cat"] == -184
    assert result["match"]["totals"]["Cat"] == -368
    assert result["match"]["ended"] is True
    assert result["match"]["pigs"] == ["Cat"]
    assert gong.games.count() == 1


def test_voiding_a_hand_takes_its_scores_off_and_keeps_it_on_the_sheet(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    second = scoresheet.hand_record(night=gong, hand=pig_hand("Cat", "Bee"))
    scoresheet.hand_void(game=second)
    second.refresh_from_db()
    assert second.status == Game.Status.VOIDED
    assert totals(gong) == {"Ann": -50, "Bee": -102, "Cat": -184, "Dan": -50}
    assert night_audit(gong) == []
    with pytest.raises(ServiceError) as twice:
        scoresheet.hand_void(game=second)
    assert twice.value.code == "voided-twice"


def test_voiding_the_hand_that_ended_the_match_lets_it_go_on(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    last = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    assert scoresheet_state(gong).ended
    scoresheet.hand_void(game=last)
    assert not scoresheet_state(gong).ended
    # The voided hand is as if never dealt: Bee deals again.
    assert scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat")).dealer.name == "Bee"


def test_closing_gong_zhu_asks_the_fewest_transfers_of_the_pairwise_money(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    state = scoresheet_state(gong)
    rows = scoresheet.scoresheet_close(night=gong)
    gong.refresh_from_db()
    assert not gong.is_open
    paid: dict[str, Decimal] = dict.fromkeys(state.totals, Decimal(0))
    for t in rows:
        assert t.mode == Transfer.Mode.FEWEST
        paid[t.payer.name] -= t.baht
        paid[t.payee.name] += t.baht
    pairwise = dict.fromkeys(state.totals, 0)
    for p in gong_zhu.pairwise(state.totals):
        pairwise[p.payer] -= p.points
        pairwise[p.payee] += p.points
    # the same money as every pair settling apart, in baht at the night's point value
    assert paid == {name: gong.baht(points) for name, points in pairwise.items()}
    assert len(rows) <= len(state.totals) - 1


def test_payments_of_a_closed_sheet_are_money_lines_in_baht_and_audit_clean(gong):
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    transfer = scoresheet.scoresheet_close(night=gong)[0]
    line = nights.payment_record(transfer=transfer)
    assert (line.item, line.baht, line.payer, line.payee) == (
        MoneyLine.Item.PAID, transfer.baht, transfer.payer, transfer.payee,
    )  # fmt: skip
    assert night_audit(gong) == []
    nights.payment_undo(transfer=transfer)
    assert night_audit(gong) == []


def test_a_closed_sheet_takes_no_hand(gong):
    scoresheet.scoresheet_close(night=gong)
    with pytest.raises(ServiceError) as refused:
        scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    assert refused.value.code == "night-closed"


def test_classic_dummy_and_gong_zhu_for_no_money_close_with_nothing_to_pay(dummy, db):
    scoresheet.hand_record(night=dummy, hand=dummy_hand("Ann", Ann=60, Bee=-20, Cat=10))
    assert scoresheet.scoresheet_close(night=dummy) == []
    free = make_scoresheet(point_value=Decimal(0))
    scoresheet.hand_record(night=free, hand=pig_hand("Bee", "Cat"))
    assert scoresheet.scoresheet_close(night=free) == []


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_the_audit_finds_a_total_out_of_step_and_a_tampered_hand(gong):
    game = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    Standing.objects.filter(night=gong, player__name="Ann").update(net=7)
    Game.objects.filter(pk=game.pk).update(scores={**game.scores, "Dan": 0})
    problems = night_audit(gong)
    assert any(p.startswith("Ann: running totals 7/0") for p in problems)
    assert "hand 1: stored scores differ from a fresh scoring" in problems


def test_a_three_player_gong_zhu_deal_may_leave_one_card_out(db):
    three = make_scoresheet(names=("Ann", "Bee", "Cat"))
    cards = [str(c) for c in gong_zhu.Card if c != gong_zhu.Card.DJ]
    game = scoresheet.hand_record(night=three, hand=captured(Ann=cards[:5], Bee=cards[5:]))
    assert game.scores["Cat"] == -50
    assert gong_zhu_document.game_document_result(game.document)["missing"] == "DJ"


def test_the_hosts_void_is_written_in_the_audit_log(gong):
    host = Membership.objects.create(group=gong.group, role=Membership.Role.HOST, name="Host")
    game = scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"), actor=host)
    scoresheet.hand_void(game=game, actor=host)
    actions = list(AuditEntry.objects.filter(game=game).values_list("action", flat=True))
    assert sorted(actions) == ["hand-record", "hand-void"]


def test_a_score_sheet_survives_export_and_import_with_its_settings_and_hands(db):
    from django.db import transaction

    from scorekeeper.services import exports

    with transaction.atomic():
        gong = make_scoresheet()
        scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
        voided = scoresheet.hand_record(night=gong, hand=pig_hand("Cat", "Dan"))
        scoresheet.hand_void(game=voided)
        data = exports.group_json(group=gong.group)
        transaction.set_rollback(True)
    group = exports.group_import(data=data)
    again = exports.group_json(group=group)
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in data.items() if k != "exported_at"
    }
    night = group.nights.get()
    assert night.scoresheet["target"] == DOWN_300
    assert totals(night) == {"Ann": -50, "Bee": -102, "Cat": -184, "Dan": -50}
    assert night_audit(night) == []
