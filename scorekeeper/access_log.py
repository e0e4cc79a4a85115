"""The access log of `make serve` (granian's): one line a request, whatever its path holds.

granian writes the path as the app reads it, percent-decoded: a request for `/x%0a[…] "GET /admin"
200` would write a second line that looks like a request nobody made, and `%1b[2K` would move the
terminal of whoever reads the log. `--log-config scorekeeper/access_log.json` formats its lines
with `OneLineFormatter`, which writes such characters out (\\n, \\x1b) as the diagnostics do.
"""

import logging

from scorekeeper.rules.names import escaped


class OneLineFormatter(logging.Formatter):
    """Format a record as logging does, its control characters written out."""

    def format(self, record: logging.LogRecord) -> str:
        return escaped(super().format(record))
