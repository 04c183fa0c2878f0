"""A winner's claim checked against the tiles: the fan points entered for a hand whose tiles are known.

Sloper, *The Red Dragon & The West Wind* (shared/seeds/003_2541481d343502a5.txt):

- rule 24 (line 2171): the hand must be worth at least 8 points, *excluding* flower points;
- rule 65a (line 2301): the winner may not claim more points than the others recognise and validate;
- rule 65b (line 2302): "If the winner claims fewer points than he could, other players remain silent":
  a lower claim stands;
- rule 65c (line 2304): "If the winner cannot add the score but other players recognize that it is worth
  at least 8 points, the player scores only 8 points": a claim below 8 on tiles worth 8 or more without
  flowers scores 8 (``ClaimCheck.scored``); the tiles' value decides, not the claim;
- rule 66 (line 2305) and section B, "Scoring Basics" 2 (line 3225): the basic score is the sum of the
  fans *plus one point per flower* (fan no. 81, Flower Tiles, line 2860); the example at line 4012 pays
  18 for 8 fan points and two flowers.

So the claim (``fan`` of event-json.md) is compared with the tiles' total *including* flowers, and the
minimum with the total *without* them. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.mcr.calculator import FLOWER_TILES, FanScore, calculate, parse_request
from scoring.rules.mcr.session import MAX_FAN, MINIMUM_FAN


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The answer for a claim that stands: the tiles' breakdown and how the claim compares.

    ``total`` includes flowers (rule 66); ``without_flowers`` is what rule 24 counts; ``fans`` lists
    every fan with its points and the sets it used (Flower Tiles among them when there are flowers);
    ``under_claim`` is true when the winner claimed fewer points than the tiles give (rule 65b);
    ``scored`` is what the hand scores: the claim, or 8 for a claim below 8 (rule 65c, line 2304).
    """

    claimed: int
    total: int
    without_flowers: int
    flowers: int
    fans: tuple[FanScore, ...]
    meets_minimum: bool

    @property
    def under_claim(self) -> bool:
        return self.claimed < self.total

    @property
    def scored(self) -> int:
        """Rule 65c (line 2304): a winner who cannot add a hand worth 8 or more "scores only 8 points"."""
        return max(self.claimed, MINIMUM_FAN)

    def as_json(self) -> dict[str, Any]:
        return {
            "claimed": self.claimed,
            "total": self.total,
            "without_flowers": self.without_flowers,
            "flowers": self.flowers,
            "fans": {fan.name: fan.points for fan in self.fans},
            "meets_minimum": self.meets_minimum,
            "under_claim": self.under_claim,
            "scored": self.scored,
        }


def check_claim(tiles_request: Mapping[str, Any], claimed: int) -> ClaimCheck:
    """Score the tiles (the MCR hand object of scoring-json.md) and check the winner's claim.

    Raises :class:`HandInputError` with a ``code``:

    - the tiles' own errors (``tile_count``, ``fifth_copy``, ``incomplete_hand``, ``input_limit``, ...);
    - ``bad_fan``: the claim is not a whole number from 0 to ``MAX_FAN``;
    - ``below_minimum``: the tiles are worth less than 8 without flowers (rule 24), whatever the claim;
    - ``claim_above_tiles``: the claim is more than the tiles' total with flowers (rule 65a).

    A claim from 8 up to the total stands (rule 65b); a claim below 8 on tiles that make the minimum
    scores 8 (rule 65c, line 2304: ``check.scored``).
    """
    if isinstance(claimed, bool) or not isinstance(claimed, int) or not 0 <= claimed <= MAX_FAN:
        raise HandInputError(
            gettext_noop("the claimed fan points must be a whole number from 0 to %(max_fan)s"),
            code="bad_fan",
            max_fan=MAX_FAN,
        )
    result = calculate(parse_request(tiles_request))
    flowers = sum(fan.count for fan in result.fans if fan.name == FLOWER_TILES)
    without = result.total - flowers
    if not result.meets_minimum:
        raise HandInputError(
            gettext_noop(
                "these tiles are worth %(without)s fan points without flowers; a winning hand "
                "needs at least %(minimum_fan)s (MCR rule 24)"
            ),
            code="below_minimum",
            without=without,
            minimum_fan=MINIMUM_FAN,
        )
    if claimed > result.total:
        flower_text = f" ({without} + {flowers} for flowers)" if flowers else ""
        raise HandInputError(
            gettext_noop(
                "%(claimed)s fan points were claimed but the tiles are worth "
                "%(total)s%(flower_text)s; a winner may not claim more than the hand is worth "
                "(MCR rule 65a)"
            ),
            code="claim_above_tiles",
            claimed=claimed,
            total=result.total,
            flower_text=flower_text,
        )
    return ClaimCheck(
        claimed=claimed,
        total=result.total,
        without_flowers=without,
        flowers=flowers,
        fans=result.fans,
        meets_minimum=result.meets_minimum,
    )
