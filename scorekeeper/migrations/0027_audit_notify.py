"""On PostgreSQL, every audit entry written notifies the push watchers (scorekeeper/push/watch.py)
at its commit, whoever writes it: other app servers and manage.py commands included, with no
statement added to the write. SQLite has no notifications; its watchers read PRAGMA data_version.

Raw SQL: a trigger and its function are PostgreSQL's own; Django has no operation for them."""

from collections.abc import Callable

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

CREATE = """
CREATE FUNCTION scorekeeper_audit_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.night_id IS NOT NULL THEN
        PERFORM pg_notify('scorekeeper_audit', NEW.night_id::text || ':' || NEW.id::text);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER scorekeeper_audit_notify AFTER INSERT ON scorekeeper_auditentry
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_audit_notify();
"""
DROP = """
DROP TRIGGER IF EXISTS scorekeeper_audit_notify ON scorekeeper_auditentry;
DROP FUNCTION IF EXISTS scorekeeper_audit_notify();
"""


def on_postgresql(sql: str) -> Callable[[StateApps, BaseDatabaseSchemaEditor], None]:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0026_night")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP), elidable=False)]
