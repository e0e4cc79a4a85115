import pytest

from scorekeeper.models import Group, Membership, Night
from tests.views.conftest import member

SEATS = {"seat_1": "Ann", "seat_2": "Bee", "seat_3": "Cat", "seat_4": "Dan"}


@pytest.fixture
def group(db: None, client) -> Group:
    group = Group.objects.create(name="Saturday")
    member(client, group, Membership.Role.PLAYER)
    return group


def test_opening_a_night_seats_the_players_and_leads_to_the_table(en, group):
    response = en.post(
        f"/g/{group.pk}/sessions/new",
        {**SEATS, "first_dealer": "3", "stake_level": "khot-sian", "point_value": "2"},
    )
    night = Night.objects.get()
    assert response.status_code == 302
    assert response.url == f"/s/{night.pk}/"
    assert (night.stake_medium, night.fine, night.first_dealer.name) == (300, 300, "Cat")
    names = [s.player.name for s in night.seats.current().select_related("player")]
    assert names == ["Ann", "Bee", "Cat", "Dan"]


def test_a_name_seated_twice_is_refused_and_what_was_typed_stays(en, group):
    response = en.post(
        f"/g/{group.pk}/sessions/new",
        {
            **SEATS,
            "seat_4": "Ann",
            "first_dealer": "1",
            "stake_level": "sian",
            "point_value": "0.25",
        },
    )
    body = response.content.decode()
    assert response.status_code == 422
    assert "Ann is already seated" in body
    assert 'value="Cat"' in body and 'value="0.25"' in body
    assert Night.objects.count() == 0


def test_custom_stakes_need_three_rates_in_order(en, group):
    url = f"/g/{group.pk}/sessions/new"
    data = {**SEATS, "first_dealer": "1", "stake_level": "custom", "point_value": "1"}
    missing = en.post(url, {**data, "less": "10"})
    assert missing.status_code == 422
    assert "Give all three rates" in missing.content.decode()
    backwards = en.post(url, {**data, "less": "30", "medium": "20", "more": "10"})
    assert backwards.status_code == 422
    assert "lose less ≤ lose medium ≤ lose more" in backwards.content.decode()
    ok = en.post(url, {**data, "less": "10", "medium": "20", "more": "30"})
    assert ok.status_code == 302
    assert Night.objects.get().stake_more == 30
