"""Twenty phones at five tables for a minute, against granian on SQLite and on PostgreSQL.

Each table has a host and three players who joined by invite, each phone with its own cookies.
They start games (one wins, the others are told a game is in play), add events, race to save the
same game (one saves it, the others are sent to the game page or refused), the host voids some,
and any write may be retried or double-tapped with its idempotency key. Afterwards: no 5xx, no
game lost or saved twice, no key that wrote twice, `ledger_audit` clean, every night sums to 0.

SCOREKEEPER_SOAK_SECONDS sets the length of the run (default 60).
"""

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.soak.conftest import (
    Database,
    Recorder,
    Server,
    database_problems,
    ledger_audit,
    run_phones,
    set_up_table,
    summary,
    unexpected,
)

pytestmark = [pytest.mark.soak]

SECONDS = float(os.environ.get("SCOREKEEPER_SOAK_SECONDS", "60"))
TABLES = 5


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
def test_twenty_phones_at_five_tables(
    database: Database, serve: Callable[[Database], Server], tmp_path: Path
) -> None:
    server = serve(database)
    recorder = Recorder(tmp_path)
    tables = [set_up_table(server.url, n, recorder) for n in range(1, TABLES + 1)]
    set_up = len(recorder.calls)

    started = time.monotonic()
    crashed = run_phones(tables, SECONDS, seed=database.kind)
    seconds = time.monotonic() - started
    for table in tables:
        for phone in table.phones:
            phone.close()
    calls = recorder.calls[set_up:]

    problems, facts = database_problems(database, calls)
    audit = ledger_audit(database)
    print(f"\n== soak on {database.kind}: {TABLES} tables, {TABLES * 4} phones, {SECONDS:.0f} s ==")
    print(summary(calls, seconds, facts))
    print(audit.stdout.strip() or audit.stderr.strip())

    failures = [f"the test's own phone threads failed: {e!r}" for e in crashed]
    for call in [c for c in recorder.calls if c.status >= 500 or c.status == 0][:20]:
        failures.append(f"{call.status or 'no answer'} for {call}")
    for call in [c for c in unexpected(calls) if c.status < 500 and c.status][:20]:
        failures.append(f"unexpected {call.status} for {call}")
    for call in [c for c in calls if c.status == 422 and c.error.startswith("(no message)")][:5]:
        failures.append(f"a refusal that does not say why: {call}")
    failures += problems[:50]
    if audit.returncode != 0:
        failures.append(f"ledger_audit exited {audit.returncode}:\n{audit.stdout}{audit.stderr}")
    if any(c.status >= 500 for c in recorder.calls):
        failures += server.tracebacks()[:5]
    assert not failures, "\n".join(failures)
    assert facts.finished > 0, "no game was saved at all"
