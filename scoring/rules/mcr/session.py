"""MCR session scoring: settlement of hands, penalties, late arrival and table points.

Book: Sloper, *The Red Dragon & The West Wind*, seeds/003_2541481d343502a5.txt, chapter 4 part A.
Seats are identified by the wind they held at the start of the session ("E", "S", "W", "N").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.rules.errors import HandInputError

SEATS = ("E", "S", "W", "N")
MINIMUM_FAN = 8  # rule 24 (line ~2206): at least 8 points, flowers excluded
EXTRA_POINTS = 8  # rule 67 (line ~2316)
TABLE_POINTS = (4, 2, 1, 0)  # rule 71 (line ~2325)
MAX_FAN = 1000  # a sanity bound: the richest legal MCR hand is worth far less


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One hand of a session: ``winner`` None is a draw (rule 59); ``discarder`` None is self-drawn."""

    winner: str | None
    discarder: str | None = None
    fan: int = 0


@dataclass(frozen=True, slots=True)
class PenaltyItem:
    """``paid_to`` "each_other": the offender pays ``points`` to each other player (rule 84);
    "none": the points are only deducted (rules 79, 80, 83, 88)."""

    seat: str
    points: int
    paid_to: str = "none"


@dataclass(frozen=True, slots=True)
class SessionResult:
    scores: dict[str, int]
    table_points: dict[str, Fraction]
    forfeits: frozenset[str] = field(default_factory=frozenset)


def validate_hand(outcome: HandOutcome) -> None:
    """Refuse what cannot be right: fan below 8 (rule 24), the winner as discarder, unknown seats."""
    if outcome.winner is None:
        if outcome.discarder is not None:
            raise HandInputError("a drawn hand has no discarder", code="draw_with_discarder")
        return
    if outcome.winner not in SEATS:
        raise HandInputError(f"unknown winner seat {outcome.winner!r}", code="bad_seat")
    if outcome.discarder is not None and outcome.discarder not in SEATS:
        raise HandInputError(f"unknown discarder seat {outcome.discarder!r}", code="bad_seat")
    if outcome.discarder == outcome.winner:
        raise HandInputError("the winner cannot also be the discarder", code="winner_is_discarder")
    if isinstance(outcome.fan, bool) or not isinstance(outcome.fan, int):
        raise HandInputError("fan points must be a whole number", code="bad_fan")
    if outcome.fan < MINIMUM_FAN:
        raise HandInputError(
            f"a winning hand needs at least {MINIMUM_FAN} fan points, flowers excluded "
            f"(MCR rule 24); {outcome.fan} was entered",
            code="below_minimum",
        )
    if outcome.fan > MAX_FAN:
        raise HandInputError(f"{outcome.fan} fan points is not a possible MCR hand", code="bad_fan")


def settle_hand(outcome: HandOutcome) -> dict[str, int]:
    """Points won and lost by each seat in one hand (rule 67, line ~2316).

    By discard: the discarder pays basic+8, the two others pay 8. Self-drawn: everyone pays basic+8.
    A draw scores 0 for everyone (rule 59). The result always sums to zero.
    """
    validate_hand(outcome)
    result = dict.fromkeys(SEATS, 0)
    if outcome.winner is None:
        return result
    for seat in SEATS:
        if seat == outcome.winner:
            continue
        if outcome.discarder is None or seat == outcome.discarder:
            payment = outcome.fan + EXTRA_POINTS
        else:
            payment = EXTRA_POINTS
        result[seat] -= payment
        result[outcome.winner] += payment
    return result


def penalty_effect(penalty: PenaltyItem) -> dict[str, int]:
    """What a penalty does to each seat: rule 84 penalties are paid to each other player; the rest
    (rules 79, 80, 83, 88) are deducted from the offender only."""
    if penalty.seat not in SEATS:
        raise HandInputError(f"unknown seat {penalty.seat!r}", code="bad_seat")
    if penalty.points <= 0:
        raise HandInputError("penalty points must be positive", code="bad_penalty")
    result = dict.fromkeys(SEATS, 0)
    if penalty.paid_to == "each_other":
        for seat in SEATS:
            if seat != penalty.seat:
                result[seat] += penalty.points
                result[penalty.seat] -= penalty.points
    elif penalty.paid_to == "none":
        result[penalty.seat] -= penalty.points
    else:
        raise HandInputError(
            f"paid_to must be 'each_other' or 'none', not {penalty.paid_to!r}", code="bad_penalty"
        )
    return result


def late_penalty(minutes: int) -> int | None:
    """Points deducted for arriving late (rule 88, line ~2451); None means the session is forfeit.

    Up to 10 minutes: 10 points; more than 10 up to 15: 20 points; more than 15: forfeit (0 table points).
    """
    if minutes < 0:
        raise HandInputError("minutes late cannot be negative", code="bad_late")
    if minutes == 0:
        return 0
    if minutes <= 10:
        return 10
    if minutes <= 15:
        return 20
    return None


def table_points(scores: Mapping[str, int], forfeits: Iterable[str] = ()) -> dict[str, Fraction]:
    """Table points for a session by score (rule 71, line ~2325): 4-2-1-0, equal scores split the
    points of the places they share (3-3-1-0, 4-1.5-1.5-0, ...).

    A player who forfeits the session by lateness earns 0 table points (rule 88c, line ~2453); the
    book says no more, so the players who did not forfeit share the top places by score and the
    forfeiting players get 0. The points total 7 unless someone forfeits.
    """
    forfeited = set(forfeits)
    playing = sorted((p for p in scores if p not in forfeited), key=lambda p: -scores[p])
    result = {player: Fraction(0) for player in scores if player in forfeited}
    index = 0
    while index < len(playing):
        tied = [p for p in playing[index:] if scores[p] == scores[playing[index]]]
        share = Fraction(sum(TABLE_POINTS[index : index + len(tied)]), len(tied))
        for player in tied:
            result[player] = share
        index += len(tied)
    return result


@dataclass(frozen=True, slots=True)
class SessionInput:
    """A table's session: hands (or ``totals`` instead), penalties and lateness, by starting seat."""

    hands: Sequence[HandOutcome] = ()
    totals: Mapping[str, int] | None = None
    penalties: Sequence[PenaltyItem] = ()
    late_minutes: Mapping[str, int] = field(default_factory=dict)


def score_session(session: SessionInput) -> SessionResult:
    """Scores and table points of one table for one session (rules 67, 71, 84, 88)."""
    scores = dict.fromkeys(SEATS, 0)
    if session.totals is not None:
        if set(session.totals) != set(SEATS):
            raise HandInputError("totals need one score for each of E, S, W, N", code="bad_totals")
        if sum(session.totals.values()) != 0:
            raise HandInputError(
                f"session totals must sum to zero; these sum to {sum(session.totals.values())}",
                code="totals_not_zero_sum",
            )
        scores.update(session.totals)
    else:
        for outcome in session.hands:
            for seat, points in settle_hand(outcome).items():
                scores[seat] += points
    for penalty in session.penalties:
        for seat, points in penalty_effect(penalty).items():
            scores[seat] += points
    forfeits = set()
    for seat, minutes in session.late_minutes.items():
        deduction = late_penalty(minutes)
        if deduction is None:
            forfeits.add(seat)
        else:
            scores[seat] -= deduction
    return SessionResult(
        scores=scores, table_points=table_points(scores, forfeits), forfeits=frozenset(forfeits)
    )


# Rule 75d (line ~2343): the seat each starting seat moves to at the start of each round (quan).
SEAT_BY_ROUND = {
    "E": ("E", "S", "N", "W"),
    "S": ("S", "E", "W", "N"),
    "W": ("W", "N", "E", "S"),
    "N": ("N", "W", "S", "E"),
}
HANDS_PER_ROUND = 4  # rule 74c: four hands in each round, each player dealing once


def winds_for_hand(hand_index: int) -> tuple[str, dict[str, str]]:
    """The prevalent wind and each starting seat's seat wind in hand ``hand_index`` (0-based).

    Rule 74b-d (line ~2338): the deal passes counterclockwise after every hand (E, S, W, N seats deal
    in turn) and the rounds are East, South, West, North; rule 75 (line ~2340) moves the players
    between rounds. A session longer than sixteen hands starts again from the East round.
    """
    if hand_index < 0:
        raise ValueError("hand_index must be 0 or more")
    quan, dealer_position = divmod(hand_index % (4 * HANDS_PER_ROUND), HANDS_PER_ROUND)
    winds = {}
    for start, seats in SEAT_BY_ROUND.items():
        position = SEATS.index(seats[quan])
        winds[start] = SEATS[(position - dealer_position) % 4]
    return SEATS[quan], winds
