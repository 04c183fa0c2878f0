"""Building the spec's JSON hands from the compact tile form, for the example tests."""

from __future__ import annotations

from typing import Any

from scoring.rules.classical.api import score_request
from scoring.rules.tiles import parse_compact, tile_code


def codes(text: str) -> list[str]:
    return [tile_code(tile) for tile in parse_compact(text)]


def pung(tile: str) -> dict[str, Any]:
    return {"type": "pung", "tiles": [tile] * 3}


def kong(tile: str, *, concealed: bool = False) -> dict[str, Any]:
    return {"type": "kong", "tiles": [tile] * 4, "concealed": concealed}


def chow(text: str) -> dict[str, Any]:
    return {"type": "chow", "tiles": codes(text)}


def hand(concealed: str, *melds: dict[str, Any], win: str | None = None, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"concealed": codes(concealed) if concealed else [], "melds": list(melds)}
    if win is not None:
        data["win_tile"] = win
    data.update(fields)
    return data


def score(data: dict[str, Any], rules: str = "babcock") -> dict[str, Any]:
    return score_request(data, rules)


def total(data: dict[str, Any], rules: str = "babcock") -> int:
    return score(data, rules)["total"]
