"""Ways to group tiles into sets: complete hands, the tiles a hand waits on, special shapes.

Pure functions over a list of 34 counts (see :mod:`scoring.rules.tiles`). A group is a ``(kind, tile)``
pair: ``kind`` is ``"pair"``, ``"pung"`` or ``"chow"`` and ``tile`` its lowest tile.
"""

from __future__ import annotations

from collections.abc import Iterator

from scoring.rules.tiles import is_honour, is_terminal_or_honour

Group = tuple[str, int]

TERMINALS_AND_HONOURS = tuple(i for i in range(34) if is_terminal_or_honour(i))


def _first(counts: list[int]) -> int:
    for index, count in enumerate(counts):
        if count:
            return index
    return -1


def _groupings(counts: list[int], sets: int, need_pair: bool) -> Iterator[list[Group]]:
    first = _first(counts)
    if first < 0:
        if sets == 0 and not need_pair:
            yield []
        return
    if need_pair and counts[first] >= 2:
        counts[first] -= 2
        for rest in _groupings(counts, sets, False):
            yield [("pair", first), *rest]
        counts[first] += 2
    if sets and counts[first] >= 3:
        counts[first] -= 3
        for rest in _groupings(counts, sets - 1, need_pair):
            yield [("pung", first), *rest]
        counts[first] += 3
    if sets and not is_honour(first) and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for tile in (first, first + 1, first + 2):
            counts[tile] -= 1
        for rest in _groupings(counts, sets - 1, need_pair):
            yield [("chow", first), *rest]
        for tile in (first, first + 1, first + 2):
            counts[tile] += 1


def groupings(counts: list[int], sets: int) -> list[tuple[Group, ...]]:
    """Every way to split ``counts`` into ``sets`` pungs or chows and one pair (Babcock line 226)."""
    if sets < 0 or sum(counts) != 3 * sets + 2:
        return []
    found = {tuple(sorted(grouping)) for grouping in _groupings(list(counts), sets, True)}
    return sorted(found)


def is_seven_pairs(counts: list[int]) -> bool:
    """Seven Twins: any seven pairs (Babcock line 942); four alike count as two pairs is not allowed."""
    return sum(counts) == 14 and all(count in (0, 2) for count in counts)


def is_thirteen_orphans(counts: list[int]) -> bool:
    """One of each one, nine and honour plus a fourteenth pairing any of them (Babcock line 932)."""
    return sum(counts) == 14 and all(counts[i] >= 1 for i in TERMINALS_AND_HONOURS)


def is_nine_gates(counts: list[int]) -> bool:
    """Three ones, three nines and one of every other tile of one suit, plus any tile of it (line 873)."""
    if sum(counts) != 14:
        return False
    for suit_start in (0, 9, 18):
        suit = counts[suit_start : suit_start + 9]
        if sum(suit) != 14:
            continue
        need = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        return all(have >= want for have, want in zip(suit, need, strict=True))
    return False


def is_complete(counts: list[int], sets: int, *, seven_pairs: bool, orphans: bool) -> bool:
    if groupings(counts, sets):
        return True
    if sets == 4 and seven_pairs and is_seven_pairs(counts):
        return True
    return sets == 4 and orphans and is_thirteen_orphans(counts)


def waits(counts: list[int], sets: int, *, seven_pairs: bool = False, orphans: bool = False) -> set[int]:
    """The tiles that would complete a hand one tile short.

    Tiles already seen (discards, other hands, even the player's own) are not taken out: Babcock counts a
    run open at both ends as such even when every tile of one end is in sight (line 691).
    """
    found: set[int] = set()
    for tile in range(34):
        counts[tile] += 1
        if is_complete(counts, sets, seven_pairs=seven_pairs, orphans=orphans):
            found.add(tile)
        counts[tile] -= 1
    return found
