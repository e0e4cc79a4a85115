"""A night is a Night in code, as in the glossary: the model, its table and every column that
names it are renamed, data kept. Django's own sessions (django_session) are another thing.

A constraint or index over a renamed column is dropped before the rename and made again after
it, over the new name: RenameField leaves the fields a constraint names as they were."""

from django.db import migrations, models

NAMED = ["seat", "game", "transfer", "ledgerline", "cost", "moneyline", "standing", "sharelink",
         "auditentry"]  # fmt: skip
OVER_THE_NIGHT = [
    ("game", "one_standing_game_per_number"),
    ("seat", "one_current_player_per_position"),
    ("seat", "one_current_position_per_player"),
    ("sharelink", "one_live_share_link_per_night"),
    ("standing", "one_standing_per_player"),
]


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0025_settled_tabs")]

    operations = [
        *(migrations.RemoveConstraint(model, name) for model, name in OVER_THE_NIGHT),
        migrations.RemoveIndex("auditentry", "audit_session_latest"),
        migrations.RemoveIndex("game", "game_latest"),
        migrations.RenameModel("Session", "Night"),
        *(migrations.RenameField(model, "session", "night") for model in NAMED),
        migrations.AlterField(
            model_name="night",
            name="group",
            field=models.ForeignKey(
                on_delete=models.PROTECT, related_name="nights", to="scorekeeper.group"
            ),
        ),
        migrations.AddIndex(
            "auditentry", models.Index(fields=["night", "-id"], name="audit_night_latest")
        ),
        migrations.AddIndex(
            "game", models.Index(fields=["night", "number", "id"], name="game_latest")
        ),
        migrations.AddConstraint(
            "game",
            models.UniqueConstraint(
                condition=~models.Q(status="voided"),
                fields=("night", "number"),
                name="one_standing_game_per_number",
            ),
        ),
        migrations.AddConstraint(
            "seat",
            models.UniqueConstraint(
                condition=models.Q(until_game__isnull=True),
                fields=("night", "position"),
                name="one_current_player_per_position",
            ),
        ),
        migrations.AddConstraint(
            "seat",
            models.UniqueConstraint(
                condition=models.Q(until_game__isnull=True),
                fields=("night", "player"),
                name="one_current_position_per_player",
            ),
        ),
        migrations.AddConstraint(
            "sharelink",
            models.UniqueConstraint(
                condition=models.Q(revoked_at__isnull=True),
                fields=("night",),
                name="one_live_share_link_per_night",
            ),
        ),
        migrations.AddConstraint(
            "standing",
            models.UniqueConstraint(fields=("night", "player"), name="one_standing_per_player"),
        ),
    ]
