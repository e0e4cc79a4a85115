"""A connection kept between requests that the database server cut (a restart, a pooler's idle
limit, an administrator) is found before it is used again: the next request answers as usual."""

import httpx
import pytest
from django.db import connection

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's connection is a file: nothing cuts it"
)


def test_a_kept_connection_the_server_cut_is_replaced_before_the_next_request(live_server):
    """The live server runs the app in one thread that keeps its connection (CONN_MAX_AGE), as
    a production server's worker thread does. Without the check before reuse
    (CONN_HEALTH_CHECKS), the first request after the cut failed with a 500."""
    shared = live_server.url + "/n/no-such-link"  # a shared night's address: read from the database
    assert httpx.get(shared, timeout=10).status_code == 404
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchall(), "the live server's kept connection"
    assert httpx.get(shared, timeout=10).status_code == 404
