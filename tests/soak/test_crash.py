"""Kill the whole server with SIGKILL in the middle of writes; start it again on the same database.

Twelve phones at three tables write as in the soak run. A few seconds in, every granian process
gets SIGKILL (no chance to clean up), three times over. After each restart `ledger_audit` must
exit 0, and the database, read directly, must hold no partial game: settled games have their
after-game lines, games in play, waiting for a tie or fined have none, every event has its lines,
every write has its idempotency key and no key more than one write, every night sums to zero,
and whatever a phone was told had been saved (a 302) is still there.
"""

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.soak.conftest import (
    Call,
    Database,
    Recorder,
    Server,
    database_problems,
    ledger_audit,
    run_phones,
    set_up_table,
    summary,
)

pytestmark = [pytest.mark.soak]

TABLES = 3
KILLS = 3


def _problems_after_restart(db: Database, calls: list[Call], when: str) -> list[str]:
    problems, _facts = database_problems(db, calls)
    audit = ledger_audit(db)
    if audit.returncode != 0:
        problems.append(f"ledger_audit exited {audit.returncode}:\n{audit.stdout}{audit.stderr}")
    return [f"{when}: {p}" for p in problems]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
def test_a_killed_server_leaves_no_partial_game(
    database: Database, serve: Callable[[Database], Server], tmp_path: Path
) -> None:
    server = serve(database)
    recorder = Recorder(tmp_path)
    tables = [set_up_table(server.url, n, recorder) for n in range(1, TABLES + 1)]
    rng = random.Random(f"crash-{database.kind}")
    failures: list[str] = []
    cut: set[int] = set()  # ids of the calls the kills cut off
    started = time.monotonic()

    for kill in range(1, KILLS + 1):
        stop = threading.Event()
        crashed: list[BaseException] = []
        phones = threading.Thread(
            target=lambda seed, stop, crashed: crashed.extend(
                run_phones(tables, 60, seed=seed, stop=stop)
            ),
            args=(f"{database.kind}-{kill}", stop, crashed),
        )
        phones.start()
        time.sleep(rng.uniform(1.5, 3.0))
        in_flight = time.monotonic()
        server.kill()
        stop.set()
        phones.join()
        failures += [f"the test's own phone threads failed: {e!r}" for e in crashed]
        # Requests that got no answer are the ones the kill cut off; none may fail before it.
        lost = [c for c in recorder.calls if c.status == 0 and id(c) not in cut]
        failures += [
            f"no answer before the kill: {c}" for c in lost if c.started + c.seconds < in_flight
        ]
        cut |= {id(c) for c in lost}
        writes = [c for c in lost if c.method == "POST"]
        print(f"\nkill {kill}: {len(lost)} requests cut off, {len(writes)} of them writes")
        server.start()  # the same port, the same database
        failures += _problems_after_restart(database, recorder.calls, f"after kill {kill}")

    # The tables still work after the last restart.
    calm = len(recorder.calls)
    crashed = run_phones(tables, 4, seed=f"{database.kind}-after")
    failures += [f"the test's own phone threads failed: {e!r}" for e in crashed]
    after = recorder.calls[calm:]
    failures += [
        f"{c.status or 'no answer'} after the restart: {c}"
        for c in after
        if c.status == 0 or c.status >= 500
    ]
    saved = [c for c in after if c.action == "finish" and c.status == 302]
    if not saved:
        failures.append("no game could be saved after the last restart")
    failures += _problems_after_restart(database, recorder.calls, "at the end")

    problems, facts = database_problems(database, recorder.calls)
    print(f"== crash on {database.kind}: {KILLS} × SIGKILL, {TABLES * 4} phones ==")
    print(summary(recorder.calls, time.monotonic() - started, facts))
    failures += [f"{c.status} for {c}" for c in recorder.calls if c.status >= 500]
    if any(c.status >= 500 for c in recorder.calls):
        failures += server.tracebacks()[:5]
    for table in tables:
        for phone in table.phones:
            phone.close()
    assert not failures, "\n".join(failures[:60])
