"""Score sheets to a target (classic Dummy, Gong Zhu): adding a deal to the match totals."""

from collections.abc import Mapping, Sequence

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


def next_deal[P](
    seats: Sequence[P], last_dealer: P | None, first_dealer: P, *, turned: bool
) -> tuple[P, int]:
    """Return who deals the next hand and which way the deal goes round (1, or −1 once turned).

    The deal goes round the table one seat at a time from the first dealer, in seat order; in
    classic Dummy an odd number of fool discards so far turns it the other way round. A dealer
    who left the table is counted where they sat: not found, the deal starts from the first seat.
    """
    if last_dealer is None:
        return first_dealer, 1
    step = -1 if turned else 1
    at = list(seats).index(last_dealer) if last_dealer in seats else -1
    return seats[(at + step) % len(seats)], step
