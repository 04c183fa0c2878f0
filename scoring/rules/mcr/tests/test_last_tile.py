"""Last Tile (rule 95 no. 58) decided from the tiles where the winner's hand settles it.

Book: ``shared/seeds/003_2541481d343502a5.txt`` lines 2742-2745: "Winning on the 'case tile' (the last or
fourth tile of its particular kind) when all players can plainly see that it's so." The calculator sees
only the winner's hand; the ``last_of_kind`` flag (the other copies among the discards or the other
players' melds) decides what the hand cannot.
"""

from __future__ import annotations

import pytest

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.claims import check_claim
from scoring.rules.mcr.tests.test_fans_support import fans, hand, result

# 333m 66s + three melded chows: All Simples 2, Mixed Double Chow 1, Short Straight 1 = 4 points.
HIDDEN_COPY = ("33m66s", "3m", "chow 345p", "chow 345s", "chow 678s")
# 12m + 3m, 55z; melded 345p, 345s and a pung of 3m: the winning 3m is the fourth, in plain sight.
SHOWN_PUNG = ("12m55z", "3m", "chow 345p", "pung 333m", "chow 345s")


def test_it_does_not_give_last_tile_when_the_winner_holds_another_copy_concealed() -> None:
    """Line 2745 "when all players can plainly see that it's so": a copy in the winner's concealed tiles
    is not seen by anyone else, so the flag cannot make a 4-point hand worth 8."""
    scored = result(*HIDDEN_COPY, last_of_kind=True)
    assert "Last Tile" not in {fan.name for fan in scored.fans}
    assert scored.total == 4
    assert not scored.meets_minimum
    assert len(scored.notes) == 1
    assert "Last Tile (fan 58) not given" in scored.notes[0]
    assert scored.notes[0].params == {"tile": "3m"}


def test_it_refuses_a_claim_that_counts_last_tile_with_a_copy_concealed() -> None:
    """Lines 2742-2745 with rule 24 (line 2171): without Last Tile the hand is below the minimum."""
    with pytest.raises(HandInputError) as error:
        check_claim(hand(*HIDDEN_COPY, last_of_kind=True), 8)
    assert error.value.code == "below_minimum"


def test_it_gives_last_tile_unflagged_when_the_winners_own_pung_shows_the_other_three() -> None:
    """Lines 2742-2745: the three other 3m in the winner's melded pung are in plain sight, so the
    winning 3m is "the last or fourth tile of its particular kind" without any flag."""
    assert fans(*SHOWN_PUNG) == {"Last Tile": 4, "Tile Hog": 2, "Mixed Double Chow": 1, "Edge Wait": 1}
    assert result(*SHOWN_PUNG).meets_minimum
    assert result(*SHOWN_PUNG).notes == ()


def test_it_still_takes_the_flag_when_the_other_copies_are_off_the_winners_hand() -> None:
    """The discards and the other players' melds are not in the hand: the flag decides (line 2742)."""
    tiles = ("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m")
    assert "Last Tile" in fans(*tiles, last_of_kind=True)
    assert "Last Tile" not in fans(*tiles)
