"""The MCR penalty catalogue of Sloper's book (seeds/003_2541481d343502a5.txt, rules 76-93, lines 2352-2400).

Rule 77 (line 2353) ranks the penalties: a. warning; b. forced discard; c. loss of points; d. no hu
("death") for the hand; e. loss of rank; f. disqualification. Each :class:`PenaltyKind` carries its
``outcome`` (one of :data:`OUTCOMES`), whether it bars the player from declaring hu for the rest of the
hand (``bars_hu``), and for the points penalties how they are paid (``paid_to``).

``CATALOGUE`` holds the penalties that cost points, as before (the referee's form lists them);
``RULINGS`` the others (warnings, forced discard, no hu, points paid to one opponent, loss of rank,
disqualification); ``ALL_KINDS`` both, and ``BY_KEY`` finds any of them. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.rulings import Ruling

OUTCOMES = ("points", "warning", "forced_discard", "no_hu", "loss_of_rank", "disqualification")
PAID_TO = ("each_other", "none", "opponent")


@dataclass(frozen=True, slots=True)
class PenaltyKind:
    key: str
    rule: str
    label: str
    paid_to: str  # "each_other" (rule 84), "none" (deducted) or "opponent" (one named player, rule 85e)
    points: int = 0  # fixed points; 0 with ``escalates`` means the escalating scale below
    escalates: bool = False
    outcome: str = "points"  # one of OUTCOMES (rule 77)
    bars_hu: bool = False  # the player may not declare hu for the rest of the hand (rule 77d)
    per_tile: bool = False  # ``points`` per tile revealed (rule 85e)
    bars_exposures: bool = False  # no more exposures for the rest of the hand (rule 82)


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
    # Rule 84a-h (lines 2373-2381): each of these also bars hu for the rest of the hand.
    PenaltyKind("false_hu_ready", "MCR 84a", "False hu with a ready hand", "each_other", 10, bars_hu=True),
    PenaltyKind(
        "false_hu_unready", "MCR 84b", "False hu with an unready hand", "each_other", 20, bars_hu=True
    ),
    PenaltyKind(
        "late_take", "MCR 84d", "Taking the winning tile after counting began", "each_other", 10, bars_hu=True
    ),
    PenaltyKind(
        "show_without_hu", "MCR 84f", "Showing the tiles without saying hu", "each_other", 10, bars_hu=True
    ),
    PenaltyKind(
        "score_with_hand",
        "MCR 84g",
        "Showing the score with tiles of the hand",
        "each_other",
        10,
        bars_hu=True,
    ),
    PenaltyKind(
        "below_eight", "MCR 84h", "Winning hand worth less than 8 points", "each_other", 10, bars_hu=True
    ),
    # Rule 85c (line 2385): 10 to each other player, no hu, and the revealed tiles are discarded one by one.
    PenaltyKind(
        "reveal_invalid",
        "MCR 85c",
        "Revealing the hand before an invalid win is checked",
        "each_other",
        10,
        bars_hu=True,
    ),
)

# The penalties that cost no points, and the one paid to a single opponent (rule 85e).
RULINGS: tuple[PenaltyKind, ...] = (
    PenaltyKind("warning", "MCR 77a", "Warning", "none", outcome="warning"),
    PenaltyKind(
        "reveal_before_valid_win",
        "MCR 85b",
        "Revealing the hand before another player's valid win is checked",
        "none",
        outcome="warning",
    ),
    PenaltyKind(
        "reveal_own_tile",
        "MCR 85a",
        "Revealing one's own tile: discard it next turn",
        "none",
        outcome="forced_discard",
    ),
    PenaltyKind(
        "reveal_opponent_tiles",
        "MCR 85e",
        "Revealing an opponent's tiles: 5 points per tile, paid to that opponent",
        "opponent",
        5,
        per_tile=True,
    ),
    PenaltyKind(
        "erroneous_exposure",
        "MCR 78",
        "Erroneous exposure: no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "see_wall_tile",
        "MCR 81",
        "Seeing or revealing the wall tile early: no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "reach_then_discard",
        "MCR 82",
        "Taking the discard after reaching toward the wall: no exposures and no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
        bars_exposures=True,
    ),
    PenaltyKind(
        "empty_hu",
        "MCR 84c",
        "Empty hu (hu said, hand not exposed): no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "reveal_opponent_no_hu",
        "MCR 85e",
        "Revealing an opponent's tiles: no hu in this hand (referee's choice)",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "wrong_tile_count",
        "MCR 86",
        "Wrong number of tiles: no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "gave_information",
        "MCR 87",
        "Giving information to another player: no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "late_take_called",
        "MCR 90",
        "Called discard not taken within two turns: no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind(
        "incorrect_meld",
        "MCR 91",
        "Incorrect melded set (left as is): no hu in this hand",
        "none",
        outcome="no_hu",
        bars_hu=True,
    ),
    PenaltyKind("loss_of_rank", "MCR 77e", "Loss of competitive rank", "none", outcome="loss_of_rank"),
    PenaltyKind(
        "disqualification",
        "MCR 89",
        "Disqualification for disturbing the competition or disobeying the judges",
        "none",
        outcome="disqualification",
    ),
)
ALL_KINDS: tuple[PenaltyKind, ...] = CATALOGUE + RULINGS
BY_KEY = {kind.key: kind for kind in ALL_KINDS}
BY_RULE: dict[str, tuple[PenaltyKind, ...]] = {}
for _kind in ALL_KINDS:
    BY_RULE[_kind.rule] = (*BY_RULE.get(_kind.rule, ()), _kind)
del _kind


def escalating_points(occurrence: int) -> int:
    """Rules 79, 80 and 83: the first time a warning (0 points), then 5, 10, 20 and doubling each time."""
    if occurrence < 1:
        raise ValueError("occurrence counts from 1")
    return 0 if occurrence == 1 else 5 * 2 ** (occurrence - 2)


def points_for(kind: PenaltyKind, occurrence: int) -> int:
    """Points of the ``occurrence``-th penalty of this kind for one player."""
    return escalating_points(occurrence) if kind.escalates else kind.points


def penalty_points(kind: PenaltyKind, *, occurrence: int = 1, tiles: int = 1) -> int:
    """Points of a penalty: the escalating scale for rules 79, 80 and 83, ``points`` per tile for rule
    85e (line 2387: "5 points per revealed tile"), 0 for warnings and rulings that cost no points."""
    if kind.per_tile:
        if isinstance(tiles, bool) or not isinstance(tiles, int) or not 1 <= tiles <= 14:
            raise HandInputError(
                gettext_noop("the number of revealed tiles must be 1 to 14"), code="bad_penalty"
            )
        return kind.points * tiles
    return points_for(kind, occurrence)


def barring_kind(key_or_rule: str) -> PenaltyKind | None:
    """The catalogue kind a recorded penalty stands for, by key (``"empty_hu"``) or by rule
    (``"MCR 84c"``) when that rule has only kinds that agree on barring hu; else None."""
    kind = BY_KEY.get(key_or_rule)
    if kind is not None:
        return kind if kind.bars_hu else None
    kinds = BY_RULE.get(key_or_rule, ())
    if kinds and all(k.bars_hu for k in kinds):
        return kinds[0]
    return None


def winner_barred(winner: str | None, rulings: Iterable[tuple[str, str]]) -> PenaltyKind | None:
    """The penalty that forbids ``winner`` to declare hu in this hand, or None.

    ``rulings`` are the (seat or player, key or rule) pairs recorded *in this hand* (the caller picks
    the hand): rules 78, 81, 82, 84a-d/f-h, 85c, 85e (when the referee imposes it), 86, 87, 90 and 91
    (lines 2360-2398) forbid hu "for the duration of the current hand"; a win by that player is refused.
    """
    if winner is None:
        return None
    for who, key_or_rule in rulings:
        if who == winner:
            kind = barring_kind(key_or_rule)
            if kind is not None:
                return kind
    return None


def check_winner_not_barred(winner: str | None, rulings: Iterable[tuple[str, str]]) -> None:
    """:func:`winner_barred` as a check: raises :class:`HandInputError` with code ``winner_barred``."""
    kind = winner_barred(winner, rulings)
    if kind is not None:
        raise HandInputError(
            gettext_noop("%(winner)s may not declare hu in this hand: %(label)s (%(rule)s)"),
            code="winner_barred",
            winner=winner,
            label=kind.label,
            rule=kind.rule,
        )


def as_ruling(kind: PenaltyKind) -> Ruling:
    """A catalogue kind in the shape every rule set offers the referee (``scoring.rules.rulings``)."""
    return Ruling(
        key=kind.key,
        citation=kind.rule,
        label=kind.label,
        outcome="no_win" if kind.outcome == "no_hu" else kind.outcome,
        paid_to="player" if kind.paid_to == "opponent" else kind.paid_to,
        points=kind.points,
        escalates=kind.escalates,
        bars_win=kind.bars_hu,
        per_tile=kind.per_tile,
    )


REFEREE_CATALOGUE: tuple[Ruling, ...] = tuple(as_ruling(kind) for kind in ALL_KINDS)
"""Everything rules 77-91 let a referee rule, points penalties first."""
