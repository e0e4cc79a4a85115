from decimal import Decimal

import pytest
from django.test import Client

from scorekeeper.models import Game, Session
from scorekeeper.services import games, sessions


@pytest.fixture
def en(client: Client) -> Client:
    """A client whose browser asks for English, so assertions read the English strings."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def table(db: None) -> Session:
    """Ann, Bee, Cat and Dan at sian stakes, half a baht a point; Ann deals first."""
    group = sessions.group_create(name="Saturday")
    return sessions.session_open(
        group=group,
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="sian",
        point_value=Decimal("0.5"),
    )


@pytest.fixture
def in_play(table: Session) -> Game:
    return games.game_start(session=table)


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
