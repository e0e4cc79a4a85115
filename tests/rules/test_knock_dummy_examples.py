"""The worked examples of docs/rules/knock-dummy.md (its examples/knock-examples.jsonl), settled."""

import json
from pathlib import Path

import pytest

from tests.rules.support import settle_doc

EXAMPLES_FILE = (
    Path(__file__).resolve().parents[2] / "docs" / "rules" / "examples" / "knock-examples.jsonl"
)
EXAMPLES = [json.loads(line) for line in EXAMPLES_FILE.read_text("utf-8").splitlines() if line]
TITLES = [example["title"] for example in EXAMPLES]


def test_the_examples_file_holds_twelve_games_with_distinct_titles():
    assert len(EXAMPLES) == 12
    assert len(set(TITLES)) == len(TITLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=TITLES)
def test_example_settles_to_its_expected_net_levels_and_winners(example):
    settlement = settle_doc(example["input"])

    assert settlement.net() == example["expect"]["net"]
    assert {p: str(level) for p, level in settlement.levels.items()} == example["expect"]["levels"]
    assert list(settlement.winners) == example["expect"]["winners"]


@pytest.mark.parametrize("example", EXAMPLES, ids=TITLES)
def test_example_net_sums_to_zero(example):
    assert sum(settle_doc(example["input"]).net().values()) == 0


@pytest.mark.parametrize("example", EXAMPLES, ids=TITLES)
def test_example_expectation_itself_sums_to_zero(example):
    assert sum(example["expect"]["net"].values()) == 0
