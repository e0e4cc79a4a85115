"""`export_group` and `import_group`: a group moves to a fresh SQLite database and comes back whole.

The import runs in a subprocess against its own database file, since the test database's ledger
cannot be emptied (it is append-only); the imported file is then read with plain sqlite3, so the
comparison does not trust the exporter.
"""

import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scorekeeper.models import Game, LedgerLine, MoneyLine, Night, Standing, Transfer
from scorekeeper.services import exports
from tests.services.test_exports import EVE, SOMCHAI, make_rich_group, without_time_of_export

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, database: Path) -> subprocess.CompletedProcess:
    """Run manage.py on the SQLite file `database`, whatever the tests themselves run on."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["SCOREKEEPER_SQLITE"] = str(database)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_export(group, path: Path) -> dict:
    data = exports.group_json(group=group)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return data


def night_positions(ids: list[int]) -> dict[int, int]:
    return {pk: at for at, pk in enumerate(sorted(ids))}


def ledger_here() -> list[tuple]:
    """Each line of the test database: names, amount, labels, reversal by position, its game."""
    lines = list(LedgerLine.objects.select_related("payer", "payee", "game").order_by("pk"))
    at = {line.pk: i for i, line in enumerate(lines)}
    return [
        (
            line.payer.name,
            line.payee.name,
            line.amount,
            line.item,
            line.rule,
            line.due,
            at.get(line.reverses_id),  # type: ignore[arg-type]
            line.game.number if line.game else None,
            line.game.status if line.game else None,
        )
        for line in lines
    ]


def ledger_there(db: sqlite3.Connection) -> list[tuple]:
    rows = db.execute(
        """SELECT l.id, payer.name, payee.name, l.amount, l.item, l.rule, l.due, l.reverses_id,
                  g.number, g.status
             FROM scorekeeper_ledgerline l
             JOIN scorekeeper_player payer ON payer.id = l.payer_id
             JOIN scorekeeper_player payee ON payee.id = l.payee_id
             LEFT JOIN scorekeeper_game g ON g.id = l.game_id
            ORDER BY l.id"""
    ).fetchall()
    at = {row[0]: i for i, row in enumerate(rows)}
    return [(*row[1:7], at.get(row[7]), *row[8:]) for row in rows]


def standings_here() -> set[tuple]:
    where = night_positions(list(Night.objects.values_list("pk", flat=True)))
    return {
        (where[s.night_id], s.player.name, s.net, s.settled, s.balance)
        for s in Standing.objects.select_related("player")
    }


def standings_there(db: sqlite3.Connection) -> set[tuple]:
    where = night_positions([r[0] for r in db.execute("SELECT id FROM scorekeeper_night")])
    rows = db.execute(
        """SELECT s.night_id, p.name, s.net, s.settled FROM scorekeeper_standing s
             JOIN scorekeeper_player p ON p.id = s.player_id"""
    )
    return {(where[sid], name, net, settled, net + settled) for sid, name, net, settled in rows}


def games_here() -> list[tuple]:
    where = night_positions(list(Night.objects.values_list("pk", flat=True)))
    return [
        (where[g.night_id], g.number, g.status, g.document, g.tie, g.replaces is not None)
        for g in Game.objects.order_by("pk")
    ]


def games_there(db: sqlite3.Connection) -> list[tuple]:
    where = night_positions([r[0] for r in db.execute("SELECT id FROM scorekeeper_night")])
    rows = db.execute(
        "SELECT night_id, number, status, document, tie, replaces_id FROM scorekeeper_game"
        " ORDER BY id"
    )
    return [
        (where[sid], number, status, json.loads(doc), tie and json.loads(tie), replaces is not None)
        for sid, number, status, doc, tie, replaces in rows
    ]


def transfers_here() -> list[tuple]:
    return [
        (t.payer.name, t.payee.name if t.payee else None, str(t.baht), t.mode)
        for t in Transfer.objects.select_related("payer", "payee").order_by("pk")
    ]


def transfers_there(db: sqlite3.Connection) -> list[tuple]:
    rows = db.execute(
        """SELECT payer.name, payee.name, t.baht, t.mode FROM scorekeeper_transfer t
             JOIN scorekeeper_player payer ON payer.id = t.payer_id
             LEFT JOIN scorekeeper_player payee ON payee.id = t.payee_id
            ORDER BY t.id"""
    ).fetchall()
    # SQLite keeps a decimal as a number: read back to the satang, as the model reads it.
    return [(payer, payee, f"{Decimal(str(baht)):.2f}", mode) for payer, payee, baht, mode in rows]


def test_a_group_imported_into_a_fresh_database_comes_back_line_for_line(
    db, tmp_path, fresh_sqlite
):
    dump = tmp_path / "group.json"
    original = write_export(make_rich_group(), dump)

    imported = manage("import_group", str(dump), database=fresh_sqlite)
    assert imported.returncode == 0, imported.stderr
    assert "audit clean" in imported.stdout
    group_id = re.search(r"imported group (\d+)", imported.stdout)[1]  # type: ignore[index]
    again = tmp_path / "again.json"
    exported = manage("export_group", group_id, "-o", str(again), database=fresh_sqlite)
    assert exported.returncode == 0, exported.stderr
    assert without_time_of_export(json.loads(again.read_text("utf-8"))) == without_time_of_export(
        original
    )
    audit = manage("ledger_audit", database=fresh_sqlite)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "2 nights, no problem" in audit.stdout

    with sqlite3.connect(fresh_sqlite) as there:
        assert ledger_there(there) == ledger_here()
        assert standings_there(there) == standings_here()
        assert games_there(there) == games_here()
        assert transfers_there(there) == transfers_here()
    assert any(row[6] is not None for row in ledger_here())  # reversals were compared
    assert any(name == EVE for _, name, *_ in standings_here())


def test_an_import_into_a_database_with_a_group_is_refused_and_writes_nothing(
    db, tmp_path, fresh_sqlite
):
    dump = tmp_path / "group.json"
    write_export(make_rich_group(), dump)
    assert manage("import_group", str(dump), database=fresh_sqlite).returncode == 0
    with sqlite3.connect(fresh_sqlite) as there:
        before = there.execute("SELECT count(*) FROM scorekeeper_ledgerline").fetchone()
    again = manage("import_group", str(dump), database=fresh_sqlite)
    assert again.returncode == 1
    assert "nothing imported: this instance already has a group" in again.stderr
    with sqlite3.connect(fresh_sqlite) as there:
        assert there.execute("SELECT count(*) FROM scorekeeper_group").fetchone() == (1,)
        assert there.execute("SELECT count(*) FROM scorekeeper_ledgerline").fetchone() == before


def test_an_import_of_malformed_files_is_refused_with_a_clear_message(db, tmp_path, fresh_sqlite):
    dump = tmp_path / "group.json"
    data = write_export(make_rich_group(), dump)
    data["lines"][-1]["payee"] = "Nobody"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    not_json = tmp_path / "not.json"
    not_json.write_text("{format: scorekeeper", encoding="utf-8")
    expected = {
        broken: r"nothing imported: malformed export: lines\[\d+\]\.payee names 'Nobody'",
        not_json: r"not\.json is not JSON: Expecting property name",
        tmp_path / "missing.json": r"cannot read .*missing\.json: No such file",
    }
    for path, message in expected.items():
        result = manage("import_group", str(path), database=fresh_sqlite)
        assert result.returncode == 1
        assert re.search(message, result.stderr), result.stderr
    with sqlite3.connect(fresh_sqlite) as there:
        assert there.execute("SELECT count(*) FROM scorekeeper_group").fetchone() == (0,)
        assert there.execute("SELECT count(*) FROM scorekeeper_ledgerline").fetchone() == (0,)


def test_export_group_writes_csv_in_utf8_and_json_to_standard_output(db, tmp_path):
    group = make_rich_group()
    path = tmp_path / "ledger.csv"
    call_command("export_group", str(group.pk), "--format", "csv", "-o", str(path))
    rows = list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8"), newline="")))
    assert len(rows) == LedgerLine.objects.count() + MoneyLine.objects.count()
    assert SOMCHAI in {row["payer"] for row in rows} | {row["payee"] for row in rows}
    out = io.StringIO()
    call_command("export_group", str(group.pk), stdout=out)
    assert without_time_of_export(json.loads(out.getvalue())) == without_time_of_export(
        exports.group_json(group=group)
    )


def test_export_group_names_a_group_that_does_not_exist(db):
    with pytest.raises(CommandError, match="there is no group 404"):
        call_command("export_group", "404")


def test_an_operator_invites_the_first_host_of_a_group_from_the_command_line(db):
    from django.core.management import call_command

    from scorekeeper.models import Group, Invite
    from scorekeeper.services import access

    group = access.group_create(name="Imported")
    out = io.StringIO()
    call_command("invite", str(group.pk), stdout=out)
    invite = Invite.objects.get(group=group)
    assert invite.role == "host" and invite.code in out.getvalue()
    assert not Group.objects.filter(pk=group.pk + 1).exists()
