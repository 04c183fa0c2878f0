"""Seat rotation within a session (game): who sits where, and which seat wind each player has, hand by hand.

Players are named by their starting seat ("E", "S", "W", "N"), as the seating plan gives them. Physical
seats are numbered in the order of play: the player to a seat's right is the next seat (E -> S -> W -> N).

- MCR (rule book 003_2541481d343502a5.txt, rules 74-75, lines ~2327-2349): a game is four rounds (quan) of
  four hands; the deal passes to the right after every hand (74.b); at the start of the South, West and North
  rounds the players change seats (75.a-c), so that original East sits E, S, N, W in the four rounds, original
  South S, E, W, N, original West W, N, E, S and original North N, W, S, E (75.d). The first dealer of each round
  sits in the East seat (74.b).
- NMJL (same file, rules 115-117, lines ~975-981): the original dealer is the pivot; every second time the dice
  come to her, she exchanges seats with the player at her right (116). Under the official rule the dice stay
  with the seat; the book's author recommends that the dice move with the pivot, so she deals first after each
  rotation (117). Both are offered (``dice_follow_pivot``).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.mcr.session import SEAT_BY_ROUND

from .errors import SeatingError
from .models import WINDS

MCR_HANDS_PER_GAME = 16

# Rule 75.d: seat of each original seat in the East, South, West and North rounds (one table, kept with
# the MCR rules).
_MCR_SEATS = SEAT_BY_ROUND


@dataclass(frozen=True)
class HandSeats:
    """One hand: each starting seat's physical seat and seat wind, and the dealer's starting seat."""

    hand_index: int
    seats: dict[str, str]
    winds: dict[str, str]
    dealer: str


def _winds(seats: dict[str, str], dealer_seat: str) -> dict[str, str]:
    d = WINDS.index(dealer_seat)
    return {start: WINDS[(WINDS.index(seat) - d) % 4] for start, seat in seats.items()}


def mcr_hand(hand_index: int, hands_per_session: int = MCR_HANDS_PER_GAME) -> HandSeats:
    """Seats and seat winds for hand ``hand_index`` (0-based) of an MCR game (rules 74.b-c and 75).

    Round (quan) ``hand_index // 4`` fixes the seats (75.d); within it the dealer is the player in seat
    E, S, W, N for hands 0-3 of the round (the deal passes to the right, 74.b). ``hands_per_session`` is the
    length of the game (16, fewer when a time limit is used, 74.f) and only bounds ``hand_index``.
    """
    if not 1 <= hands_per_session <= MCR_HANDS_PER_GAME:
        raise SeatingError(
            f"An MCR game has at most {MCR_HANDS_PER_GAME} hands, not {hands_per_session}.", "invalid_hands"
        )
    if not 0 <= hand_index < hands_per_session:
        raise SeatingError(
            f"Hand {hand_index} is outside 0..{hands_per_session - 1} of this session.", "invalid_hand_index"
        )
    quan, turn = divmod(hand_index, 4)
    seats = {start: rotation[quan] for start, rotation in _MCR_SEATS.items()}
    dealer_seat = WINDS[turn]
    dealer = next(start for start, seat in seats.items() if seat == dealer_seat)
    return HandSeats(hand_index=hand_index, seats=seats, winds=_winds(seats, dealer_seat), dealer=dealer)


def mcr_winds_for_hand(hand_index: int, hands_per_session: int = MCR_HANDS_PER_GAME) -> dict[str, str]:
    """Seat wind of each starting seat in hand ``hand_index`` of an MCR game (rules 74-75).

    ``{"E": "E", "S": "S", "W": "W", "N": "N"}`` for the first hand; the dealer (seat wind "E") moves to the
    right every hand, and the seats change at the start of each round per rule 75.
    """
    return mcr_hand(hand_index, hands_per_session).winds


def mcr_seats_for_round(quan: int) -> dict[str, str]:
    """Physical seat of each starting seat in round (quan) 0-3: East, South, West, North round (rule 75.d)."""
    if not 0 <= quan < 4:
        raise SeatingError(f"An MCR game has rounds 0 to 3, not {quan}.", "invalid_round")
    return {start: rotation[quan] for start, rotation in _MCR_SEATS.items()}


def nmjl_hand(hand_index: int, *, dice_follow_pivot: bool = False) -> HandSeats:
    """Seats and seat winds for hand ``hand_index`` (0-based) of an NMJL session (rules 116-117): the one
    rotation engine is ``scoring.rules.nmjl.rotation`` (the pivot rule); this keeps the seating API."""
    from scoring.rules.errors import HandInputError
    from scoring.rules.nmjl.rotation import deal_for_hand

    if hand_index < 0:
        raise SeatingError(f"Hand {hand_index} is not a hand number.", "invalid_hand_index")
    try:
        deal = deal_for_hand(hand_index, dice_follow_pivot=dice_follow_pivot)
    except HandInputError as error:
        raise SeatingError(error.message, "invalid_hand_index") from None
    return HandSeats(hand_index=hand_index, seats=deal.seats, winds=deal.winds, dealer=deal.dealer)


def nmjl_winds_for_hand(hand_index: int, *, dice_follow_pivot: bool = False) -> dict[str, str]:
    """Seat wind of each starting seat in hand ``hand_index`` of an NMJL session (rules 116-117)."""
    return nmjl_hand(hand_index, dice_follow_pivot=dice_follow_pivot).winds
