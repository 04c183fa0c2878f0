"""Every way an MCR hand can be read, and which tiles a hand is waiting for.

Rule 23 of Sloper's book (``shared/seeds/003_2541481d343502a5.txt`` line 2172) allows four complete
hand shapes: four sets and a pair, seven pairs, thirteen orphans, and the knitted hands (Honors and
Knitted Tiles, rule 95 nos. 20 and 34; a Knitted Straight, no. 35, with one set and a pair).

Tiles are the indices 0..33 of :mod:`scoring.rules.tiles`; a hand's tiles are a list of 34 counts.
A set is a tuple ``(kind, tile, declared, exposed)``: ``kind`` one of the constants below, ``tile`` the
pung/pair tile or the lowest tile of a chow or knitted run, ``declared`` for a declared meld (a
concealed kong included) and ``exposed`` for a meld shown face up. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import permutations

CHOW, PUNG, KONG, PAIR, KNIT, SINGLE = range(6)
KIND_NAMES = ("chow", "pung", "kong", "pair", "knitted", "single")

REGULAR = "four sets and a pair"
KNITTED_STRAIGHT = "knitted straight"
SEVEN_PAIRS = "seven pairs"
THIRTEEN_ORPHANS = "thirteen orphans"
HONORS_AND_KNITTED = "honors and knitted tiles"

TERMINALS_AND_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, *range(27, 34))

# A knitted straight (rule 95 no. 35, line 2620): 1-4-7 in one suit, 2-5-8 in another, 3-6-9 in the
# third. Each entry lists the three knitted runs as their lowest tiles and the nine tiles.
KNITTED_STRAIGHTS: tuple[tuple[tuple[int, int, int], tuple[int, ...]], ...] = tuple(
    (
        (order[0] * 9, order[1] * 9 + 1, order[2] * 9 + 2),
        tuple(
            sorted(
                suit * 9 + offset + step
                for suit, offset in zip(order, (0, 1, 2), strict=True)
                for step in (0, 3, 6)
            )
        ),
    )
    for order in permutations(range(3))
)

SetTuple = tuple[int, int, bool, bool]


def set_tiles(kind: int, tile: int) -> tuple[int, ...]:
    """The tiles of one set, in order."""
    if kind == CHOW:
        return (tile, tile + 1, tile + 2)
    if kind == PUNG:
        return (tile, tile, tile)
    if kind == KONG:
        return (tile, tile, tile, tile)
    if kind == PAIR:
        return (tile, tile)
    if kind == KNIT:
        return (tile, tile + 3, tile + 6)
    return (tile,)


# ---------------------------------------------------------------------------------------------
# Four sets and a pair


def _split_sets(counts: list[int], index: int, acc: list[SetTuple], out: list[tuple[SetTuple, ...]]) -> None:
    """All ways (each once) to split the remaining counts into pungs and chows."""
    while index < 34 and counts[index] == 0:
        index += 1
    if index == 34:
        out.append(tuple(acc))
        return
    count = counts[index]
    suited_run = index < 27 and index % 9 < 7
    for pungs in (1, 0) if count >= 3 else (0,):
        chows = count - 3 * pungs
        if chows and not (suited_run and counts[index + 1] >= chows and counts[index + 2] >= chows):
            continue
        counts[index] -= count
        if chows:
            counts[index + 1] -= chows
            counts[index + 2] -= chows
        acc.extend([(PUNG, index, False, False)] * pungs + [(CHOW, index, False, False)] * chows)
        _split_sets(counts, index + 1, acc, out)
        del acc[len(acc) - pungs - chows :]
        counts[index] += count
        if chows:
            counts[index + 1] += chows
            counts[index + 2] += chows


def regular_splits(counts: list[int]) -> list[tuple[SetTuple, ...]]:
    """Every split of concealed tiles (3n + 2 of them) into n pungs/chows and one pair (pair first)."""
    out: list[tuple[SetTuple, ...]] = []
    for tile in range(34):
        if counts[tile] >= 2:
            counts[tile] -= 2
            found: list[tuple[SetTuple, ...]] = []
            _split_sets(counts, 0, [], found)
            counts[tile] += 2
            pair: SetTuple = (PAIR, tile, False, False)
            out.extend((pair, *sets) for sets in found)
    return out


# ---------------------------------------------------------------------------------------------
# Fast completeness test (used for waits and validation)


@cache
def _suit_shape(key: tuple[int, ...]) -> int:
    """Bit 1: the nine counts split into sets; bit 2: into sets and one pair."""
    counts = list(key)
    shape = 0
    if _sets_only(counts, 0):
        shape |= 1
    for tile in range(9):
        if counts[tile] >= 2:
            counts[tile] -= 2
            ok = _sets_only(counts, 0)
            counts[tile] += 2
            if ok:
                shape |= 2
                break
    return shape


def _sets_only(counts: list[int], index: int) -> bool:
    while index < 9 and counts[index] == 0:
        index += 1
    if index == 9:
        return True
    count = counts[index]
    for pungs in (1, 0) if count >= 3 else (0,):
        chows = count - 3 * pungs
        if chows:
            if index > 6 or counts[index + 1] < chows or counts[index + 2] < chows:
                continue
            counts[index + 1] -= chows
            counts[index + 2] -= chows
        counts[index] -= count
        ok = _sets_only(counts, index + 1)
        counts[index] += count
        if chows:
            counts[index + 1] += chows
            counts[index + 2] += chows
        if ok:
            return True
    return False


def is_regular(counts: Sequence[int]) -> bool:
    """Whether the counts (3n + 2 tiles) are n sets and one pair."""
    pairs = 0
    for base in (0, 9, 18):
        key = tuple(counts[base : base + 9])
        size = sum(key)
        if size == 0:
            continue
        rest = size % 3
        if rest == 1:
            return False
        shape = _suit_shape(key)
        if rest == 0:
            if not shape & 1:
                return False
        else:
            if not shape & 2:
                return False
            pairs += 1
    for tile in range(27, 34):
        count = counts[tile]
        if count == 2:
            pairs += 1
        elif count not in (0, 3):
            return False
    return pairs == 1


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs (rule 95 no. 19); four alike count as two pairs (Tile Hog may be added, line 2530)."""
    return sum(counts) == 14 and all(count % 2 == 0 for count in counts)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """One of each terminal and honour plus a duplicate of any (rule 95 no. 7, line 2453)."""
    return (
        sum(counts) == 14
        and all(counts[tile] >= 1 for tile in TERMINALS_AND_HONOURS)
        and sum(counts[tile] for tile in TERMINALS_AND_HONOURS) == 14
    )


def honors_and_knitted(counts: Sequence[int]) -> int | None:
    """Honors and Knitted Tiles (rule 95 nos. 20 and 34): 14 single tiles, 5 to 7 distinct honours
    and the rest from one knitted straight. Returns the number of honours, or None."""
    if sum(counts) != 14 or any(count > 1 for count in counts):
        return None
    honours = sum(counts[27:34])
    if honours < 5:
        return None
    suited = {tile for tile in range(27) if counts[tile]}
    for _runs, tiles in KNITTED_STRAIGHTS:
        if suited <= set(tiles):
            return honours
    return None


def knitted_straight_rests(counts: list[int]) -> list[tuple[tuple[int, int, int], list[int]]]:
    """For each knitted straight the concealed tiles hold: its runs and the counts left over."""
    found: list[tuple[tuple[int, int, int], list[int]]] = []
    if sum(1 for count in counts[:27] if count) < 9:
        return found
    for runs, tiles in KNITTED_STRAIGHTS:
        if all(counts[tile] for tile in tiles):
            rest = list(counts)
            for tile in tiles:
                rest[tile] -= 1
            found.append((runs, rest))
    return found


def is_complete(counts: list[int], melds: int) -> bool:
    """Whether concealed counts plus ``melds`` declared sets make any complete hand of rule 23."""
    if is_regular(counts):
        return True
    if melds == 0 and (
        is_seven_pairs(counts) or is_thirteen_orphans(counts) or honors_and_knitted(counts) is not None
    ):
        return True
    if melds <= 1:
        return any(is_regular(rest) for _runs, rest in knitted_straight_rests(counts))
    return False


def _group_ok(counts: Sequence[int], base: int) -> tuple[bool, int]:
    """Whether a suit's tiles split into sets (and at most one pair), and how many pairs that takes."""
    key = tuple(counts[base : base + 9])
    rest = sum(key) % 3
    if rest == 1:
        return False, 0
    shape = _suit_shape(key)
    if rest == 0:
        return bool(shape & 1), 0
    return bool(shape & 2), 1


def completing_tiles(concealed: list[int], melds: int, held: Sequence[int]) -> list[int]:
    """Tiles that would complete the 13-tile hand (``concealed`` counts without the winning tile).

    A tile of which the hand already holds all four (``held`` counts include melds) cannot be waited
    for. Four sets and a pair are tested suit by suit (only the suit of the added tile changes); the
    special shapes of rule 23 only when the hand can still be one.
    """
    groups = [_group_ok(concealed, base) for base in (0, 9, 18)]
    honour_ok = [count in (0, 2, 3) for count in concealed[27:34]]
    honour_pairs = sum(1 for count in concealed[27:34] if count == 2)
    found: set[int] = set()
    for tile in range(34):
        if held[tile] >= 4:
            continue
        concealed[tile] += 1
        if tile < 27:
            suit = tile // 9
            ok, pairs = _group_ok(concealed, suit * 9)
            if ok and all(groups[g][0] for g in range(3) if g != suit) and all(honour_ok):
                pairs += sum(groups[g][1] for g in range(3) if g != suit) + honour_pairs
                if pairs == 1:
                    found.add(tile)
        else:
            count = concealed[tile]
            others_ok = all(honour_ok[i] for i in range(7) if i != tile - 27) and all(g[0] for g in groups)
            if count in (2, 3) and others_ok:
                pairs = sum(g[1] for g in groups) + honour_pairs + (count == 2) - (count == 3)
                if pairs == 1:
                    found.add(tile)
        concealed[tile] -= 1
    distinct_suited = sum(1 for count in concealed[:27] if count)
    special = melds == 0 or (melds == 1 and distinct_suited >= 8)
    if special:
        for tile in range(34):
            if tile in found or held[tile] >= 4:
                continue
            concealed[tile] += 1
            shaped = melds == 0 and (
                is_seven_pairs(concealed)
                or is_thirteen_orphans(concealed)
                or honors_and_knitted(concealed) is not None
            )
            if shaped or any(is_regular(rest) for _runs, rest in knitted_straight_rests(concealed)):
                found.add(tile)
            concealed[tile] -= 1
    return sorted(found)


def waits_only_for(tile: int, concealed: list[int], melds: int, held: Sequence[int]) -> bool:
    """Whether ``tile`` is the one and only tile the 13-tile hand waits for (a "unique wait")."""
    return completing_tiles(concealed, melds, held) == [tile]
