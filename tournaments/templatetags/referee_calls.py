"""The call-a-referee includes read their own state, so a page includes them with one line
(``templates/tournaments/_table_call.html``, ``templates/tournaments/_call_button.html``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from tournaments import live
from tournaments.models import RefereeCall, Registration, Table
from tournaments.services import calls, player_seats

register = template.Library()


@register.simple_tag
def open_call_at(table: Table) -> live.CallLine | None:
    """The table's open call, with who is coming and how long it has waited."""
    call = calls.open_call(table)
    return live.call_lines([call], now=timezone.now())[0] if call is not None else None


@register.simple_tag
def player_call(registration: Registration | None) -> dict[str, Any]:
    """The signed-in player's table now and its open call."""
    table = player_seats.seat_now(registration).table if registration is not None else None
    return {"table": table, "line": open_call_at(table) if table is not None else None}


@register.simple_tag
def call_reasons() -> list[tuple[str, str]]:
    """The short list of reasons, in the page's language."""
    return [(value, str(label)) for value, label in RefereeCall.Reason.choices]
