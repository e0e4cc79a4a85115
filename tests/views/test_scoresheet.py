"""The score sheets of classic Dummy and Gong Zhu: opening, entering hands, the end, the money."""

import html
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from scorekeeper.models import Game, Membership, MoneyLine, Night, Transfer
from scorekeeper.rules import gong_zhu
from scorekeeper.services import access, scoresheet
from scorekeeper.services.ledger_audit import night_audit
from scorekeeper.templatetags.score import baht_text
from tests.views.conftest import HTMX, member

HEARTS = [f"H{n}" for n in range(2, 11)] + ["HJ", "HQ", "HK", "HA"]
PLAYERS = ["Ann", "Bee", "Cat", "Dan"]
VIEWER, PLAYER, HOST = Membership.Role.VIEWER, Membership.Role.PLAYER, Membership.Role.HOST


@pytest.fixture
def dummy(group) -> Night:
    """Classic Dummy for Ann, Bee and Cat to 100, the page's house rules."""
    return scoresheet.scoresheet_open(
        group=group, ruleset="dummy-points", players=PLAYERS[:3], house={}, target=100
    )


def cards_data(takers: dict[str, str], players: list[str] = PLAYERS) -> dict[str, str]:
    """The Gong Zhu hand form: each card's taker by name ("out" for not dealt)."""
    return {
        f"card_{card}": "out" if name == "out" else str(players.index(name))
        for card, name in takers.items()
    }


def pig_hand(pig: str = "Bee", rest: str = "Cat") -> dict[str, str]:
    """`pig` takes Q♠ and 2♥ (−102); `rest` the other hearts, J♦ and the glass (−184)."""
    takers = {"SQ": pig, "H2": pig, "DJ": rest, "C10": rest}
    takers.update(dict.fromkeys(HEARTS[1:], rest))
    return cards_data(takers)


def dummy_data(**overrides: object) -> dict[str, object]:
    """The classic Dummy hand form: Ann knocks with 40 on the table; Bee 20 − 35; Cat 10 − 5."""
    data: dict[str, object] = {
        "knocker": "Ann",
        "kind": "normal",
        "table_0": "40",
        "table_1": "20",
        "hand_1": "35",
        "table_2": "10",
        "hand_2": "5",
    }
    data.update(overrides)
    return data


def sheet(client: Client, night: Night) -> dict[str, int]:
    body = client.get(f"/s/{night.pk}/").content.decode()
    rows = re.findall(r'data-player="([^"]+)".*?data-total="(-?\d+)"', body, re.S)
    return {name: int(total) for name, total in rows}


# -- opening a sheet -----------------------------------------------------------------------------


def test_the_group_page_offers_both_score_sheets(en, group):
    body = en.get(f"/g/{group.pk}/").content.decode()
    assert f'href="/g/{group.pk}/race/dummy-points/new"' in body
    assert f'href="/g/{group.pk}/race/gong-zhu/new"' in body


def test_the_dummy_form_shows_every_house_option_with_the_pages_default(en, group):
    body = en.get(f"/g/{group.pk}/race/dummy-points/new").content.decode()
    for name in ("knock_card_speto_100", "knock_card_lay_off_100", "ace_in_run_10"):
        assert f'name="{name}"' in body
    for name in ("dummy_discard", "full_discard", "head_close", "speto_close", "speto_defence"):
        assert re.search(rf'name="{name}" value="50"', body)
    assert re.search(r'name="head_speto" value="100"', body)
    assert re.search(r'name="target" value="500"', body)


def test_opening_a_gong_zhu_sheet_stores_its_settings_and_shows_the_sheet(en, group):
    response = en.post(
        f"/g/{group.pk}/race/gong-zhu/new",
        {
            "seat_1": "Ann",
            "seat_2": "Bee",
            "seat_3": "Cat",
            "first_dealer": "2",
            "target_points": "150",
            "direction": "down",
            "no_point_cards": "0",
            "pig_in_shuan": "100",
            "point_value": "0.5",
        },
    )
    night = Night.objects.get()
    assert response.status_code == 302
    assert response.url == f"/s/{night.pk}/"
    assert night.ruleset == "gong-zhu"
    assert night.scoresheet == {
        "house": {"no_point_cards": 0, "pig_in_shuan": 100},
        "target": {"points": 150, "direction": "down"},
    }
    assert night.point_value == Decimal("0.5")
    assert night.first_dealer.name == "Bee"
    body = en.get(response.url).content.decode()
    assert "Record a hand · Bee deals" in body
    assert "target −150" in body


def test_a_gong_zhu_sheet_needs_three_players(en, group):
    response = en.post(
        f"/g/{group.pk}/race/gong-zhu/new",
        {"seat_1": "Ann", "seat_2": "Bee", "first_dealer": "1", "target_points": "500",
         "direction": "down", "no_point_cards": "-50", "pig_in_shuan": "-100",
         "point_value": "1"},
    )  # fmt: skip
    assert response.status_code == 422
    assert not Night.objects.exists()


def test_an_unknown_game_has_no_form(en, group):
    assert en.get(f"/g/{group.pk}/race/poker/new").status_code == 404


# -- the sheet and a hand ------------------------------------------------------------------------


def test_the_gong_zhu_hand_form_lays_out_sixteen_cards_with_one_choice_per_player(en, gong):
    body = en.get(f"/s/{gong.pk}/hands/new").content.decode()
    assert "<html" in body
    for card in gong_zhu.Card:
        assert body.count(f'name="card_{card}"') == 4
    assert 'value="out"' not in body  # four players: every card is dealt
    assert f'hx-post="/s/{gong.pk}/hands/preview"' in body
    assert f'formaction="/s/{gong.pk}/hands/preview"' in body


def test_a_three_player_deal_offers_not_dealt_for_every_card(en, group):
    three = scoresheet.scoresheet_open(
        group=group, ruleset="gong-zhu", players=PLAYERS[:3], house={},
        target={"points": 500, "direction": "down"}, point_value=Decimal(0),
    )  # fmt: skip
    body = en.get(f"/s/{three.pk}/hands/new").content.decode()
    assert body.count('value="out"') == 16


def test_the_preview_swap_scores_the_hand_and_writes_nothing(en, gong):
    response = en.post(f"/s/{gong.pk}/hands/preview", pig_hand(), HTTP_HX_TARGET="preview", **HTMX)
    body = response.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<section id="preview"')
    assert 'data-preview-score="Bee">−102<' in body
    assert 'data-preview-score="Cat">−184<' in body
    assert not gong.games.exists()


def test_the_preview_counts_the_cards_still_to_enter_and_sees_a_shuan_coming(en, gong):
    takers = cards_data(dict.fromkeys(HEARTS, "Ann"))
    body = en.post(
        f"/s/{gong.pk}/hands/preview", takers, HTTP_HX_TARGET="preview", **HTMX
    ).content.decode()
    assert "3 cards still to enter." in body
    assert "Shuan (ช้วน)! Ann took all thirteen hearts" in body


def test_the_preview_names_a_big_shuan(en, gong):
    takers = cards_data({str(card): "Dan" for card in gong_zhu.Card})
    body = en.post(
        f"/s/{gong.pk}/hands/preview", takers, HTTP_HX_TARGET="preview", **HTMX
    ).content.decode()
    assert "Big Shuan (บิ๊กช้วน)! Dan took all sixteen point cards" in body
    assert 'data-preview-score="Dan">+1,000<' in body


def test_the_preview_without_javascript_is_the_whole_form_with_what_was_tapped(en, gong):
    body = en.post(f"/s/{gong.pk}/hands/preview", pig_hand()).content.decode()
    assert "<html" in body
    assert 'data-preview-score="Cat">−184<' in body
    assert re.search(r'name="card_SQ" value="1"[^>]*checked', body)


def test_saving_a_hand_updates_the_standings_and_lists_it(en, gong):
    response = en.post(f"/s/{gong.pk}/hands/new", {**pig_hand(), "number": "1"})
    assert response.status_code == 302
    assert sheet(en, gong) == {"Ann": -50, "Bee": -102, "Cat": -184, "Dan": -50}
    body = en.get(f"/s/{gong.pk}/").content.decode()
    assert 'data-hand="1"' in body
    assert "Q♠ to Bee" in body
    assert "Record a hand · Bee deals" in body


def test_a_card_nobody_took_is_asked_for_beside_it(en, gong):
    data = pig_hand()
    del data["card_C10"]
    response = en.post(f"/s/{gong.pk}/hands/new", data)
    body = response.content.decode()
    assert response.status_code == 422
    row = body[body.index('id="field-card_C10"') :]
    assert "Who took 10♣?" in row[: row.index("</tbody>")]
    assert re.search(r'name="card_SQ" value="1"[^>]*checked', body)  # the rest is kept
    assert not gong.games.exists()


def test_a_dummy_engine_error_is_shown_beside_its_field_and_the_values_are_kept(en, dummy):
    response = en.post(f"/s/{dummy.pk}/hands/new", dummy_data(fool="Ann"))
    body = response.content.decode()
    assert response.status_code == 422
    fool = body[body.index('id="field-fool"') :]
    assert "The knocker cannot be the fool discarder." in fool[: fool.index("</div>\n")]
    assert 'value="35"' in body
    assert not dummy.games.exists()


def test_a_dummy_count_error_is_shown_in_that_players_row(en, dummy):
    response = en.post(f"/s/{dummy.pk}/hands/new", dummy_data(hand_1="33"))
    body = response.content.decode()
    assert response.status_code == 422
    assert "Bee" in body and "fives" in body


def test_the_dummy_preview_shows_the_formula_and_the_new_totals(en, dummy):
    body = en.post(
        f"/s/{dummy.pk}/hands/preview",
        dummy_data(fool="Bee", penalty_dummy_discard_2="1"),
        HTTP_HX_TARGET="preview",
        **HTMX,
    ).content.decode()
    # Ann: 40 + 50; Bee: 20 − 35 − 50 (fool); Cat: 10 − 5 − 50 (dummy discard).
    assert 'data-preview-score="Ann">+90<' in body
    assert 'data-preview-score="Bee">−65<' in body
    assert 'data-preview-score="Cat">−45<' in body
    assert "40 + 50 = 90" in body and "−15 − 50 = −65" in body and "5 − 50 = −45" in body
    assert "the next deal goes the other way round" in body


def test_a_dummy_hand_by_difference_and_a_dark_sleeper(en, dummy):
    data = {
        "knocker": "Bee",
        "kind": "dark",
        "by_difference": "on",
        "difference_0": "-20",
        "difference_1": "30",
        "difference_2": "-15",
        "dark": ["Cat"],
    }
    assert en.post(f"/s/{dummy.pk}/hands/new", data).status_code == 302
    game = dummy.games.get()
    assert game.document["counts"]["Cat"] == {"difference": -15, "collected": False}
    assert game.scores == {"Ann": -20, "Bee": 160, "Cat": -30}


def test_a_stock_out_hand_has_no_knock_and_ignores_the_hidden_fool(en, dummy):
    data = dummy_data(knocker="stock-out", fool="Bee", table_0="", hand_0="10")
    assert en.post(f"/s/{dummy.pk}/hands/new", data).status_code == 302
    game = dummy.games.get()
    assert "knock" not in game.document and "fool" not in game.document
    assert game.scores == {"Ann": -10, "Bee": -15, "Cat": 5}


def test_a_penalty_error_is_shown_under_the_penalties(en, dummy):
    response = en.post(f"/s/{dummy.pk}/hands/new", dummy_data(penalty_head_close_1="1"))
    body = response.content.decode()
    assert response.status_code == 422
    penalties = body[body.index('id="field-penalties"') :]
    assert "close discard of the head needs another player" in penalties
    assert '<details class="more penalties" open id="field-penalties">' in body


def test_the_match_end_is_a_banner_and_the_sheet_takes_no_more_hands(en, gong):
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/").content.decode()
    assert 'id="match-end"' in body
    assert "The pig (หมู): <strong data-pigs>Cat</strong>" in body
    assert "Winners, sharing the win: <strong data-winners>Ann, Dan</strong>" in body
    assert "Record a hand" not in body
    assert en.get(f"/s/{gong.pk}/hands/new").status_code == 302
    late = en.post(f"/s/{gong.pk}/hands/new", {**pig_hand(), "number": "3"})
    assert late.status_code == 422
    assert "The match is over" in late.content.decode()
    assert gong.games.count() == 2


def test_a_second_phone_entering_the_same_hand_is_sent_to_the_sheet(en, gong):
    first = en.post(f"/s/{gong.pk}/hands/new", {**pig_hand(), "number": "1"})
    second = en.post(f"/s/{gong.pk}/hands/new", {**pig_hand("Cat", "Bee"), "number": "1"})
    assert first.status_code == second.status_code == 302
    assert gong.games.count() == 1
    assert "Hand 1 was already recorded" in en.get(second.url).content.decode()


def test_a_double_tap_on_save_records_the_hand_once(en, gong):
    data = {**pig_hand(), "idempotency_key": "r" * 32}
    en.post(f"/s/{gong.pk}/hands/new", data)
    en.post(f"/s/{gong.pk}/hands/new", data)
    assert gong.games.count() == 1


def test_the_sheet_poll_gets_only_the_sheet_or_nothing_when_nothing_changed(en, gong):
    page = en.get(f"/s/{gong.pk}/").content.decode()
    poll = html.unescape(re.search(r'id="sheet" hx-get="([^"]+)"', page)[1])  # type: ignore[index]
    unchanged = en.get(poll, HTTP_HX_TARGET="sheet", **HTMX)
    assert unchanged.status_code == 204
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    swap = en.get(poll, HTTP_HX_TARGET="sheet", **HTMX).content.decode()
    assert "<html" not in swap
    assert swap.lstrip().startswith('<div id="sheet"')
    assert 'data-total="-184"' in swap


# -- one hand, voids -----------------------------------------------------------------------------


def test_the_hand_page_shows_the_cards_each_player_took(en, gong):
    game = scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/hands/{game.pk}/").content.decode()
    assert "Q♠ 2♥" in body
    assert 'data-score="Cat">−184<' in body
    assert f'href="/s/{gong.pk}/hands/{game.pk}/void"' in body


def test_the_host_voids_a_hand_which_stays_struck_through(en, gong):
    game = scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    assert en.get(f"/s/{gong.pk}/hands/{game.pk}/void").status_code == 200
    assert en.post(f"/s/{gong.pk}/hands/{game.pk}/void").status_code == 302
    assert sheet(en, gong) == dict.fromkeys(PLAYERS, 0)
    body = en.get(f"/s/{gong.pk}/").content.decode()
    assert "<del>1</del>" in body
    assert "<del>−184</del>" in body
    assert night_audit(gong) == []


def test_a_player_cannot_void_a_hand(gong):
    phone = Client()
    member(phone, gong.group, PLAYER)
    game = scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    assert phone.post(f"/s/{gong.pk}/hands/{game.pk}/void").status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.SETTLED


def test_a_viewer_sees_the_sheet_without_the_record_button_and_cannot_enter(gong):
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(phone, gong.group, VIEWER)
    body = phone.get(f"/s/{gong.pk}/").content.decode()
    assert "Standings" in body and "Record a hand" not in body
    assert phone.post(f"/s/{gong.pk}/hands/new", pig_hand()).status_code == 403
    assert phone.post(f"/s/{gong.pk}/hands/preview", pig_hand()).status_code == 403
    assert not gong.games.exists()


def test_an_outsider_finds_no_sheet(gong):
    assert Client().get(f"/s/{gong.pk}/hands/new").status_code == 404


def test_a_knock_dummy_night_has_no_hand_form(en, table):
    assert en.get(f"/s/{table.pk}/hands/new").status_code == 404


# -- the end of the match and the money ----------------------------------------------------------


def test_closing_a_gong_zhu_match_asks_who_pays_whom_and_payments_are_marked(en, gong):
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    page = en.get(f"/s/{gong.pk}/race/settle").content.decode()
    assert "Close the match and settle up" in page
    assert en.post(f"/s/{gong.pk}/race/settle").status_code == 302
    gong.refresh_from_db()
    assert not gong.is_open
    transfers = list(Transfer.objects.filter(night=gong))
    body = en.get(f"/s/{gong.pk}/race/settle").content.decode()
    for t in transfers:
        assert f"{t.payer.name} → {t.payee.name} <strong>{baht_text(t.baht)} ฿</strong>" in body
    assert "Pairwise, as the rules count it" in body
    first = transfers[0]
    swap = en.post(f"/s/{gong.pk}/race/transfers/{first.pk}/paid", **HTMX).content.decode()
    assert swap.lstrip().startswith('<section id="transfers"')
    assert "Paid · tapped by" in swap and "Not paid after all" in swap
    paid = first.money_lines.get()
    assert (paid.item, paid.baht, paid.payer) == (MoneyLine.Item.PAID, first.baht, first.payer)
    assert night_audit(gong) == []


def test_the_gong_zhu_standings_show_the_pairwise_money(en, gong):
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/").content.decode()
    money = dict(re.findall(r'data-player="([^"]+)".*?data-money="(-?\d+)"', body, re.S))
    totals = {"Ann": -50, "Bee": -102, "Cat": -184, "Dan": -50}
    assert {k: int(v) for k, v in money.items()} == gong_zhu.pairwise_net(totals)


def test_a_player_cannot_close_the_match(gong):
    phone = Client()
    member(phone, gong.group, PLAYER)
    assert phone.post(f"/s/{gong.pk}/race/settle").status_code == 403
    assert Night.objects.get(pk=gong.pk).is_open


def test_classic_dummy_closes_with_no_money(en, dummy):
    en.post(f"/s/{dummy.pk}/hands/new", dummy_data())
    en.post(f"/s/{dummy.pk}/race/settle")
    body = en.get(f"/s/{dummy.pk}/race/settle").content.decode()
    assert "No money in this game" in body
    assert not Transfer.objects.exists()


def test_the_history_draws_the_totals_after_every_hand(en, gong):
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/race/history").content.decode()
    assert '<svg class="chart"' in body
    assert f'href="/s/{gong.pk}/export.csv"' in body
    group_page = en.get(f"/g/{gong.group.pk}/").content.decode()
    assert f'href="/s/{gong.pk}/race/history"' in group_page


def _captured(data: dict[str, Any]) -> dict[str, Any]:
    """The form data of a four-player hand as the engine's `captured`."""
    captured: dict[str, list[str]] = {}
    for field, value in data.items():
        captured.setdefault(PLAYERS[int(value)], []).append(field.removeprefix("card_"))
    return {"captured": captured}


def test_the_knock_dummy_addresses_of_a_score_sheet_do_not_exist(client, gong):
    sheet = gong
    hand = scoresheet.hand_record(
        night=sheet,
        hand={
            "captured": {
                "Ann": ["SQ", "DJ", "C10"],
                "Bee": [f"H{n}" for n in range(2, 11)] + ["HJ", "HQ", "HK", "HA"],
            }
        },
    )
    for url in (
        f"/s/{sheet.pk}/games/start",
        f"/s/{sheet.pk}/games/{hand.pk}/events/head",
        f"/s/{sheet.pk}/settle",
        f"/s/{sheet.pk}/games/{hand.pk}/void",
        f"/s/{sheet.pk}/games/{hand.pk}/finish",
    ):
        assert client.post(url, {"mode": "fewest"}).status_code == 404, url
    assert client.get(f"/s/{sheet.pk}/history").status_code == 404
    assert client.get(f"/s/{sheet.pk}/").status_code == 200  # the sheet itself
    assert sheet.games.count() == 1 and sheet.transfers.count() == 0


def test_a_new_player_takes_a_seat_on_a_score_sheet_and_plays_the_next_hand(client, db):
    group = access.group_create(name="วงหมู")
    member(client, group, Membership.Role.HOST)
    sheet = scoresheet.scoresheet_open(
        group=group,
        ruleset="gong-zhu",
        players=["Ann", "Bee", "Cat", "Dan"],
        house={},
        target={"points": 1000, "direction": "down"},
        point_value=Decimal(1),
    )
    hearts = [f"H{n}" for n in range(2, 11)] + ["HJ", "HQ", "HK", "HA"]
    scoresheet.hand_record(
        night=sheet, hand={"captured": {"Ann": ["SQ", "DJ", "C10"], "Bee": hearts}}
    )
    assert client.post(f"/s/{sheet.pk}/seats", {"position": "3", "name": "Eve"}).status_code == 302
    hand = scoresheet.hand_record(
        night=sheet, hand={"captured": {"Eve": ["SQ", "DJ", "C10"], "Cat": hearts}}
    )
    assert set(hand.scores) == {"Ann", "Bee", "Cat", "Eve"}
    assert night_audit(sheet) == []


# -- a long match reads in pages -----------------------------------------------------------------


def hands_on(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-hand="(\d+)"', body)]


def running_after(body: str, number: int) -> dict[str, int]:
    """The running totals the page shows after hand `number`."""
    hand = body[body.index(f'data-hand="{number}"') :]
    hand = hand[: hand.index("</tbody>")]
    found = re.findall(r'data-running="([^"]+)">= ([−+]?[\d,]+)<', hand)
    return {name: int(total.replace("−", "-").replace(",", "")) for name, total in found}


@pytest.fixture
def long_dummy(dummy) -> Night:
    """Classic Dummy of 25 hands, far from its target; hand 3 voided."""
    dummy.scoresheet = {**dummy.scoresheet, "target": 10**6}
    dummy.save(update_fields=["scoresheet"])
    hand = {
        "knock": {"player": "Ann", "kind": "normal"},
        "counts": {"Ann": {"table": 40}, "Bee": {"table": 20, "hand": 35}, "Cat": {"table": 10}},
    }
    made = [scoresheet.hand_record(night=dummy, hand=hand) for _ in range(25)]
    scoresheet.hand_void(game=made[2])
    return dummy


def test_a_long_sheet_shows_its_latest_hands_and_links_to_the_earlier_ones(en, long_dummy):
    body = en.get(f"/s/{long_dummy.pk}/").content.decode()
    assert hands_on(body) == list(range(25, 5, -1))
    assert 'href="?page=2#hands"' in body
    assert "Page 1 of 2" in body
    # Ann scores 40 + 50 a hand, Bee 20 − 35, Cat 10: 24 hands count.
    assert running_after(body, 25) == {"Ann": 24 * 90, "Bee": 24 * -15, "Cat": 24 * 10}
    assert running_after(body, 6) == {"Ann": 5 * 90, "Bee": 5 * -15, "Cat": 5 * 10}
    earlier = en.get(f"/s/{long_dummy.pk}/?page=2").content.decode()
    assert hands_on(earlier) == [5, 4, 3, 2, 1]
    assert running_after(earlier, 4) == {"Ann": 3 * 90, "Bee": 3 * -15, "Cat": 3 * 10}
    assert "<del>3</del>" in earlier
    assert 'href="?page=1#hands"' in earlier
    assert f"/s/{long_dummy.pk}/?page=2&amp;v=" in earlier  # the poll keeps to its page


@pytest.mark.parametrize(
    "asked", ["0", "-3", "x", "", "9" * 5000], ids=["0", "-3", "a word", "empty", "5,000 nines"]
)
def test_a_page_that_is_not_a_page_number_shows_the_first(en, long_dummy, asked):
    response = en.get(f"/s/{long_dummy.pk}/", {"page": asked})
    assert response.status_code == 200
    assert hands_on(response.content.decode())[0] == 25


def test_a_page_past_the_last_shows_the_last(en, long_dummy):
    for url in (f"/s/{long_dummy.pk}/?page=3", f"/s/{long_dummy.pk}/?page={10**30}"):
        assert hands_on(en.get(url).content.decode()) == [5, 4, 3, 2, 1]
    history = en.get(f"/s/{long_dummy.pk}/race/history?page=7").content.decode()
    assert hands_on(history) == list(range(21, 26))


def test_the_history_lists_the_hands_oldest_first_in_pages(en, long_dummy):
    body = en.get(f"/s/{long_dummy.pk}/race/history").content.decode()
    assert hands_on(body) == list(range(1, 21))
    assert running_after(body, 20) == {"Ann": 19 * 90, "Bee": 19 * -15, "Cat": 19 * 10}
    assert 'href="?page=2#hands"' in body
    later = en.get(f"/s/{long_dummy.pk}/race/history?page=2").content.decode()
    assert hands_on(later) == list(range(21, 26))


def test_the_history_chart_draws_at_most_its_points_the_first_and_last_among_them(
    en, long_dummy, monkeypatch
):
    def drawn() -> tuple[list[str], list[str]]:
        body = en.get(f"/s/{long_dummy.pk}/race/history").content.decode()
        lines = re.findall(r'<polyline points="([^"]+)"', body)
        labels = re.findall(r'y="194" text-anchor="\w+"[^>]*>(\d+)</text>', body)  # the x axis
        return [line.split() for line in lines][0], labels

    points, labels = drawn()
    assert len(points) == 24  # every hand that counts: not the voided one
    assert labels == ["1", "25"]
    monkeypatch.setattr("scorekeeper.reads.scoresheet.CHART_POINTS", 5)
    points, labels = drawn()
    assert len(points) == 5
    assert labels == ["1", "25"]


def test_players_named_like_numbers_or_with_quotes_are_added_up_by_name(en, group):
    names = ["7", 'Ann "Ace"', "นก"]
    sheet = scoresheet.scoresheet_open(
        group=group, ruleset="dummy-points", players=names, house={}, target=10**6
    )
    hand = {
        "knock": {"player": "7", "kind": "normal"},
        "counts": {"7": {"table": 40}, 'Ann "Ace"': {"table": 20, "hand": 35}, "นก": {"table": 10}},
    }
    for _ in range(3):
        scoresheet.hand_record(night=sheet, hand=hand)
    body = en.get(f"/s/{sheet.pk}/").content.decode()
    assert running_after(body, 3) == {"7": 270, "Ann &quot;Ace&quot;": -45, "นก": 30}
    assert running_after(body, 1) == {"7": 90, "Ann &quot;Ace&quot;": -15, "นก": 10}


def test_fool_discards_turn_the_deal_however_many_hands_before(en, long_dummy):
    """Two fools turn it back; a voided fool does not count (rule of the deal going round)."""
    fooled = {
        "knock": {"player": "Ann", "kind": "normal"},
        "fool": "Bee",
        "counts": {"Ann": {"table": 40}, "Bee": {"table": 20, "hand": 35}, "Cat": {"table": 10}},
    }
    first = scoresheet.hand_record(night=long_dummy, hand=fooled)  # hand 26, Bee's deal
    body = en.get(f"/s/{long_dummy.pk}/").content.decode()
    assert "turned the deal the other way round" in body
    assert "· Ann deals" in body
    scoresheet.hand_void(game=first)
    scoresheet.hand_record(night=long_dummy, hand=fooled)
    scoresheet.hand_record(night=long_dummy, hand=fooled)
    body = en.get(f"/s/{long_dummy.pk}/").content.decode()
    assert "turned the deal the other way round" not in body
    assert "· Bee deals" in body  # Bee dealt one fool, Ann the other: back in seat order


def test_a_poll_of_each_page_of_the_sheet_gets_that_page_though_built_once(en, long_dummy):
    """The sheet a poll brings is built once for each version (views/live.py), and for each page
    of hands: a phone on the second page never gets the first page's sheet."""
    sheet = {"HTTP_HX_TARGET": "sheet", **HTMX}
    first = en.get(f"/s/{long_dummy.pk}/?v=0", **sheet).content.decode()
    second = en.get(f"/s/{long_dummy.pk}/?page=2&v=0", **sheet).content.decode()
    assert hands_on(first)[0] == 25 and hands_on(second) == [5, 4, 3, 2, 1]
    again = en.get(f"/s/{long_dummy.pk}/?page=x&v=0", **sheet).content.decode()
    assert again == first  # anything but a page number is the first page: the same build
