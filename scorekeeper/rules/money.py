"""Points to money: the one place where a Decimal rate meets whole points and is rounded."""

from decimal import ROUND_HALF_UP, Decimal

SATANG = Decimal("0.01")


def baht(points: int, rate: Decimal) -> Decimal:
    """Return `points` worth of baht at `rate` baht a point, rounded half up to the satang."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise TypeError("points are whole numbers")
    if not isinstance(rate, Decimal):
        raise TypeError("a rate is a Decimal, never a float")
    return (Decimal(points) * rate).quantize(SATANG, rounding=ROUND_HALF_UP)
