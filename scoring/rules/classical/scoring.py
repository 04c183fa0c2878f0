"""Score one hand, winning or losing, by a classical 1920s rule book.

The count follows Babcock's Standard Score Sheet (``000_...txt`` lines 477-540) and the Chinese book's
score table (``004_...txt`` lines 126-201); :mod:`.rulesets` holds where the books differ. A hand is
scored as points, then doubled once per doubling combination, then cut to the limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.rules.classical import shapes
from scoring.rules.classical.rulesets import SPECIAL_HANDS, Table, table_for
from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.tiles import (
    DRAGON_TILES,
    HONOUR_NAMES,
    SUIT_NAMES,
    WIND_TILE_BY_LETTER,
    WIND_TILES,
    WINDS,
    Hand,
    is_honour,
    is_terminal_or_honour,
    rank_of,
    suit_of,
)

RANK_WORDS = ("", "ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines")
COUNT_WORDS = {"pung": "three", "kong": "four"}
FLOWER_CODES = tuple(f"{series}{number}" for series in "fs" for number in range(1, 5))


@dataclass(frozen=True, slots=True)
class ClassicalScore:
    """A scored hand: ``points`` before doubling, ``doubles`` applied, ``total`` after the limit."""

    points: int
    doubles: int
    total: int
    items: tuple[str, ...]
    winner: bool
    limit_hand: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "doubles": self.doubles,
            "total": self.total,
            "items": list(self.items),
        }


@dataclass(frozen=True, slots=True)
class _Set:
    kind: str  # pair, chow, pung, kong
    tile: int
    concealed: bool

    def tiles(self) -> list[int]:
        if self.kind == "chow":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * {"pair": 2, "pung": 3, "kong": 4}[self.kind]


@dataclass(slots=True)
class _Count:
    points: list[tuple[str, int]] = field(default_factory=list)
    doubles: list[tuple[str, int]] = field(default_factory=list)
    limit_hand: tuple[str, int] | None = None

    def total_points(self) -> int:
        return sum(points for _, points in self.points)

    def total_doubles(self) -> int:
        return sum(times for _, times in self.doubles)


def _tile_plural(tile: int) -> str:
    if is_honour(tile):
        name = HONOUR_NAMES[tile - 27]
        return f"{name}s" if tile >= 31 else f"{name} Winds"
    return f"{RANK_WORDS[rank_of(tile)]} of {SUIT_NAMES[suit_of(tile)]}"


def _set_label(item: _Set) -> str:
    hidden = "concealed" if item.concealed else "exposed"
    return f"For {COUNT_WORDS[item.kind]} {_tile_plural(item.tile)}, {hidden}"


def set_points(kind: str, tile: int, concealed: bool, table: Table) -> int:
    """Points of a pung or kong: Babcock lines 479-499; the Chinese book lines 131-152 agree.

    Foster's reformed count (question 14, line 123) makes every exposed pung 1.
    """
    if kind not in ("pung", "kong"):
        return 0
    simple = 1 if table.reformed_count else 2
    points = simple if table.reformed_count or not is_terminal_or_honour(tile) else 2 * simple
    if kind == "kong":
        points *= 4
    if concealed:
        points *= 2
    return points


def _pair_items(tile: int, table: Table, seat: int, round_tile: int) -> list[tuple[str, int]]:
    """A pair of any Dragon or of the player's own Wind scores 2 (Babcock lines 487, 500)."""
    if table.reformed_count:
        if tile == seat == round_tile:
            return [("For a pair of the player's own Wind, which dominates", 1)]
        return []
    items = []
    if tile in DRAGON_TILES:
        items.append((f"For a pair of {_tile_plural(tile)}", 2))
    if tile == seat:
        items.append(("For a pair of the player's own Wind", 2))
    if table.round_wind and table.round_wind_pair and tile == round_tile:
        items.append(("For a pair of the Wind of the Round", table.round_wind_pair))
    return items


def _flower_doubles(flowers: Sequence[str], seat_letter: str, table: Table) -> list[tuple[str, int]]:
    """Own Seasons and complete series (Babcock lines 1294-1305; the Chinese book line 183)."""
    own = str(WINDS.index(seat_letter) + 1)
    doubles = []
    complete = [series for series in "fs" if all(f"{series}{n}" in flowers for n in range(1, 5))]
    for series in complete:
        if table.bouquet_doubles:
            name = "Flowers" if series == "f" else "Seasons"
            doubles.append((f"all four {name} of one colour", table.bouquet_doubles))
    own_held = [code for code in flowers if code[1] == own and code[0] not in complete]
    if table.own_flower == "single" and own_held:
        doubles.append(
            (
                "one of the player's own Seasons"
                if len(own_held) == 1
                else "both of the player's own Seasons",
                len(own_held),
            )
        )
    elif table.own_flower == "pair_only" and len(own_held) == 2:
        doubles.append(("both of the player's own Seasons", 1))
    return doubles


def _times_word(times: int) -> str:
    return {1: "", 2: " twice", 3: " three times"}.get(times, f" {times} times")


@dataclass(frozen=True, slots=True)
class _Situation:
    table: Table
    winner: bool
    seat_letter: str
    seat: int
    round_tile: int
    flowers: tuple[str, ...]
    flower_count: int
    drawn: bool
    loose_tile: bool
    robbing_kong: bool
    last_tile: bool
    special: str | None


def _count_sets(sets: list[_Set], situation: _Situation, count: _Count) -> None:
    table = situation.table
    for item in sets:
        if item.kind in ("pung", "kong"):
            count.points.append((_set_label(item), set_points(item.kind, item.tile, item.concealed, table)))
        elif item.kind == "pair":
            count.points.extend(_pair_items(item.tile, table, situation.seat, situation.round_tile))


def _honour_doubles(sets: list[_Set], situation: _Situation, count: _Count) -> None:
    """Three or four of a Dragon, of the own Wind, of the Wind of the Round (Babcock lines 515-524)."""
    for item in sets:
        if item.kind not in ("pung", "kong"):
            continue
        many = COUNT_WORDS[item.kind]
        if item.tile in DRAGON_TILES:
            count.doubles.append((f"Doubled for {many} {_tile_plural(item.tile)}", 1))
        if item.tile == situation.seat:
            count.doubles.append((f"Doubled for {many} of the player's own Wind", 1))
        if situation.table.round_wind and item.tile == situation.round_tile:
            count.doubles.append((f"Doubled for {many} of the Wind of the Round", 1))


def _suit_doubles(tiles: list[int], situation: _Situation, count: _Count) -> None:
    table = situation.table
    if not (situation.winner or table.one_suit_for_losers):
        return
    suits = {suit_of(tile) for tile in tiles if not is_honour(tile)}
    honours = any(is_honour(tile) for tile in tiles)
    if not suits:
        if table.all_honours_doubles and not (situation.winner and "all_honours" in table.limit_hands):
            count.doubles.append(
                ("Doubled three times for a hand entirely of Honour Tiles", table.all_honours_doubles)
            )
    elif len(suits) == 1 and honours:
        count.doubles.append(("Doubled for a hand all of one suit except for Honour Tiles", 1))
    elif len(suits) == 1:
        count.doubles.append(("Doubled three times for a hand entirely of one suit", 3))


def _flower_count(situation: _Situation, count: _Count) -> None:
    number = situation.flower_count
    if number:
        each = situation.table.flower_points
        count.points.append((f"For {number} Season{'s' if number > 1 else ''}, {each} each", number * each))
    for label, times in _flower_doubles(situation.flowers, situation.seat_letter, situation.table):
        count.doubles.append((f"Doubled{_times_word(times)} for {label}", times))


def _bonus(count: _Count, table: Table, name: str, label: str) -> None:
    """A 10-point bonus, or a double where the table takes it as one (Babcock line 947)."""
    if name in table.bonus_doubles:
        count.doubles.append((f"Doubled for {label}", 1))
    else:
        count.points.append((f"For {label}", 10))


def _limit_hand(sets: list[_Set], tiles: list[int], situation: _Situation, hand: Hand) -> str | None:
    table = situation.table
    enabled = table.limit_hands
    scoring_sets = [item for item in sets if item.kind in ("pung", "kong")]
    dragons = {item.tile for item in scoring_sets if item.tile in DRAGON_TILES}
    winds = {item.tile for item in scoring_sets if item.tile in WIND_TILES}
    pair = next((item.tile for item in sets if item.kind == "pair"), None)
    if "three_dragons" in enabled and len(dragons) == 3:
        return "three sets of Dragons"
    if "all_winds" in enabled and len(winds) == 4:
        return "all the Winds"
    if "four_winds" in enabled and (
        len(winds) == 4 or (len(winds) == 3 and situation.seat in winds and pair in WIND_TILES)
    ):
        return "Four Wind Hand"
    if "all_honours" in enabled and all(is_honour(tile) for tile in tiles):
        return "hand entirely of Honour Tiles"
    if "terminals_honours" in enabled and all(is_terminal_or_honour(tile) for tile in tiles):
        return "no tiles other than ones, nines and Honour Tiles"
    if "four_kongs" in enabled and sum(item.kind == "kong" for item in sets) == 4:
        return "four sets of fours"
    concealed_sets = sum(item.kind in ("pung", "kong") and item.concealed for item in sets)
    if (
        "four_concealed_pungs" in enabled
        and concealed_sets == 4
        and (situation.drawn or not table.four_concealed_drawn_only)
    ):
        return "four concealed sets of three"
    if "nine_gates" in enabled and not hand.melds and shapes.is_nine_gates(_counts(tiles)):
        return "The Nine Gates"
    return None


def _counts(tiles: Sequence[int]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


def _shape_only_place(group: _Set, win: int) -> bool:
    """The Chinese way: the second to a pair, the middle of a run or a run open at one end (line 1047)."""
    if group.kind == "pair":
        return True
    if group.kind != "chow":
        return False
    if win == group.tile + 1:
        return True
    return (win == group.tile + 2 and rank_of(group.tile) == 1) or (
        win == group.tile and rank_of(group.tile) == 7
    )


def _finish(count: _Count, situation: _Situation) -> ClassicalScore:
    limit = situation.table.limit
    points = count.total_points()
    doubles = count.total_doubles()
    raw = points * 2**doubles
    items = [f"{label} {value}" for label, value in count.points]
    items += [label for label, _ in count.doubles]
    total = raw
    limit_name = None
    if count.limit_hand is not None and limit is not None:
        limit_name, total = count.limit_hand
        items.append(f"Limit hand: {limit_name} {total}")
    elif limit is not None and raw > limit:
        total = limit
        items.append(f"Limited to {limit}")
    return ClassicalScore(
        points=points,
        doubles=doubles,
        total=total,
        items=tuple(items),
        winner=situation.winner,
        limit_hand=limit_name,
    )


def _better(new: ClassicalScore, old: ClassicalScore | None) -> bool:
    if old is None:
        return True
    return (new.total, new.points * 2**new.doubles, new.points) > (
        old.total,
        old.points * 2**old.doubles,
        old.points,
    )


def _special_limit(situation: _Situation) -> tuple[str, int] | None:
    """Babcock lines 528-538; the Chinese book lines 174-175."""
    limit = situation.table.limit
    if situation.special is None or limit is None:
        return None
    if situation.special == "heaven":
        return ("The Hand from Heaven", limit)
    if situation.special == "earth":
        full = situation.table.earth_full_limit
        return ("The Hand from Earth", limit if full else limit // 2)
    return ("The Lucky Thirteen", limit // 3)


def _score_winner(hand: Hand, situation: _Situation, only_place_override: bool | None) -> ClassicalScore:
    table = situation.table
    assert hand.win_tile is not None
    win = hand.win_tile
    declared = [_Set(meld.kind, meld.tiles[0], meld.concealed) for meld in hand.melds]
    sets_needed = 4 - len(declared)
    concealed = list(hand.concealed)
    counts14 = _counts([*concealed, win])
    counts13 = _counts(concealed)
    seven = "seven_twins" in table.limit_hands
    orphans = "thirteen_orphans" in table.limit_hands
    all_tiles = hand.all_tiles()
    heaven = situation.special == "heaven"
    waits_only = None
    if table.only_place == "only_tile" and only_place_override is None:
        waits_only = shapes.waits(counts13, sets_needed, seven_pairs=seven, orphans=orphans) == {win}

    best: ClassicalScore | None = None
    for grouping in shapes.groupings(counts14, sets_needed):
        for index, (kind, start) in enumerate(grouping):
            span = range(start, start + 3) if kind == "chow" else (start,)
            if win not in span or (index and grouping[index - 1] == grouping[index]):
                continue
            groups = [_Set(kind, tile, True) for kind, tile in grouping]
            winning = groups[index]
            if not situation.drawn:
                groups[index] = _Set(kind, start, False)  # won on a discard: an exposed set (line 316)
            sets = declared + groups
            if only_place_override is not None:
                only_place = only_place_override
            elif table.only_place == "shape":
                only_place = _shape_only_place(winning, win)
            else:
                only_place = bool(waits_only)
            score = _count_winner(sets, all_tiles, situation, hand, only_place and not heaven)
            if _better(score, best):
                best = score
    for name, fits in (
        ("The Seven Twins", seven and shapes.is_seven_pairs(counts14)),
        ("The Thirteen Orphans", orphans and shapes.is_thirteen_orphans(counts14)),
    ):
        if fits and not hand.melds:
            if table.limit is None:
                raise HandInputError(
                    gettext_noop("%(name)s scores the limit, and this table plays without one"),
                    code="no_limit",
                    name=name,
                )
            count = _Count(points=[("For winning the hand", table.game_points)])
            _flower_count(situation, count)
            count.limit_hand = (name, table.limit // 2 if name == "The Seven Twins" else table.limit)
            score = _finish(count, situation)
            if _better(score, best):
                best = score
    if best is None:
        raise HandInputError(
            gettext_noop(
                "the tiles do not make a complete hand: a winning hand needs four sets of three "
                "(or four) and a pair, the winning tile included"
            ),
            code="incomplete_hand",
        )
    return best


def _count_winner(
    sets: list[_Set], all_tiles: list[int], situation: _Situation, hand: Hand, only_place: bool
) -> ClassicalScore:
    table = situation.table
    count = _Count(points=[("For winning the hand", table.game_points)])
    _count_sets(sets, situation, count)
    set_score = count.total_points() - table.game_points
    _flower_count(situation, count)
    heaven = situation.special == "heaven"
    drawn = situation.drawn and not heaven
    small = not table.reformed_count  # Foster's reform drops the 2s for drawing and filling
    if situation.loose_tile:
        if "loose_tile" in table.bonus_doubles and small:
            count.points.append(("For the winning tile drawn", 2))
        _bonus(count, table, "loose_tile", "winning on the loose tile after a set of fours")
    elif drawn and small:
        count.points.append(("For the winning tile drawn", 2))
    if only_place and small:
        count.points.append(("For filling in the only possible place to win", 2))
    if situation.robbing_kong:
        _bonus(count, table, "robbing_kong", "stealing the fourth to win")
    if situation.last_tile:
        _bonus(count, table, "last_tile", "winning on the last tile drawn")
    no_runs = not any(item.kind == "chow" for item in sets)
    if no_runs:
        _bonus(count, table, "no_runs", "no runs, concealed or exposed")
    special_bonus = situation.loose_tile or situation.robbing_kong or situation.last_tile or no_runs
    flowers_count = table.flowers_cancel_no_score and situation.flower_count > 0
    all_chows = all(item.kind == "chow" for item in sets if item.kind != "pair")
    if table.all_sequences_bonus:
        if all_chows:
            count.points.append(("For all sequences", 10))
    elif set_score == 0 and not special_bonus and not flowers_count and not only_place:
        if not drawn:
            _bonus(count, table, "no_score", "no score other than game")
        elif table.drawn_only_double:
            count.doubles.append(("Doubled for no score other than drawing the winning tile", 1))
    _honour_doubles(sets, situation, count)
    _suit_doubles(all_tiles, situation, count)
    concealed_sets = sum(item.kind in ("pung", "kong") and item.concealed for item in sets)
    if table.three_concealed_pungs_double and concealed_sets >= 3:
        count.doubles.append(("Doubled for three concealed sets of three", 1))
    if heaven and table.limit is None:
        count.doubles.append(('Doubled three times for "Hand from Heaven"', 3))  # Babcock line 803
    special = _special_limit(situation)
    if special is not None:
        count.limit_hand = special
    elif table.limit is not None:
        name = _limit_hand(sets, all_tiles, situation, hand)
        if name is not None:
            count.limit_hand = (name, table.limit)
    return _finish(count, situation)


def _score_loser(hand: Hand, situation: _Situation) -> ClassicalScore:
    """A hand not completed: the concealed tiles regrouped for the best score (Babcock line 341)."""
    sets = [_Set(meld.kind, meld.tiles[0], meld.concealed) for meld in hand.melds]
    counts = _counts(hand.concealed)
    for tile, number in enumerate(counts):
        if number >= 3:  # four undeclared count as a concealed three only (line 287)
            sets.append(_Set("pung", tile, True))
        elif number == 2 and _pair_items(tile, situation.table, situation.seat, situation.round_tile):
            sets.append(_Set("pair", tile, True))
    count = _Count()
    _count_sets(sets, situation, count)
    _flower_count(situation, count)
    _honour_doubles(sets, situation, count)
    _suit_doubles(hand.all_tiles(), situation, count)
    return _finish(count, situation)


def _check_flowers(flower_tiles: Sequence[str] | None, count: int) -> tuple[str, ...]:
    if flower_tiles is None:
        return ()
    if isinstance(flower_tiles, str) or not isinstance(flower_tiles, Sequence):
        raise HandInputError(
            gettext_noop('flower_tiles must be a list such as ["f1", "s3"]'), code="bad_field"
        )
    for code in flower_tiles:
        if code not in FLOWER_CODES:
            raise HandInputError(
                gettext_noop(
                    "unknown flower tile %(code_value)r (use f1-f4 for one colour and s1-s4 for the other)"
                ),
                code="bad_tile",
                code_value=code,
            )
    if len(set(flower_tiles)) != len(flower_tiles):
        raise HandInputError(gettext_noop("each flower tile can be held only once"), code="fifth_copy")
    if count and count != len(flower_tiles):
        raise HandInputError(
            gettext_noop("flowers says %(count)s but flower_tiles lists %(count2)s"),
            code="bad_field",
            count=count,
            count2=len(flower_tiles),
        )
    return tuple(flower_tiles)


def score_hand(
    hand: Hand,
    rules: str,
    *,
    winner: bool,
    options: dict[str, Any] | None = None,
    only_possible_place: bool | None = None,
    loose_tile: bool | None = None,
    robbing_kong: bool | None = None,
    last_tile: bool | None = None,
    flower_tiles: Sequence[str] | None = None,
    special_hand: str | None = None,
) -> ClassicalScore:
    """Score a winning or losing hand by ``rules`` (``babcock``, ``chinese-1920s`` or ``foster``).

    The overrides, when ``None``, are derived from the hand's flags: ``kong_related`` with
    ``self_drawn`` is a loose tile, without it a robbed kong; ``last_wall_tile`` with ``self_drawn``
    the last tile drawn (Babcock line 430: not on the last discard).
    """
    table = table_for(rules, options)
    flowers = _check_flowers(flower_tiles, hand.flowers)
    tile_count = len(hand.concealed) + 3 * len(hand.melds) + (1 if hand.win_tile is not None else 0)
    kongs = sum(meld.kind == "kong" for meld in hand.melds)
    if len(hand.melds) > 4:
        raise HandInputError(gettext_noop("a hand has at most four declared sets"), code="bad_meld")
    if winner:
        if hand.win_tile is None:
            raise HandInputError(gettext_noop("a winning hand needs its 'win_tile'"), code="missing_field")
        if tile_count != 14:
            raise HandInputError(
                gettext_noop("a winning hand has 14 tiles plus one for each set of fours, not %(value)s"),
                code="wrong_tile_count",
                value=tile_count + kongs,
            )
    else:
        if hand.win_tile is not None:
            raise HandInputError(
                gettext_noop(
                    "a losing hand has no winning tile: leave out 'win_tile' or set 'winner' to true"
                ),
                code="bad_field",
            )
        if tile_count != 13:
            raise HandInputError(
                gettext_noop("a losing hand has 13 tiles plus one for each set of fours, not %(value)s"),
                code="wrong_tile_count",
                value=tile_count + kongs,
            )
        overrides = (only_possible_place, loose_tile, robbing_kong, last_tile)
        if any(overrides) or special_hand is not None:
            raise HandInputError(
                gettext_noop("bonuses and special hands apply to the winning hand only"), code="bad_field"
            )
    if special_hand is not None:
        if special_hand not in SPECIAL_HANDS:
            raise HandInputError(
                gettext_noop("special_hand must be one of %(special_hands)s, not %(special_hand)r"),
                code="bad_field",
                special_hands=", ".join(SPECIAL_HANDS),
                special_hand=special_hand,
            )
        if special_hand == "heaven" and hand.seat_wind != "E":
            raise HandInputError(
                gettext_noop("only East can win with the Hand from Heaven"), code="bad_field"
            )
        if special_hand == "earth" and hand.seat_wind == "E":
            raise HandInputError(
                gettext_noop("East can never win with the Hand from Earth"), code="bad_field"
            )
    drawn = hand.self_drawn
    loose = hand.kong_related and drawn if loose_tile is None else loose_tile
    robbed = hand.kong_related and not drawn if robbing_kong is None else robbing_kong
    last = hand.last_wall_tile and drawn if last_tile is None else last_tile
    if winner:
        if loose and not drawn:
            raise HandInputError(
                gettext_noop("a loose tile is drawn: set self_drawn to true"), code="bad_field"
            )
        if loose and not kongs:
            raise HandInputError(
                gettext_noop("won on a loose tile, but the hand declares no set of fours"), code="bad_field"
            )
        if robbed and drawn:
            raise HandInputError(
                gettext_noop("a robbed kong is not a drawn tile: set self_drawn to false"), code="bad_field"
            )
        if last and not drawn:
            raise HandInputError(
                gettext_noop(
                    "the last-tile bonus is for drawing the last tile of the wall, not for its discard"
                ),
                code="bad_field",
            )
    situation = _Situation(
        table=table,
        winner=winner,
        seat_letter=hand.seat_wind,
        seat=WIND_TILE_BY_LETTER[hand.seat_wind],
        round_tile=WIND_TILE_BY_LETTER[hand.prevalent_wind],
        flowers=flowers,
        flower_count=len(flowers) or hand.flowers,
        drawn=drawn,
        loose_tile=bool(loose) and winner,
        robbing_kong=bool(robbed) and winner,
        last_tile=bool(last) and winner,
        special=special_hand,
    )
    if winner:
        return _score_winner(hand, situation, only_possible_place)
    return _score_loser(hand, situation)
