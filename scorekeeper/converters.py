"""The ids in addresses: digits that fit a database's 64-bit integer, so a longer number (a typo,
a probe) finds nothing (404) rather than overflowing SQLite's integer (a 500)."""


class Id:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
