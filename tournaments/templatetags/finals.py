"""The stage of an event with finals on its public pages (``scoring.rules.finals``): ``{% session_stage
tournament number %}`` ("Qualifying" or "Final"), ``{% event_stage tournament %}`` (the stage the
standings are at) and ``{% finals_note tournament %}`` (how the standings combine the stages)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from scoring.rules.finals import FINAL, QUALIFYING, cut_of, planned, stage_of

register = template.Library()


def _settings(tournament: Any) -> dict[str, Any]:
    settings = getattr(tournament, "settings", None)
    return settings if isinstance(settings, dict) else {}


@register.simple_tag
def session_stage(tournament: Any, number: Any) -> str:
    """ "Qualifying" or "Final" for a session of an event with finals, else ""."""
    stage = stage_of(_settings(tournament), int(number)) if str(number).isdigit() else ""
    return gettext(stage) if stage else ""


@register.simple_tag
def event_stage(tournament: Any) -> str:
    """ "Final" once the cut is made, "Qualifying" before it, "" for an event without finals."""
    settings = _settings(tournament)
    if cut_of(settings) is not None:
        return gettext(FINAL)
    return gettext(QUALIFYING) if planned(settings)[0] else ""


@register.simple_tag
def finals_note(tournament: Any) -> str:
    """One sentence on what the standings show of the two stages, or "" for an event without finals."""
    settings = _settings(tournament)
    cut = cut_of(settings)
    if cut is not None:
        return gettext(
            "Final: the %(count)s finalists first, ranked by what they carried over and the final; then "
            "everyone else in their qualifying order."
        ) % {"count": len(cut.finalists)}
    size, after = planned(settings)
    if not size:
        return ""
    return gettext("Qualifying: after session %(after)s the top %(size)s go through to the final.") % {
        "after": after,
        "size": size,
    }
