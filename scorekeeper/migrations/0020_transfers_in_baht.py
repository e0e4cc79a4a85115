"""Restate the settle-up of nights already closed in baht: its own
migration, so that PostgreSQL checks the rows it writes before the schema changes again."""

from decimal import ROUND_HALF_UP, Decimal

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def transfers_in_baht(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Restate the settle-up of nights already closed in baht.

    Each transfer's points become its baht at its night's point value, rounded half up to the
    satang as they were shown. Its payment, a points ledger line then, is restated as a money
    line of the same moment and tapper (its reversal likewise), since a transfer is now paid in
    baht; the points lines stay where they are, in the night's history. A transfer of a night for
    no money (a point value of 0) is worth 0 baht: there was nothing to pay.
    """
    Transfer = apps.get_model("scorekeeper", "Transfer")
    LedgerLine = apps.get_model("scorekeeper", "LedgerLine")
    MoneyLine = apps.get_model("scorekeeper", "MoneyLine")
    for transfer in Transfer.objects.select_related("session").order_by("pk"):
        amount = (Decimal(transfer.amount) * transfer.session.point_value).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
        transfer.baht = amount
        transfer.save(update_fields=["baht"])
    restated: dict[int, object] = {}
    paying = LedgerLine.objects.filter(transfer__isnull=False, transfer__baht__gt=0)
    for line in paying.select_related("transfer", "session").order_by("pk"):
        restated[line.pk] = MoneyLine.objects.create(
            group_id=line.session.group_id,
            session_id=line.session_id,
            transfer_id=line.transfer_id,
            payer_id=line.payer_id,
            payee_id=line.payee_id,
            baht=line.transfer.baht,
            item="paid",
            reverses=restated.get(line.reverses_id),
            by_id=line.by_id,
            recorded_at=line.recorded_at,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0019_baht_settle_up"),
    ]

    operations = [
        migrations.RunPython(transfers_in_baht, migrations.RunPython.noop),
    ]
