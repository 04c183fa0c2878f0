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

from scoring.rules.errors import HandInputError

WINDS = ("E", "S", "W", "N")


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
            f"a table has 4 players, with 1 or 2 more sitting out (rules 118, 129), not {len(names)}",
            code="bad_players",
        )
    if len(set(names)) != len(names):
        raise HandInputError("each player may be named only once", code="bad_players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise HandInputError(f"the number of games must be a whole number, not {games!r}", code="bad_field")
    seats = names[:4]
    waiting = names[4:]
    pivot = names[0]
    dealer = 0
    pivot_turns = 0
    result = []
    for number in range(1, games + 1):
        if not waiting and seats[dealer] == pivot:
            pivot_turns += 1
            if pivot_turns % 2 == 0:
                right = (dealer + 1) % 4
                seats[dealer], seats[right] = seats[right], seats[dealer]
                if dice_follow_pivot:
                    dealer = right
        result.append(
            Game(
                number=number,
                seats=(seats[0], seats[1], seats[2], seats[3]),
                dealer=dealer,
                sitting_out=tuple(waiting),
            )
        )
        if waiting:
            # Rules 120 and 129: the dealer gives her seat to the player who has waited longest.
            waiting.append(seats[dealer])
            seats[dealer] = waiting.pop(0)
        dealer = (dealer + 1) % 4
    return result
