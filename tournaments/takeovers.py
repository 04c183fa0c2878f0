"""Transition: this module is ``tournaments.services.substitutions``; ``scoring`` still imports it here."""

from tournaments.services.substitutions import (
    involving,
    of_seat,
    seat_prefetch,
    substitute_winds,
    substitutions_queryset,
)

__all__ = ["involving", "of_seat", "seat_prefetch", "substitute_winds", "substitutions_queryset"]
