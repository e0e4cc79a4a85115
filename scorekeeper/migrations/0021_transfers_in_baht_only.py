"""A transfer is in baht alone: its points go, once 0020 restated them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0020_transfers_in_baht"),
    ]

    operations = [
        migrations.AlterField(
            model_name="transfer",
            name="baht",
            field=models.DecimalField(decimal_places=2, max_digits=12),
        ),
        migrations.RemoveField(
            model_name="transfer",
            name="amount",
        ),
        migrations.AddConstraint(
            model_name="transfer",
            constraint=models.CheckConstraint(
                condition=models.Q(("baht__gte", 0)), name="transfer_baht_not_negative"
            ),
        ),
    ]
