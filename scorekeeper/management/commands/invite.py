"""`manage.py invite GROUP_ID`: an invite to a group from the command line.

For a group that has no phone in it yet: one brought back by import_group, or made by a script.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import Group, Membership
from scorekeeper.rules.names import escaped
from scorekeeper.services import access


class Command(BaseCommand):
    help = "Make an invite code and link for a group (default role: host)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("group_id", type=int)
        parser.add_argument("--role", choices=Membership.Role.values, default=Membership.Role.HOST)

    def handle(self, *args: Any, group_id: int, role: str, **options: Any) -> None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None:
            raise CommandError(f"no group {group_id}")
        invite = access.invite_create(group=group, role=role, by=None)
        self.stdout.write(escaped(f"{group.name}: code {invite.code}, link /join/{invite.token}"))
        self.stdout.write(f"valid until {invite.expires_at:%Y-%m-%d %H:%M} UTC, role {role}")
