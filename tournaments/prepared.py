"""Queries a hall of phones asks many times a second, compiled once per process and, on PostgreSQL,
prepared once per database connection.

A player's table poll is answered 304 from one statement (``scoring.views_player``): at 400 phones that is
about 80 a second. Built by the ORM each time it cost ~0.5 ms of Python to compile, and PostgreSQL spent
0.7 ms planning it for 0.1-0.3 ms of executing (measured on the 400-player benchmark event). A
:class:`Statement` is built from a queryset once, with stand-in values for its named parameters; on
PostgreSQL it is ``PREPARE``d on each connection the first time that connection runs it, then ``EXECUTE``d
(planned once: 0.2 ms in all instead of 1.2). Elsewhere (SQLite) the compiled SQL is run as it is.

A connection that lost its prepared statements (``DISCARD ALL`` by a pooler, a new connection) or whose
statement a migration made out of date prepares again. A pooler in transaction mode (PgBouncer's default) does not keep them between transactions: the
deployment here connects to PostgreSQL directly (``docs/deployment.md``).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

_M = TypeVar("_M", bound=Model)


def fields_of(model: type[Model]) -> list[str]:
    """The attribute names of ``model``'s concrete fields, in order: what a statement giving instances
    selects (``values_list(*fields_of(model))``)."""
    return [field.attname for field in model._meta.concrete_fields]


STAND_INS = (30_001, 31_001)
"""The first stand-in value of the parameters in each of the two compilings: in every integer field's range
(the ORM compiles a lookup out of a field's range, such as a negative number, as no rows at all)."""


PREPARE_AGAIN = {"26000", "0A000"}
"""What a prepared statement's ``EXECUTE`` may fail with that preparing it again mends: it is gone from the
connection (``DISCARD ALL``), or a migration changed a table it reads ("cached plan must not change result
type")."""


class Statement:
    """``build(**parameters)``'s SQL, compiled once per database alias; :meth:`rows` runs it with the
    parameters' values. Every value the SQL takes is one of the named parameters or a constant the
    queryset builds in whatever the parameters are (checked when compiled)."""

    def __init__(
        self,
        name: str,
        build: Callable[..., QuerySet[Any]],
        parameters: Sequence[str],
        *,
        text: Sequence[str] = (),
        moments: Sequence[str] = (),
    ) -> None:
        """``parameters``: the names ``build`` takes, integers unless named in ``text`` (strings) or
        ``moments`` (aware datetimes, compared with a date-time field)."""
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            raise ValueError(f"A statement's name is a plain identifier, not {name!r}.")
        self.name = name
        self.build = build
        self.parameters = tuple(parameters)
        self.text = frozenset(text)
        self.moments = frozenset(moments)
        self._compiled: dict[str, tuple[str, tuple[tuple[str, Any], ...]]] = {}
        self._columns: dict[str, list[Any]] = {}
        self._prepared_on: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()

    def _stand_in(self, name: str, value: int) -> Any:
        if name in self.moments:
            return datetime(2001, 1, 1, tzinfo=UTC) + timedelta(seconds=value)
        return f"stand-in-{value}" if name in self.text else value

    def _as_given(self, name: str, value: Any) -> Any:
        """A parameter's value as the ORM gives it to the database (a moment: as the backend stores it)."""
        return connection.ops.adapt_datetimefield_value(value) if name in self.moments else value

    def compiled(self, alias: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
        """The SQL (``%s`` placeholders) and what each placeholder takes: ``("parameter", name)`` or
        ``("constant", value)`` (the ORM's own, such as ``EXISTS``'s ``SELECT 1``). It is compiled with two
        sets of stand-in values: a placeholder whose value is a stand-in in both takes that parameter; one
        whose value is the same in both is a constant; anything else (a value derived from a parameter)
        cannot be a prepared statement's and is refused."""
        found = self._compiled.get(alias)
        if found is not None:
            return found
        compiles: list[tuple[str, list[Any], dict[int, str]]] = []
        for base in STAND_INS:
            stand_ins = {name: self._stand_in(name, base + n) for n, name in enumerate(self.parameters)}
            compiler = self.build(**stand_ins).query.get_compiler(using=alias)
            text, params = compiler.as_sql()
            given = {self._as_given(name, value): name for name, value in stand_ins.items()}
            compiles.append((str(text), list(params), given))
            self._columns[alias] = [column for column, _, _ in compiler.select[: compiler.col_count]]
        (sql, first, names), (again, second, other_names) = compiles
        if sql != again or len(first) != len(second):
            raise RuntimeError(f"{self.name}'s SQL depends on its parameters' values.")
        order: list[tuple[str, Any]] = []
        for one, two in zip(first, second, strict=True):
            if one in names and two in other_names and names[one] == other_names[two]:
                order.append(("parameter", names[one]))
            elif one == two and one not in names:
                order.append(("constant", one))
            else:
                raise RuntimeError(f"{self.name} takes {self.parameters} as they are, not {one!r}.")
        found = (sql, tuple(order))
        self._compiled[alias] = found
        return found

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        """The statement's rows for these parameters' ``values``, as the database gives them."""
        sql, order = self.compiled(connection.alias)
        params = [self._as_given(what, values[what]) if kind == "parameter" else what for kind, what in order]
        if connection.vendor != "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return list(cursor.fetchall())
        return self._executed(sql, params)

    def values(self, **values: Any) -> list[list[Any]]:
        """:meth:`rows` with each column converted as the ORM converts it (dates, JSON, decimals: what the
        database gives differs between SQLite and PostgreSQL)."""
        rows = self.rows(**values)
        alias = connection.alias
        converters = []
        for position, column in enumerate(self._columns[alias]):
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                converters.append((position, found, column))
        converted = []
        for row in rows:
            values_now = list(row)
            for position, found, column in converters:
                value = values_now[position]
                for convert in found:
                    value = convert(value, column, connection)
                values_now[position] = value
            converted.append(values_now)
        return converted

    def objects(self, model: type[_M], **values: Any) -> list[_M]:
        """The rows as ``model`` instances, as the ORM loads them: ``build`` gives a ``values_list`` of the
        model's concrete fields in order (:func:`fields_of`), and nothing else."""
        names = fields_of(model)
        found = []
        for row in self.values(**values):
            if len(row) != len(names):
                raise RuntimeError(
                    f"{self.name} gives {len(row)} columns, not {model.__name__}'s {len(names)}."
                )
            found.append(model.from_db(connection.alias, names, row))
        return found

    def _executed(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        connection.ensure_connection()
        raw = connection.connection
        with connection.cursor() as cursor:
            if not self._prepared_on.get(raw):
                self._prepare(cursor, sql, len(params))
                self._prepared_on[raw] = True
            execute = (
                f"EXECUTE {self.name}({', '.join(['%s'] * len(params))})"
                if params
                else f"EXECUTE {self.name}"
            )
            try:
                cursor.execute(execute, params)
            except Exception as error:
                if (
                    getattr(error.__cause__, "sqlstate", None) not in PREPARE_AGAIN
                    or connection.in_atomic_block
                ):
                    raise
                self._prepare(cursor, sql, len(params))  # lost (DISCARD ALL) or out of date (a migration)
                cursor.execute(execute, params)
            return list(cursor.fetchall())

    def _prepare(self, cursor: Any, sql: str, count: int) -> None:
        numbered = iter(range(1, count + 1))
        text = re.sub(r"%(s|%)", lambda m: f"${next(numbered)}" if m.group(1) == "s" else "%", sql)
        cursor.execute("SELECT 1 FROM pg_prepared_statements WHERE name = %s", [self.name])
        if cursor.fetchone() is not None:  # prepared on this connection before it was seen here
            cursor.execute(f"DEALLOCATE PREPARE {self.name}")
        cursor.execute(f"PREPARE {self.name} AS {text}")
