"""Typed event settings: each rule set (and the seating) declares its settings as :class:`Setting`s.

A setting has a dotted key into the event's settings object (``"seating.time_limit"``), a kind, a
default and its limits. :func:`check_settings` refuses a value the code does not know at the door
(when an organiser saves a form and when an event is imported), so no page meets it later.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scoring.rules.errors import Text, gettext_noop

Kind = Literal["int", "float", "bool", "choice", "text", "any"]


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    kind: Kind
    default: Any = None
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    optional: bool = False
    """``None`` is allowed (and means "not set")."""
    help: str = ""
    group: str = ""
    """The heading of the organiser's form that shows it (empty: not shown as a form field)."""
    locked_after_results: bool = False
    """Cannot change once results are entered (they would be rescored)."""
    check: Callable[[Any], str | None] | None = None
    """A further check; returns a problem or None."""
    to_form: Callable[[Any], Any] | None = None
    from_form: Callable[[Any], Any] | None = None
    """For a setting whose stored value is richer than its form field (a scheme stored as an object
    but chosen by name): how the value goes into the form and back."""

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this setting, or None."""
        if value is None:
            return None if self.optional else Text(gettext_noop("must be set"))
        if self.kind in ("int", "float"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                return Text(gettext_noop("must be a number"))
            if self.kind == "int" and not isinstance(value, int):
                return Text(gettext_noop("must be a whole number"))
            if isinstance(value, float) and not math.isfinite(value):
                return Text(gettext_noop("must be a number"))
            if self.minimum is not None and value < self.minimum:
                return Text(gettext_noop("must be at least %(minimum)s"), minimum=_number(self.minimum))
            if self.maximum is not None and value > self.maximum:
                return Text(gettext_noop("must be at most %(maximum)s"), maximum=_number(self.maximum))
        elif self.kind == "bool":
            if not isinstance(value, bool):
                return Text(gettext_noop("must be true or false"))
        elif self.kind == "choice":
            allowed = [choice for choice, _ in self.choices]
            if value not in allowed or isinstance(value, bool):
                return Text(
                    gettext_noop("must be one of %(choices)s"),
                    choices=", ".join(repr(choice) for choice in allowed),
                )
        elif self.kind == "text" and (not isinstance(value, str) or len(value) > 200):
            return Text(gettext_noop("must be text of at most 200 characters"))
        return self.check(value) if self.check is not None else None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


_MISSING = object()


def lookup(settings: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """The value at a dotted key, or ``default`` when any part is missing."""
    node: Any = settings
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return default
        node = node[part]
    return node


def value_of(settings: Mapping[str, Any], setting: Setting) -> Any:
    return lookup(settings, setting.key, setting.default)


def with_value(settings: Mapping[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy of ``settings`` with the dotted key set (``None`` for an optional setting removes it)."""
    result = dict(settings)
    node = result
    parts = key.split(".")
    for part in parts[:-1]:
        child = node.get(part)
        node[part] = dict(child) if isinstance(child, Mapping) else {}
        node = node[part]
    if value is None:
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = value
    return result


def check_settings(
    settings: Any, fields: Iterable[Setting], *, structural: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Every problem as (dotted key, message): unknown keys, wrong kinds, values out of range.

    ``structural`` names top-level keys handled elsewhere (the event's own columns in the JSON)."""
    if not isinstance(settings, Mapping):
        return [("", Text(gettext_noop("must be an object")))]
    fields = list(fields)
    problems: list[tuple[str, str]] = []
    known_top = {f.key.split(".")[0] for f in fields} | set(structural)
    for key in settings:
        if key not in known_top:
            problems.append((str(key), Text(gettext_noop("is not a setting this event has"))))
    groups = {f.key.rsplit(".", 1)[0] for f in fields if "." in f.key}
    for group in sorted(groups):
        node = lookup(settings, group, _MISSING)
        if node is _MISSING:
            continue
        if not isinstance(node, Mapping):
            problems.append((group, Text(gettext_noop("must be an object"))))
            continue
        known = {f.key.rsplit(".", 1)[1] for f in fields if f.key.rsplit(".", 1)[0] == group}
        problems.extend(
            (f"{group}.{key}", Text(gettext_noop("is not a setting this event has")))
            for key in node
            if key not in known
        )
    for setting in fields:
        value = lookup(settings, setting.key, _MISSING)
        if value is _MISSING:
            continue
        problem = setting.problem(value)
        if problem:
            problems.append((setting.key, problem))
    return problems
