"""Long lists a page at a time: which page an address asks for, and one page of rows, read in one
statement however many there are, as the templates read it. A night's history of games and a
score sheet's hands are paged so."""

from collections.abc import Sequence
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OrderBy, QuerySet, Value, Window
from django.db.models.functions import Least, RowNumber

LAST = 10**6  # past any night's or match's last page, and an OFFSET every database takes


def page_asked(raw: str | None) -> int:
    """Return the page an address asks for: anything but a page number asks for the first."""
    try:
        number = int(raw or 1)
    except ValueError:
        return 1
    return min(max(number, 1), LAST)


def page_of(
    rows: QuerySet[Any], order: Sequence[OrderBy], asked: int, per_page: int
) -> tuple[list[Any], Page[int]]:
    """Page `asked` of `rows` in `order`, `per_page` a page, and the page as the templates read
    it (Django's Page over the rows' numbers).

    One statement however many rows: the database numbers and counts them (whatever else `rows`
    keeps over all of them, such as running totals, before the page is picked), and a page past
    the last reads as the last, whose number the Page says.
    """
    last_page_start = (F("in_all") - 1) / per_page * per_page
    start = Least(Value((asked - 1) * per_page), last_page_start)
    shown = list(
        rows.annotate(row=Window(RowNumber(), order_by=order), in_all=Window(Count("pk")))
        .filter(row__gt=start, row__lte=start + per_page)
        .order_by(*order)
    )
    number = (shown[0].row - 1) // per_page + 1 if shown else 1
    return shown, Paginator(range(shown[0].in_all if shown else 0), per_page).page(number)
