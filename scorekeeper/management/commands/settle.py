"""`manage.py settle`: the settle contract on standard input and output (a thin adapter)."""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.rules import dummy_points_document, gong_zhu_document
from scorekeeper.rules.document import invalid
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy import Game, settle
from scorekeeper.rules.knock_dummy_document import game_from_document, settlement_to_document
from scorekeeper.rules.knock_dummy_formulas import handovers_to_document
from scorekeeper.rules.money import STAKE_MOST

BAD_INPUT = 2
# The score sheets to a target answer with a hand's scores (docs/rules/other-games.md).
OTHER_GAMES = {
    "dummy-points": dummy_points_document.game_document_result,
    "gong-zhu": gong_zhu_document.game_document_result,
}


def settle_text(raw: bytes, *, formulas: bool = False) -> dict[str, Any]:
    """Settle one game given as JSON text; a bad game gives {"error": ...}."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return {"error": "not UTF-8 text"}
    except json.JSONDecodeError as e:
        return {"error": f"not JSON: {e.msg} at line {e.lineno} column {e.colno}"}
    except RecursionError:
        return {"error": "not a game: JSON nested too deeply"}
    except ValueError as e:  # e.g. a number too long for Python to read
        return {"error": f"not JSON: {e}"}
    try:
        other_game = OTHER_GAMES.get(str(doc.get("rules"))) if isinstance(doc, dict) else None
        if other_game is not None:
            return other_game(doc)
        game = game_from_document(doc)
        _refuse_above_a_real_table(game)
        settlement = settle(game)
    except RuleError as e:
        return {"error": e.message}
    result = settlement_to_document(settlement)
    if formulas:
        result["handed_to_knocker"] = handovers_to_document(game, settlement)
    return result


def _refuse_above_a_real_table(game: Game) -> None:
    """Refuse stakes or a fine above what a real table plays (rules.money), as the forms do."""
    for field, value in (("stakes.more", game.stakes.more), ("fine", game.fine)):
        if value > STAKE_MOST:
            raise invalid(field, f"must be at most {STAKE_MOST:,}")


class Command(BaseCommand):
    help = (
        "Settle games given as JSON on standard input: Knock Dummy (knock-dummy-2025), "
        "classic Dummy (dummy-points) or Gong Zhu (gong-zhu). Exit 2 on bad input."
    )
    # The engine alone: no database, no view. The system checks would import every view and
    # model for nothing, most of the command's half second.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--lines", action="store_true", help="JSON Lines: one game a line, one result a line"
        )
        parser.add_argument(
            "--formulas",
            action="store_true",
            help="add what each loser hands the knocker, in the terms of rules 86-87",
        )

    def handle(self, *args: Any, lines: bool, formulas: bool, **options: Any) -> None:
        stdin = sys.stdin.buffer
        texts = [t for t in stdin if t.strip()] if lines else [stdin.read()]
        failed = False
        out = []
        for text in texts:
            result = settle_text(text, formulas=formulas)
            failed |= "error" in result
            out.append(json.dumps(result, ensure_ascii=False))
        # Names are checked (rules.names: no lone surrogate), so backslashreplace is only a last
        # guard against a traceback: it keeps the output valid JSON whatever a message quotes.
        sys.stdout.buffer.write(("\n".join(out) + "\n").encode("utf-8", "backslashreplace"))
        sys.stdout.flush()
        if failed:
            sys.exit(BAD_INPUT)
