"""Games from the deal to the last line: events, results, ties, fines, voids and corrections."""

import pytest

from scorekeeper.models import Game, LedgerLine
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import games, nights
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night, nets, player

DARK_FOOL = {  # the settlement page's worked example (86.2)
    "knock": {"player": "Bee", "kind": "dark"},
    "collected": ["Ann", "Cat"],
    "fool": "Cat",
    "speto_held": {"Dan": 1},
    "points": {"Ann": 35, "Cat": 10, "Dan": -80},
}


def test_first_game_is_dealt_by_the_first_dealer_in_seat_order(table):
    game = games.game_start(night=table)
    assert game.number == 1
    assert game.dealer.name == "Ann"
    assert game.document["players"] == ["Ann", "Bee", "Cat", "Dan"]


def test_a_finished_game_writes_the_engines_lines_and_updates_the_running_totals(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=DARK_FOOL)
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    assert nets(table) == {"Ann": 200, "Bee": 4200, "Cat": -2000, "Dan": -2400}
    assert night_audit(table) == []


def test_an_event_is_paid_at_once_and_stands_in_the_final_settlement(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    assert nets(table) == {"Ann": 0, "Bee": 600, "Cat": 0, "Dan": -600}
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 10, "Cat": 20, "Dan": 30},
        },
    )
    assert nets(table) == {"Ann": 1400, "Bee": 300, "Cat": -1000, "Dan": -700}
    assert night_audit(table) == []


def test_a_second_head_event_is_refused_and_nothing_is_written(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee"})
    before = LedgerLine.objects.count()
    with pytest.raises(RuleError, match="one head"):
        games.event_add(game=game, event={"type": "head", "player": "Cat"})
    assert LedgerLine.objects.count() == before
    assert game.events.count() == 1


def test_a_fine_ends_the_game_and_passes_the_deal_to_the_next_player(table):
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "fine", "player": "Ann", "reason": "misdeal"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINED
    assert nets(table) == {"Ann": -600, "Bee": 200, "Cat": 200, "Dan": 200}
    with pytest.raises(ServiceError, match="game 1 was already recorded by another phone"):
        games.game_finish(game=game, outcome=DARK_FOOL)
    assert games.game_start(night=table).dealer.name == "Bee"  # rule 16


def test_the_knocker_deals_the_next_game(table):
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Cat", "kind": "normal"},
            "points": {"Ann": 1, "Bee": 2, "Dan": 3},
        },
    )
    assert games.game_start(night=table, fool_swap=False).dealer.name == "Cat"  # rule 10


def test_after_a_stock_out_the_player_after_the_last_drawer_deals(table):
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={"points": {"Ann": 40, "Bee": 30, "Cat": 20, "Dan": 10}},
        last_drawer=player(table, "Dan"),
    )
    assert games.game_start(night=table).dealer.name == "Ann"  # rule 11: Dan drew last


def test_a_stock_out_needs_the_last_drawer(table):
    game = games.game_start(night=table)
    with pytest.raises(ServiceError, match="last card"):
        games.game_finish(game=game, outcome={"points": {"Ann": 4, "Bee": 3, "Cat": 2, "Dan": 1}})
    assert LedgerLine.objects.count() == 0


def test_after_a_fool_the_fool_discarder_and_the_knocker_swap_seats(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=DARK_FOOL)
    nxt = games.game_start(night=table)
    assert nxt.dealer.name == "Bee"
    seats = [s.player.name for s in table.seats.current().select_related("player")]
    assert seats == ["Ann", "Cat", "Bee", "Dan"]  # rule 17
    assert nxt.document["players"] == ["Bee", "Dan", "Ann", "Cat"]


def test_the_fool_swap_can_be_overridden(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=DARK_FOOL)
    games.game_start(night=table, fool_swap=False)
    seats = [s.player.name for s in table.seats.current().select_related("player")]
    assert seats == ["Ann", "Bee", "Cat", "Dan"]


def test_a_tie_leaves_the_game_pending_until_the_next_head_card(table):
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Cat", "kind": "normal"},
            "points": {"Ann": 10, "Bee": 10, "Dan": 25},
        },
    )
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING_TIE
    assert game.tie == {
        "tied": ["Ann", "Bee"],
        "at_stake": ["medium", "more"],
        "black": "Ann",
        "red": "Bee",
    }
    assert nets(table) == dict.fromkeys(["Ann", "Bee", "Cat", "Dan"], 0)
    with pytest.raises(ServiceError, match="not settled yet"):
        nights.night_close(night=table)
    games.game_start(night=table, head_color="red")  # rule 65
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    assert nets(table) == {"Ann": -500, "Bee": -400, "Cat": 1200, "Dan": -300}


def test_a_three_way_tie_is_resolved_by_the_order_of_a_draw(table):
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Dan", "kind": "normal"},
            "points": {"Ann": 5, "Bee": 5, "Cat": 5},
        },
    )
    with pytest.raises(ServiceError, match="does not settle"):
        games.game_resolve_tie(game=game, head_color="red")
    games.game_resolve_tie(game=game, order=["Cat", "Ann", "Bee"])
    assert nets(table) == {"Ann": -400, "Bee": -500, "Cat": -300, "Dan": 1200}


def test_voiding_reverses_every_line_and_keeps_the_game_visible(table):
    first = games.game_start(night=table)
    games.game_finish(game=first, outcome=DARK_FOOL)
    before = nets(table)
    game = games.game_start(night=table, fool_swap=False)
    games.event_add(game=game, event={"type": "show-speto", "player": "Ann"})
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Ann", "kind": "dark"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    written = game.lines.count()
    games.game_void(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.VOIDED
    assert nets(table) == before
    assert game.lines.count() == 2 * written
    assert game.lines.filter(reverses__isnull=False).count() == written
    assert night_audit(table) == []
    with pytest.raises(ServiceError, match="already voided"):
        games.game_void(game=game)


def test_a_corrected_game_takes_the_voided_games_number_and_links_to_it(table):
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome={**DARK_FOOL, "fool": None})
    games.game_void(game=game)
    fixed = games.game_correct(
        voided=game, events=[{"type": "head", "player": "Ann"}], outcome=DARK_FOOL
    )
    assert (fixed.number, fixed.replaces, fixed.status) == (1, game, Game.Status.SETTLED)
    assert nets(table) == {"Ann": 800, "Bee": 4000, "Cat": -2200, "Dan": -2600}
    assert night_audit(table) == []
    assert games.game_start(night=table).number == 2


def test_after_a_voided_game_the_deal_follows_the_last_game_standing(table):
    first = games.game_start(night=table, fool_swap=False)
    games.game_finish(
        game=first,
        outcome={
            "knock": {"player": "Cat", "kind": "normal"},
            "points": {"Ann": 5, "Bee": 6, "Dan": 7},
        },
    )
    second = games.game_start(night=table, fool_swap=False)  # Cat knocked: Cat deals (10)
    games.game_finish(
        game=second,
        outcome={
            "knock": {"player": "Dan", "kind": "normal"},
            "points": {"Ann": 5, "Bee": 6, "Cat": 7},
        },
    )
    games.game_void(game=second)  # Dan's knock no longer stands
    third = games.game_start(night=table, fool_swap=False)
    assert (second.dealer.name, third.dealer.name) == ("Cat", "Cat")  # after game 1, as before
    assert third.number == 3  # the voided game keeps its number


def test_a_game_in_a_closed_night_is_refused(table):
    nights.night_close(night=table)
    with pytest.raises(ServiceError, match="closed"):
        games.game_start(night=table)


def test_only_one_game_is_in_play_at_a_time(table):
    games.game_start(night=table)
    with pytest.raises(ServiceError, match="in play"):
        games.game_start(night=table)


def test_an_engine_error_writes_nothing(table):
    game = games.game_start(night=table)
    with pytest.raises(RuleError, match="knocker cannot be the fool"):
        games.game_finish(game=game, outcome={**DARK_FOOL, "fool": "Bee"})
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
    assert game.document.get("knock") is None
    assert LedgerLine.objects.count() == 0


def test_a_result_with_fields_that_are_not_part_of_a_result_is_refused(table):
    game = games.game_start(night=table)
    with pytest.raises(ServiceError, match="not part of a result"):
        games.game_finish(game=game, outcome={**DARK_FOOL, "players": ["A", "B", "C", "D"]})


def test_custom_stakes_reach_the_engine(db):
    table = make_night(stake_level="custom", stakes=(10, 20, 30), fine=50)
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 3, "Cat": 2, "Dan": 1},
        },
    )
    assert nets(table) == {"Ann": 120, "Bee": -30, "Cat": -40, "Dan": -50}


def test_the_head_card_cannot_settle_a_three_way_tie_and_nothing_starts(table):
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Dan", "kind": "normal"},
            "points": {"Ann": 5, "Bee": 5, "Cat": 5},
        },
    )
    with pytest.raises(ServiceError, match="high-card draw"):
        games.game_start(night=table, head_color="red")
    assert table.games.count() == 1
