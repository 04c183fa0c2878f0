"""What a referee can rule at a table, in one shape for every rule set (no Django here).

Each rule set's class offers its own catalogue (``RuleSet.penalty_catalogue``) of :class:`Ruling` items in
its own book's words: MCR cites Sloper's rules 76-94 (chapter 4), NMJL the tournament table (line 1556),
the organiser's policy (line 1572) and the official rules that make a hand dead. The services and the
referee's page only read these fields; they never ask which rule set they are in.

``outcome`` is what the ruling does (rule 77 ranks them for MCR):

- ``points``: points lost (to nobody, to each other player, or to one named player);
- ``warning``: nothing lost, but it counts towards the next escalating penalty (MCR 79, 80, 83);
- ``forced_discard``: the revealed tile is discarded next turn (MCR 85a);
- ``no_win``: the player may not win this hand (MCR "may not declare hu", 77d; NMJL "dead hand");
- ``loss_of_rank`` and ``disqualification``: the player is listed unranked, at the bottom of the standings
  (MCR 77e-f, 89).

``bars_win`` says that a win by the player in the ruling's hand is refused (MCR 78, 81, 82, 84, 85c, 85e,
86, 87, 90, 91; an NMJL dead hand may not win, rules 92c-98).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.errors import HandInputError, gettext_noop

OUTCOMES = ("points", "warning", "forced_discard", "no_win", "loss_of_rank", "disqualification")
UNRANKED = ("loss_of_rank", "disqualification")
"""Outcomes that take a player out of the ranking (listed at the bottom, the others close up)."""
PAID_TO = ("none", "each_other", "player")
MAX_POINTS = 10_000


def escalating_points(occurrence: int) -> int:
    """MCR rules 79, 80 and 83 (seeds/003, lines 2360-2371): a warning first, then 5, 10, 20 points and
    doubling for each repeat occurrence."""
    if isinstance(occurrence, bool) or not isinstance(occurrence, int) or occurrence < 1:
        raise HandInputError(gettext_noop("the occurrence counts from 1"), code="bad_penalty")
    return 0 if occurrence == 1 else min(MAX_POINTS, 5 * 2 ** min(occurrence - 2, 20))


@dataclass(frozen=True, slots=True)
class Ruling:
    """One kind of ruling: ``citation`` names the rule in the rule set's own words ("MCR 84a",
    "NMJL rule 93", "Tournament scoring table (line 1556)"); ``points`` are points lost (0 or more)."""

    key: str
    citation: str
    label: str
    outcome: str = "points"
    paid_to: str = "none"
    points: int = 0
    escalates: bool = False
    bars_win: bool = False
    per_tile: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}")
        if self.paid_to not in PAID_TO:
            raise ValueError(f"unknown payee {self.paid_to!r}")

    @property
    def needs_hand(self) -> bool:
        """A ruling that bars a win names the hand it applies to."""
        return self.bars_win

    def points_for(self, occurrence: int = 1, tiles: int | None = None) -> int:
        """Points lost for the ``occurrence``-th ruling of this kind against one player in the event, and
        for MCR 85e the tiles revealed ("5 points per revealed tile", line 2387)."""
        if self.per_tile:
            if isinstance(tiles, bool) or not isinstance(tiles, int) or not 1 <= tiles <= 14:
                raise HandInputError(
                    gettext_noop("say how many tiles were revealed (1 to 14)"), code="bad_penalty"
                )
            return self.points * tiles
        if self.escalates:
            return escalating_points(occurrence)
        return self.points
