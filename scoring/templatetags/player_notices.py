"""The notices region of a player's own page reads its own state, so "My event" includes it with one line
(``templates/scoring/player/_notices.html``; ``scoring/views_notices.py``)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.views_notices import notices_context
from tournaments.models import Registration, Tournament

register = template.Library()


@register.simple_tag
def player_notices(
    tournament: Tournament, registration: Registration, table_number: int | None = None
) -> dict[str, Any]:
    """The polled address, its interval, and the version, table digest and notice ids the page is drawn
    with; ``table_number``: the session of the table the page shows (its fragment is asked for when the
    poll says it changed)."""
    return notices_context(tournament, registration, table_number)
