"""Data helpers shared by the Knock Dummy tests (no tests here; pytest finds none to run).

Everything a test expects is worked out by hand from docs/rules/knock-dummy.md; these
helpers only build games in the settle contract's shape and read the results back.
"""

from collections import Counter

from scorekeeper.rules.knock_dummy import settle
from scorekeeper.rules.knock_dummy_document import game_from_document

PLAYERS = ["Ann", "Bee", "Cat", "Dan"]  # Ann deals
SIAN = {"less": 100, "medium": 200, "more": 300}  # M = 200
KINDS = {"normal": 1, "dark": 2, "light-color": 4, "dark-color": 8}  # K, rules 74-79

# The lines the spec pays "at once" (rule 80); everything else is "after the game".
EVENT_ITEMS = {
    "head",
    "head-close",
    "speto",
    "speto-close",
    "dummy-discard",
    "full-discard",
    "show-speto",
    "fine",
}


def make_doc(**overrides):
    """Return a valid sian game in the settle contract: Bee knocks (normal), Ann deals.

    An override of None leaves the field out (`knock=None` makes a stock-out game).
    """
    doc = {
        "rules": "knock-dummy-2025",
        "level": "sian",
        "players": list(PLAYERS),
        "knock": {"player": "Bee", "kind": "normal"},
        "points": {"Ann": 35, "Cat": -20, "Dan": -60},
    }
    doc.update(overrides)
    return {key: value for key, value in doc.items() if value is not None}


def make_stock_out(points, **overrides):
    """Return a valid sian stock-out game (no knocker) with the given points for all four."""
    return make_doc(knock=None, points=points, **overrides)


def make_fined(*events, **overrides):
    """Return a sian game ended by a fine: no knock, no points; `events` end with the fine."""
    return make_doc(knock=None, points=None, events=list(events), **overrides)


def settle_doc(doc):
    """Settle one game given as a settle-contract document."""
    return settle(game_from_document(doc))


def paid(settlement, *, due=None):
    """Return the amount each (payer, payee, item) comes to, summed over the lines."""
    totals = Counter()
    for line in settlement.lines:
        if due is None or str(line.due) == due:
            totals[line.payer, line.payee, str(line.item)] += line.amount
    return dict(totals)
