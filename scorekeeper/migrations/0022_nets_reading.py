"""Nights closed before the fee was charged by the standing nets keep the reading they were closed
with ("booked"), so the audit and the import accept their fee lines as stored."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def closed_nights_were_booked(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Session = apps.get_model("scorekeeper", "Session")
    Session.objects.filter(closed_at__isnull=False).update(nets_reading="booked")


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0021_transfers_in_baht_only")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="nets_reading",
            field=models.CharField(
                choices=[
                    ("standing", "standing lines, reversals applied"),
                    ("booked", "every line as booked"),
                ],
                default="standing",
                max_length=8,
            ),
        ),
        migrations.RunPython(closed_nights_were_booked, migrations.RunPython.noop),
    ]
