"""Byte budgets a cheap phone on a card table's Wi-Fi depends on, however long the night.

- The first load of a night page, everything it links included (htmx too): at most 45 KB as
  sent, that is compressed: the HTML by the GZip middleware, static files as collectstatic
  compresses them for whitenoise (gzip at level 9 here: whitenoise also makes Brotli files,
  which are smaller), images as they are.
- The night page's HTML: at most 14 KB before compression.
- Each htmx swap: at most 2 KB as sent, compressed.
"""

import gzip
import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from scorekeeper.services import games, nights
from tests.views.conftest import HTMX, finish_data
from tests.views.test_budgets import add_settled_games

# Long nights are copied in bulk by the database (add_settled_games), standings left as they
# were: not a night the app played, so the audit after each test (tests/conftest.py) skips them.
pytestmark = pytest.mark.ledger_broken


KB = 1024
FIRST_LOAD = 45 * KB
HTML = 14 * KB
SWAP = 2 * KB
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
SIZES = pytest.mark.parametrize("played", [0, 100, 10_000], ids=["0", "100", "10,000"])
TEXT = (".css", ".js", ".svg", ".webmanifest", ".json", ".txt")


def sent(response) -> int:
    """Bytes of the body as sent to a browser that accepts gzip."""
    assert response.status_code == 200, response.status_code
    return len(response.content)


def linked(html: str) -> list[str]:
    """Every file the page's head makes the browser fetch: scripts, styles, icons, manifest."""
    head = html.split("<body", 1)[0]
    return re.findall(r'<(?:script[^>]* src|link[^>]* href)="([^"]+)"', head)


def static_size(url: str) -> int:
    """The size whitenoise sends for a static file: compressed text, images as they are."""
    path = finders.find(url.removeprefix("/" + settings.STATIC_URL.lstrip("/")).split("?")[0])
    assert path, f"{url} is not a static file"
    data = Path(path).read_bytes()
    return len(gzip.compress(data, compresslevel=9)) if url.endswith(TEXT) else len(data)


def night(table, played: int) -> None:
    """`played` settled games, then one in play: the night page at its fullest."""
    if played:
        add_settled_games(table, played)
    games.game_start(night=table, fool_swap=False)


@SIZES
def test_the_first_load_of_a_night_page_is_at_most_45_kb_compressed(en: Client, table, played):
    night(table, played)
    page = en.get(f"/s/{table.pk}/", **GZIP)
    assert page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content).decode()
    files = linked(html)
    assert any("htmx" in f for f in files) and any(f.endswith(".css") for f in files)
    total = sent(page)
    for url in files:
        if url.startswith("/" + settings.STATIC_URL.lstrip("/")):
            total += static_size(url)
        else:  # a page of ours, such as the web manifest
            total += sent(en.get(url, **GZIP))
    assert total <= FIRST_LOAD, f"{total} bytes: {files}"


@SIZES
def test_the_night_page_html_is_at_most_14_kb(en: Client, table, played):
    night(table, played)
    assert sent(en.get(f"/s/{table.pk}/")) <= HTML


@SIZES
def test_the_poll_swap_of_a_changed_table_is_at_most_2_kb(en: Client, table, played):
    night(table, played)
    swap = en.get(f"/s/{table.pk}/?v=0", HTTP_HX_TARGET="live", **HTMX, **GZIP)
    assert b"<html" not in gzip.decompress(swap.content)
    assert sent(swap) <= SWAP


def test_the_poll_of_an_unchanged_table_sends_nothing(en: Client, table):
    night(table, 100)
    page = en.get(f"/s/{table.pk}/").content.decode()
    address = re.search(r'id="live" hx-get="([^"]*\?v=[^"]+)"', page)
    assert address, "the table page polls with its version"
    poll = en.get(html.unescape(address[1]), HTTP_HX_TARGET="live", **HTMX, **GZIP)
    assert (poll.status_code, poll.content) == (204, b"")


def test_the_end_of_game_preview_swap_is_at_most_2_kb(en: Client, table):
    night(table, 100)
    game = table.games.get(status="in-play")
    data = {**finish_data(), "fool": "Bee", "speto_0": "1"}
    url = f"/s/{table.pk}/games/{game.pk}/preview"
    swap = en.post(url, data, HTTP_HX_TARGET="preview", **HTMX, **GZIP)
    assert b'id="preview"' in gzip.decompress(swap.content)
    assert sent(swap) <= SWAP


def test_the_transfers_swap_after_a_payment_is_at_most_2_kb(en: Client, table):
    night(table, 0)
    game = table.games.get(status="in-play")
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    transfer = nights.night_close(night=table)[0]
    url = f"/s/{table.pk}/transfers/{transfer.pk}/paid"
    swap = en.post(url, {}, **HTMX, **GZIP)
    assert b'id="transfers"' in gzip.decompress(swap.content)
    assert sent(swap) <= SWAP
