"""Dates and numbers the Thai way: Buddhist Era dates, a 24-hour clock, whole baht, exact rates."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from scorekeeper.models import AuditEntry, Membership, Night
from scorekeeper.services import access, games, nights
from tests.views.conftest import finish_data, member

# 20:15 on 25 November 2026 at the table in Bangkok (UTC+7), 2569 in the Buddhist Era.
EVENING = datetime(2026, 11, 25, 13, 15, tzinfo=UTC)
# 01:30 on the 26th in Bangkok, still the 25th in UTC: the day is the table's, not UTC's.
AFTER_MIDNIGHT = datetime(2026, 11, 25, 18, 30, tzinfo=UTC)


def game_url(night: Night, game_id: int, action: str = "") -> str:
    return f"/s/{night.pk}/games/{game_id}/{action}"


def open_night(client, *, point_value: str) -> Night:
    """Ann, Bee, Cat and Dan at sian stakes at `point_value` baht a point; the client hosts."""
    group = access.group_create(name="Saturday")
    member(client, group, Membership.Role.HOST)
    return nights.night_open(
        group=group,
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal(point_value),
    )


def test_a_night_is_dated_in_the_buddhist_era_with_the_thai_month(client, table):
    Night.objects.filter(pk=table.pk).update(started_at=EVENING)
    body = client.get(f"/s/{table.pk}/summary").content.decode()
    assert "25 พ.ย. 2569" in body
    assert "2026" not in body and "Nov" not in body


def test_a_night_is_dated_in_plain_english_for_an_english_phone(en, table):
    Night.objects.filter(pk=table.pk).update(started_at=EVENING)
    body = en.get(f"/s/{table.pk}/summary").content.decode()
    assert "25 Nov 2026" in body
    assert "2569" not in body


def test_the_day_is_the_day_at_the_table_in_bangkok(client, table):
    Night.objects.filter(pk=table.pk).update(started_at=AFTER_MIDNIGHT)
    assert "26 พ.ย. 2569" in client.get(f"/s/{table.pk}/summary").content.decode()


def test_members_and_invites_show_the_local_time_on_a_24_hour_clock(client, table):
    Membership.objects.filter(group=table.group).update(joined_at=EVENING)
    assert "25 พ.ย. 2569 20:15" in client.get(f"/g/{table.group.pk}/members").content.decode()
    body = client.get(f"/g/{table.group.pk}/members", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "25 Nov 2026 20:15" in body
    # In what the page shows, not in its random tokens (a nonce or a CSRF token may hold "PM").
    shown = re.sub(r"<[^>]*>", " ", body)
    assert not re.search(r"\b(?:AM|PM|a\.m\.|p\.m\.)(?!\w)", shown)


def test_the_audit_log_dates_each_entry_in_the_buddhist_era(client, table):
    AuditEntry.objects.filter(group=table.group).update(at=AFTER_MIDNIGHT)
    body = client.get(f"/g/{table.group.pk}/audit").content.decode()
    assert "<strong>26 พ.ย. 2569 01:30</strong>" in body


def test_whole_baht_have_no_satang_and_the_rate_is_shown_as_agreed(en, table):
    en.post(game_url(table, games.game_start(night=table).pk, "finish"), finish_data())
    table_page = en.get(f"/s/{table.pk}/").content.decode()
    assert "0.5 baht a point" in table_page
    # Ann +1,200 points, Bee −500, Cat −400, Dan −300 at half a baht.
    for baht in (">+600<", ">−250<", ">−200<", ">−150<"):
        assert baht in table_page
    assert ".00" not in table_page
    en.post(f"/s/{table.pk}/settle", {"mode": "fewest"})
    settled = en.get(f"/s/{table.pk}/settle").content.decode()
    assert "Bee → Ann <strong>250 ฿</strong>" in settled
    assert "+600 ฿" in settled and "−250 ฿" in settled


def test_baht_with_satang_keep_two_decimals_and_an_eighth_stays_exact(db, en):
    night = open_night(en, point_value="0.125")
    en.post(game_url(night, games.game_start(night=night).pk, "finish"), finish_data())
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert "0.125 baht a point" in body and "0.13" not in body
    # Ann +1,200 → 150, Bee −500 → −62.50, Cat −400 → −50, Dan −300 → −37.50.
    for baht in (">+150<", ">−62.50<", ">−50<", ">−37.50<"):
        assert baht in body
    en.post(f"/s/{night.pk}/settle", {"mode": "fewest"})
    settled = en.get(f"/s/{night.pk}/settle").content.decode()
    assert "Bee → Ann <strong>62.50 ฿</strong>" in settled


def test_a_baht_a_point_is_shown_as_1(db, en):
    night = open_night(en, point_value="1.00")
    assert "· 1 baht a point" in en.get(f"/s/{night.pk}/").content.decode()


def test_the_formulas_leave_out_a_loser_who_hands_nothing(en, in_play):
    """Bee pays the total (เหมา): Cat and Dan hand the knocker nothing, so no `0 = 0 = 0` row."""
    en.post(game_url(in_play.night, in_play.pk, "finish"), finish_data(total="Bee"))
    body = en.get(game_url(in_play.night, in_play.pk)).content.decode()
    handovers = body[body.index('<ul class="handovers">') :]
    handovers = handovers[: handovers.index("</ul>")]
    assert "<strong>Bee</strong>: +1,200" in handovers
    assert "level + knock + total = 300 + 200 + 700 = 1,200" in handovers
    assert "Cat" not in handovers and "Dan" not in handovers
    assert not re.search(r"(?<![\d,])0 = 0", body)


def test_the_formulas_carry_their_signs_in_the_rule_books_worked_example(en, in_play):
    """The rule book's example: Bee dark-knocks, Cat fools, Dan sleeps dark holding a Speto."""
    data = finish_data(knocker="Bee", kind="dark", fool="Cat", dark=["Dan"], held_3="1")
    data.update(points_0="35", points_2="10", points_3="-80")
    en.post(game_url(in_play.night, in_play.pk, "finish"), data)
    body = en.get(game_url(in_play.night, in_play.pk)).content.decode()
    rows = re.findall(r"<li><strong>(\w+)</strong>: ([^ <]+).*?class=\"formula\">([^<]*)<", body)
    assert rows == [
        ("Ann", "−200", "level − hold = 200 − 400 = −200"),  # Ann receives 200 (86.2)
        ("Cat", "+2,000", "5 × fool + level − hold = 5 × 400 + 400 − 400 = 2,000"),
        ("Dan", "+2,400", "level + 3 × hold = 1,200 + 3 × 400 = 2,400"),  # 87.4
    ]


@pytest.mark.parametrize(
    ("detail", "score", "shown"),
    [
        ({"points": -20, "bonuses": 0, "penalties": 0, "multiplier": 2}, -40, "−20 × 2 = −40"),
        (
            {"points": 35, "bonuses": 50, "penalties": 10, "multiplier": 2},
            150,
            "(35 + 50 − 10) × 2 = 150",
        ),
        ({"points": -15, "bonuses": 0, "penalties": 50, "multiplier": 1}, -65, "−15 − 50 = −65"),
        ({"points": 0, "bonuses": 0, "penalties": 0, "multiplier": 1}, 0, ""),
        ({"points": 30, "bonuses": 0, "penalties": 0, "multiplier": 1}, 30, ""),
    ],
    ids=["dark sleeper", "knocker doubled", "penalty", "all zero", "bare count"],
)
def test_a_classic_dummy_formula_shows_its_signs_and_no_empty_terms(detail, score, shown):
    template = Template("{% load score %}{{ row|dummy_formula }}")
    assert template.render(Context({"row": {"detail": detail, "score": score}})) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("0.125", "0.125"),
        ("0.5", "0.5"),
        ("0.50", "0.5"),
        ("1", "1"),
        ("2.000", "2"),
        ("1000", "1,000"),
    ],
)
def test_a_rate_is_written_exactly(value, shown):
    template = Template("{% load score %}{{ v|rate }}")
    assert template.render(Context({"v": Decimal(value)})) == shown


def test_dates_in_each_language():
    template = Template(
        "{% load score %}{{ t|date_text }} · {{ t|datetime_text }} · {{ t|time_text }}"
    )
    with translation.override("th"):
        assert template.render(Context({"t": EVENING})) == (
            "25 พ.ย. 2569 · 25 พ.ย. 2569 20:15 · 20:15"
        )
    with translation.override("en"):
        assert template.render(Context({"t": EVENING})) == "25 Nov 2026 · 25 Nov 2026 20:15 · 20:15"
