"""The seating engine: who sits where, round by round (pure Python, no Django).

Public API (frozen dataclasses in ``models``; every refusal is ``SeatingError(message, code)``):

- ``plan_seating(players, rounds, *, seed=0, time_limit=10.0, history=(), substitute_policy="none",
  fixed_tables=None, swiss_scores=None, avoid_same_club=False, kept_apart=()) -> SeatingPlan``:
  ``kept_apart`` pairs of ids (family, couples) are held apart like teammates; ``plan.rounds[r].tables``
  are ``TableSeating(number, seats)`` with seats in order E, S, W, N; ``plan.rounds[r].sit_outs``;
  ``plan.quality`` covers history and plan together; ``plan.substitutes`` names added substitute seats.
- ``reseat_from(plan, from_round, players, ...)``: late arrivals and drops; earlier rounds kept as history.
- ``swap_players(plan, round_index, a, b)``: a checked manual swap, re-scored.
- ``quality_report(plan_or_rounds)`` (with ``indirect_meetings``: pairs with a common opponent, and
  ``kept_apart_meetings``/``kept_apart_met``: the kept-apart pairs who met) and
  ``lower_bound(players, rounds)``.
- ``designs``: stored resolvable designs (28, 40, 52 players: every pair once) with ``designs.verify``;
  ``constructions``: the exact constructions the engine starts from (see docs/seating.md).

Who sits where hand by hand within a session, and each seat's wind, is the rule set's to say
(``RuleSet.winds``: MCR rules 74-75, NMJL rules 116-117), not the seating engine's.
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
    "plan_seating",
    "quality_report",
    "reseat_from",
    "swap_players",
]
