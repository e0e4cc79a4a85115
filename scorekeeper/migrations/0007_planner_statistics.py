"""The query planner's statistics for an embedded database, gathered once on upgrade.

SQLite has none until ANALYZE runs; `manage.py optimize_database` (run by `make serve`) keeps
them fresh from then on. PostgreSQL gathers its own.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def analyze(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("ANALYZE")


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0006_game_latest_index")]

    operations = [migrations.RunPython(analyze, migrations.RunPython.noop, elidable=True)]
