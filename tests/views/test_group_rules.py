"""The group's own rules (กติกาประจำวง) on its page, and the forms that open and close a night
starting from them."""

import re
from decimal import Decimal

import pytest
from django.test import Client

from scorekeeper.models import AuditEntry, Group, Membership, Night
from scorekeeper.reads.money import Close
from scorekeeper.rules.dummy_points import PAGE_HOUSE
from scorekeeper.services import nights, scoresheet
from scorekeeper.services.group_rules import Usual, group_rules_set
from tests.views.conftest import member

HOST, PLAYER, VIEWER = Membership.Role.HOST, Membership.Role.PLAYER, Membership.Role.VIEWER
DUMMY_HOUSE = ["knock_card_speto_100", "knock_card_lay_off_100", "ace_in_run_10"]
DUMMY_AMOUNTS = ["dummy_discard", "full_discard", "head_close", "speto_close", "speto_defence",
                 "speto_laid_off", "head", "head_speto"]  # fmt: skip


def rules_data(**changed: str) -> dict[str, str]:
    """The rules form as a host sends it: custom stakes 50/100/150, a fine of 120, a quarter
    baht a point; fewest transfers, no fee, exact; classic Dummy to 300 with a Speto knock card
    worth 100; Gong Zhu up to 1000 at 2 baht a point. `changed`: fields by their prefixed name."""
    data = {
        "kd-stake_level": "custom", "kd-less": "50", "kd-medium": "100", "kd-more": "150",
        "kd-fine": "120", "kd-point_value": "0.25",
        "close-mode": "fewest", "close-fee": "", "close-fee_per": "game", "close-rounding": "0",
        "dummy-target": "300", "dummy-knock_card_speto_100": "on",
        **{f"dummy-{name}": str(getattr(PAGE_HOUSE, name)) for name in DUMMY_AMOUNTS},
        "gz-target_points": "1000", "gz-direction": "up", "gz-no_point_cards": "0",
        "gz-pig_in_shuan": "100", "gz-point_value": "2",
    }  # fmt: skip
    return {**data, **changed}


def field(body: str, name: str) -> str:
    """The tag of an input named `name` (a radio or a checkbox: the one checked), or the
    selected option of a select."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', body, re.S)
    if select:
        chosen = re.search(r'<option value="([^"]*)" selected>', select.group(1))
        return chosen.group(1) if chosen else ""
    tags = re.findall(rf'<input[^>]*name="{name}"[^>]*>', body)
    assert tags, f"no field {name}"
    checked = [t for t in tags if " checked" in t]
    tag = (checked or tags)[0]
    value = re.search(r'value="([^"]*)"', tag)
    if 'type="checkbox"' in tag:
        return "on" if checked else ""
    return value.group(1) if value else ""


@pytest.fixture
def kept(group: Group, client: Client) -> Group:
    """The group with the rules of `rules_data`, set on its page by its host (the client)."""
    response = client.post(f"/g/{group.pk}/rules", rules_data())
    assert response.status_code == 302, response.content.decode()
    group.refresh_from_db()
    return group


def test_a_host_sets_the_rules_on_the_group_page_and_finds_them_there(client, kept):
    assert client.get(f"/g/{kept.pk}/").status_code == 200
    assert kept.usual["stakes"] == {
        "level": "custom", "rates": [50, 100, 150], "fine": 120, "point_value": "0.25"
    }  # fmt: skip
    assert kept.usual["gong-zhu"]["target"] == {"points": 1000, "direction": "up"}
    assert AuditEntry.objects.filter(group=kept, action="group-rules-set").count() == 1
    body = client.get(f"/g/{kept.pk}/").content.decode()
    assert '<section class="card" id="rules"' in body
    assert field(body, "kd-stake_level") == "custom" and field(body, "kd-more") == "150"
    assert field(body, "gz-direction") == "up" and field(body, "dummy-target") == "300"
    assert field(body, "dummy-knock_card_speto_100") == "on"


def test_the_group_page_redirect_lands_on_the_rules(client, group):
    response = client.post(f"/g/{group.pk}/rules", rules_data())
    assert response.url == f"/g/{group.pk}/#rules"


@pytest.mark.parametrize("role", [PLAYER, VIEWER])
def test_a_player_or_viewer_sees_no_rules_form_and_is_refused_in_thai(group, role):
    other = Client(HTTP_ACCEPT_LANGUAGE="th")
    member(other, group, role)
    assert 'id="rules"' not in other.get(f"/g/{group.pk}/").content.decode()
    refused = other.post(f"/g/{group.pk}/rules", rules_data())
    assert refused.status_code == 403
    assert "เฉพาะผู้ดูแลก๊วนทำได้" in refused.content.decode()
    group.refresh_from_db()
    assert group.usual == {}


def test_rules_that_cannot_be_are_refused_in_thai_and_what_was_typed_stays(client, group):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    response = client.post(
        f"/g/{group.pk}/rules", rules_data(**{"kd-more": "", "gz-target_points": "0"})
    )
    body = response.content.decode()
    assert response.status_code == 422
    assert '<details class="more" open>' in body  # the form shown open at its errors
    assert field(body, "kd-less") == "50" and field(body, "gz-direction") == "up"
    assert body.count('class="error" role="alert"') >= 2  # each part's error under its field
    group.refresh_from_db()
    assert group.usual == {}


def test_settling_through_a_hub_without_one_is_refused_beside_the_hub(client, group):
    """A refusal of the service itself (the forms let it through) goes beside its field."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    response = client.post(f"/g/{group.pk}/rules", rules_data(**{"close-mode": "hub"}))
    body = response.content.decode()
    assert response.status_code == 422
    hub = body[body.index('id="field-close-hub"') :]
    assert hub.index("เลือกคนที่ทุกคนจะเคลียร์เงินด้วย") < hub.index("</div>")


def test_opening_a_night_starts_from_the_rules_and_can_change_them(en, kept):
    url = f"/g/{kept.pk}/sessions/new"
    body = en.get(url).content.decode()
    assert field(body, "stake_level") == "custom"
    assert [field(body, r) for r in ("less", "medium", "more")] == ["50", "100", "150"]
    assert field(body, "fine") == "120" and field(body, "point_value") == "0.25"
    seats = {"seat_1": "Ann", "seat_2": "Bee", "seat_3": "Cat", "seat_4": "Dan"}
    en.post(url, {**seats, "first_dealer": "1", "stake_level": "thep", "point_value": "1"})
    night = Night.objects.get()
    assert (night.stake_level, night.point_value) == ("thep", Decimal(1))  # changed tonight


def test_a_group_without_rules_opens_with_the_forms_own_defaults(en, group):
    body = en.get(f"/g/{group.pk}/sessions/new").content.decode()
    assert field(body, "stake_level") == "sian" and field(body, "point_value") == "1"
    assert field(en.get(f"/g/{group.pk}/race/dummy-points/new").content.decode(), "target") == "500"


def test_opening_a_score_sheet_starts_from_the_rules(en, kept):
    dummy = en.get(f"/g/{kept.pk}/race/dummy-points/new").content.decode()
    assert field(dummy, "target") == "300" and field(dummy, "knock_card_speto_100") == "on"
    assert field(dummy, "ace_in_run_10") == ""
    gong = en.get(f"/g/{kept.pk}/race/gong-zhu/new").content.decode()
    assert field(gong, "target_points") == "1000" and field(gong, "direction") == "up"
    assert field(gong, "no_point_cards") == "0" and field(gong, "pig_in_shuan") == "100"
    assert field(gong, "point_value") == "2"


def rules_naming(group: Group, **close: str) -> None:
    """Set the group's close: a fee of 40 baht per night to `fee_to`, 5-baht rounding carried
    by `rounding_by`, everyone settling with `hub` (players by name; Eve plays no night here)."""
    for name in ("Ann", "Bee", "Cat", "Dan", "Eve"):
        nights.player_create(group=group, name=name)
    by_name = {p.name: p.pk for p in group.players.all()}
    host = Membership.objects.get(group=group, role=HOST)
    rules = Close(
        mode="hub", hub=by_name[close["hub"]], fee=Decimal(40), fee_per="night",
        fee_to=by_name[close["fee_to"]], rounding=5, rounding_by=by_name[close["rounding_by"]],
    )  # fmt: skip
    group_rules_set(group=group, usual=Usual(close=rules), actor=host)


def test_the_close_starts_from_the_rules_with_tonights_players(en, table):
    rules_naming(table.group, hub="Cat", fee_to="Dan", rounding_by="Bee")
    body = en.get(f"/s/{table.pk}/settle").content.decode()
    assert [field(body, f) for f in ("mode", "hub", "fee", "fee_per", "fee_to")] == [
        "hub", "Cat", "40", "night", "Dan"
    ]  # fmt: skip
    assert (field(body, "rounding"), field(body, "rounding_by")) == ("5", "Bee")


def test_a_usual_player_who_is_not_playing_tonight_falls_back_to_the_close_unless_told(en, table):
    """Eve takes the fee, carries the rounding and is the hub, but plays no night here: the
    house takes the fee, the biggest winner carries, and the fewest transfers settle."""
    rules_naming(table.group, hub="Eve", fee_to="Eve", rounding_by="Eve")
    body = en.get(f"/s/{table.pk}/settle").content.decode()
    assert [field(body, f) for f in ("mode", "hub", "fee_to", "rounding_by")] == [
        "fewest", "", "", ""
    ]  # fmt: skip
    assert (field(body, "fee"), field(body, "rounding")) == ("40", "5")  # the rest stands
    # Closed with one tap, as the page stands: the fee per night goes to the house.
    sent = {f: field(body, f) for f in ("mode", "hub", "fee", "fee_per", "fee_to", "rounding")}
    assert en.post(f"/s/{table.pk}/settle", {**sent, "rounding_by": ""}).status_code == 302
    table.refresh_from_db()
    assert (table.fee, table.fee_per, table.fee_to, table.rounding) == (40, "night", None, 5)


def test_a_gong_zhu_close_starts_from_the_rules_too(en, group):
    rules_naming(group, hub="Ann", fee_to="Eve", rounding_by="Cat")
    sheet = scoresheet.scoresheet_open(
        group=group, ruleset="gong-zhu", players=["Ann", "Bee", "Cat"], house={},
        target={"points": 100, "direction": "down"}, point_value=Decimal(1),
    )  # fmt: skip
    body = en.get(f"/s/{sheet.pk}/race/settle").content.decode()
    assert [field(body, f) for f in ("mode", "hub", "fee_to", "rounding_by")] == [
        "hub", "Ann", "", "Cat"
    ]  # fmt: skip
