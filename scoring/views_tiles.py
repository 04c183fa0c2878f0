"""The tile picker's endpoint: a hand's tiles in, the event's rule set's breakdown (MCR's fans) or what is
wrong out.

The referee table page posts the hand as the JSON of ``shared/specs/scoring-json.md`` (the hidden ``tiles``
field of the hand form) after every change in the picker and shows the partial this returns. Nothing is
written: saving stays with the hand form and ``entry.record_hand``, which checks the tiles again.
Whatever is posted, the answer is the partial, with status 200 for a scored hand and 422 for anything that
cannot be scored; never a server error.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import RuleSet
from scoring.rules.tiles import parse_hand
from tournaments.access import event_for
from tournaments.messages import rule_message, rule_sentence
from tournaments.models import Role

logger = logging.getLogger(__name__)

PARTIAL = "scoring/referee/_fan_breakdown.html"
MAX_LENGTH = 4000  # a full hand with every flag is under 600 characters


def breakdown(raw: str, rule_set: RuleSet) -> dict[str, Any]:
    """The partial's context for the posted ``tiles`` text: ``error`` (a sentence) or the hand scored by
    ``rule_set``'s tile picker."""
    if not raw.strip():
        return {"error": gettext("No tiles yet: pick the tiles of the winning hand.")}
    if len(raw) > MAX_LENGTH:
        return {
            "error": gettext("The tiles are too long to be one hand (%(length)s characters).")
            % {"length": len(raw)}
        }
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return {
            "error": gettext(
                "The tiles could not be read (they are not JSON); enter them again or clear them."
            )
        }
    try:
        if isinstance(data, dict) and data.get("win_tile") is None:
            # While the tiles are being picked, a fifth copy or a bad set matters more than the winning tile
            # not being chosen yet: check those first.
            parse_hand(data, require_win_tile=False)
        scored = rule_set.tile_breakdown(data)
    except HandInputError as error:
        hint = gettext("(choose the winning tile)") if error.message == "missing field 'win_tile'" else ""
        # The engine's words, in the reader's language (tournaments/messages.py).
        problem = f"{rule_message(error)} {hint}".strip()
        text = gettext("Not a valid hand: %(problem)s.") % {"problem": problem}
        return {"error": text, "code": error.code}
    except Exception:
        # The calculator is meant to raise HandInputError only; a bug must not become a 500 at the table.
        logger.exception("fan calculator failed on %r", raw)
        return {
            "error": gettext("These tiles could not be scored; enter the fan points by hand."),
            "code": "internal",
        }
    result = scored["result"]
    flowers = data.get("flowers", 0)
    basic = scored["total"]  # rule 66 (line 3225): the basic score counts one point per flower
    return {
        "result": result,
        # Why a flagged fan was not given (Last Tile with a copy concealed, no. 58), in the reader's language.
        "notes": [rule_sentence(note) for note in result.notes],
        "total": scored["total"],
        "basic": basic,
        "without_flowers": scored["total"] - flowers,
        "flowers": flowers,
        "meets_minimum": scored["meets_minimum"],
        "minimum": scored["minimum"],
        # Rule 67 (line 2306): the discarder pays basic + 8, the others 8; self-drawn, all pay basic + 8.
        "discarder_pays": basic + 8,
        "others_pay": 8,
    }


@login_required
@require_POST
def fan_breakdown(request: HttpRequest, slug: str) -> HttpResponse:
    """POST ``tiles`` (the hand's JSON): the fan breakdown partial, or the error, for the tile picker."""
    tournament = event_for(request, slug, Role.REFEREE)
    rule_set = tournament.rule_set
    context = {**breakdown(request.POST.get("tiles", ""), rule_set), "rule_set": rule_set}
    return render(request, PARTIAL, context, status=422 if "error" in context else 200)
