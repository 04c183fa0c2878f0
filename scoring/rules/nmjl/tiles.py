"""NMJL tiles: the shared codes of ``scoring/rules/tiles.py`` plus the flower and the joker.

Sloper, *The Red Dragon & The West Wind* (shared/seeds/003_2541481d343502a5.txt), rules 1-6 (~line 660):
the American set is the 144-tile set (suits, winds, dragons, 8 flowers) plus 8 jokers, 152 tiles.

Codes: ``1m``-``9m`` craks, ``1p``-``9p`` dots, ``1s``-``9s`` bams, ``1z``-``4z`` East South West North,
``5z`` White (soap), ``6z`` Green, ``7z`` Red, and in this package ``"F"`` (or ``"f"``) a flower and ``"J"``
(or ``"j"``) a joker. Internally a tile is an int: the shared index 0..33, ``FLOWER`` 34, ``JOKER`` 35.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.tiles import GREEN, RED, WHITE, tile_code, tile_index, tile_name

FLOWER = 34
JOKER = 35
TILE_KINDS = 36

#: Copies of each tile in a set (rules 3-6): four of each suit and honour tile, eight flowers and jokers.
COPIES = tuple([4] * 34 + [8, 8])

#: Rule 36: Red goes with craks, Green with bams, White with dots.
DRAGON_OF_SUIT = {"m": RED, "p": WHITE, "s": GREEN}
SUIT_BASE = {"m": 0, "p": 9, "s": 18}


def nmjl_tile(code: Any) -> int:
    """The index of an NMJL tile code (shared codes, ``F`` flower, ``J`` joker) or a clear error."""
    if isinstance(code, str):
        text = code.strip()
        if text in ("F", "f"):
            return FLOWER
        if text in ("J", "j"):
            return JOKER
        try:
            return tile_index(text)
        except HandInputError:
            pass
    raise HandInputError(
        gettext_noop(
            "unknown tile code %(code_value)r (use 1m-9m, 1p-9p, 1s-9s, 1z-7z, F for a "
            "flower or J for a joker)"
        ),
        code="bad_tile",
        code_value=code,
    )


def nmjl_code(tile: int) -> str:
    """The code of a tile index, the inverse of :func:`nmjl_tile`."""
    if tile == FLOWER:
        return "F"
    if tile == JOKER:
        return "J"
    return tile_code(tile)


def nmjl_name(tile: int) -> str:
    """A plain name for messages, such as "3 dots", "Red Dragon", "flower" or "joker"."""
    if tile == FLOWER:
        return "flower"
    if tile == JOKER:
        return "joker"
    return tile_name(tile)


def parse_tiles(value: Any, where: str) -> list[int]:
    """A JSON list of tile codes as indices; ``where`` names the field in error messages."""
    if not isinstance(value, list):
        raise HandInputError(
            gettext_noop("%(where)s must be a list of tile codes"), code="bad_field", where=where
        )
    tiles = []
    for position, code in enumerate(value):
        try:
            tiles.append(nmjl_tile(code))
        except HandInputError as error:
            raise HandInputError(
                gettext_noop("%(where)s[%(position)s]: %(problem)s"),
                code=error.code,
                where=where,
                position=position,
                problem=error,
            ) from None
    return tiles


def count_tiles(tiles: Iterable[int]) -> list[int]:
    """A list of 36 counts, one per tile index."""
    counts = [0] * TILE_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def check_copies(counts: list[int]) -> None:
    """Rules 1-6: four of each tile, eight flowers and eight jokers; more is an error naming the tile."""
    for tile, count in enumerate(counts):
        if count > COPIES[tile]:
            raise HandInputError(
                gettext_noop(
                    "there are only %(copies)s of %(tile)s (%(tile2)s) in the set, but the hand has %(count)s"
                ),
                code="fifth_copy",
                copies=COPIES[tile],
                tile=nmjl_code(tile),
                tile2=nmjl_name(tile),
                count=count,
            )
