"""Keep each form's idempotency key on the audit entry of its write, and a game's events in its
document while it is in play: recording a game then writes one row fewer and reads no events."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The result each keyed action stored, and the audit entry field that names the same thing.
RESULT_FIELD = {"session": "session_id", "game": "game_id"}


def keys_to_audit(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Give each stored key to the audit entry of its write (an event's: the nth of its game)."""
    IdempotencyKey = apps.get_model("scorekeeper", "IdempotencyKey")
    AuditEntry = apps.get_model("scorekeeper", "AuditEntry")
    Event = apps.get_model("scorekeeper", "Event")
    for row in IdempotencyKey.objects.order_by("pk"):
        entries = AuditEntry.objects.filter(action=row.action, key__isnull=True)
        if "event" in row.result:
            event = Event.objects.filter(pk=row.result["event"]).first()
            if event is None:
                continue
            entries = entries.filter(game_id=event.game_id).order_by("pk")
            entry = entries[event.number - 1 : event.number].first()
            if entry is not None:
                entry.detail = {"number": event.number, **entry.detail}
        else:
            name, value = next(iter(row.result.items()), (None, None))
            if name not in RESULT_FIELD:
                continue
            entry = entries.filter(**{RESULT_FIELD[name]: value}).order_by("pk").first()
        if entry is not None:
            entry.key = row.key
            entry.save(update_fields=["key", "detail"])


def events_to_documents(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Copy the events of every game still in play into its document, as they are now kept."""
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.filter(status="in-play"):
        events = [e.document for e in game.events.order_by("number")]
        game.document = {**game.document, "events": events}
        game.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0004_race_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="key",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(keys_to_audit, migrations.RunPython.noop),
        migrations.RunPython(events_to_documents, migrations.RunPython.noop),
        migrations.DeleteModel(name="IdempotencyKey"),
    ]
