"""Texts checked against the model field they are stored in.

A text longer than its column's ``max_length`` is refused with a message naming the field, never cut short
and never left to the database (PostgreSQL refuses it with an error; SQLite stores it whole). The limit is
read from the model field (``Model._meta.get_field(name).max_length``), so a migration that changes a
column changes what is accepted: forms (``max_length=max_length(...)``), the services behind them, the
player import and the event JSON all read it here.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext

from tournaments.errors import ServiceError


def max_length(model: type[models.Model], field: str) -> int:
    """The ``max_length`` of a model's text field."""
    limit = model._meta.get_field(field).max_length  # type: ignore[union-attr]  # every caller names a CharField
    if limit is None:
        raise ValueError(f"{model.__name__}.{field} has no max_length")
    return int(limit)


def too_long(model: type[models.Model], field: str, value: str) -> int | None:
    """The field's limit when ``value`` is longer than it, else None."""
    limit = max_length(model, field)
    return limit if len(value) > limit else None


def check_length(model: type[models.Model], field: str, value: str, *, label: str) -> None:
    """Refuse (a ServiceError, code ``too_long``) a text longer than the field it is stored in; ``label``
    names the field for people (translated by the caller)."""
    limit = too_long(model, field, value)
    if limit is not None:
        raise ServiceError(
            gettext("%(label)s is longer than %(limit)s characters (it has %(length)s)")
            % {"label": label, "limit": limit, "length": len(value)},
            code="too_long",
        )
