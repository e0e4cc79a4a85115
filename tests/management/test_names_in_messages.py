"""Management commands print names as they were recorded: a control character in one is written
out, so it can neither move the terminal nor fake a line of the report."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from scorekeeper.models import Group, Standing
from scorekeeper.services import exports
from tests.services.conftest import make_night

FAKE = "Sat\nsession 99 (Sun): all paid\x1b[2K"


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_ledger_audit_writes_a_control_character_in_a_group_name_out(db):
    night = make_night()
    Group.objects.filter(pk=night.group_id).update(name=FAKE)  # as an old row might hold it
    Standing.objects.filter(night=night).update(net=5)  # one problem per player to report
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("ledger_audit", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith(f"night {night.pk} (Sat\\n") for line in lines)
    assert "\x1b" not in out.getvalue()


def test_invite_writes_a_control_character_in_a_group_name_out(db):
    group = Group.objects.create(name=FAKE)
    out = io.StringIO()
    call_command("invite", str(group.pk), stdout=out)
    assert out.getvalue().splitlines()[0].startswith("Sat\\nsession 99 (Sun): all paid\\x1b[2K")


def test_an_import_refuses_a_name_no_phone_can_show_and_says_so_on_one_line(db, tmp_path):
    with transaction.atomic():  # an export of another instance: this one stays empty
        data = exports.group_json(group=make_night().group)
        transaction.set_rollback(True)
    data["players"][0]["name"] = "Ann\x1b[2K\nimported group 1"
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_group", str(path))
    message = str(refused.value)
    assert "players[0].name is not a name a phone can show" in message
    assert "\n" not in message and "\x1b" not in message
    assert not Group.objects.exists()
