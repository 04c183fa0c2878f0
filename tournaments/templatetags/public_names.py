"""``{{ registration|public_name:tournament }}``: the player's name as the public may see it
(``tournaments.public_names``); staff templates keep ``registration.player.name``."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import public_names
from tournaments.models import Registration, Tournament

register = template.Library()


@register.filter
def public_name(registration: Any, tournament: Any = None) -> str:
    """The public name; pass the page's ``tournament`` so a list of seats reads the event's setting once
    instead of loading each registration's event."""
    if not isinstance(registration, Registration):
        return ""
    return public_names.public_name(registration, tournament if isinstance(tournament, Tournament) else None)
