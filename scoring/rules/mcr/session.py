"""MCR session scoring: settlement of hands, penalties, late arrival and table points.

Book: Sloper, *The Red Dragon & The West Wind*, seeds/003_2541481d343502a5.txt, chapter 4 part A.
Seats are identified by the wind they held at the start of the session ("E", "S", "W", "N").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.mcr.penalties import check_winner_not_barred
from scoring.rules.ruleset import PenaltyItem, penalty_effect

SEATS = ("E", "S", "W", "N")
MINIMUM_FAN = 8  # rule 24 (line 2171): at least 8 points, flowers excluded
EXTRA_POINTS = 8  # rule 67 (line 2306)
TABLE_POINTS = (4, 2, 1, 0)  # rule 71 (line 2313)
MAX_FAN = 1000  # a sanity bound: the richest legal MCR hand is worth far less
MAX_FLOWERS = 8  # four flowers and four seasons (rule 25, fan no. 81 at line 2860)
# Rule 74 (line 2327): a game is sixteen hands, four rounds of four; 74e/f (lines 2334-2335): it ends
# when the four rounds are played, or earlier when a tournament's time limit runs out.
MAX_HANDS = 16


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One hand of a session: ``winner`` None is a draw (rule 59); ``discarder`` None is self-drawn."""

    winner: str | None
    discarder: str | None = None
    fan: int = 0


@dataclass(frozen=True, slots=True)
class SessionResult:
    scores: dict[str, int]
    table_points: dict[str, Fraction]
    forfeits: frozenset[str] = field(default_factory=frozenset)


def validate_hand(outcome: HandOutcome, *, flowers: int = 0) -> None:
    """Refuse what cannot be right: fan below 8 (rule 24), the winner as discarder, unknown seats.

    ``outcome.fan`` is the basic score, flowers included (rule 66, line 2305; section B, line 3225:
    "adding a point for each flower ... the basic points"; the example at line 4012 pays 18 for 8 fan
    points and two flowers). Rule 24 (line 2171) counts the minimum *without* flowers, so when the number of flowers is
    known the check is ``fan - flowers >= 8``; with the default ``flowers=0`` it is ``fan >= 8`` as before.
    """
    if outcome.winner is None:
        if outcome.discarder is not None:
            raise HandInputError(gettext_noop("a drawn hand has no discarder"), code="draw_with_discarder")
        return
    if outcome.winner not in SEATS:
        raise HandInputError(
            gettext_noop("unknown winner seat %(winner)r"), code="bad_seat", winner=outcome.winner
        )
    if outcome.discarder is not None and outcome.discarder not in SEATS:
        raise HandInputError(
            gettext_noop("unknown discarder seat %(discarder)r"), code="bad_seat", discarder=outcome.discarder
        )
    if outcome.discarder == outcome.winner:
        raise HandInputError(
            gettext_noop("the winner cannot also be the discarder"), code="winner_is_discarder"
        )
    if isinstance(outcome.fan, bool) or not isinstance(outcome.fan, int):
        raise HandInputError(gettext_noop("fan points must be a whole number"), code="bad_fan")
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= MAX_FLOWERS:
        raise HandInputError(
            gettext_noop("flowers must be a whole number from 0 to %(max_flowers)s, not %(flowers)r"),
            code="bad_flowers",
            max_flowers=MAX_FLOWERS,
            flowers=flowers,
        )
    if outcome.fan - flowers < MINIMUM_FAN:
        if flowers:
            raise HandInputError(
                gettext_noop(
                    "a winning hand needs at least %(minimum_fan)s fan points, flowers excluded (MCR "
                    "rule 24); %(fan)s was entered, of which %(flowers)s for flowers, which leaves "
                    "%(value)s"
                ),
                code="below_minimum",
                minimum_fan=MINIMUM_FAN,
                fan=outcome.fan,
                flowers=flowers,
                value=outcome.fan - flowers,
            )
        raise HandInputError(
            gettext_noop(
                "a winning hand needs at least %(minimum_fan)s fan points, flowers excluded (MCR "
                "rule 24); %(fan)s was entered"
            ),
            code="below_minimum",
            minimum_fan=MINIMUM_FAN,
            fan=outcome.fan,
        )
    if outcome.fan > MAX_FAN:
        raise HandInputError(
            gettext_noop("%(fan)s fan points is not a possible MCR hand"), code="bad_fan", fan=outcome.fan
        )


def settle_hand(outcome: HandOutcome) -> dict[str, int]:
    """Points won and lost by each seat in one hand (rule 67, line 2306).

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


def payments(outcome: HandOutcome) -> dict[str, int]:
    """What each seat pays the winner for one hand (rule 67, line 2306), as positive amounts.

    The winner's own entry is 0, and so is everyone's in a draw. For a hand won by discard with a basic
    score of 10 (8 fan points and two flowers, the example at line 4012): the discarder pays 18 and the
    two others 8 each. Validated as :func:`settle_hand` validates; the net result is ``settle_hand``.
    """
    net = settle_hand(outcome)
    return {seat: 0 if seat == outcome.winner else -points for seat, points in net.items()}


def hands_allowed(hands_per_session: int | None) -> int:
    """How many hands a session may have: the event's hands per session, or 16 under a time limit.

    Rule 74 (line 2327): sixteen hands in four rounds; 74e (line 2334): the game ends when the four rounds
    have been played; 74f (line 2335): under a time limit the game ends when time runs out *or four rounds
    are played, whichever happens first*. So ``None`` (a time limit, no set number) allows 16, and a set
    number must be 1 to 16.
    """
    if hands_per_session is None:
        return MAX_HANDS
    if isinstance(hands_per_session, bool) or not isinstance(hands_per_session, int):
        raise HandInputError(
            gettext_noop("hands per session must be a whole number, not %(hands_per_session)r"),
            code="bad_hands_per_session",
            hands_per_session=hands_per_session,
        )
    if not 1 <= hands_per_session <= MAX_HANDS:
        raise HandInputError(
            gettext_noop(
                "an MCR session has 1 to %(max_hands)s hands (rule 74: four rounds of four "
                "hands), not %(hands_per_session)s"
            ),
            code="bad_hands_per_session",
            max_hands=MAX_HANDS,
            hands_per_session=hands_per_session,
        )
    return hands_per_session


def check_hand_count(count: int, hands_per_session: int | None = None) -> None:
    """Refuse a session with more hands than :func:`hands_allowed` (rule 74e/f): code ``too_many_hands``."""
    allowed = hands_allowed(hands_per_session)
    if count > allowed:
        raise HandInputError(
            gettext_noop(
                "this session has %(count)s hands but at most %(allowed)s are played (MCR rule "
                "74e/f: four rounds of four hands, or fewer under a time limit)"
            ),
            code="too_many_hands",
            count=count,
            allowed=allowed,
        )


def late_penalty(minutes: int) -> int | None:
    """Points deducted for arriving late (rule 88, line 2392); None means the session is forfeit.

    Up to 10 minutes: 10 points; more than 10 up to 15: 20 points; more than 15: forfeit (0 table points).
    """
    if minutes < 0:
        raise HandInputError(gettext_noop("minutes late cannot be negative"), code="bad_late")
    if minutes == 0:
        return 0
    if minutes <= 10:
        return 10
    if minutes <= 15:
        return 20
    return None


def table_points(scores: Mapping[str, int], forfeits: Iterable[str] = ()) -> dict[str, Fraction]:
    """Table points for a session by score (rule 71, line 2313): 4-2-1-0, equal scores split the
    points of the places they share (3-3-1-0, 4-1.5-1.5-0, ...).

    A player who forfeits the session by lateness earns 0 table points (rule 88c, line 2395); the
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
    # Optional checks (off by default, so existing callers are unchanged):
    # ``rulings``: (hand index, seat, penalty key or rule) recorded during the hands; a hand won by a seat
    # barred from hu in that hand (penalties.winner_barred, rules 78-91) is refused.
    rulings: Sequence[tuple[int, str, str]] = ()
    # ``enforce_hand_limit``: refuse more hands than hands_allowed(hands_per_session) (rule 74e/f).
    enforce_hand_limit: bool = False
    hands_per_session: int | None = None


def score_session(session: SessionInput) -> SessionResult:
    """Scores and table points of one table for one session (rules 67, 71, 84, 88)."""
    scores = dict.fromkeys(SEATS, 0)
    if session.totals is not None:
        if set(session.totals) != set(SEATS):
            raise HandInputError(
                gettext_noop("totals need one score for each of E, S, W, N"), code="bad_totals"
            )
        if sum(session.totals.values()) != 0:
            raise HandInputError(
                gettext_noop("session totals must sum to zero; these sum to %(values)s"),
                code="totals_not_zero_sum",
                values=sum(session.totals.values()),
            )
        scores.update(session.totals)
    else:
        if session.enforce_hand_limit:
            check_hand_count(len(session.hands), session.hands_per_session)
        for index, outcome in enumerate(session.hands):
            if session.rulings:
                check_winner_not_barred(
                    outcome.winner, [(seat, key) for at, seat, key in session.rulings if at == index]
                )
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


# Rule 75d (line 2344): the seat each starting seat moves to at the start of each round (quan).
SEAT_BY_ROUND = {
    "E": ("E", "S", "N", "W"),
    "S": ("S", "E", "W", "N"),
    "W": ("W", "N", "E", "S"),
    "N": ("N", "W", "S", "E"),
}
HANDS_PER_ROUND = 4  # rule 74c: four hands in each round, each player dealing once


def winds_for_hand(hand_index: int) -> tuple[str, dict[str, str]]:
    """The prevalent wind and each starting seat's seat wind in hand ``hand_index`` (0-based).

    Rule 74b-d (lines 2331-2333): the deal passes counterclockwise after every hand (E, S, W, N seats deal
    in turn) and the rounds are East, South, West, North; rule 75 (line 2339) moves the players
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
