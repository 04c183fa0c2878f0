"""MCR (Chinese Official) fan calculator: from a hand's tiles to an explained score.

Rules as Sloper's *The Red Dragon & The West Wind* states them (``shared/seeds/003_2541481d343502a5.txt``):
rule 23 (complete hands, line 2172), rule 24 (8-point minimum without flowers, line 2179), rule 64
(scoring principles, line 2295), rule 95 (the 81 fans, lines 2415-2870) and section B's explanations
(lines 3210-4100). Where the book and the 1998 Chinese code differ the book governs; see
``docs/mcr-book-vs-1998-code.md``.

Entry points: :func:`score_request` (the ``score_hands`` JSON contract of
``shared/specs/scoring-json.md``) and :func:`calculate` (a parsed :class:`~scoring.rules.tiles.Hand`
to a :class:`FanResult` with every fan, its points, and the sets it used). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.rules.errors import HandInputError, Text, gettext_noop
from scoring.rules.limits import check_request
from scoring.rules.mcr.decompose import (
    CHOW,
    HONORS_AND_KNITTED,
    KIND_NAMES,
    KNIT,
    KNITTED_STRAIGHT,
    KONG,
    PAIR,
    PUNG,
    REGULAR,
    SEVEN_PAIRS,
    SINGLE,
    THIRTEEN_ORPHANS,
    SetTuple,
    honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rests,
    regular_splits,
    set_tiles,
    waits_only_for,
)
from scoring.rules.mcr.fan_patterns import chow_options, pung_options
from scoring.rules.mcr.fan_table import FAN_NUMBER, FAN_POINTS, FANS, FanDefinition, drop_excluded
from scoring.rules.tiles import WIND_TILE_BY_LETTER, Hand, parse_hand, tile_code

__all__ = [
    "FANS",
    "MCR_FANS",
    "FanDefinition",
    "FanResult",
    "FanScore",
    "Reading",
    "ReadingSet",
    "calculate",
    "parse_request",
    "score_request",
]

# The 81 fans in book order as (name, points) pairs: rule 95, lines 2417-2860.
MCR_FANS: tuple[tuple[str, int], ...] = tuple((fan.name, fan.points) for fan in FANS)

MINIMUM_POINTS = 8  # rule 24, line 2179
FLOWER_TILES = "Flower Tiles"

_FIELDS = frozenset(
    {
        "concealed",
        "melds",
        "win_tile",
        "self_drawn",
        "last_of_kind",
        "kong_related",
        "last_wall_tile",
        "seat_wind",
        "prevalent_wind",
        "flowers",
    }
)

_GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 bamboo, Green Dragon (rule 95 no. 3)
_REVERSIBLE = frozenset({19, 21, 22, 23, 25, 26, 9, 10, 11, 12, 13, 16, 17, 31})  # no. 40, line 2646


class FanScore(NamedTuple):
    """One fan of the answer: its name, the points it earns (summed when counted more than once),
    how many times it counts, and the sets (or tiles, or circumstances) it uses."""

    name: str
    points: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count (it shadows it, on purpose)
    sets: str


@dataclass(frozen=True, slots=True)
class ReadingSet:
    """A set of the chosen reading: chow, pung, kong, pair, knitted run (1-4-7 ...) or single tile."""

    kind: str
    tiles: tuple[int, ...]
    declared: bool = False
    exposed: bool = False

    def describe(self) -> str:
        text = describe_tiles(self.tiles)
        if self.kind == "kong" and self.declared and not self.exposed:
            return f"{text} (concealed kong)"
        if self.exposed:
            return f"{text} (melded)"
        return text


@dataclass(frozen=True, slots=True)
class Reading:
    """How the hand was read: its shape (rule 23), its sets, and the set the winning tile completed."""

    shape: str
    sets: tuple[ReadingSet, ...]
    win_set: int | None

    def describe(self) -> str:
        parts = [s.describe() for s in self.sets]
        if self.win_set is not None:
            parts[self.win_set] += " [winning tile]"
        return f"{self.shape}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class FanResult:
    """The score of a hand: ``total`` includes flowers, ``meets_minimum`` is rule 24 (8+ without);
    ``notes``: why a fan the caller flagged was not given (Last Tile against the tiles, no. 58)."""

    total: int
    fans: tuple[FanScore, ...]
    meets_minimum: bool
    reading: Reading
    notes: tuple[Text, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The result object of ``shared/specs/scoring-json.md`` (MCR result)."""
        return {
            "total": self.total,
            "fans": {fan.name: fan.points for fan in self.fans},
            "meets_minimum": self.meets_minimum,
        }


def describe_tiles(tiles: Iterable[int]) -> str:
    """Compact text such as ``123m`` or ``55z`` (tiles grouped by suit in the given order)."""
    out: list[str] = []
    digits = ""
    suit = ""
    for tile in tiles:
        code = tile_code(tile)
        if code[1] != suit and digits:
            out.append(digits + suit)
            digits = ""
        digits += code[0]
        suit = code[1]
    if digits:
        out.append(digits + suit)
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Input


def parse_request(data: Any) -> Hand:
    """The spec's JSON object to a :class:`Hand`: input limits first (``scoring.rules.limits``), then
    unknown fields, tile codes, melds and copies. Raises :class:`HandInputError`."""
    check_request(data)
    if isinstance(data, Mapping):
        unknown = sorted(str(key) for key in data if key not in _FIELDS)
        if unknown:
            raise HandInputError(
                gettext_noop("unknown field %(unknown)r (MCR hands take: %(fields)s)"),
                code="unknown_field",
                unknown=unknown[0],
                fields=", ".join(sorted(_FIELDS)),
            )
    return parse_hand(data)


def score_request(data: Any) -> dict[str, Any]:
    """Score one hand given as the spec's JSON object; return the spec's MCR result dict.

    Raises :class:`HandInputError` (with a plain message and a ``code``) for any input it cannot score.
    """
    hand = parse_request(data)
    total, fans, meets_minimum, _reading, _notes = _score(hand)
    return {
        "total": total,
        "fans": {name: FAN_POINTS[name] * len(where) for name, where in fans},
        "meets_minimum": meets_minimum,
    }


def _normalise(hand: Hand) -> tuple[list[int], int]:
    """Check the tile count and return the concealed tiles without the winning tile, and the win tile.

    ``concealed`` holds 13 tiles less 3 per declared set, without the winning tile (the spec). One more
    is accepted as the same tiles given with the winning tile among them; then the winning tile must be
    one of them ("a winning tile not in the hand"). Kong flags are checked against the tiles: out on a
    replacement tile needs a kong; a robbed kong leaves no other copy of the winning tile for the hand.
    """
    if hand.win_tile is None:
        raise HandInputError(gettext_noop("missing field 'win_tile'"), code="missing_field")
    if len(hand.melds) > 4:
        raise HandInputError(
            gettext_noop("a hand has at most 4 declared sets, not %(count)s"),
            code="too_many_melds",
            count=len(hand.melds),
        )
    win = hand.win_tile
    concealed = list(hand.concealed)
    expected = 13 - 3 * len(hand.melds)
    if len(concealed) == expected + 1:
        # The concealed tiles were given with the winning tile among them.
        if win not in concealed:
            raise HandInputError(
                gettext_noop("the winning tile %(win)s is not in the hand"),
                code="win_tile_not_in_hand",
                win=tile_code(win),
            )
        concealed.remove(win)
    elif len(concealed) != expected:
        melds = len(hand.melds)
        template = (
            gettext_noop(
                "wrong tile count: with %(melds)s declared set the hand needs %(expected)s concealed "
                "tiles plus the winning tile, but 'concealed' has %(count)s"
            )
            if melds == 1
            else gettext_noop(
                "wrong tile count: with %(melds)s declared sets the hand needs %(expected)s concealed "
                "tiles plus the winning tile, but 'concealed' has %(count)s"
            )
        )
        raise HandInputError(
            template, code="tile_count", melds=melds, expected=expected, count=len(concealed)
        )
    if hand.kong_related and hand.self_drawn and not any(meld.kind == "kong" for meld in hand.melds):
        raise HandInputError(
            gettext_noop(
                "kong_related with self_drawn means out on a kong replacement tile, but the hand has no kong"
            ),
            code="no_kong",
        )
    if hand.kong_related and not hand.self_drawn:
        held = concealed.count(win) + sum(meld.tiles.count(win) for meld in hand.melds)
        if held:
            raise HandInputError(
                gettext_noop(
                    "robbing the kong: the other player's kong holds the other three %(win)s, so the "
                    "hand cannot hold another"
                ),
                code="impossible_robbing",
                win=tile_code(win),
            )
    return concealed, win


# ---------------------------------------------------------------------------------------------
# Facts about the hand that do not depend on the reading


class _Context:
    """Everything about the hand that every reading shares: tiles, melds, flags, tile-level fans."""

    def __init__(self, hand: Hand, concealed: list[int], win: int) -> None:
        self.hand = hand
        self.win = win
        self.concealed13 = [0] * 34
        for tile in concealed:
            self.concealed13[tile] += 1
        self.concealed14 = list(self.concealed13)
        self.concealed14[win] += 1
        self.counts = list(self.concealed14)
        self.melds: list[SetTuple] = []
        for meld in hand.melds:
            kind = {"chow": CHOW, "pung": PUNG, "kong": KONG}[meld.kind]
            exposed = not meld.concealed
            self.melds.append((kind, meld.tiles[0], True, exposed))
            for tile in meld.tiles:
                self.counts[tile] += 1
        self.exposed = sum(1 for meld in self.melds if meld[3])
        self.discard = not hand.self_drawn
        self.seat_wind = WIND_TILE_BY_LETTER[hand.seat_wind]
        self.prevalent_wind = WIND_TILE_BY_LETTER[hand.prevalent_wind]
        self.kong_tiles = {meld[1] for meld in self.melds if meld[0] == KONG}
        self._unique: bool | None = None
        self.last_tile, last_tile_note = self._last_tile()
        self.notes: tuple[Text, ...] = (last_tile_note,) if last_tile_note else ()
        self.tile_fans = self._tile_fans()
        self.win_fans = self._win_fans()
        self.nine_gates = self._nine_gates()

    @property
    def unique_wait(self) -> bool:
        """The hand waited for one tile only (Edge, Closed and Single Wait, rule 95 nos. 77-79)."""
        if self._unique is None:
            held = list(self.counts)
            held[self.win] -= 1
            self._unique = waits_only_for(self.win, list(self.concealed13), len(self.melds), held)
        return self._unique

    def _tile_fans(self) -> list[tuple[str, str]]:
        """Fans decided by the tiles alone (rule 95 nos. 3, 8, 11, 18, 22, 25-27, 36, 37, 40, 50, 52,
        64, 68, 75, 76): (name, description)."""
        counts = self.counts
        present = [tile for tile in range(34) if counts[tile]]
        suits = {tile // 9 for tile in present if tile < 27}
        honours = [tile for tile in present if tile >= 27]
        suited = [tile for tile in present if tile < 27]
        ranks = {tile % 9 + 1 for tile in suited}
        fans: list[tuple[str, str]] = []
        whole = "whole hand"
        if set(present) <= _GREEN:
            fans.append(("All Green", whole))
        if set(present) <= _REVERSIBLE:
            fans.append(("Reversible Tiles", whole))
        if not honours:
            fans.append(("No Honors", whole))
            if len(suits) == 1:
                fans.append(("Full Flush", whole))
            if ranks <= {7, 8, 9}:
                fans.append(("Upper Tiles", whole))
            if ranks <= {4, 5, 6}:
                fans.append(("Middle Tiles", whole))
            if ranks <= {1, 2, 3}:
                fans.append(("Lower Tiles", whole))
            if ranks <= {6, 7, 8, 9}:
                fans.append(("Upper Four", whole))
            if ranks <= {1, 2, 3, 4}:
                fans.append(("Lower Four", whole))
            if ranks <= {2, 3, 4, 5, 6, 7, 8}:
                fans.append(("All Simples", whole))
        elif len(suits) == 1:
            fans.append(("Half Flush", whole))
        if not suited:
            fans.append(("All Honors", whole))
        if ranks <= {1, 9}:
            fans.append(("All Terminals and Honors", whole))
            if not honours:
                fans.append(("All Terminals", whole))
        if len(suits) == 2:
            fans.append(("One Voided Suit", whole))
        if len(suits) == 3 and any(t < 31 for t in honours) and any(t >= 31 for t in honours):
            fans.append(("All Types", whole))
        for tile in present:
            if counts[tile] == 4 and tile not in self.kong_tiles:
                fans.append(("Tile Hog", f"four {tile_code(tile)}"))
        return fans

    def _win_fans(self) -> list[tuple[str, str]]:
        """Fans for how the hand was won (rule 95 nos. 44-47, 56, 58, 62, 80)."""
        hand = self.hand
        fans: list[tuple[str, str]] = []
        won = f"winning tile {tile_code(self.win)}"
        if hand.self_drawn:
            fans.append(("Self-Drawn", won))
            if hand.last_wall_tile:
                fans.append(("Last Tile Draw", won))
            if hand.kong_related:
                fans.append(("Out with Replacement Tile", won))
            if self.exposed == 0:
                fans.append(("Fully Concealed Hand", "no melded sets, self-drawn"))
        else:
            if hand.last_wall_tile:
                fans.append(("Last Tile Claim", won))
            if hand.kong_related:
                fans.append(("Robbing the Kong", won))
            if self.exposed == 0:
                fans.append(("Concealed Hand", "no melded sets, won by discard"))
        if self.last_tile:
            fans.append(("Last Tile", won))
        return fans

    def _last_tile(self) -> tuple[bool, Text | None]:
        """Last Tile (no. 58, line 2742): "Winning on the 'case tile' (the last or fourth tile of its
        particular kind) when all players can plainly see that it's so". Decided from the winner's own
        tiles where they settle it, else from the caller's ``last_of_kind`` (discards and the others'
        melds are not in the hand):

        - another copy concealed in the winner's hand (or in a concealed kong): the others cannot see that
          the winning tile is the last, so the fan is not given, whatever the flag (with a note why);
        - the other three copies in the winner's own exposed melds: the winning tile is the fourth, in
          plain sight, so the fan is given, flagged or not;
        - otherwise the other copies are elsewhere on the table: the flag decides.
        """
        hidden = self.concealed13[self.win] + sum(
            meld.tiles.count(self.win) for meld in self.hand.melds if meld.concealed
        )
        shown = sum(meld.tiles.count(self.win) for meld in self.hand.melds if not meld.concealed)
        if hidden:
            if not self.hand.last_of_kind:
                return False, None
            return False, Text(
                gettext_noop(
                    "Last Tile (fan 58) not given: the winner holds another %(tile)s concealed, so the other "
                    "players cannot plainly see that %(tile)s was the last of its kind"
                ),
                tile=tile_code(self.win),
            )
        if shown == 3:
            return True, None
        return self.hand.last_of_kind, None

    def _nine_gates(self) -> bool:
        """1112345678999 concealed in one suit before the winning tile of that suit (no. 4, line 2437)."""
        if self.melds:
            return False
        base = self.win - self.win % 9
        if self.win >= 27 or sum(self.concealed13[base : base + 9]) != 13:
            return False
        return self.concealed13[base : base + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


# ---------------------------------------------------------------------------------------------
# Scoring one reading
#
# While readings are compared, each fan occurrence records where it comes from as a tuple of set
# indices into the reading (plus an optional note), or as plain text; only the chosen reading's
# occurrences are turned into text.

_Where = tuple[tuple[int, ...], str] | str
_Occurrences = dict[str, list[_Where]]
_RawReading = tuple[str, tuple[SetTuple, ...], int]


def _finish(candidates: _Occurrences) -> tuple[int, _Occurrences]:
    """Drop every fan that a present fan may not combine with (rule 95 item c, rule 64a); total."""
    allowed = drop_excluded(candidates)
    kept = {name: where for name, where in candidates.items() if name in allowed}
    return sum(FAN_POINTS[name] * len(where) for name, where in kept.items()), kept


def _base(ctx: _Context, shape: str) -> _Occurrences:
    fans: _Occurrences = {}
    for name, where in ctx.tile_fans:
        if shape == THIRTEEN_ORPHANS and name == "All Terminals and Honors":
            continue  # single tiles, not "pairs, pungs, or kongs" (no. 18, line 2522)
        fans.setdefault(name, []).append(where)
    for name, where in ctx.win_fans:
        fans.setdefault(name, []).append(where)
    return fans


def _is_outside(kind: int, tile: int) -> bool:
    if kind == CHOW:
        return tile % 9 in (0, 6)
    return tile >= 27 or tile % 9 in (0, 8)


def _has_five(kind: int, tile: int) -> bool:
    if tile >= 27:
        return False
    if kind == CHOW:
        return tile % 9 in (2, 3, 4)
    return tile % 9 == 4


def _score_sets(
    ctx: _Context, shape: str, sets: tuple[SetTuple, ...], win_index: int
) -> tuple[int, _Occurrences]:
    """Score a four-sets-and-a-pair (or knitted straight) reading; ``win_index`` is the set the winning
    tile completed, or -1 when it went into a knitted run. The pair is always ``sets[0]``."""
    fans = _base(ctx, shape)

    def add(name: str, indices: tuple[int, ...], note: str = "") -> None:
        fans.setdefault(name, []).append((indices, note))

    pair_tile = sets[0][1]
    chows: list[tuple[int, int]] = []
    pungs: list[tuple[int, int]] = []
    knits: list[int] = []
    concealed_pungs: list[int] = []
    for index, (kind, tile, declared, exposed) in enumerate(sets):
        if kind == CHOW:
            chows.append((tile, index))
        elif kind == KNIT:
            knits.append(index)
        elif kind != PAIR:
            pungs.append((tile, index))
            # A pung is made the hard way unless melded, or completed by a discarded winning tile.
            if not exposed and (declared or not ctx.discard or index != win_index):
                concealed_pungs.append(index)
    everything = tuple(range(len(sets)))

    # Whole-hand structure (rule 95 nos. 21, 31, 35, 49, 53, 55, 63; Nine Gates no. 4).
    if len(pungs) == 4:
        add("All Pungs", everything)
        if all(tile < 27 and tile % 9 % 2 == 1 for tile in (pair_tile, *(t for t, _i in pungs))):
            add("All Even Pungs", everything)
    if not pungs and pair_tile < 27:
        add("All Chows", everything)
    if knits:
        add("Knitted Straight", tuple(knits))
    else:
        if all(_is_outside(kind, tile) for kind, tile, _d, _e in sets):
            add("Outside Hand", everything)
        if all(_has_five(kind, tile) for kind, tile, _d, _e in sets):
            add("All Fives", everything)
    if shape == REGULAR and ctx.nine_gates:
        add("Nine Gates", everything)
    if ctx.exposed == 4 and ctx.discard:
        add("Melded Hand", everything)

    # Honour pungs (rule 95 nos. 1, 2, 9, 10, 38, 54, 59-61, 73).
    if any(tile >= 27 for tile, _i in pungs):
        winds = tuple(index for tile, index in pungs if 27 <= tile <= 30)
        dragons = tuple(index for tile, index in pungs if tile >= 31)
        if len(winds) == 4:
            add("Big Four Winds", winds)
        elif len(winds) == 3:
            if 27 <= pair_tile <= 30:
                add("Little Four Winds", (*winds, 0))
            else:
                add("Big Three Winds", winds)
        if len(dragons) == 3:
            add("Big Three Dragons", dragons)
        elif len(dragons) == 2:
            if pair_tile >= 31:
                add("Little Three Dragons", (*dragons, 0))
            else:
                add("Two Dragons", dragons)
        for tile, index in pungs:
            if tile >= 31:
                add("Dragon Pung", (index,))
            elif tile >= 27:
                if tile == ctx.prevalent_wind:
                    add("Prevalent Wind", (index,))
                if tile == ctx.seat_wind:
                    add("Seat Wind", (index,))
                # Three wind pungs of Big Three Winds / Little Four Winds imply this fan (rule 64a).
                if len(winds) != 3:
                    add("Pung of Terminals or Honors", (index,))
            elif tile % 9 in (0, 8):
                add("Pung of Terminals or Honors", (index,))
    else:
        for tile, index in pungs:
            if tile % 9 in (0, 8):
                add("Pung of Terminals or Honors", (index,))

    # Kongs (rule 95 nos. 5, 17, 48, 57, 67, 74, counted as the notes at lines 3300 and 3412 count them)
    # and pungs made the hard way (nos. 12, 33, 66).
    if ctx.melds:
        kongs = tuple(index for index, s in enumerate(sets) if s[0] == KONG)
        concealed_kongs = tuple(index for index in kongs if not sets[index][3])
        melded = len(kongs) - len(concealed_kongs)
        if len(kongs) == 4:
            add("Four Kongs", kongs)
        elif len(kongs) == 3:
            add("Three Kongs", kongs)
        elif len(kongs) == 2 and melded:
            add("Two Melded Kongs", kongs)
        elif len(kongs) == 1 and melded:
            add("Melded Kong", kongs)
        if len(concealed_kongs) == 1:
            add("Concealed Kong", concealed_kongs)
        elif len(concealed_kongs) == 2:
            add("Two Concealed Kongs", concealed_kongs)
    if len(concealed_pungs) >= 2:
        name = ("Two Concealed Pungs", "Three Concealed Pungs", "Four Concealed Pungs")[
            len(concealed_pungs) - 2
        ]
        add(name, tuple(concealed_pungs))

    # Waits (rule 95 nos. 77-79): only when the hand waited for this one tile.
    if win_index >= 0:
        kind, tile = sets[win_index][0], sets[win_index][1]
        wait = None
        if kind == PAIR:
            wait = "Single Wait"
        elif kind == CHOW:
            if ctx.win == tile + 1:
                wait = "Closed Wait"
            elif (tile % 9 == 0 and ctx.win == tile + 2) or (tile % 9 == 6 and ctx.win == tile):
                wait = "Edge Wait"
        if wait and ctx.unique_wait:
            add(wait, (win_index,), f"waiting for {tile_code(ctx.win)} only")

    # Chow and pung patterns (rule 64 b, c, e): try each way to claim them.
    chows.sort()
    suited_pungs = sorted((tile, index) for tile, index in pungs if tile < 27)
    chow_choices = chow_options(tuple(tile for tile, _i in chows), pair_tile) if len(chows) > 1 else ((),)
    pung_choices = pung_options(tuple(tile for tile, _i in suited_pungs)) if len(suited_pungs) > 1 else ((),)
    if len(chow_choices) == 1 and len(pung_choices) == 1:
        for option, members in ((chow_choices[0], chows), (pung_choices[0], suited_pungs)):
            for name, indices in option:
                add(name, tuple(members[i][1] for i in indices))
        return _finish(fans)
    best_total = -1
    best_fans: _Occurrences = {}
    for chow_option in chow_choices:
        for pung_option in pung_choices:
            candidate = {name: list(where) for name, where in fans.items()}
            for option, members in ((chow_option, chows), (pung_option, suited_pungs)):
                for name, indices in option:
                    used = tuple(members[i][1] for i in indices)
                    if name in ("Pure Terminal Chows", "Three-Suited Terminal Chows"):
                        used = (*used, 0)
                    candidate.setdefault(name, []).append((used, ""))
            total, kept = _finish(candidate)
            if total > best_total:
                best_total, best_fans = total, kept
    return best_total, best_fans


def _score_special(ctx: _Context, shape: str, extra: Iterable[str]) -> tuple[int, _Occurrences]:
    fans = _base(ctx, shape)
    for name in extra:
        fans.setdefault(name, []).append("whole hand")
    if shape == SEVEN_PAIRS and ("All Green" in fans or "All Terminals" in fans):
        # "When combined with Seven Pairs, Tile Hog may not be added" (nos. 3 and 8, lines 2433, 2462).
        fans.pop("Tile Hog", None)
    return _finish(fans)


# ---------------------------------------------------------------------------------------------
# All readings


def _readings(ctx: _Context) -> Iterable[tuple[str, tuple[SetTuple, ...], int]]:
    """Every reading of the hand as (shape, sets, index of the set the winning tile completed)."""
    win = ctx.win
    concealed = list(ctx.concealed14)
    melds = tuple(ctx.melds)
    for split in regular_splits(concealed):
        yield from _placements(REGULAR, (*split[:1], *melds, *split[1:]), win, melds)
    if len(melds) <= 1:
        for runs, rest in knitted_straight_rests(concealed):
            knits = tuple((KNIT, run, False, False) for run in runs)
            for split in regular_splits(rest):
                sets = (*split[:1], *melds, *split[1:], *knits)
                in_knit = any(win in set_tiles(KNIT, run) for run in runs)
                yield from _placements(KNITTED_STRAIGHT, sets, win, melds, in_knit)
    if not melds:
        if is_seven_pairs(concealed):
            pairs = tuple(
                (PAIR, tile, False, False) for tile in range(34) for _ in range(concealed[tile] // 2)
            )
            yield SEVEN_PAIRS, pairs, -1
        if is_thirteen_orphans(concealed):
            yield THIRTEEN_ORPHANS, _singles(concealed), -1
        if honors_and_knitted(concealed) is not None:
            yield HONORS_AND_KNITTED, _singles(concealed), -1


def _singles(counts: list[int]) -> tuple[SetTuple, ...]:
    out: list[SetTuple] = []
    for tile in range(34):
        if counts[tile] == 2:
            out.append((PAIR, tile, False, False))
        elif counts[tile] == 1:
            out.append((SINGLE, tile, False, False))
    return tuple(out)


def _placements(
    shape: str, sets: tuple[SetTuple, ...], win: int, melds: tuple[SetTuple, ...], in_knit: bool = False
) -> Iterable[tuple[str, tuple[SetTuple, ...], int]]:
    """The reading once for each different concealed set the winning tile may have completed."""
    seen: set[tuple[int, int]] = set()
    for index, (kind, tile, declared, _exposed) in enumerate(sets):
        if declared or kind == KNIT:
            continue
        if win in set_tiles(kind, tile) and (kind, tile) not in seen:
            seen.add((kind, tile))
            yield shape, sets, index
    if in_knit:
        yield shape, sets, -1


def _evaluate(ctx: _Context) -> tuple[int, _Occurrences, _RawReading]:
    best: tuple[int, _Occurrences, _RawReading] | None = None
    for reading in _readings(ctx):
        shape, sets, win_index = reading
        if shape in (REGULAR, KNITTED_STRAIGHT):
            total, fans = _score_sets(ctx, shape, sets, win_index)
        elif shape == SEVEN_PAIRS:
            seven = "Seven Pairs"
            base = ctx.concealed14
            present = [tile for tile in range(34) if base[tile]]
            if (
                len(present) == 7
                and present[0] < 27
                and present[6] - present[0] == 6
                and present[0] // 9 == present[6] // 9
            ):
                seven = "Seven Shifted Pairs"
                total, fans = _score_special(ctx, shape, (seven, "Seven Pairs"))
            else:
                total, fans = _score_special(ctx, shape, (seven,))
        elif shape == THIRTEEN_ORPHANS:
            total, fans = _score_special(ctx, shape, ("Thirteen Orphans",))
        else:
            honours = sum(ctx.concealed14[27:34])
            extra = (
                ["Greater Honors and Knitted Tiles"] if honours == 7 else ["Lesser Honors and Knitted Tiles"]
            )
            if honours == 5:
                extra.append("Knitted Straight")
            total, fans = _score_special(ctx, shape, extra)
        if best is None or total > best[0]:
            best = (total, fans, reading)
    if best is None:
        raise HandInputError(
            gettext_noop(
                "the tiles do not make a complete hand (four sets and a pair, seven pairs, "
                "thirteen orphans, or a knitted hand)"
            ),
            code="incomplete_hand",
        )
    return best


def _reading_object(reading: _RawReading) -> Reading:
    shape, sets, win_index = reading
    return Reading(
        shape=shape,
        sets=tuple(
            ReadingSet(KIND_NAMES[kind], set_tiles(kind, tile), declared, exposed)
            for kind, tile, declared, exposed in sets
        ),
        win_set=win_index if win_index >= 0 else None,
    )


def _score(
    hand: Hand,
) -> tuple[int, list[tuple[str, list[_Where]]], bool, _RawReading, tuple[Text, ...]]:
    concealed, win = _normalise(hand)
    ctx = _Context(hand, concealed, win)
    total, fans, reading = _evaluate(ctx)
    if total == 0:
        fans = {"Chicken Hand": ["whole hand: no other fan"]}
        total = FAN_POINTS["Chicken Hand"]
    meets_minimum = total >= MINIMUM_POINTS
    if hand.flowers:
        plural = "s" if hand.flowers > 1 else ""
        fans = {**fans, FLOWER_TILES: [f"{hand.flowers} flower{plural}"] * hand.flowers}
        total += hand.flowers
    ordered = sorted(fans.items(), key=lambda item: FAN_NUMBER[item[0]])
    return total, ordered, meets_minimum, reading, ctx.notes


def calculate(hand: Hand) -> FanResult:
    """Score a parsed hand: the reading worth most under rule 64 (freedom of choice, line 2298).

    Chicken Hand (no. 43, line 2659) is given when no reading earns even one point; flowers (no. 81)
    are added to the total but not to the rule-24 minimum. Raises :class:`HandInputError` for a hand
    with a wrong tile count, a winning tile not in it, or tiles that do not make a complete hand.
    """
    total, fans, meets_minimum, reading, notes = _score(hand)
    chosen = _reading_object(reading)
    texts = [s.describe() for s in chosen.sets]
    scores = tuple(
        FanScore(
            name,
            FAN_POINTS[name] * len(where),
            len(where),
            _render(where[0], texts)
            if name == FLOWER_TILES
            else "; ".join(_render(item, texts) for item in where),
        )
        for name, where in fans
    )
    return FanResult(total=total, fans=scores, meets_minimum=meets_minimum, reading=chosen, notes=notes)


def _render(where: _Where, texts: list[str]) -> str:
    if isinstance(where, str):
        return where
    indices, note = where
    text = " ".join(texts[index] for index in indices)
    return f"{text} ({note})" if note else text
