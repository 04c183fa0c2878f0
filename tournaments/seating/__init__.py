"""The seating engine: who sits where, round by round (pure Python, no Django).

Public API: ``plan_seating``, ``reseat_from``, ``swap_players``, ``quality_report``, ``lower_bound``, the
rotation helpers in ``rotation`` and the dataclasses in ``models``; errors are ``SeatingError`` with a ``code``.
"""

from __future__ import annotations

from .engine import plan_seating, reseat_from, swap_players
from .errors import SeatingError
from .models import (
    WINDS,
    LowerBound,
    QualityReport,
    RepeatedPair,
    RoundSeating,
    SeatingConstraints,
    SeatingPlan,
    SeatingPlayer,
    SubstitutePolicy,
    TableSeating,
)
from .quality import lower_bound, quality_report
from .rotation import mcr_hand, mcr_winds_for_hand, nmjl_hand, nmjl_winds_for_hand

__all__ = [
    "WINDS",
    "LowerBound",
    "QualityReport",
    "RepeatedPair",
    "RoundSeating",
    "SeatingConstraints",
    "SeatingError",
    "SeatingPlan",
    "SeatingPlayer",
    "SubstitutePolicy",
    "TableSeating",
    "lower_bound",
    "mcr_hand",
    "mcr_winds_for_hand",
    "nmjl_hand",
    "nmjl_winds_for_hand",
    "plan_seating",
    "quality_report",
    "reseat_from",
    "swap_players",
]
