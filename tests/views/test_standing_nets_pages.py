"""The pages show every game's money from the standing ledger: after an undo or an event taken
back, a game's row is what the rules engine makes of the game as it stands, and the rows add up
to the scoreboard; an event taken back stays listed, struck through, with who took it back."""

import html
import re
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper.card import card_svg
from scorekeeper.models import Game, Membership, Night, Player
from scorekeeper.reads.money import Choices, Close
from scorekeeper.reads.share import night_card, night_summary
from scorekeeper.rules.knock_dummy import settle_events
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.rules.money import baht
from scorekeeper.services import games, group_rules, nights
from scorekeeper.services.group_rules import Usual
from tests.services.test_ledger_machine import amount
from tests.test_card import drawn_texts

ANN_DARK = {"knock": {"player": "Ann", "kind": "dark"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}
BEE_NORMAL = {
    "knock": {"player": "Bee", "kind": "normal"},
    "points": {"Ann": 5, "Cat": 20, "Dan": 30},
}


def the_host(table: Night) -> Membership:
    """The test client's phone, named as the others know it."""
    host = Membership.objects.get(group=table.group, device__isnull=False)
    host.name = "พี่หนึ่ง"
    host.save(update_fields=["name"])
    return host


def number(text: str) -> int:
    """A figure as the pages write it: +1,200, −300 or 0."""
    return int(text.replace(",", "").replace("−", "-").replace("+", ""))


def game_rows(body: str) -> dict[str, list[int]]:
    """The table page's games as shown: each standing game's number and its nets, in the order
    of the page's columns (voided games, struck through, left out)."""
    table = re.search(r'<table class="games">(.*?)</table>', body, re.S)
    assert table is not None
    rows = {}
    for status, cells in re.findall(r'<tr class="([\w-]+)">(.*?)</tr>', table.group(1), re.S):
        if status == "voided":
            continue
        shown = re.search(r"<a [^>]*>(\d+)</a>", cells)
        assert shown is not None
        rows[shown.group(1)] = [number(n) for n in re.findall(r'<td class="num">([^<]*)<', cells)]
    return rows


def columns(body: str) -> list[str]:
    table = re.search(r'<table class="games">\s*<thead>(.*?)</thead>', body, re.S)
    assert table is not None
    return re.findall(r'<th class="num">([^<]*)</th>', table.group(1))


def engine_row(game: Game, names: list[str]) -> list[int]:
    """What the rules engine alone makes each player win or lose in the stored game, in `names`'
    order: a settled game's whole settlement, a game in play its events' lines."""
    game.refresh_from_db()
    seat = dict(zip(game.document["players"], game.seating, strict=True))
    name_of = {p.pk: p.name for p in Player.objects.filter(pk__in=game.seating)}
    if game.status == Game.Status.IN_PLAY:
        net: Counter[str] = Counter()
        for line in settle_events(game_from_document(game.settle_document())):
            net[line.payer] -= line.amount
            net[line.payee] += line.amount
    else:
        net = Counter(game.settled()[1].net())
    by_player = {name_of[seat[n]]: v for n, v in net.items()}
    return [by_player.get(name, 0) for name in names]


def scoreboard(table: Night) -> dict[str, int]:
    return {s.player.name: s.net for s in table.standings.select_related("player")}


def adds_up(rows: dict[str, list[int]], names: list[str], table: Night) -> None:
    totals = [sum(values) for values in zip(*rows.values(), strict=True)]
    assert dict(zip(names, totals, strict=True)) == scoreboard(table)


def test_after_an_undo_the_tables_row_is_the_standing_result_and_the_rows_add_up(en, table):
    host = the_host(table)
    first = games.game_start(night=table)
    games.event_add(game=first, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.game_finish(game=first, outcome=ANN_DARK)
    en.post(reverse("game-undo", args=[table.pk, first.pk]))  # the host takes it back
    first.refresh_from_db()
    assert first.status == Game.Status.IN_PLAY and host.pk
    body = en.get(reverse("table", args=[table.pk])).content.decode()
    names = columns(body)
    assert game_rows(body) == {"1": engine_row(first, names)}  # its head alone
    adds_up(game_rows(body), names, table)

    games.game_finish(game=first, outcome=BEE_NORMAL)
    second = games.game_start(night=table)
    games.game_finish(game=second, outcome=ANN_DARK)
    body = en.get(reverse("table", args=[table.pk])).content.decode()
    rows = game_rows(body)
    assert rows == {"1": engine_row(first, names), "2": engine_row(second, names)}
    adds_up(rows, names, table)


def test_after_an_event_taken_back_the_tables_row_is_standing_and_the_event_struck(en, table):
    the_host(table)
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    en.post(reverse("event-remove", args=[table.pk, game.pk, 2]))
    body = en.get(reverse("table", args=[table.pk])).content.decode()
    names = columns(body)
    assert game_rows(body) == {"1": engine_row(game, names)}
    adds_up(game_rows(body), names, table)
    played = re.search(r'<ul class="lines played">(.*?)</ul>', body, re.S)
    assert played is not None
    struck = re.findall(
        r'<li class="reversal"><span><del>(.*?)</del>(.*?)</li>', played.group(1), re.S
    )
    assert len(struck) == 1
    assert "Dummy discard" in struck[0][0] and "taken back by พี่หนึ่ง" in struck[0][1]
    assert "Take back" not in struck[0][1]  # nothing left to take back, nor to pay
    # The head still stands: it can be taken back, and handed over at the table.
    assert played.group(1).count("Take back</button>") == 1


def test_the_history_page_runs_by_the_standing_games_and_strikes_an_event_taken_back(en, table):
    the_host(table)
    first = games.game_start(night=table)
    games.event_add(game=first, event={"type": "dummy-discard", "player": "Cat"})
    games.game_finish(game=first, outcome=ANN_DARK)
    en.post(reverse("game-undo", args=[table.pk, first.pk]))
    en.post(reverse("event-remove", args=[table.pk, first.pk, 1]))
    games.game_finish(game=first, outcome=BEE_NORMAL)
    second = games.game_start(night=table)
    games.game_finish(game=second, outcome=ANN_DARK)
    response = en.get(reverse("history", args=[table.pk]))
    body = response.content.decode()
    names = response.context["names"]
    rows = dict(response.context["rows"])
    first_row = engine_row(first, names)
    assert list(rows["1"]) == first_row
    assert list(rows["2"]) == [
        a + b for a, b in zip(first_row, engine_row(second, names), strict=True)
    ]
    assert dict(zip(names, rows["2"], strict=True)) == scoreboard(table)
    # The running balance as the page writes it, its last row the scoreboard.
    last = re.findall(r"<tr><td>2</td>(.*?)</tr>", body, re.S)[-1]
    assert [number(n) for n in re.findall(r'<td class="num">([^<]*)</td>', last)] == list(rows["2"])
    listed = re.search(r'<ul class="events-list"><li class="reversal"><del>(.*?)</del>(.*?)</li>',
                       body, re.S)  # fmt: skip
    assert listed is not None and "Cat" in listed.group(1)
    assert "taken back by พี่หนึ่ง" in listed.group(2)


def undone_saved_again_and_closed(en, table: Night, choices: Choices) -> Game:
    """Game 1: Ann's dark knock saved, undone from the host's phone, saved as Bee's normal knock;
    then the night closed."""
    the_host(table)
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome=ANN_DARK)
    en.post(reverse("game-undo", args=[table.pk, game.pk]))
    games.game_finish(game=game, outcome=BEE_NORMAL)
    nights.night_close(night=table, choices=choices)
    return Game.objects.get(pk=game.pk)


def test_a_per_game_fee_after_an_undo_is_shown_charged_to_the_standing_winner(en, table):
    undone_saved_again_and_closed(en, table, Choices(fee=Decimal(20)))
    body = en.get(reverse("history", args=[table.pk])).content.decode()
    fees = re.findall(r"<li class=\"\">(\w+) → the house <strong>20 ฿</strong>", body)
    assert fees == ["Bee"]


def share_totals(text: str) -> dict[str, Decimal]:
    """Each party's total as the share text writes it: "Bee: games +300 ฿ − fee 20 ฿ = receives
    280 ฿" (its transfers' lines have no "=")."""
    found = re.findall(r"^(.+?): .* = (?:(receives|pays) )?([\d,.]+) ฿$", text, re.M)
    return {
        name: Decimal(figure.replace(",", "")) * (-1 if way == "pays" else 1)
        for name, way, figure in found
    }


def fee_from_the_standing_winner(game: Game, names: list[str]) -> dict[str, Decimal]:
    """What each party comes to, from scratch: the engine's nets of the stored game at half a
    baht a point, and 20 ฿ from the game's winner by them to the house."""
    nets = dict(zip(names, engine_row(game, names), strict=True))
    winner = max(names, key=nets.__getitem__)
    assert winner == "Bee"  # Ann won the result undone: every line as booked charges her
    totals = {n: baht(nets[n], Decimal("0.5")) - (20 if n == winner else 0) for n in names}
    return {**totals, "the house": Decimal(20)}


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open, the usual fee"])
def test_the_share_text_and_the_card_after_an_undo_charge_the_fee_to_the_standing_winner(
    en, table, closed
):
    fee = Choices(fee=Decimal(20))  # 20 ฿ a game from its winner, to the house
    if closed:
        game = undone_saved_again_and_closed(en, table, fee)
    else:  # the running settle-up assumes the group's usual fee
        usual = Usual(close=Close(fee=fee.fee, fee_per=fee.fee_per))
        group_rules.group_rules_set(group=table.group, usual=usual, actor=the_host(table))
        game = games.game_start(night=table)
        games.game_finish(game=game, outcome=ANN_DARK)
        en.post(reverse("game-undo", args=[table.pk, game.pk]))
        game = games.game_finish(game=game, outcome=BEE_NORMAL)
    want = fee_from_the_standing_winner(game, ["Ann", "Bee", "Cat", "Dan"])
    body = en.get(reverse("summary", args=[table.pk])).content.decode()
    text = html.unescape(re.search(r'data-text="([^"]*)"', body)[1])  # type: ignore[index]
    assert share_totals(text) == want
    assert [line for line in text.splitlines() if " fee " in line and " = " in line] == [
        "Bee: games +600 ฿ − fee 20 ฿ = receives 580 ฿",
        "the house: fee 20 ฿ = receives 20 ฿",
    ]
    card_png = en.get(reverse("summary-card", args=[table.pk]))
    assert card_png.status_code == 200 and card_png.content.startswith(b"\x89PNG")
    with translation.override("en"):  # the card the phone just fetched, as SVG to read
        night = Night.objects.get(pk=table.pk)
        card = night_card(night_summary(night, group_rules.usual_of(night.group).close))
    assert {net[0]: amount(net[1]) for net in card.nets} == want
    drawn = {t["string"] for t in drawn_texts(card_svg(card))}
    assert all(net[1] in drawn for net in card.nets)


def test_a_players_page_after_an_undo_counts_the_standing_result_alone(en, table):
    game = undone_saved_again_and_closed(en, table, Choices())
    ann = Player.objects.get(group=table.group, name="Ann")
    response = en.get(reverse("player", args=[table.group.pk, ann.pk]))
    record = response.context["record"]
    names = ["Bee", "Cat", "Dan"]
    # Against each other player, in baht at half a baht a point: the engine's lines of the
    # result that stands, and nothing of the one undone.
    _, settlement = game.settled()
    against = Counter()
    for line in settlement.lines:
        if line.payee == "Ann":
            against[line.payer] += line.amount
        elif line.payer == "Ann":
            against[line.payee] -= line.amount
    assert dict(record.head_to_head) == {n: table.baht(against[n]) for n in names if against[n]}
    assert record.nemesis == ("Bee", table.baht(against["Bee"]))
    assert record.best_baht == record.worst_baht == table.baht(scoreboard(table)["Ann"])
    assert record.knocks == Counter()  # the dark knock was undone
    body = response.content.decode()
    assert f"{table.baht(against['Bee']):,.0f}".replace("-", "−") in body


def test_an_event_taken_back_says_who_took_it_back_in_thai(client, table):
    the_host(table)
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "dummy-discard", "player": "Cat"})
    client.post(reverse("event-remove", args=[table.pk, game.pk, 1]))
    for page in ("table", "history"):
        body = client.get(reverse(page, args=[table.pk])).content.decode()
        assert "ถอนแล้ว โดย พี่หนึ่ง" in body, page


def test_a_players_page_costs_the_same_statements_however_many_games_they_lost(en, table):
    """The record reads each game's status with its document: a loser's page is no longer by a
    statement a game lost."""
    dan = Player.objects.get(group=table.group, name="Dan")
    url = reverse("player", args=[table.group.pk, dan.pk])
    counts = []
    for _ in range(3):
        games.game_finish(game=games.game_start(night=table), outcome=BEE_NORMAL)  # Dan loses
        with CaptureQueriesContext(connection) as queries:
            assert en.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2]
