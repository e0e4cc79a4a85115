"""Random but valid Knock Dummy games, as settle-contract documents, for the benchmarks.

`random_game_documents(n, seed)` draws `n` games with `random.Random(seed)` only, so the same seed
always gives the same games. They cover the contract (shared/rules/knock-dummy-settlement.md, "The
settle contract"): the three levels and custom stakes, the four knock kinds and stock-out games,
collected and colour sets, fools, held Spetos, face-down knocks, the total, immediate events and a
few fines. Points are drawn from a small range so ties happen; every game carries a `tie_break`
naming all four players, so every game settles.

`uv run python bench/random_games.py` draws 10,000 games, settles each once (it fails if one does
not) and prints what they cover.
"""

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.rules.errors import RuleError, TieUnresolved  # noqa: E402
from scorekeeper.rules.knock_dummy import RULES, settle  # noqa: E402
from scorekeeper.rules.knock_dummy_document import (  # noqa: E402
    game_from_document,
    settlement_to_document,
)

NAMES = ("Ann", "Bee", "Cat", "Dan", "Eve", "Fon", "Gun", "Nok", "สมชาย", "มาลี", "ต้น", "แพร")
LEVEL_NAMES = ("thep", "sian", "khot-sian")
KNOCK_KINDS = ("normal", "dark", "light-color", "dark-color")
FINE_REASONS = ("misdeal", "false-knock", "unmeldable-pickup")
POINTS = range(-40, 45, 5)  # 17 values: three losers tie on points now and then
SPETOS = 2  # 2♣ and Q♠

FINE_SHARE = 0.03
STOCK_OUT_SHARE = 0.20


def random_game_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """Return `n` valid settle-contract documents drawn with `random.Random(seed)`."""
    rng = random.Random(seed)
    return [_game(rng) for _ in range(n)]


def _game(rng: random.Random) -> dict[str, Any]:
    players = rng.sample(NAMES, 4)
    doc: dict[str, Any] = {"rules": RULES}
    doc.update(_stakes(rng))
    doc["players"] = players
    roll = rng.random()
    if roll < FINE_SHARE:
        _fine_game(rng, doc, players)
    elif roll < FINE_SHARE + STOCK_OUT_SHARE:
        _stock_out_game(rng, doc, players)
    else:
        _knock_game(rng, doc, players)
    doc["tie_break"] = rng.sample(players, 4)
    return doc


def _stakes(rng: random.Random) -> dict[str, Any]:
    """A named level (80%) or the table's own rates (20%); now and then an explicit fine."""
    out: dict[str, Any] = {}
    if rng.random() < 0.8:
        out["level"] = rng.choice(LEVEL_NAMES)
    else:
        less = rng.randrange(1, 30) * 10
        medium = less + rng.randrange(0, 20) * 10
        more = medium + rng.randrange(0, 20) * 10
        out["stakes"] = {"less": less, "medium": medium, "more": more}
    if rng.random() < 0.1:
        out["fine"] = rng.randrange(1, 60) * 10
    return out


def _some(rng: random.Random, players: list[str], chance: float) -> list[str]:
    """Each of `players` with probability `chance`, in seat order."""
    return [p for p in players if rng.random() < chance]


def _points(rng: random.Random, players: list[str]) -> dict[str, int]:
    return {p: rng.choice(POINTS) for p in players}


def _events(rng: random.Random, players: list[str], spetos_left: int) -> tuple[list[dict], int]:
    """Immediate events (no fine): at most one head and one show; returns the Spetos left."""
    events: list[dict[str, Any]] = []
    if rng.random() < 0.30:
        head = rng.choice(players)
        event: dict[str, Any] = {"type": "head", "player": head}
        if rng.random() < 0.3:
            others = [p for p in players if p != head]
            event["close"] = rng.sample(others, rng.randint(1, 2))
        events.append(event)
    if spetos_left and rng.random() < 0.15:
        count = rng.randint(1, spetos_left)
        picker = rng.choice(players)
        event = {"type": "speto", "player": picker, "count": count}
        if rng.random() < 0.25:
            event["close"] = [rng.choice([p for p in players if p != picker])]
        events.append(event)
        spetos_left -= count
    for kind, chance in (("dummy-discard", 0.15), ("full-discard", 0.10), ("show-speto", 0.05)):
        if rng.random() < chance:
            events.append({"type": kind, "player": rng.choice(players)})
    if rng.random() < 0.05:  # a second called dummy discard now and then
        events.append({"type": "dummy-discard", "player": rng.choice(players)})
    rng.shuffle(events)
    return events, spetos_left


def _speto_held(rng: random.Random, holders: list[str], spetos_left: int) -> tuple[dict, int]:
    """Spetos left in hands (20% of games): one holder, or two holding one each."""
    held: dict[str, int] = {}
    if spetos_left and rng.random() < 0.20:
        if spetos_left == 2 and rng.random() < 0.3:
            for p in rng.sample(holders, 2):
                held[p] = 1
        else:
            held[rng.choice(holders)] = rng.randint(1, spetos_left)
    return held, spetos_left - sum(held.values())


def _knock_game(rng: random.Random, doc: dict[str, Any], players: list[str]) -> None:
    knocker = rng.choice(players)
    losers = [p for p in players if p != knocker]
    spetos_left = SPETOS

    knock_speto: dict[str, int] = {}
    if rng.random() < 0.25:
        held = rng.randint(0, spetos_left)
        picked = rng.randint(0, spetos_left - held)
        knock_speto = {"held": held, "picked": picked}
        spetos_left -= held + picked
    face_down = None
    if rng.random() < 0.12:
        speto_kinds = ["speto", "speto-dummy"] if knock_speto.get("held", 0) >= 1 else []
        face_down = rng.choice(["dummy", *speto_kinds])

    speto_held, spetos_left = _speto_held(rng, losers, spetos_left)
    events, spetos_left = _events(rng, players, spetos_left)

    doc["knock"] = {"player": knocker, "kind": rng.choice(KNOCK_KINDS)}
    doc["points"] = _points(rng, losers)
    if rng.random() < 0.5:
        doc["collected"] = _some(rng, players, 0.75)
    if rng.random() < 0.15:
        doc["color"] = _some(rng, losers, 0.25) or [rng.choice(losers)]
    if rng.random() < 0.25:
        doc["fool"] = rng.choice(losers)
    if speto_held:
        doc["speto_held"] = speto_held
    if knock_speto:
        doc["knocker_speto"] = knock_speto
    if face_down:
        doc["face_down"] = face_down
    if rng.random() < 0.10:
        doc["total"] = rng.choice(losers)
    if events:
        doc["events"] = events


def _stock_out_game(rng: random.Random, doc: dict[str, Any], players: list[str]) -> None:
    speto_held, spetos_left = _speto_held(rng, players, SPETOS)
    events, _ = _events(rng, players, spetos_left)
    doc["points"] = _points(rng, players)
    if rng.random() < 0.5:
        doc["collected"] = _some(rng, players, 0.8)
    if rng.random() < 0.10:
        doc["color"] = [rng.choice(players)]
    if speto_held:
        doc["speto_held"] = speto_held
    if events:
        doc["events"] = events


def _fine_game(rng: random.Random, doc: dict[str, Any], players: list[str]) -> None:
    """A fine ends the game: no knock, points or levels; events before it still stand."""
    events, _ = _events(rng, players, SPETOS) if rng.random() < 0.5 else ([], SPETOS)
    fine: dict[str, Any] = {"type": "fine", "player": rng.choice(players)}
    if rng.random() < 0.9:
        fine["reason"] = rng.choice(FINE_REASONS)
    doc["events"] = [*events, fine]


def check_documents(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Settle every document once; raise AssertionError unless each settles with nets summing to 0.

    Returns the settle-contract output of each game.
    """
    results = []
    for i, doc in enumerate(docs):
        try:
            result = settlement_to_document(settle(game_from_document(doc)))
        except RuleError as e:
            raise AssertionError(f"random game {i} does not settle: {e.message}\n{doc}") from e
        if sum(result["net"].values()) != 0:
            raise AssertionError(f"random game {i}: nets do not sum to zero\n{doc}")
        results.append(result)
    return results


def coverage(docs: list[dict[str, Any]], results: list[dict[str, Any]]) -> Counter[str]:
    """Count what the documents exercise, and how many needed their tie_break."""
    seen: Counter[str] = Counter()
    for doc, result in zip(docs, results, strict=True):
        seen["level " + doc.get("level", "custom stakes")] += 1
        events = doc.get("events", [])
        if any(e["type"] == "fine" for e in events):
            seen["fine games"] += 1
        elif "knock" in doc:
            seen["knock " + doc["knock"]["kind"]] += 1
        else:
            seen["stock-out games"] += 1
        for key in ("collected", "color", "fool", "speto_held", "knocker_speto", "total"):
            seen[key] += key in doc
        if "face_down" in doc:
            seen["face_down " + doc["face_down"]] += 1
        for e in events:
            seen["event " + e["type"] + (" with close" if e.get("close") else "")] += 1
        for line in result["lines"]:
            seen["line item " + line["item"]] += 1
        without = {k: v for k, v in doc.items() if k != "tie_break"}
        try:
            settle(game_from_document(without))
        except TieUnresolved:
            seen["needed tie_break"] += 1
    return seen


def main() -> None:
    docs = random_game_documents(10_000, seed=2025)
    results = check_documents(docs)
    print(f"{len(docs)} random games, all settle.")
    for key, count in sorted(coverage(docs, results).items()):
        print(f"  {key:32} {count:6}")


if __name__ == "__main__":
    main()
