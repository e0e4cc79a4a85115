"""A write reaches every push process on the database, whoever makes it: the app server, or a
manage.py command in a process of its own; on SQLite (PRAGMA data_version, a file shared by
processes) and PostgreSQL (the audit table's trigger, LISTEN).

Two push processes and one app server (granian, four workers) on one fresh database; a phone of
the table reads the night's stream from each push process. Every write is told by both within a
second of its answer."""

import time

import pytest

from tests.push.serve import Stream
from tests.soak.conftest import Recorder, set_up_table, stream_pass

pytestmark = [pytest.mark.soak]

TOLD_WITHIN = 1.0  # seconds


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
def test_every_write_reaches_the_streams_of_every_push_process(database, serve, serve_push):
    app = serve(database)
    pushes = [serve_push(database), serve_push(database)]
    table = set_up_table(app.url, 1, Recorder())
    host = table.phones[0]
    night = table.night_id
    _, page = host.page(f"/s/{night}/")
    streams = [Stream(push.url + stream_pass(page), wait=5.0) for push in pushes]
    try:
        first = [stream.version() for stream in streams]
        assert len(set(first)) == 1

        def newest() -> int:
            return database.rows(
                f"SELECT MAX(id) FROM scorekeeper_auditentry WHERE night_id = {night}"
            )[0][0]

        def told() -> None:
            answered = time.monotonic()
            versions = [stream.version() for stream in streams]
            assert time.monotonic() - answered < TOLD_WITHIN
            assert versions == [newest()] * len(streams)

        # Through the app server.
        assert host.start_game(night, {"fool_swap": "on"}).status == 302
        told()
        # From a manage.py command, a process of its own that knows nothing of the streams.
        code = (
            "from scorekeeper.models import Game\n"
            "from scorekeeper.services import games\n"
            f"games.game_void(game=Game.objects.get(night_id={night}, status='in-play'))\n"
        )
        done = database.manage("shell", "-c", code)
        assert done.returncode == 0, done.stdout + done.stderr
        told()
    finally:
        for stream in streams:
            stream.close()
    for push in pushes:
        assert "Traceback" not in push.log_text(), push.log_text()
