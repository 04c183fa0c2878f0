"""The MCR penalty catalogue of Sloper's book (seeds/003_2541481d343502a5.txt, rules 76-93, lines ~2356-2462).

Only the penalties that cost points are here; the others (forced discard, no hu for the hand, rules 78,
81, 82, 86, 87, 90, 91) change the play, not the score, and the referee rules on them at the table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PenaltyKind:
    key: str
    rule: str
    label: str
    paid_to: str  # "each_other" (rule 84) or "none" (deducted)
    points: int = 0  # fixed points; 0 with ``escalates`` means the escalating scale below
    escalates: bool = False


CATALOGUE: tuple[PenaltyKind, ...] = (
    PenaltyKind(
        "empty_call", "MCR 79", "Empty calling (changing one's mind about a claim)", "none", escalates=True
    ),
    PenaltyKind(
        "touch_wall",
        "MCR 80",
        "Touching the wall tile before the upper seat discards",
        "none",
        escalates=True,
    ),
    PenaltyKind("late_pung", "MCR 83", "Late pung call (after 3 seconds)", "none", escalates=True),
    PenaltyKind("false_hu_ready", "MCR 84a", "False hu with a ready hand", "each_other", 10),
    PenaltyKind("false_hu_unready", "MCR 84b", "False hu with an unready hand", "each_other", 20),
    PenaltyKind("late_take", "MCR 84d", "Taking the winning tile after counting began", "each_other", 10),
    PenaltyKind("show_without_hu", "MCR 84f", "Showing the tiles without saying hu", "each_other", 10),
    PenaltyKind("score_with_hand", "MCR 84g", "Showing the score with tiles of the hand", "each_other", 10),
    PenaltyKind("below_eight", "MCR 84h", "Winning hand worth less than 8 points", "each_other", 10),
    PenaltyKind(
        "reveal_invalid", "MCR 85c", "Revealing the hand before an invalid win is checked", "each_other", 10
    ),
)
BY_KEY = {kind.key: kind for kind in CATALOGUE}


def escalating_points(occurrence: int) -> int:
    """Rules 79, 80 and 83: the first time a warning (0 points), then 5, 10, 20 and doubling each time."""
    if occurrence < 1:
        raise ValueError("occurrence counts from 1")
    return 0 if occurrence == 1 else 5 * 2 ** (occurrence - 2)


def points_for(kind: PenaltyKind, occurrence: int) -> int:
    """Points of the ``occurrence``-th penalty of this kind for one player."""
    return escalating_points(occurrence) if kind.escalates else kind.points
