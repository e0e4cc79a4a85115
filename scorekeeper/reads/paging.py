"""Long lists a page at a time: which page an address asks for."""

LAST = 10**6  # past any night's or match's last page, and an OFFSET every database takes


def page_asked(raw: str | None) -> int:
    """Return the page an address asks for: anything but a page number asks for the first."""
    try:
        number = int(raw or 1)
    except ValueError:
        return 1
    return min(max(number, 1), LAST)
