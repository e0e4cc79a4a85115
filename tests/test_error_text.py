"""Every error code raised in scorekeeper/ has its sentence, in Thai with no English left.

The codes are read from the source, so a new refusal without a sentence fails here: the first
argument of RuleError, ServiceError and the rules' `_fail`, the code of access's `_limit`, and
each problem and field path of the document readers' `invalid(field, problem)` and `read_*`.
"""

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from django.utils import translation

from scorekeeper import error_text as texts
from scorekeeper.error_text import error_text
from scorekeeper.rules.document import invalid
from scorekeeper.rules.errors import RuleError, TieUnresolved

PACKAGE = Path(texts.__file__).resolve().parent
# The callables that make an error, and which positional argument is its code.
MAKERS = {"RuleError": 0, "ServiceError": 0, "_fail": 0, "_limit": 3}
# Codes built from a template (f"{name}-without-knock"): each pattern with what it makes.
BUILT = {"{name}-without-knock": {"fool-without-knock", "total-without-knock"}}
LATIN = re.compile(r"[A-Za-z]{2,}")
# Card codes (C2, SQ, H10, DA) in a sentence that shows how to write them.
CARD_CODES = re.compile(r"\b[CDHS](?:10|[2-9JQKA])\b")
# Sample values for a code's parameters: names in Thai, numbers, a card code.
SAMPLE: dict[str, object] = {
    "name": "เอ๋",
    "names": "เอ๋, บี",
    "first": "บี",
    "second": "ซี",
    "who": "บี",
    "card": "SQ",
    "cards": "Q♠",
    "n": 3,
    "event": 2,
    "aces": 2,
    "at": 0,
    "most": 465,
    "fewest": 2,
    "known": 2,
    "state": "voided",
    "version": 9,
    "kind": "speto",
    "what": "เกม",
    "where": "points.เอ๋",
    "problem": "must be at most 1,000,000,000 in size",
    "error": "x",
    "key": "k",
    "stakes": "กลาง",
    "how": "ไพ่",
}


def called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


@cache
def package_calls() -> list[tuple[Path, ast.Call]]:
    """Every call in the package's source, with its file: parsed once for the three readers
    below, which make the parameters of tests at collection (by every worker of a run)."""
    return [
        (path, node)
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
    ]


def raised_codes() -> dict[str, set[str]]:
    """Each code raised in the package, with the parameter names it is raised with."""
    codes: dict[str, set[str]] = {}
    for path, node in package_calls():
        at = MAKERS.get(called(node))
        if at is None or len(node.args) <= at:
            continue
        arg = node.args[at]
        params = {k.arg for k in node.keywords if k.arg and k.arg != "field"}
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            made = {arg.value}
        elif isinstance(arg, ast.JoinedStr):
            made = BUILT[ast.unparse(arg)[2:-1]]
        else:
            # Only the makers themselves pass a code on: `def _fail(code, …)`.
            assert isinstance(arg, ast.Name) and arg.id == "code", (path, node.lineno)
            continue
        for code in made:
            codes.setdefault(code, set()).update(params)
    return codes


def sample(node: ast.expr, values: dict[str, str]) -> str:
    """A string argument with each {expression} filled in from `values` (by its source)."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    assert isinstance(node, ast.JoinedStr), ast.unparse(node)
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(str(part.value))
        else:
            assert isinstance(part, ast.FormattedValue)
            source = ast.unparse(part.value)
            out.append(next((v for k, v in values.items() if k in source), "7"))
    return "".join(out)


def document_problems() -> list[str]:
    values = {"LARGEST": "1,000,000,000", "minimum": "1", "DECK_CARDS": "52", "key": "medium"}
    found = []
    for _path, node in package_calls():
        if called(node) == "invalid" and len(node.args) == 2:
            found.append(sample(node.args[1], values))
    return found


def document_fields() -> list[str]:
    """Every field path a reader names, its variable parts filled with names and keys."""
    values = {"where": "events[0]", "field": "counts.เอ๋", "k": "เอ๋"}
    found = []
    for _path, node in package_calls():
        name = called(node)
        at = 0 if name == "invalid" else 1 if name.startswith("read_") else None
        if at is None or len(node.args) <= at:
            continue
        arg = node.args[at]
        if isinstance(arg, ast.JoinedStr) or (
            isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        ):
            found.append(sample(arg, values))
    return sorted(set(found))


def english_in(text: str) -> list[str]:
    return LATIN.findall(CARD_CODES.sub(" ", text))


CODES = raised_codes()


def test_the_source_is_read_for_codes_from_the_rules_and_the_services():
    assert {"knocker-fool", "game-recorded", "too-many-tries", "document"} <= set(CODES)
    assert {"fool-without-knock", "total-without-knock", "import-audit"} <= set(CODES)
    assert len(CODES) > 100


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_raised_has_a_thai_sentence(code):
    params = {k: SAMPLE[k] for k in CODES[code]}
    error = RuleError(code, "english {x}", x="English fallback", **params)
    with translation.override("th"):
        text = error_text(error)
    assert "English fallback" not in text
    assert text.strip()
    assert english_in(text) == [], text


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_reads_in_english_too(code):
    params = {k: SAMPLE[k] for k in CODES[code]}
    with translation.override("en"):
        text = error_text(RuleError(code, "fallback {x}", x="!", **params))
    assert "fallback" not in text


def test_a_tie_is_told_in_thai():
    with translation.override("th"):
        two = error_text(TieUnresolved(tied=["เอ๋", "บี"], at_stake=["medium"], black="เอ๋", red="บี"))
        three = error_text(TieUnresolved(tied=["เอ๋", "บี", "ซี"], at_stake=["medium"]))
    assert english_in(two) == [] and english_in(three) == []


@pytest.mark.parametrize("problem", document_problems())
def test_every_problem_of_a_document_field_is_told_in_thai(problem):
    assert any(p.fullmatch(problem) for p, _text in texts.PROBLEMS), problem
    with translation.override("th"):
        text = error_text(invalid("points.เอ๋", problem))
    assert english_in(text) == [], text


@pytest.mark.parametrize("path", document_fields())
def test_every_field_a_document_names_is_told_in_thai(path):
    with translation.override("th"):
        text = texts.field_text(path)
    assert english_in(text) == [], (path, text)


def test_a_points_field_past_the_largest_reads_as_thai():
    error = invalid("points.เอ๋", "must be at most 1,000,000,000 in size")
    with translation.override("th"):
        assert error_text(error) == "แต้มของ เอ๋ ต้องอยู่ระหว่างลบ 1,000,000,000 ถึง 1,000,000,000"
    with translation.override("en"):
        assert (
            error_text(error)
            == "points of เอ๋ must be between minus 1,000,000,000 and 1,000,000,000"
        )
