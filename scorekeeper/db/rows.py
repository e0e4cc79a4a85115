"""Rows read and written as SQL on the hot path of recording a game, as model instances.

Recording a game runs a handful of statements, and through the ORM building each one cost more
CPU than the database took to run it (`uv run python bench/web_floor.py`). On SQLite the writes
and the locked reads run inside the write transaction that every other table's save waits for.

So these few statements are written as SQL, and this module turns their rows into model
instances and instances into rows the way the ORM does it: each column's value converted by its
field's and the backend's converters on the way in, prepared by its field's `pre_save` and
`get_db_prep_save` on the way out. What is read or written is the same as through the ORM; the
tests that hold each statement to its ORM twin are tests/test_models_reads.py and
tests/db/test_rows.py. Each statement's text is made once per model and database.
"""

from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field


def _db() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]  # once a call: `connection` looks it up each use


def _quoted(db: BaseDatabaseWrapper, field: "Field[Any, Any]") -> str:
    return db.ops.quote_name(str(field.column))


def columns(model: type[models.Model], alias: str) -> str:
    """Every concrete column of `model`, in the model's order, from the table named `alias`."""
    return _columns(model, alias, _db().vendor)


@cache
def _columns(model: type[models.Model], alias: str, vendor: str) -> str:
    db = _db()
    return ", ".join(f"{alias}.{_quoted(db, f)}" for f in model._meta.concrete_fields)


@cache
def _converters(kinds: tuple[type[models.Model], ...], vendor: str) -> dict[int, Any]:
    """What the ORM applies to each column of `kinds` as it reads them from this database."""
    db = _db()
    fields = [f for kind in kinds for f in kind._meta.concrete_fields]
    compiler = db.ops.compiler("SQLCompiler")(None, db, db.alias)  # type: ignore[arg-type]
    return compiler.get_converters([f.get_col(f.model._meta.db_table) for f in fields])


def select(
    sql: str, params: Sequence[Any], *kinds: type[models.Model]
) -> list[tuple[models.Model, ...]]:
    """Run `sql`, which selects `columns(kind, …)` of each of `kinds` in turn; each row as a tuple
    of instances, one of each kind, read from the database as the ORM reads them."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    if converters := _converters(kinds, db.vendor):
        compiler = db.ops.compiler("SQLCompiler")(None, db, db.alias)  # type: ignore[arg-type]
        found = list(compiler.apply_converters(found, converters))
    layout, at = [], 0  # each kind, its field names, and where its columns start in a row
    for kind in kinds:
        names = [f.attname for f in kind._meta.concrete_fields]
        layout.append((kind, names, at))
        at += len(names)
    return [
        tuple(
            kind.from_db(db.alias, names, row[start : start + len(names)])
            for kind, names, start in layout
        )
        for row in found
    ]


def of[M: models.Model](kind: type[M], sql: str, params: Sequence[Any]) -> list[M]:
    """Run `sql`, which selects `columns(kind, …)`: its rows as instances of `kind`."""
    return [cast("M", instance) for (instance,) in select(sql, params, kind)]


@cache
def _insert_sql(model: type[models.Model], count: int, vendor: str) -> str:
    db, meta = _db(), model._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    row = f"({', '.join(['%s'] * len(fields))})"
    return (
        f"INSERT INTO {db.ops.quote_name(meta.db_table)}"
        f" ({', '.join(_quoted(db, f) for f in fields)})"
        f" VALUES {', '.join([row] * count)} RETURNING {_quoted(db, meta.pk)}"
    )


def insert(objs: Sequence[models.Model]) -> None:
    """INSERT new instances of one model in one statement, every column but the id; each learns
    its id (RETURNING, in the order given, as `bulk_create` relies on too)."""
    if not objs:
        return
    db, model = _db(), type(objs[0])
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.pk]
    params = [f.get_db_prep_save(f.pre_save(obj, True), db) for obj in objs for f in fields]
    with db.cursor() as cursor:
        cursor.execute(_insert_sql(model, len(objs), db.vendor), params)
        ids = [id_ for (id_,) in cursor.fetchall()]
    for obj, id_ in zip(objs, ids, strict=True):
        obj.pk = id_
        obj._state.adding = False
        obj._state.db = db.alias


@cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    db, meta = _db(), model._meta
    fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in names]
    places = ", ".join(f"{_quoted(db, f)} = %s" for f in fields)
    return (
        f"UPDATE {db.ops.quote_name(meta.db_table)} SET {places} WHERE {_quoted(db, meta.pk)} = %s"
    )


def update(obj: models.Model, names: Sequence[str]) -> None:
    """UPDATE the columns of fields `names` of a stored instance, as `save(update_fields=names)`
    writes them (no signal is sent: nothing here listens to one)."""
    db = _db()
    fields = [cast("Field[Any, Any]", obj._meta.get_field(name)) for name in names]
    params = [f.get_db_prep_save(f.pre_save(obj, False), db) for f in fields]
    with db.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), tuple(names), db.vendor), [*params, obj.pk])
