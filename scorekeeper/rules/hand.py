"""A hand of a score sheet (classic Dummy, Gong Zhu) scored by its game's engine."""

from collections.abc import Callable
from typing import Any

from scorekeeper.rules import dummy_points, dummy_points_document, gong_zhu, gong_zhu_document

ENGINES: dict[str, Callable[[Any], dict[str, Any]]] = {
    dummy_points.RULES: dummy_points_document.game_document_result,
    gong_zhu.RULES: gong_zhu_document.game_document_result,
}


def hand_result(document: dict[str, Any]) -> dict[str, Any]:
    """Score a stored or previewed deal with its game's engine; RuleError if it cannot be."""
    return ENGINES[document["rules"]](document)
