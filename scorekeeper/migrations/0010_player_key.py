"""Each player gets the key of their name cleaned (scorekeeper.names): a name typed again with a
zero-width space or its Thai marks in another order is the same player. Names stay as recorded.
Two names already stored that clean the same stay two players: the later one's key says so."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from scorekeeper.names import unique_key


def keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("scorekeeper", "Player")
    taken: dict[int, set[str]] = {}
    for player in Player.objects.order_by("pk").iterator():
        player.key = unique_key(player.name, taken.setdefault(player.group_id, set()))
        player.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0009_events_in_rows_only")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="key",
            field=models.CharField(default="", max_length=80),
            preserve_default=False,
        ),
        migrations.RunPython(keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_in_group"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("group", "key"), name="player_key_unique_in_group"
            ),
        ),
    ]
