"""Django's database session store, with the read that every request makes written as SQL.

A phone's Django session (which device it is, and so its memberships) is read on every request.
Django builds that read through the ORM: 0.25 ms of CPU against 0.05 ms for the same statement
sent as SQL (SQLite; 0.45 against 0.19 ms on PostgreSQL; measured in-process, 3,000 loads each,
2026-11-21). Everything else (creating, saving, cycling the key, clearing expired rows) is
Django's own.
"""

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.db import connections, router
from django.utils import timezone


class SessionStore(DatabaseStore):
    def load(self) -> dict[str, Any]:
        """Return the session's data; an unknown or expired key loads as a new, empty session.

        The statement is Django's: the row of this key, unless it has expired.
        """
        connection = connections[router.db_for_read(self.model)]
        table = connection.ops.quote_name(self.model._meta.db_table)
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                [self.session_key, now],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None  # as Django's: the next save makes a new key
            return {}
        return self.decode(row[0])
