"""Helpers for the MCR fan tests: hands written in the compact tile form (``"123m 456p 11z"``).

Holds no tests itself. The book is ``shared/seeds/003_2541481d343502a5.txt`` (Sloper); tests cite it
by line.
"""

from __future__ import annotations

from typing import Any

from scoring.rules.mcr.calculator import FanResult, calculate, score_request
from scoring.rules.tiles import parse_compact, parse_hand, tile_code


def codes(text: str) -> list[str]:
    """``"123m 5z"`` -> ``["1m", "2m", "3m", "5z"]``."""
    return [tile_code(tile) for tile in parse_compact(text)]


def meld(text: str) -> dict[str, Any]:
    """``"chow 789p"``, ``"pung 777z"``, ``"kong 5555s"`` or ``"ckong 5555s"`` (a concealed kong)."""
    kind, tiles = text.split()
    if kind == "ckong":
        return {"type": "kong", "tiles": codes(tiles), "concealed": True}
    return {"type": kind, "tiles": codes(tiles)}


def hand(concealed: str, win: str, *melds: str, **flags: Any) -> dict[str, Any]:
    """The spec's JSON object: concealed tiles without the winning tile, then declared sets."""
    data: dict[str, Any] = {"concealed": codes(concealed), "melds": [meld(m) for m in melds], "win_tile": win}
    data.update(flags)
    return data


def fans(concealed: str, win: str, *melds: str, **flags: Any) -> dict[str, int]:
    """Fan name -> points, as ``score_hands`` prints them."""
    return score_request(hand(concealed, win, *melds, **flags))["fans"]


def result(concealed: str, win: str, *melds: str, **flags: Any) -> FanResult:
    """The explained result of :func:`calculate`."""
    return calculate(parse_hand(hand(concealed, win, *melds, **flags)))
