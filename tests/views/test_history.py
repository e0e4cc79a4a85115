"""History long after the night: the group's nights, a night in full, a player's record."""

import json
import re

import pytest

from scorekeeper.models import Player
from scorekeeper.reads.player import player_record
from scorekeeper.services import games, nights
from tests.views.test_budgets import add_settled_games

DARK_FOOL = {
    "knock": {"player": "Bee", "kind": "dark"},
    "collected": ["Ann", "Cat"],
    "fool": "Cat",
    "speto_held": {"Dan": 1},
    "points": {"Ann": 35, "Cat": 10, "Dan": -80},
}


def play_night(table):
    first = games.game_start(night=table)
    games.event_add(game=first, event={"type": "head", "player": "Ann"})
    games.game_finish(game=first, outcome=DARK_FOOL)
    second = games.game_start(night=table, fool_swap=False)
    games.game_finish(
        game=second,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    games.game_void(game=second)
    games.game_correct(
        voided=second,
        events=[],
        outcome={
            "knock": {"player": "Cat", "kind": "normal"},
            "points": {"Ann": 1, "Bee": 2, "Dan": 3},
        },
    )
    for transfer in nights.night_close(night=table):
        nights.payment_record(transfer=transfer)


def test_the_group_page_lists_each_night_with_its_games_and_nets(en, table):
    play_night(table)
    body = en.get(f"/g/{table.group.pk}/").content.decode()
    assert "2 games" in body  # the voided game does not count
    # Bee: +4,000 in game 1 (the worked example, less 200 for Ann's head), −400 in the correction
    bee = Player.objects.get(group=table.group, name="Bee")
    link = f'href="/g/{table.group.pk}/players/{bee.pk}">Bee</a>'
    assert f'{link}</td><td class="num pos">+3,600<' in body
    assert f"/s/{table.pk}/history" in body


def test_the_night_in_full_shows_games_events_corrections_and_payments(en, table):
    play_night(table)
    body = en.get(f"/s/{table.pk}/history").content.decode()
    assert "<del>Game 2</del>" in body
    assert "correction" in body
    assert "Head (ค่าหัว) · Ann" in body
    assert "✓ paid" in body
    assert '<svg class="chart"' in body and "<polyline" in body
    assert "<script" not in body.split("<main")[1]


def shown_games(body: str) -> list[int]:
    return [int(n) for n in re.findall(r">Game (\d+)<", body)]


@pytest.mark.ledger_broken  # copied in bulk: see tests/views/test_budgets.py
def test_a_long_night_reads_fifty_games_a_page_in_order_with_links_between_pages(en, table):
    add_settled_games(table, 120)
    first = en.get(f"/s/{table.pk}/history").content.decode()
    assert shown_games(first) == list(range(1, 51))
    assert f'href="/s/{table.pk}/history?page=2#games">Later games' in first
    assert "Earlier games" not in first
    assert "Page 1 of 3" in first
    last = en.get(f"/s/{table.pk}/history?page=3").content.decode()
    assert shown_games(last) == list(range(101, 121))
    assert f'href="/s/{table.pk}/history?page=2#games">← Earlier games' in last
    assert "Later games" not in last


def test_a_short_night_has_one_page_and_no_page_links(en, table):
    play_night(table)
    body = en.get(f"/s/{table.pk}/history").content.decode()
    assert "?page=" not in body


@pytest.mark.parametrize("asked", ["0", "-3", "two", "", "1.5"])
@pytest.mark.ledger_broken  # copied in bulk: see tests/views/test_budgets.py
def test_a_page_that_is_not_a_page_number_shows_the_first(en, table, asked):
    add_settled_games(table, 60)
    response = en.get(f"/s/{table.pk}/history?page={asked}")
    assert response.status_code == 200
    assert shown_games(response.content.decode())[0] == 1


@pytest.mark.parametrize("asked", ["3", "99", "9" * 40])
@pytest.mark.ledger_broken  # copied in bulk: see tests/views/test_budgets.py
def test_a_page_past_the_last_goes_to_the_last(en, table, asked):
    add_settled_games(table, 60)
    response = en.get(f"/s/{table.pk}/history?page={asked}")
    assert response.status_code == 302
    assert response["Location"] == f"/s/{table.pk}/history?page=2"


def test_a_page_of_a_night_without_games_goes_to_the_only_page(en, table):
    response = en.get(f"/s/{table.pk}/history?page=2", follow=True)
    assert response.redirect_chain == [(f"/s/{table.pk}/history?page=1", 302)]
    assert "No game yet." in response.content.decode()


@pytest.mark.ledger_broken  # copied in bulk: see tests/views/test_budgets.py
def test_the_running_balance_covers_the_whole_night_in_a_few_points(en, table):
    add_settled_games(table, 300)
    ann = Player.objects.get(group=table.group, name="Ann")
    per_game = sum(
        (line.amount if line.payee_id == ann.pk else -line.amount if line.payer_id == ann.pk else 0)
        for line in table.games.get(number=1).lines.all()
    )
    body = en.get(f"/s/{table.pk}/history?page=6").content.decode()  # the chart on every page
    points = re.search(r'<polyline points="([^"]+)"', body)
    assert points is not None and len(points[1].split()) == 120
    numbers = body.split("The running balance as numbers")[1].split("</details>")[0]
    rows = re.findall(r"<tr><td>(\d+)</td><td class=\"num\">([^<]+)</td>", numbers)
    assert len(rows) == 120
    assert rows[0] == ("1", f"{per_game:+,}".replace("-", "−"))
    assert rows[-1] == ("300", f"{300 * per_game:+,}".replace("-", "−"))  # Ann is first by name


def test_a_players_record_counts_knocks_fools_dark_sleeps_and_head_to_head(en, table):
    play_night(table)
    cat = Player.objects.get(group=table.group, name="Cat")
    body = en.get(f"/g/{table.group.pk}/players/{cat.pk}").content.decode()
    facts = dict(re.findall(r"<th>([^<]+)</th><td class=\"num\">([^<]+)</td>", body))
    assert facts["Fools discarded (ตีโง่)"] == "1"
    assert facts["Games"] == "2"
    assert facts["Knocks: normal knock"] == "1"  # the kind by its name, not its code
    dan = Player.objects.get(group=table.group, name="Dan")
    dan_facts = dict(
        re.findall(
            r"<th>([^<]+)</th><td class=\"num\">([^<]+)</td>",
            en.get(f"/g/{table.group.pk}/players/{dan.pk}").content.decode(),
        )
    )
    assert dan_facts["Dark sleeps (ลบมืด)"] == "1"
    assert dan_facts["Spetos held (อมสเปโต)"] == "1"
    assert "against Bee" in body
    assert '<td class="num">−500 ฿</td>' in body  # the chart's point (−1,000 at ½ baht), as text


def test_head_to_head_nets_are_what_passed_between_the_two(table):
    play_night(table)
    bee = Player.objects.get(group=table.group, name="Bee")
    versus = dict(player_record(bee).head_to_head)
    # Game 1: Cat pays Bee level 400, knock 400, fool 800. The voided game nets to nothing.
    # The correction: Bee pays Cat level 200 and knock 200.
    assert versus["Cat"] == table.baht(1600 - 400)  # in baht, at the night's half a baht
    assert sum(versus.values()) == player_record(bee).baht


@pytest.mark.ledger_broken  # a name changed behind the games' back
def test_a_night_downloads_as_csv_for_a_spreadsheet_with_thai_intact(en, table):
    play_night(table)
    Player.objects.filter(group=table.group, name="Ann").update(name="=สมชาย")
    response = en.get(f"/s/{table.pk}/export.csv")
    text = response.content.decode("utf-8")
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-')
    assert text.startswith("\ufeff")  # so Excel reads the Thai
    assert "'=สมชาย" in text  # a name never runs as a formula
    assert len(text.strip().splitlines()) == 1 + table.lines.count() + table.money_lines.count()


def test_a_group_downloads_as_json_that_names_its_format(en, table):
    play_night(table)
    data = json.loads(en.get(f"/g/{table.group.pk}/export.json").content)
    assert (data["format"], data["version"]) == ("scorekeeper-group", 4)
    assert len(data["lines"]) == table.lines.count()
    assert en.get(f"/g/{table.group.pk}/export.xml").status_code == 404


def test_totals_across_nights_are_baht_each_night_at_its_own_value_with_rival_and_nemesis(
    en, table
):
    """Two nights: half a baht a point, then 2 baht a point. Adding points would say Ann is
    even; in baht she is not."""
    from decimal import Decimal  # noqa: PLC0415

    from scorekeeper.services import games, nights  # noqa: PLC0415

    def one_game(night, knocker: str, points: dict[str, int]) -> None:
        game = games.game_start(night=night)
        outcome = {"knock": {"player": knocker, "kind": "normal"}, "points": points}
        games.game_finish(game=game, outcome=outcome)

    one_game(table, "Ann", {"Bee": 10, "Cat": 20, "Dan": 30})  # Ann wins at ½ baht
    nights.night_close(night=table)
    dearer = nights.night_open(
        group=table.group, players=["Ann", "Bee", "Cat", "Dan"], stake_level="sian",
        point_value=Decimal(2),
    )  # fmt: skip
    one_game(dearer, "Bee", {"Ann": 10, "Cat": 20, "Dan": 30})  # Ann loses at 2 baht
    ann = Player.objects.get(group=table.group, name="Ann")
    record = player_record(ann)
    both = [table, dearer]
    standings = [s.standings.get(player=ann).net for s in both]
    want = sum((n.baht(net) for n, net in zip(both, standings, strict=True)), Decimal(0))
    assert record.baht == want != table.baht(sum(standings))  # not points added up
    assert record.rival is not None and record.rival[1] > 0
    assert record.nemesis == ("Bee", min(v for _, v in record.head_to_head))
    assert [m.nights for m in record.months] == [2]  # both nights this month
    body = en.get(f"/g/{table.group.pk}/players/{ann.pk}").content.decode()
    assert "Nemesis: loses most to" in body and "Month by month" in body


def test_a_night_without_a_counted_game_of_the_player_is_no_night_in_their_record(en, table):
    """Ann wins the one game she plays. Three more nights are no nights of hers: one with no
    game, one whose only game was voided, one she left before its first game. Counted, each
    would be a night of 0 ฿ and her "worst night"."""
    from decimal import Decimal  # noqa: PLC0415

    knock = {
        "knock": {"player": "Ann", "kind": "normal"},
        "points": {"Bee": 10, "Cat": 20, "Dan": 30},
    }
    games.game_finish(game=games.game_start(night=table), outcome=knock)
    nights.night_close(night=table)
    seated = {"players": ["Ann", "Bee", "Cat", "Dan"], "stake_level": "sian",
              "point_value": Decimal("0.5")}  # fmt: skip
    nights.night_close(night=nights.night_open(group=table.group, **seated))
    voided = nights.night_open(group=table.group, **seated)
    game = games.game_start(night=voided)
    games.event_add(game=game, event={"type": "head", "player": "Ann"})
    games.game_void(game=game)
    nights.night_close(night=voided)
    left = nights.night_open(group=table.group, **seated)
    nights.seat_change(night=left, position=0, player="Eve")  # before the first game
    eve_knocks = {
        "knock": {"player": "Eve", "kind": "normal"},
        "points": {"Bee": 1, "Cat": 2, "Dan": 3},
    }
    games.game_finish(game=games.game_start(night=left), outcome=eve_knocks)
    ann = Player.objects.get(group=table.group, name="Ann")
    assert ann.standings.count() == 4  # she sat at all four
    won = table.baht(table.standings.get(player=ann).net)
    record = player_record(ann)
    assert won > 0 and record.nights == 1 and record.games == 1
    assert record.best_baht == record.worst_baht == won  # not a night of 0 ฿
    assert record.over_time == [won] and [m.nights for m in record.months] == [1]
    body = en.get(f"/g/{table.group.pk}/players/{ann.pk}").content.decode()
    facts = dict(re.findall(r'<th>([^<]+)</th><td class="num">([^<]+)</td>', body))
    assert facts["Nights"] == "1"
    worst = re.search(r"<th>Worst night</th><td class=\"num\"><a href=\"([^\"]+)\">", body)
    assert worst is not None and worst.group(1) == f"/s/{table.pk}/history"
