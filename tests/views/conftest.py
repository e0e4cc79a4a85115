from decimal import Decimal

import pytest
from django.test import Client

from scorekeeper.models import Game, Group, Membership, Night
from scorekeeper.services import access, games, nights, scoresheet


@pytest.fixture
def en(client: Client) -> Client:
    """A client whose browser asks for English, so assertions read the English strings."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def member(client: Client, group: Group, role: str) -> Membership:
    """Make `client` a phone that joined `group` with `role`."""
    device = access.device_create(user_agent="test")
    membership = Membership.objects.create(group=group, role=role, device=device)
    store = client.session
    store["device"] = device.pk
    store.save()
    return membership


@pytest.fixture
def table(db: None, client: Client) -> Night:
    """Ann, Bee, Cat and Dan at sian stakes, half a baht a point; Ann deals first.

    The test client is the host's phone.
    """
    return make_table(client)


def make_table(client: Client) -> Night:
    """The `table` fixture's night, `client` its host's phone."""
    group = access.group_create(name="Saturday")
    member(client, group, Membership.Role.HOST)
    return nights.night_open(
        group=group,
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal("0.5"),
    )


@pytest.fixture
def in_play(table: Night) -> Game:
    return games.game_start(night=table)


def finish_data(**overrides: object) -> dict[str, object]:
    """The end-of-game form: Ann knocks normally; Bee 10, Cat 20, Dan 30 points."""
    data: dict[str, object] = {
        "ending": "knock",
        "knocker": "Ann",
        "kind": "normal",
        "points_1": "10",
        "points_2": "20",
        "points_3": "30",
        "knocker_held": "0",
        "knocker_picked": "0",
        **{f"held_{i}": "0" for i in range(4)},
    }
    data.update(overrides)
    return data


HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def group(db: None, client: Client):
    """A group whose host is the test client's phone."""
    group = access.group_create(name="Saturday")
    member(client, group, Membership.Role.HOST)
    return group


@pytest.fixture
def gong(group) -> Night:
    """Gong Zhu for Ann, Bee, Cat and Dan to −300, a baht a point."""
    return scoresheet.scoresheet_open(
        group=group,
        ruleset="gong-zhu",
        players=["Ann", "Bee", "Cat", "Dan"],
        house={},
        target={"points": 300, "direction": "down"},
        point_value=Decimal(1),
    )
