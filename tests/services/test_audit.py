"""The audit entry every write leaves (services/access.audit): each value as it was written."""

from datetime import timedelta

from django.utils import timezone

from scorekeeper.models import AuditEntry, Membership
from scorekeeper.services import access, games

KNOCK = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 30}}


def test_an_entry_reads_back_with_who_what_when_and_its_key(table):
    device = access.device_create(user_agent="phone")
    host = Membership.objects.create(group=table.group, device=device, role=Membership.Role.HOST)
    before = timezone.now()
    game = games.game_start(night=table, actor=host, idempotency_key="k-start")
    games.game_finish(game=game, outcome=KNOCK, actor=host, idempotency_key="k" * 200)
    start, finish = AuditEntry.objects.filter(game=game).order_by("id")
    assert (start.action, start.key, start.detail) == ("game-start", "k-start", {})
    assert (start.group_id, start.night_id, start.membership, start.device_id) == (
        table.group_id,
        table.pk,
        host,
        device.pk,
    )
    assert finish.action == "game-finish"
    assert finish.detail == KNOCK  # JSON, as written
    assert finish.key is not None and len(finish.key) == 64  # a long key kept by its hash
    assert before <= start.at <= finish.at <= timezone.now() + timedelta(seconds=1)
    assert start.at.tzinfo is not None
