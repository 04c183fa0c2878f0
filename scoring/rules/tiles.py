"""Tiles and hands in the interchange form of ``shared/specs/scoring-json.md``.

Shared by MCR and the classical rule sets. Tiles are written ``"3m"`` (characters), ``"9p"`` (dots),
``"1s"`` (bamboo) and ``"1z"``..``"7z"`` (East, South, West, North, White, Green, Red dragon).
Internally a tile is an ``int`` index 0..33 (m 0-8, p 9-17, s 18-26, z 27-33) so engines can count
tiles with a list of 34 and stay fast. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import HandInputError, Text, gettext_noop

SUITS = "mps"
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo", "z": "honours"}
HONOUR_NAMES = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")
WINDS = ("E", "S", "W", "N")

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WIND_TILES = (EAST, SOUTH, WEST, NORTH)
DRAGON_TILES = (WHITE, GREEN, RED)
WIND_TILE_BY_LETTER = dict(zip(WINDS, WIND_TILES, strict=True))

TILE_CODES: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)
)
_INDEX_BY_CODE = {code: i for i, code in enumerate(TILE_CODES)}


def tile_index(code: Any) -> int:
    """The index 0..33 of a tile code, or a :class:`HandInputError` naming the bad code."""
    if isinstance(code, str):
        index = _INDEX_BY_CODE.get(code.strip())
        if index is not None:
            return index
    raise HandInputError(
        gettext_noop("unknown tile code %(code_value)r (use 1m-9m, 1p-9p, 1s-9s or 1z-7z)"),
        code="bad_tile",
        code_value=code,
    )


def tile_code(index: int) -> str:
    return TILE_CODES[index]


def tile_name(index: int) -> str:
    """A human name such as "3 characters" or "Red Dragon" for messages."""
    if index >= 27:
        return HONOUR_NAMES[index - 27]
    return f"{index % 9 + 1} {SUIT_NAMES[SUITS[index // 9]]}"


def suit_of(index: int) -> str:
    return "z" if index >= 27 else SUITS[index // 9]


def rank_of(index: int) -> int:
    """Number 1..9 for suited tiles, 0 for honours."""
    return 0 if index >= 27 else index % 9 + 1


def is_honour(index: int) -> bool:
    return index >= 27


def is_terminal(index: int) -> bool:
    return index < 27 and index % 9 in (0, 8)


def is_terminal_or_honour(index: int) -> bool:
    return index >= 27 or index % 9 in (0, 8)


def parse_compact(text: str) -> list[int]:
    """Parse the compact text form ``"123m 456p 11z"`` into tile indices."""
    tiles: list[int] = []
    digits: list[str] = []
    for char in text.replace(" ", "").replace(",", ""):
        if char.isdigit():
            digits.append(char)
        elif char in "mpsz":
            if not digits:
                raise HandInputError(
                    gettext_noop("suit letter %(char)r has no numbers before it"), code="bad_tile", char=char
                )
            tiles.extend(tile_index(d + char) for d in digits)
            digits = []
        else:
            raise HandInputError(
                gettext_noop("unexpected character %(char)r in tiles"), code="bad_tile", char=char
            )
    if digits:
        raise HandInputError(
            gettext_noop("numbers at the end have no suit letter (m, p, s or z)"), code="bad_tile"
        )
    return tiles


MELD_KINDS = ("chow", "pung", "kong")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: ``kind`` is chow, pung or kong; tiles sorted; concealed only for a concealed kong."""

    kind: str
    tiles: tuple[int, ...]
    concealed: bool = False


@dataclass(frozen=True, slots=True)
class Hand:
    """A winning (or, for the classical books, any) hand as the spec describes it.

    ``concealed`` excludes the winning tile; ``win_tile`` is ``None`` only for a classical losing hand.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int | None
    self_drawn: bool = False
    last_of_kind: bool = False
    kong_related: bool = False
    last_wall_tile: bool = False
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: int = 0

    def all_tiles(self) -> list[int]:
        """Every tile of the hand, the winning tile included (a kong counts four)."""
        tiles = list(self.concealed)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        if self.win_tile is not None:
            tiles.append(self.win_tile)
        return tiles

    def counts(self) -> list[int]:
        counts = [0] * 34
        for tile in self.all_tiles():
            counts[tile] += 1
        return counts


def _bool_field(data: Mapping[str, Any], name: str, default: bool = False) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise HandInputError(
            gettext_noop("field %(name)r must be true or false, not %(value)r"),
            code="bad_field",
            name=name,
            value=value,
        )
    return value


def _wind_field(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "E")
    if not isinstance(value, str) or value not in WINDS:
        raise HandInputError(
            gettext_noop("field %(name)r must be one of E, S, W, N, not %(value)r"),
            code="bad_field",
            name=name,
            value=value,
        )
    return value


def _tile_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise HandInputError(
            gettext_noop("%(where)s must be a list of tile codes"), code="bad_field", where=where
        )
    try:
        return [tile_index(code) for code in value]
    except HandInputError as error:
        raise HandInputError(
            gettext_noop("%(where)s: %(problem)s"), code="bad_tile", where=where, problem=error
        ) from None


def parse_meld(data: Any, position: int) -> Meld:
    """Validate one declared set: a chow is three consecutive suited tiles, a pung three alike."""
    where = Text(gettext_noop("meld %(number)s"), number=position + 1)
    if not isinstance(data, Mapping):
        raise HandInputError(
            gettext_noop("%(where)s must be an object with 'type' and 'tiles'"), code="bad_field", where=where
        )
    kind = data.get("type")
    if kind not in MELD_KINDS:
        raise HandInputError(
            gettext_noop("%(where)s: type must be chow, pung or kong, not %(kind)r"),
            code="bad_meld",
            where=where,
            kind=kind,
        )
    tiles = sorted(_tile_list(data.get("tiles"), f"{where} tiles"))
    concealed = _bool_field(data, "concealed")
    if kind == "chow":
        if len(tiles) != 3:
            raise HandInputError(
                gettext_noop("%(where)s: a chow has 3 tiles, not %(count)s"),
                code="bad_meld",
                where=where,
                count=len(tiles),
            )
        if is_honour(tiles[0]) or is_honour(tiles[2]):
            raise HandInputError(
                gettext_noop("%(where)s: a chow cannot be made of honours"), code="bad_meld", where=where
            )
        if not (tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2 and tiles[0] // 9 == tiles[2] // 9):
            raise HandInputError(
                gettext_noop("%(where)s: a chow needs three consecutive tiles of one suit"),
                code="bad_meld",
                where=where,
            )
    else:
        size = 3 if kind == "pung" else 4
        if len(tiles) != size:
            raise HandInputError(
                gettext_noop("%(where)s: a %(kind)s has %(size)s tiles, not %(count)s"),
                code="bad_meld",
                where=where,
                kind=kind,
                size=size,
                count=len(tiles),
            )
        if len(set(tiles)) != 1:
            raise HandInputError(
                gettext_noop("%(where)s: the tiles of a %(kind)s must all be the same"),
                code="bad_meld",
                where=where,
                kind=kind,
            )
    if concealed and kind != "kong":
        raise HandInputError(
            gettext_noop("%(where)s: only a kong can be declared concealed"), code="bad_meld", where=where
        )
    return Meld(kind=kind, tiles=tuple(tiles), concealed=concealed)


def parse_hand(data: Any, *, require_win_tile: bool = True) -> Hand:
    """Turn the spec's JSON object into a :class:`Hand`, checking fields, tile codes, melds and copies.

    Completeness (four sets and a pair, special hands) is the engine's business, not this parser's.
    """
    if not isinstance(data, Mapping):
        raise HandInputError(gettext_noop("a hand must be a JSON object"), code="bad_field")
    if "concealed" not in data:
        raise HandInputError(gettext_noop("missing field 'concealed'"), code="missing_field")
    concealed = _tile_list(data["concealed"], "concealed")
    melds_data = data.get("melds", [])
    if not isinstance(melds_data, list):
        raise HandInputError(gettext_noop("melds must be a list"), code="bad_field")
    melds = tuple(parse_meld(meld, i) for i, meld in enumerate(melds_data))
    win_tile: int | None
    if data.get("win_tile") is None:
        if require_win_tile:
            raise HandInputError(gettext_noop("missing field 'win_tile'"), code="missing_field")
        win_tile = None
    else:
        win_tile = tile_index(data["win_tile"])
    flowers = data.get("flowers", 0)
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise HandInputError(
            gettext_noop("flowers must be a whole number from 0 to 8, not %(flowers)r"),
            code="bad_field",
            flowers=flowers,
        )
    hand = Hand(
        concealed=tuple(concealed),
        melds=melds,
        win_tile=win_tile,
        self_drawn=_bool_field(data, "self_drawn"),
        last_of_kind=_bool_field(data, "last_of_kind"),
        kong_related=_bool_field(data, "kong_related"),
        last_wall_tile=_bool_field(data, "last_wall_tile"),
        seat_wind=_wind_field(data, "seat_wind"),
        prevalent_wind=_wind_field(data, "prevalent_wind"),
        flowers=flowers,
    )
    check_copies(hand.all_tiles())
    return hand


def check_copies(tiles: Iterable[int]) -> None:
    """There are four of each tile: a fifth copy is an error naming the tile."""
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
        if counts[tile] == 5:
            raise HandInputError(
                gettext_noop(
                    "there are only four of each tile, but the hand has a fifth %(tile)s (%(tile2)s)"
                ),
                code="fifth_copy",
                tile=tile_code(tile),
                tile2=tile_name(tile),
            )
