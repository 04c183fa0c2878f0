"""The NMJL card as data: loading and validating a card file (format in ``docs/nmjl-card-format.md``).

Sloper (shared/seeds/003_2541481d343502a5.txt), rules 23-38 (~line 693) and "Reading the card" (~line 1163):
the card lists families of hands; each hand is drawn in numbers and letters (``D`` dragon, ``0`` White as
zero, ``F`` flower, ``N E W S`` winds), coloured in one, two or three colours that stand for that many
different suits (never for one particular suit), marked ``X`` (exposed) or ``C`` (concealed) and given a
value. A card file states the same in JSON; :func:`load_card` turns it into a :class:`Card` or raises a
:class:`HandInputError` whose message starts with the path of the bad field, e.g.
``families[2].hands[1].pattern``.
"""

from __future__ import annotations

import datetime
import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.tiles import COPIES, DRAGON_OF_SUIT, FLOWER, SUIT_BASE, TILE_KINDS, nmjl_code
from scoring.rules.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE

CARD_FORMAT = "nmjl-card/1"
HAND_TILES = 14
#: Rule 27: singles, pairs, pungs, kongs, quints and sextets; the card notation (docs/nmjl-card-format.md)
#: stops at six.
MAX_GROUP = 6
COLOURS = ("g", "r", "b")
SUITLESS_COLOUR = "-"
#: A group coloured ``*`` is in any suit, whatever the other groups use (a parenthetical "any suit").
ANY_SUIT = "*"
WIND_LETTERS = ("N", "E", "W", "S")
WIND_RULES = ("as_shown", "any")
NUMBER_RULES = ("as_shown", "any_like", "consecutive")
CARDS_DIR = Path(__file__).resolve().parent / "cards"

#: Symbols that are always the same tile, whatever the colour (rules 28a, 36, 37).
FIXED_SYMBOLS = {
    "N": NORTH,
    "E": EAST,
    "W": WEST,
    "S": SOUTH,
    "F": FLOWER,
    "0": WHITE,
    "R": RED,
    "G": GREEN,
}
#: Symbols whose tile depends on the suit the group's colour stands for.
COLOURED_SYMBOLS = frozenset("123456789D")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")

#: Limits on a card file, far above any real card (the League's cards have about 15 families and 70 hands,
#: a file of some 20 KB) and far below what would slow the page that loads one.
MAX_CARD_BYTES = 512 * 1024
MAX_FAMILIES = 60
MAX_HANDS_PER_FAMILY = 100
MAX_CARD_HANDS = 400
MAX_TEXT = 500  # characters in a name, a notice or a note


@dataclass(frozen=True, slots=True)
class Group:
    """One group as drawn on the card, e.g. ``"2027"`` or ``"DDDD"``, with its colour letter."""

    text: str
    colour: str

    @property
    def is_set(self) -> bool:
        """Rules 27, 38, 81: only 3 or more identical tiles form a set that may hold jokers."""
        return len(self.text) >= 3 and len(set(self.text)) == 1

    @property
    def coloured(self) -> bool:
        return any(symbol in COLOURED_SYMBOLS for symbol in self.text)


@dataclass(frozen=True, slots=True)
class Variant:
    """One way to read a hand: a suit for each colour and a shift of the numbers, resolved to tiles.

    ``natural[t]`` counts tiles that must be natural (singles and pairs, rule 81); ``sets`` lists the
    ``(tile, size)`` of each set, whose places a natural tile or a joker may fill; ``needs`` lists
    ``(tile, natural, set places)`` for every tile the reading uses.
    """

    groups: tuple[tuple[int, ...], ...]
    natural: tuple[int, ...]
    set_capacity: tuple[int, ...]
    sets: tuple[tuple[int, int], ...]
    suits: tuple[tuple[str, str], ...]
    shift: int
    needs: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CardHand:
    """A hand of the card: pattern, colours, number rule, X or C, value, Singles And Pairs flag."""

    id: str
    family: str
    pattern: str
    groups: tuple[Group, ...]
    numbers: str
    concealed: bool
    value: int
    singles_and_pairs: bool
    note: str = ""
    winds: str = "as_shown"
    variants: tuple[Variant, ...] = field(default=(), repr=False, compare=False)

    @property
    def xc(self) -> str:
        return "C" if self.concealed else "X"

    @property
    def colours(self) -> str:
        return " ".join(group.colour for group in self.groups)


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    hands: tuple[CardHand, ...]


@dataclass(frozen=True, slots=True)
class Card:
    """A whole card; ``sample`` marks a made-up card (the real NMJL card is copyrighted)."""

    id: str
    year: int
    name: str
    sample: bool
    notice: str
    families: tuple[Family, ...]

    @property
    def hands(self) -> tuple[CardHand, ...]:
        return tuple(hand for family in self.families for hand in family.hands)

    def hand(self, hand_id: str) -> CardHand:
        """The hand with this id, or a clear error (a hand not on the card)."""
        for hand in self.hands:
            if hand.id == hand_id:
                return hand
        raise HandInputError(f"hand {hand_id!r} is not on card {self.id!r}", code="unknown_hand")

    @property
    def values(self) -> tuple[int, ...]:
        """The distinct values printed on the card, lowest first (rule 71)."""
        return tuple(sorted({hand.value for hand in self.hands}))

    @property
    def lowest_value(self) -> int:
        """Rules 98e, 104, 128: the value of the lowest-scoring hand on the card."""
        return self.values[0]


def _error(path: str, message: str) -> HandInputError:
    return HandInputError(f"{path}: {message}", code="bad_card")


def _string(data: Mapping[str, Any], key: str, path: str, *, required: bool = True, default: str = "") -> str:
    if key not in data:
        if required:
            raise _error(f"{path}.{key}" if path else key, "missing field")
        return default
    value = data[key]
    where = f"{path}.{key}" if path else key
    if not isinstance(value, str) or (required and not value.strip()):
        raise _error(where, f"must be a non-empty text, not {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise _error(where, f"has {len(value)} characters; at most {MAX_TEXT} are accepted")
    if not value.isprintable():
        raise _error(where, "holds a control character (a line break, a tab or a NUL byte)")
    return value.strip()


def _shown(value: Any) -> str:
    """A refused value as the message shows it: never the whole of a hostile one."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long for Python to write out
        return "a number too long to show"
    return text if len(text) <= 60 else f"{text[:57]}..."


def _integer(value: Any, path: str, *, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _error(path, f"must be a whole number from {low} to {high}, not {_shown(value)}")
    return value


def _boolean(data: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _error(f"{path}.{key}", f"must be true or false, not {_shown(value)}")
    return value


def parse_pattern(pattern: str, colours: str | None, path: str) -> tuple[Group, ...]:
    """Split a card pattern such as ``"FF 2027 DDDD 2027"`` into groups, each with its colour letter.

    ``colours`` holds one letter per group (``g``, ``r``, ``b``, or ``-`` for a group of winds,
    flowers and zeroes only); it may be left out when no group has a number or a ``D``.
    """
    texts = pattern.split()
    if not texts:
        raise _error(f"{path}.pattern", "is empty")
    for index, text in enumerate(texts):
        for symbol in text:
            if symbol not in FIXED_SYMBOLS and symbol not in COLOURED_SYMBOLS:
                raise _error(
                    f"{path}.pattern",
                    f"group {index + 1} {text!r} has the unknown symbol {symbol!r} "
                    "(use 1-9, D, 0, R, G, F, N, E, W, S)",
                )
        if len(text) > MAX_GROUP:
            raise _error(f"{path}.pattern", f"group {index + 1} {text!r} has more than {MAX_GROUP} tiles")
    if colours is None:
        letters = [SUITLESS_COLOUR] * len(texts)
    else:
        letters = colours.split()
        if len(letters) != len(texts):
            raise _error(
                f"{path}.colours",
                f"has {len(letters)} letters but the pattern has {len(texts)} groups (one letter per group)",
            )
    groups = []
    for index, (text, letter) in enumerate(zip(texts, letters, strict=True)):
        group = Group(text=text, colour=letter)
        if letter not in (*COLOURS, SUITLESS_COLOUR, ANY_SUIT):
            raise _error(f"{path}.colours", f"letter {index + 1} is {letter!r}; use g, r, b, * or -")
        if group.coloured and letter == SUITLESS_COLOUR:
            if colours is None:
                raise _error(f"{path}.colours", "missing: the pattern has numbers or D, which need a colour")
            raise _error(
                f"{path}.colours",
                f"group {index + 1} {text!r} has numbers or D and needs a colour g, r, b or *, not '-'",
            )
        groups.append(group)
    return tuple(groups)


def _shifts(groups: tuple[Group, ...], numbers: str, path: str) -> tuple[int, ...]:
    """Rule 35 (any like numbers) and ~line 1257 (consecutive runs): every number moves by the same amount."""
    digits = [int(symbol) for group in groups for symbol in group.text if symbol.isdigit() and symbol != "0"]
    if numbers == "as_shown":
        return (0,)
    if not digits:
        raise _error(f"{path}.numbers", f"is {_shown(numbers)} but the pattern has no numbers 1-9")
    if numbers == "any_like" and len(set(digits)) != 1:
        raise _error(f"{path}.numbers", "is 'any_like' but the pattern shows different numbers")
    shifts = tuple(k for k in range(-8, 9) if min(digits) + k >= 1 and max(digits) + k <= 9)
    return shifts


def _resolve(symbol: str, suit: str | None, winds: Mapping[str, int], shift: int) -> int:
    if symbol in winds:
        return winds[symbol]
    if symbol in FIXED_SYMBOLS:
        return FIXED_SYMBOLS[symbol]
    assert suit is not None
    if symbol == "D":
        return DRAGON_OF_SUIT[suit]
    return SUIT_BASE[suit] + int(symbol) + shift - 1


def _wind_maps(groups: tuple[Group, ...], winds: str) -> list[dict[str, int]]:
    """``winds: "any"``: the wind letters drawn stand for any winds, different letters for different winds."""
    if winds == "as_shown":
        return [{}]
    letters = sorted({symbol for group in groups for symbol in group.text if symbol in WIND_LETTERS})
    return [
        dict(zip(letters, chosen, strict=True))
        for chosen in itertools.permutations([FIXED_SYMBOLS[w] for w in WIND_LETTERS], len(letters))
    ]


def build_variants(
    groups: tuple[Group, ...], shifts: tuple[int, ...], winds: str = "as_shown"
) -> list[Variant]:
    """Every reading of the hand: rules 28-29 (each colour letter a different suit, any suits; a ``*`` group
    any suit of its own), times the shifts of the numbers, times the winds when they may be any."""
    colours = sorted({group.colour for group in groups if group.coloured and group.colour != ANY_SUIT})
    free = [index for index, group in enumerate(groups) if group.coloured and group.colour == ANY_SUIT]
    variants: dict[tuple[tuple[int, ...], ...], Variant] = {}
    for suits_order, free_suits, wind_map, shift in itertools.product(
        itertools.permutations("mps", len(colours)),
        itertools.product("mps", repeat=len(free)),
        _wind_maps(groups, winds),
        shifts,
    ):
        suits = dict(zip(colours, suits_order, strict=True))
        group_suits = [suits.get(group.colour) for group in groups]
        for index, suit in zip(free, free_suits, strict=True):
            group_suits[index] = suit
        resolved = tuple(
            tuple(_resolve(symbol, suit, wind_map, shift) for symbol in group.text)
            for group, suit in zip(groups, group_suits, strict=True)
        )
        key = tuple(sorted(resolved))
        if key in variants:
            continue
        natural = [0] * TILE_KINDS
        capacity = [0] * TILE_KINDS
        sets = []
        for group, tiles in zip(groups, resolved, strict=True):
            if group.is_set:
                capacity[tiles[0]] += len(tiles)
                sets.append((tiles[0], len(tiles)))
            else:
                for tile in tiles:
                    natural[tile] += 1
        variants[key] = Variant(
            groups=resolved,
            natural=tuple(natural),
            set_capacity=tuple(capacity),
            sets=tuple(sets),
            suits=tuple(sorted(suits.items())),
            shift=shift,
            needs=tuple(
                (tile, natural[tile], capacity[tile])
                for tile in range(TILE_KINDS)
                if natural[tile] or capacity[tile]
            ),
        )
    return list(variants.values())


def _possible(variant: Variant) -> str | None:
    """Why this reading can never be made with one set of 152 tiles, or ``None`` when it can."""
    jokers_needed = 0
    for tile in range(TILE_KINDS - 1):
        if variant.natural[tile] > COPIES[tile]:
            return f"needs {variant.natural[tile]} natural {nmjl_code(tile)} but the set has {COPIES[tile]}"
        jokers_needed += max(0, variant.natural[tile] + variant.set_capacity[tile] - COPIES[tile])
    if jokers_needed > COPIES[-1]:
        return f"needs {jokers_needed} jokers but the set has {COPIES[-1]}"
    return None


def load_hand(data: Any, family: str, family_sp: bool, path: str, seen: set[str]) -> CardHand:
    """Validate one hand of a card file (rules 26-38, 73 and the Singles And Pairs note at ~line 1505)."""
    if not isinstance(data, Mapping):
        raise _error(path, "must be an object with id, pattern, colours, xc and value")
    known = {"id", "pattern", "colours", "numbers", "winds", "xc", "value", "singles_and_pairs", "note"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _error(f"{path}.{_shown(unknown[0])}", f"unknown field (fields: {', '.join(sorted(known))})")
    hand_id = _string(data, "id", path)
    if not _ID_RE.match(hand_id):
        raise _error(f"{path}.id", f"{hand_id!r} must be letters, digits, '.', '_' or '-' (at most 64)")
    if hand_id in seen:
        raise _error(f"{path}.id", f"{hand_id!r} is used by another hand of this card")
    seen.add(hand_id)
    pattern = _string(data, "pattern", path)
    colours = _string(data, "colours", path, required=False, default="") or None
    groups = parse_pattern(pattern, colours, path)
    total = sum(len(group.text) for group in groups)
    if total != HAND_TILES:
        raise _error(f"{path}.pattern", f"{pattern!r} has {total} tiles; a hand has {HAND_TILES} (rule 23)")
    winds = data.get("winds", "as_shown")
    if winds not in WIND_RULES:
        raise _error(f"{path}.winds", f"must be one of {', '.join(WIND_RULES)}, not {_shown(winds)}")
    if winds == "any" and not any(symbol in WIND_LETTERS for group in groups for symbol in group.text):
        raise _error(f"{path}.winds", "is 'any' but the pattern has no winds")
    numbers = data.get("numbers", "as_shown")
    if numbers not in NUMBER_RULES:
        raise _error(f"{path}.numbers", f"must be one of {', '.join(NUMBER_RULES)}, not {_shown(numbers)}")
    xc = data.get("xc")
    if xc not in ("X", "C"):
        raise _error(f"{path}.xc", f"must be 'X' (exposed) or 'C' (concealed), not {_shown(xc)} (rule 26)")
    if "value" not in data:
        raise _error(f"{path}.value", "missing field")
    value = _integer(data["value"], f"{path}.value", low=1, high=1000)
    singles_and_pairs = _boolean(data, "singles_and_pairs", path, family_sp)
    has_set = any(group.is_set for group in groups)
    if singles_and_pairs and has_set:
        raise _error(
            f"{path}.pattern",
            "a Singles And Pairs hand has only singles and pairs, but this pattern has a set of 3 or more",
        )
    if not singles_and_pairs and not has_set:
        raise _error(
            f"{path}.singles_and_pairs",
            "the pattern has no set of 3 or more; outside Singles And Pairs every hand has one "
            "(line ~1505): mark it singles_and_pairs",
        )
    note = _string(data, "note", path, required=False)
    shifts = _shifts(groups, numbers, path)
    if not shifts:
        raise _error(f"{path}.numbers", "no shift keeps every number between 1 and 9")
    variants = build_variants(groups, shifts, winds)
    possible = [variant for variant in variants if _possible(variant) is None]
    if not possible:
        raise _error(f"{path}.pattern", f"this hand can never be made: {_possible(variants[0])}")
    return CardHand(
        id=hand_id,
        family=family,
        pattern=" ".join(group.text for group in groups),
        groups=groups,
        numbers=numbers,
        winds=winds,
        concealed=xc == "C",
        value=value,
        singles_and_pairs=singles_and_pairs,
        note=note,
        variants=tuple(possible),
    )


def load_card(data: Any) -> Card:
    """Validate a card file's JSON (already decoded, or as text) and build a :class:`Card`."""
    if isinstance(data, str | bytes):
        if len(data) > MAX_CARD_BYTES:
            raise HandInputError(
                f"the card file has {len(data):,} bytes; at most {MAX_CARD_BYTES:,} are accepted",
                code="bad_card",
            )
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as error:
            raise HandInputError(f"the card file is not valid JSON: {error}", code="bad_card") from None
    if not isinstance(data, Mapping):
        raise HandInputError(
            "a card must be a JSON object with format, id, year and families", code="bad_card"
        )
    if data.get("format") != CARD_FORMAT:
        raise _error("format", f"must be {CARD_FORMAT!r}, not {_shown(data.get('format'))}")
    card_id = _string(data, "id", "")
    if not _ID_RE.match(card_id):
        raise _error("id", f"{card_id!r} must be letters, digits, '.', '_' or '-' (at most 64)")
    if "year" not in data:
        raise _error("year", "missing field")
    year = _integer(data["year"], "year", low=1937, high=2999)
    name = _string(data, "name", "", required=False, default=card_id)
    notice = _string(data, "notice", "", required=False)
    sample = data.get("sample", False)
    if not isinstance(sample, bool):
        raise _error("sample", f"must be true or false, not {_shown(sample)}")
    families_data = data.get("families")
    if not isinstance(families_data, list) or not families_data:
        raise _error("families", "must be a non-empty list of families")
    if len(families_data) > MAX_FAMILIES:
        raise _error("families", f"has {len(families_data)} families; at most {MAX_FAMILIES} are accepted")
    hand_count = 0
    seen: set[str] = set()
    families = []
    for f_index, family_data in enumerate(families_data):
        path = f"families[{f_index}]"
        if not isinstance(family_data, Mapping):
            raise _error(path, "must be an object with name and hands")
        family_name = _string(family_data, "name", path)
        family_sp = _boolean(family_data, "singles_and_pairs", path, False)
        hands_data = family_data.get("hands")
        if not isinstance(hands_data, list) or not hands_data:
            raise _error(f"{path}.hands", "must be a non-empty list of hands")
        if len(hands_data) > MAX_HANDS_PER_FAMILY:
            raise _error(
                f"{path}.hands", f"has {len(hands_data)} hands; at most {MAX_HANDS_PER_FAMILY} are accepted"
            )
        hand_count += len(hands_data)
        if hand_count > MAX_CARD_HANDS:
            raise _error(f"{path}.hands", f"the card has more than {MAX_CARD_HANDS} hands in all")
        hands = tuple(
            load_hand(hand_data, family_name, family_sp, f"{path}.hands[{h_index}]", seen)
            for h_index, hand_data in enumerate(hands_data)
        )
        families.append(Family(name=family_name, hands=hands))
    return Card(id=card_id, year=year, name=name, sample=sample, notice=notice, families=tuple(families))


def load_card_file(path: str | Path) -> Card:
    """Read and validate a card file from disk."""
    return load_card(Path(path).read_text(encoding="utf-8"))


def load_sample_cards() -> dict[str, Card]:
    """The made-up sample cards shipped in ``scoring/rules/nmjl/cards/``, by card id."""
    cards: dict[str, Card] = {}
    for path in sorted(CARDS_DIR.glob("*.json")):
        card = load_card_file(path)
        cards[card.id] = card
    return cards


#: Rule 24: the card is issued on or about April 1 and used until the end of March of the next year.
CARD_MONTH = 4


def card_year(day: datetime.date) -> int:
    """Rule 24: the year of the card in use on ``day`` (the 2007 card serves April 2007 to March 2008)."""
    return day.year if day.month >= CARD_MONTH else day.year - 1


def card_for(cards: Iterable[Card], day: datetime.date) -> Card | None:
    """The card for the year in play on ``day`` (rule 24), preferring a real card to a made-up sample."""
    year = card_year(day)
    fitting = [card for card in cards if card.year == year]
    fitting.sort(key=lambda card: (card.sample, card.id))
    return fitting[0] if fitting else None
