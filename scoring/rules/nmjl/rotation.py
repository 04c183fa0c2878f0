"""Who deals and who sits where, game after game: seat rotation and extra players.

Sloper (shared/seeds/003_2541481d343502a5.txt): rule 78e and ~line 1465 (the player to the right of the
dealer deals next), rules 115-117 (four players: the first East is the "pivot"; every second time the dice
come to her she exchanges seats with the player at her right; officially the dice stay with the seat, the
author recommends they go with the pivot), rules 118-120 and 129 (a fifth or sixth player sits out, the
dealer of each game giving up her seat to the one who has waited longest).

Seats are numbered 0-3 in turn order: seat ``i + 1`` is to the right of seat ``i`` (play goes
counterclockwise, rule 19). The dealer of a game is its East; South is at her right, then West, then North.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import HandInputError, gettext_noop

WINDS = ("E", "S", "W", "N")
MAX_HAND_INDEX = 10_000  # far more games than any session plays; bounds the work of one call


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand (game) of a four-player table, players named by their starting seat ("E" is the pivot):
    ``seats`` maps each starting seat to the physical seat it occupies, ``winds`` to its seat wind this
    hand, and ``dealer`` is the starting seat of the player who deals (seat wind East)."""

    hand_index: int
    seats: dict[str, str]
    winds: dict[str, str]
    dealer: str


def _deal(hand_index: int, at: dict[str, str], dealer_seat: int) -> Deal:
    dealer_wind = WINDS[dealer_seat]
    dealer = next(start for start, seat in at.items() if seat == dealer_wind)
    winds = {start: WINDS[(WINDS.index(seat) - dealer_seat) % 4] for start, seat in at.items()}
    return Deal(hand_index=hand_index, seats=dict(at), winds=winds, dealer=dealer)


def pivot_rotation(count: int, *, dice_follow_pivot: bool = False) -> list[Deal]:
    """The first ``count`` hands of a four-player session under rule 116, with rule 117 as an option.

    Rule 116 (line 978): "The original dealer ("first East") is designated "pivot." Every second time
    the dice come to the pivot, she exchanges seats with the player at her right." The deal passes to
    the right after every hand; the dice *come to* the pivot when a hand after the first is to be dealt
    from her seat (her first deal, hand 0, is where they start), so she first moves before hand 8.
    Rule 117 (lines 979-981): officially the dice stay with the seat, so the player now in the pivot's
    old seat deals; with ``dice_follow_pivot`` (the author's recommendation) the pivot deals first from
    her new seat.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_HAND_INDEX + 1:
        raise HandInputError(
            gettext_noop("the number of hands must be 0 to %(value)s"),
            code="bad_field",
            value=MAX_HAND_INDEX + 1,
        )
    at = {start: start for start in WINDS}  # starting seat -> physical seat
    dealer_seat = 0
    comings = 0
    deals: list[Deal] = []
    for hand in range(count):
        if hand > 0:
            dealer_seat = (dealer_seat + 1) % 4
            if WINDS.index(at["E"]) == dealer_seat:
                comings += 1
                if comings % 2 == 0:
                    here, right = WINDS[dealer_seat], WINDS[(dealer_seat + 1) % 4]
                    neighbour = next(start for start, seat in at.items() if seat == right)
                    at["E"], at[neighbour] = right, here
                    if dice_follow_pivot:
                        dealer_seat = (dealer_seat + 1) % 4
        deals.append(_deal(hand, at, dealer_seat))
    return deals


def deal_for_hand(hand_index: int, *, dice_follow_pivot: bool = False) -> Deal:
    """Seats, seat winds and dealer of hand ``hand_index`` (0-based): :func:`pivot_rotation`'s last."""
    if (
        isinstance(hand_index, bool)
        or not isinstance(hand_index, int)
        or not 0 <= hand_index <= MAX_HAND_INDEX
    ):
        raise HandInputError(
            gettext_noop("the hand number must be 0 to %(max_hand_index)s"),
            code="bad_field",
            max_hand_index=MAX_HAND_INDEX,
        )
    return pivot_rotation(hand_index + 1, dice_follow_pivot=dice_follow_pivot)[-1]


def winds_for_hand(hand_index: int, *, dice_follow_pivot: bool = False) -> dict[str, str]:
    """Seat wind of each starting seat in hand ``hand_index`` (rules 116-117)."""
    return deal_for_hand(hand_index, dice_follow_pivot=dice_follow_pivot).winds


@dataclass(frozen=True, slots=True)
class Game:
    """One game: ``seats`` are the players in seats 0-3, ``dealer`` the seat that rolls the dice."""

    number: int
    seats: tuple[str, str, str, str]
    dealer: int
    sitting_out: tuple[str, ...]

    @property
    def east(self) -> str:
        return self.seats[self.dealer]

    @property
    def winds(self) -> dict[str, str]:
        """The player of each wind this game: East deals, South sits at her right (rule 19)."""
        return {wind: self.seats[(self.dealer + i) % 4] for i, wind in enumerate(WINDS)}


def schedule(players: Sequence[str], games: int, *, dice_follow_pivot: bool = False) -> list[Game]:
    """The seating and dealer of each of ``games`` games.

    ``players[0]`` is the first East (rule 14) in seat 0, ``players[1:4]`` the seats to her right, and any
    fifth and sixth players sit out first, in the order given (rules 119, 129). With four players the pivot
    moves one seat right every second time the dice come to her (rule 116); ``dice_follow_pivot`` makes her
    deal first after moving, as the author recommends (rule 117), instead of the official rule that the dice
    stay with the seat.
    """
    names = list(players)
    if not 4 <= len(names) <= 6:
        raise HandInputError(
            gettext_noop(
                "a table has 4 players, with 1 or 2 more sitting out (rules 118, 129), not %(count)s"
            ),
            code="bad_players",
            count=len(names),
        )
    if len(set(names)) != len(names):
        raise HandInputError(gettext_noop("each player may be named only once"), code="bad_players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise HandInputError(
            gettext_noop("the number of games must be a whole number, not %(games)r"),
            code="bad_field",
            games=games,
        )
    if games > MAX_HAND_INDEX + 1:
        raise HandInputError(
            gettext_noop("at most %(value)s games are scheduled at once"),
            code="bad_field",
            value=MAX_HAND_INDEX + 1,
        )
    if len(names) == 4:
        # Rule 116 with rule 117 as an option: one engine, :func:`pivot_rotation`.
        by_seat = dict(zip(WINDS, names, strict=True))
        result = []
        for deal in pivot_rotation(games, dice_follow_pivot=dice_follow_pivot):
            seated = {seat: by_seat[start] for start, seat in deal.seats.items()}
            result.append(
                Game(
                    number=deal.hand_index + 1,
                    seats=(seated["E"], seated["S"], seated["W"], seated["N"]),
                    dealer=WINDS.index(deal.seats[deal.dealer]),
                    sitting_out=(),
                )
            )
        return result
    seats = names[:4]
    waiting = names[4:]
    dealer = 0
    result = []
    for number in range(1, games + 1):
        result.append(
            Game(
                number=number,
                seats=(seats[0], seats[1], seats[2], seats[3]),
                dealer=dealer,
                sitting_out=tuple(waiting),
            )
        )
        # Rules 120 and 129: the dealer gives her seat to the player who has waited longest.
        waiting.append(seats[dealer])
        seats[dealer] = waiting.pop(0)
        dealer = (dealer + 1) % 4
    return result
