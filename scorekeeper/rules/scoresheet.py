"""Score sheets to a target (classic Dummy, Gong Zhu): adding a deal to the match totals."""

from collections.abc import Mapping

from scorekeeper.rules.errors import RuleError


def add_deal(
    totals: Mapping[str, int], scores: Mapping[str, int], *, ended: bool
) -> dict[str, int]:
    """Return the totals after one more deal; refuse it once the match has ended."""
    if ended:
        raise RuleError(
            "match-over", "the match is over: a total had already reached the target", field="match"
        )
    if set(totals) != set(scores):
        raise RuleError(
            "totals-players",
            "the totals must name exactly the deal's players: {names}",
            field="match",
            names=", ".join(scores),
        )
    return {p: totals[p] + scores[p] for p in scores}
