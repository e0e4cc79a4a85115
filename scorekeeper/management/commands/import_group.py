"""`manage.py import_group FILE`: recreate a group exported by `export_group` (a thin adapter)."""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.rules.names import escaped
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.exports import group_import


class Command(BaseCommand):
    help = (
        "Import a group's JSON export into this instance, which must have no group yet; nothing "
        "is written unless every night's ledger audits clean."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON export, or - for standard input")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
            data = json.loads(raw.decode("utf-8"))
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        except UnicodeDecodeError as error:
            raise CommandError(f"{file} is not UTF-8 text") from error
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{file} is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
            ) from error
        except (ValueError, RecursionError) as error:  # a number too long, nesting too deep
            raise CommandError(f"{file} is not JSON that can be read: {error}") from error
        try:
            group = group_import(data=data)
        except ServiceError as error:
            raise CommandError(escaped(f"nothing imported: {error.message}")) from error
        lines = sum(s.lines.count() for s in group.nights.all())
        self.stdout.write(
            escaped(
                f"imported group {group.pk} ({group.name}): {group.nights.count()} nights, "
                f"{lines} ledger lines, audit clean"
            )
        )
