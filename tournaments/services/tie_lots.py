"""The draw of lots that breaks ties last (``scoring.rules.tie_breaks``): drawn once, stored in the event's
settings (``tie_break_lots``) and audited, so the standings read the same draw every time and nobody
redraws it silently."""

from __future__ import annotations

import random
from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext

from scoring.rules.tie_breaks import TIE_BREAK_LOTS_SETTING
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import Tournament

_RANDOM = random.SystemRandom()
"""The operating system's randomness: nobody can predict or replay the draw."""


def drawn_lots(tournament: Tournament) -> list[str]:
    """The player ids in the order drawn (first wins the tie), or empty when nobody has drawn."""
    return list(tournament.settings.get(TIE_BREAK_LOTS_SETTING.key) or [])


@transaction.atomic
def draw_lots(
    tournament: Tournament,
    *,
    acting_user: User,
    shuffle: Callable[[list[str]], None] | None = None,
) -> list[str]:
    """Draw the order of every ranked player (not substitutes) once; a second draw is refused, so the
    order a tie was broken by never changes behind the players' backs. A player registered after the
    draw is not in it, and a tie with them stays shared."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if drawn_lots(locked):
        raise ServiceError(gettext("The lots have been drawn already; they are never redrawn."), code="drawn")
    codes = sorted(locked.registrations.filter(is_substitute=False).values_list("code", flat=True))
    if not codes:
        raise ServiceError(gettext("There is nobody to draw lots for."), code="nobody")
    (shuffle or _RANDOM.shuffle)(codes)
    locked.settings = {**locked.settings, TIE_BREAK_LOTS_SETTING.key: codes}
    locked.save(update_fields=["settings"])
    tournament.settings = locked.settings
    bump_standings(locked)
    audit(locked, acting_user, AuditAction.DRAW_LOTS, f"Lots drawn: {', '.join(codes)}", order=codes)
    return codes
