"""A group keeps its own rules: the usual choices opening and closing a night start from."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0023_one_claim_per_player")]

    operations = [
        migrations.AddField(
            model_name="group",
            name="usual",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
