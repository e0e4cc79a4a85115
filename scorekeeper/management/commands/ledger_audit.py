"""`manage.py ledger_audit`: replay every night's ledger and re-settle every game; check every
settled tab."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Night, Tab
from scorekeeper.rules.names import escaped
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.ledger_audit import night_audit


class Command(BaseCommand):
    help = "Check that running totals equal the ledger's replay and every game re-settles the same."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = 0
        nights = Night.objects.select_related("group").order_by("pk")
        for night in nights:
            for problem in night_audit(night):
                problems += 1
                # A name is written out as it was recorded: a control character in it must not
                # move the terminal or fake a line of this report.
                self.stdout.write(escaped(f"night {night.pk} ({night.group}): {problem}"))
        for tab in Tab.objects.select_related("group").order_by("pk"):
            for problem in tab_audit(tab):
                problems += 1
                self.stdout.write(escaped(f"settled tab {tab.pk} ({tab.group}): {problem}"))
        if problems:
            raise CommandError(f"{problems} problems in {nights.count()} nights")
        self.stdout.write(f"ledger audit: {nights.count()} nights, no problem")
