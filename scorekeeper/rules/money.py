"""Points to money: the one place where a Decimal rate meets whole points and is rounded."""

from decimal import ROUND_HALF_UP, Context, Decimal

SATANG = Decimal("0.01")
# Wide enough for any stored total at any stored rate (a 64-bit net at 12 digits a point, to the
# satang): a night kept from before the bounds below reads without an error.
_WIDE = Context(prec=60)


def baht(points: int, rate: Decimal) -> Decimal:
    """Return `points` worth of baht at `rate` baht a point, rounded half up to the satang."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise TypeError("points are whole numbers")
    if not isinstance(rate, Decimal):
        raise TypeError("a rate is a Decimal, never a float")
    amount = Decimal(points) * rate
    if amount.adjusted() < 20:  # any total of a real table: the satang well within 28 digits
        return amount.quantize(SATANG, rounding=ROUND_HALF_UP)
    return _WIDE.multiply(Decimal(points), rate).quantize(
        SATANG, rounding=ROUND_HALF_UP, context=_WIDE
    )


# What a real table plays, bounded where it is entered (forms, services, the import, `manage.py
# settle`): far above any table's, and small enough that a night of them fits the ledger.
POINT_VALUE_MOST = Decimal(1000)  # baht a point
STAKE_MOST = 100_000  # points: a custom stake, or the fine
BAHT_MOST = Decimal(1_000_000)  # a shared cost, or the table fee
# What the money ledger holds: a transfer or a money line has 12 digits, 2 after the point.
LEDGER_MOST = Decimal("9999999999.99")


def fits_ledger(amount: Decimal) -> bool:
    """Return whether `amount` baht, owed either way, fits a transfer or a money line."""
    return abs(amount) <= LEDGER_MOST
