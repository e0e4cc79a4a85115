"""A player is one live member's: viewers claim nobody, and where two live members claim one
player the earliest claim is kept and the others let go. A claim is as old as the member's last
"this is me" for that player in the audit log (saying it of another player in between moved
them off), or, with no such entry, as old as the member (a claim cannot be older); ties by when
they joined, then by id. A number its player's kept member did not save is cleared, since an
impostor may have saved it. Every number kept learns when it was last saved, and by whom, from
the audit log."""

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _last_saved(AuditEntry: Any, player: Any) -> Any:
    """The newest audit entry saving `player`'s PromptPay number, or None."""
    return (
        AuditEntry.objects.filter(
            group_id=player.group_id, action="promptpay-set", detail__player=player.name
        )
        .select_related("membership")
        .order_by("-at", "-id")
        .first()
    )


def _claimed_at(AuditEntry: Any, live: Any) -> dict[int, Any]:
    """When each of the `live` claims was made: the member's newest "this is me" for that
    player, else when they joined. One query for them all, the claims' ids a subquery (no
    list of parameters to outgrow the database's limit)."""
    claims = list(live.select_related("player"))
    said: dict[tuple[int, str], Any] = {}
    entries = AuditEntry.objects.filter(action="member-is-player", membership__in=live.values("pk"))
    for membership_id, detail, at in entries.values_list("membership_id", "detail", "at"):
        name = detail.get("player") if isinstance(detail, dict) else None
        if not isinstance(name, str):
            continue
        key = (membership_id, name)
        if key not in said or at > said[key]:
            said[key] = at
    return {c.pk: said.get((c.pk, c.player.name), c.joined_at) for c in claims}


def one_claim_per_player(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Membership = apps.get_model("scorekeeper", "Membership")
    Player = apps.get_model("scorekeeper", "Player")
    AuditEntry = apps.get_model("scorekeeper", "AuditEntry")
    contested = set(
        Membership.objects.filter(role="viewer", player__isnull=False, revoked_at__isnull=True)
        .values_list("player_id", flat=True)
    )  # fmt: skip
    Membership.objects.filter(role="viewer", player__isnull=False).update(player=None)
    kept: dict[int, Any] = {}  # player id: the membership keeping it
    live = Membership.objects.filter(player__isnull=False, revoked_at__isnull=True)
    claimed_at = _claimed_at(AuditEntry, live)
    for claim in sorted(live, key=lambda c: (c.player_id, claimed_at[c.pk], c.joined_at, c.pk)):
        if claim.player_id in kept:
            contested.add(claim.player_id)
            Membership.objects.filter(pk=claim.pk).update(player=None)
        else:
            kept[claim.player_id] = claim
    for player in Player.objects.filter(pk__in=contested).exclude(promptpay=""):
        saved = _last_saved(AuditEntry, player)
        holder = kept.get(player.pk)
        if saved is None or holder is None or saved.membership_id != holder.pk:
            player.promptpay, player.promptpay_public = "", False
            player.save(update_fields=["promptpay", "promptpay_public"])
    for player in Player.objects.exclude(promptpay=""):
        saved = _last_saved(AuditEntry, player)
        if saved is not None:
            player.promptpay_changed_at = saved.at
            player.promptpay_changed_by = saved.membership.name if saved.membership else ""
            player.save(update_fields=["promptpay_changed_at", "promptpay_changed_by"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0022_nets_reading")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="promptpay_changed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="promptpay_changed_by",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.RunPython(one_claim_per_player, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.UniqueConstraint(
                condition=models.Q(("player__isnull", False), ("revoked_at__isnull", True)),
                fields=("player",),
                name="one_live_claim_per_player",
            ),
        ),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("player__isnull", True),
                    models.Q(("role", "viewer"), _negated=True),
                    _connector="OR",
                ),
                name="viewer_claims_nobody",
            ),
        ),
    ]
