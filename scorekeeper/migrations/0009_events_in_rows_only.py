"""Events are kept once, in their rows: a game's document no longer repeats them.

Each document's copy is checked against the rows before it goes; a difference stops the upgrade
naming the game, since nothing here may decide which of the two is right.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def events_from_documents(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.filter(document__has_key="events").iterator():
        rows = [e.document for e in game.events.order_by("number")]
        if game.document["events"] != rows:
            raise RuntimeError(
                f"game {game.pk} (number {game.number} of session {game.session_id}): its"
                " document's events differ from its event rows; mend one before upgrading"
            )
        game.document = {k: v for k, v in game.document.items() if k != "events"}
        game.save(update_fields=["document"])


def events_into_documents(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.all().iterator():
        events = [e.document for e in game.events.order_by("number")]
        game.document = {**game.document, "events": events}
        game.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0008_scoresheet_name")]

    operations = [migrations.RunPython(events_from_documents, events_into_documents)]
