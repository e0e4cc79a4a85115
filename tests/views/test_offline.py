"""A game started on a phone without a connection: named by its start's key until it has an id.
What the phone queued reaches the server in order, possibly more than once:
each write lands once, on the game that start made, or is refused saying why."""

from scorekeeper.models import AuditEntry, Game, LedgerLine
from scorekeeper.services import games
from tests.views.conftest import HTMX, finish_data

KEY = "0b7c2f5e-4a1d-4c2e-9f3a-5d6e7f809a1b"  # as crypto.randomUUID() makes them


def key_url(table, rest: str = "", key: str = KEY) -> str:
    return f"/s/{table.pk}/games/key/{key}/{rest}"


def test_a_game_started_offline_lands_whole_in_order_and_once_when_its_queue_is_sent(en, table):
    queue = [
        (f"/s/{table.pk}/games/start", {"number": "1", "idempotency_key": KEY}),
        (key_url(table, "events/head"), {"player": "Bee", "idempotency_key": "e1"}),
        (key_url(table, "finish"), {**finish_data(), "idempotency_key": "f1"}),
    ]
    for _ in range(2):  # the phone lost the answers and sends everything again
        for url, body in queue:
            assert en.post(url, body).status_code == 302
    game = Game.objects.get()
    assert game.status == Game.Status.SETTLED
    assert [e.document for e in game.events.all()] == [{"type": "head", "player": "Bee"}]
    assert game.lines.filter(event__isnull=False).count() == 3  # the head, paid once
    assert AuditEntry.objects.filter(action="game-finish").count() == 1
    assert games.started_with(night=table, key=KEY) == game


def test_an_event_naming_a_start_that_never_landed_is_refused_with_409_saying_why(en, table):
    games.game_start(night=table)  # another phone started game 1: this phone's start fails
    refused = en.post(f"/s/{table.pk}/games/start", {"number": "1", "idempotency_key": KEY})
    assert refused.status_code == 409
    event = en.post(key_url(table, "events/head"), {"player": "Bee"}, **HTMX)
    assert event.status_code == 409
    assert "was never started" in event.content.decode()
    finish = en.post(key_url(table, "finish"), finish_data())
    assert finish.status_code == 409
    assert not LedgerLine.objects.exists()  # nothing booked on the game the other phone started


def test_the_pages_of_a_game_started_offline_are_the_forms_of_the_next_game(en, table):
    """Kept by the service worker for the key "_": every address in them names that key."""
    panel = en.get(key_url(table, key="_")).content.decode()
    assert "Started on this phone, not yet sent" in panel
    assert f'href="{key_url(table, "events/head", key="_")}"' in panel
    assert f'href="{key_url(table, "finish", key="_")}"' in panel
    event = en.get(key_url(table, "events/speto", key="_")).content.decode()
    assert f'action="{key_url(table, "events/speto", key="_")}"' in event
    assert f'data-offline-next="{key_url(table, key="_")}"' in event
    assert event.count('name="player"') == 1 and ">Dan<" in event
    finish = en.get(key_url(table, "finish", key="_")).content.decode()
    assert f'action="{key_url(table, "finish", key="_")}"' in finish
    assert finish.count('name="knocker"') == 4
    assert "hx-trigger" not in finish  # no preview before the start lands
    table_page = en.get(f"/s/{table.pk}/").content.decode()
    assert f'data-offline-next="{key_url(table, key="_")}"' in table_page
    assert key_url(table, "finish", key="_") in table_page  # among the pages to keep


def test_once_the_start_has_landed_its_key_leads_to_the_game(en, table):
    en.post(f"/s/{table.pk}/games/start", {"number": "1", "idempotency_key": KEY})
    game = Game.objects.get()
    assert en.get(key_url(table)).url == f"/s/{table.pk}/"
    finish = en.get(key_url(table, "finish")).content.decode()
    assert f'hx-post="/s/{table.pk}/games/{game.pk}/preview"' in finish
    assert en.get(key_url(table, "events/head")).status_code == 200
