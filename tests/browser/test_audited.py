"""The ledger audit after each test (tests/conftest.py: `ledger_audited`) knows a test wrote by
counting its statements (`Written`). Once a browser test has run Playwright's loop in the test
thread, Django's connections there are the loop's own, made after the run started: their writes
are counted too, or every test after the first browser test would go unaudited."""

import pytest
from django.db import connection

from scorekeeper.models import Group
from tests.conftest import Written

pytestmark = pytest.mark.browser


def test_a_write_on_the_loops_connection_is_counted_unless_the_audit_never_reads_it(
    page, live_server
):
    page.goto(f"{live_server.url}/")
    before = Written.state
    Group.objects.create(name="วงหลังเบราว์เซอร์")
    created = Written.state
    assert created != before
    with connection.cursor() as cursor:
        cursor.execute('DELETE FROM "django_session"')  # sign-ins: the audit never reads them
        assert Written.state == created
        cursor.execute("DELETE FROM scorekeeper_seat")
        assert Written.state not in (before, created)
