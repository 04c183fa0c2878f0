"""``{% table_disputes table %}``: the players' open disagreements at a table, for the referee's table page
(``services.disputes``), each with its "Settled" button."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.services import disputes
from tournaments.models import Substitution, Table

register = template.Library()


@register.inclusion_tag("scoring/referee/_disputes.html", takes_context=True)
def table_disputes(context: dict[str, Any], table: Table) -> dict[str, Any]:
    found = disputes.open_disputes(table)
    if not found:
        return {"disputes": []}
    wind_of = {seat.registration_id: seat.wind for seat in table.seats.all()}
    for item in Substitution.objects.filter(seat__table=table).select_related("seat"):
        wind_of.setdefault(item.substitute_id, item.seat.wind)
    return {
        "disputes": [{"dispute": d, "wind": wind_of.get(d.registration_id)} for d in found],
        "table": table,
        "tournament": table.round.tournament,
        "csrf_token": context.get("csrf_token"),
    }
