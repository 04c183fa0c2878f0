"""The notices region of a player's own page reads its own state, so "My event" includes it with one line
(``templates/scoring/player/_notices.html``; ``scoring/views_notices.py``)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.views_notices import notices_context
from tournaments.models import Registration, Tournament

register = template.Library()


@register.simple_tag
def player_notices(tournament: Tournament, registration: Registration) -> dict[str, Any]:
    """The polled address, its interval, and the version and notice ids the page is drawn with."""
    return notices_context(tournament, registration)
