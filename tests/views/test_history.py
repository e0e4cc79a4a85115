"""History long after the night: the group's nights, a night in full, a player's record."""

import json
import re

from scorekeeper import charts
from scorekeeper.models import Player
from scorekeeper.services import games, sessions
from scorekeeper.stats import player_record

DARK_FOOL = {
    "knock": {"player": "Bee", "kind": "dark"},
    "collected": ["Ann", "Cat"],
    "fool": "Cat",
    "speto_held": {"Dan": 1},
    "points": {"Ann": 35, "Cat": 10, "Dan": -80},
}


def play_night(table):
    first = games.game_start(session=table)
    games.event_add(game=first, event={"type": "head", "player": "Ann"})
    games.game_finish(game=first, outcome=DARK_FOOL)
    second = games.game_start(session=table, fool_swap=False)
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
    for transfer in sessions.session_close(session=table):
        sessions.payment_record(transfer=transfer)


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


def test_a_players_record_counts_knocks_fools_dark_sleeps_and_head_to_head(en, table):
    play_night(table)
    cat = Player.objects.get(group=table.group, name="Cat")
    body = en.get(f"/g/{table.group.pk}/players/{cat.pk}").content.decode()
    facts = dict(re.findall(r"<th>([^<]+)</th><td class=\"num\">([^<]+)</td>", body))
    assert facts["Fools discarded (ตีโง่)"] == "1"
    assert facts["Games"] == "2"
    assert facts["Knocks: normal"] == "1"
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
    assert '<td class="num">−1,000</td>' in body  # the chart's point, also as text


def test_head_to_head_nets_are_what_passed_between_the_two(table):
    play_night(table)
    bee = Player.objects.get(group=table.group, name="Bee")
    versus = {p.name: net for p, net in player_record(bee).head_to_head}
    # Game 1: Cat pays Bee level 400, knock 400, fool 800. The voided game nets to nothing.
    # The correction: Bee pays Cat level 200 and knock 200.
    assert versus["Cat"] == 1600 - 400
    assert sum(versus.values()) == player_record(bee).net


def test_a_chart_escapes_names_and_scales_to_its_data():
    svg = charts.line_chart(
        charts.series({"<b>": [0, 100, -50]}), labels=["1", "2", "3"], title="t"
    )
    assert "<b>" not in svg.replace("<title>t</title>", "")
    assert "&lt;b&gt;" not in svg  # names live in the legend, not the drawing
    assert svg.count("<polyline") == 1
    assert ">100<" in svg and ">-50<" in svg


def test_an_empty_chart_draws_a_frame(en, db):
    svg = charts.line_chart([], labels=[], title="nothing yet")
    assert svg.startswith("<svg") and "<polyline" not in svg


def test_a_night_downloads_as_csv_for_a_spreadsheet_with_thai_intact(en, table):
    play_night(table)
    Player.objects.filter(group=table.group, name="Ann").update(name="=สมชาย")
    response = en.get(f"/s/{table.pk}/export.csv")
    text = response.content.decode("utf-8")
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-')
    assert text.startswith("\ufeff")  # so Excel reads the Thai
    assert "'=สมชาย" in text  # a name never runs as a formula
    assert len(text.strip().splitlines()) == 1 + table.lines.count()


def test_a_group_downloads_as_json_that_names_its_format(en, table):
    play_night(table)
    data = json.loads(en.get(f"/g/{table.group.pk}/export.json").content)
    assert (data["format"], data["version"]) == ("scorekeeper-group", 1)
    assert len(data["lines"]) == table.lines.count()
    assert en.get(f"/g/{table.group.pk}/export.xml").status_code == 404
