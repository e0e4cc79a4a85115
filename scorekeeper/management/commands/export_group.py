"""`manage.py export_group GROUP_ID`: a group as versioned JSON (to import elsewhere) or CSV."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import Group
from scorekeeper.services import exports


class Command(BaseCommand):
    help = (
        "Export a group: JSON that `import_group` reads into an empty instance, or its ledger as "
        "CSV (one row per line)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("group_id", type=int, help="the group's id")
        parser.add_argument(
            "--format", dest="kind", choices=["json", "csv"], default="json", help="default: json"
        )
        parser.add_argument(
            "-o", "--output", help="file to write, in UTF-8 (default: standard output)"
        )

    def handle(
        self, *args: Any, group_id: int, kind: str, output: str | None, **options: Any
    ) -> None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None:
            raise CommandError(f"there is no group {group_id}")
        if kind == "csv":
            text = exports.group_csv(group=group)
        else:
            data = exports.group_json(group=group)
            text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        if output is None:
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8", newline="")  # CSV keeps its \r\n
