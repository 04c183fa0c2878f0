"""Chow and pung patterns (two, three or four sets) and the best way to claim them under rule 64.

Sloper's book (``shared/seeds/003_2541481d343502a5.txt``): rule 64 (lines 2295-2299, explained at
4030-4089) lets a player combine sets into patterns subject to

- b, separation: sets combined into a pattern are not split and regrouped into a lesser pattern among
  themselves (Pure Straight's 123 and 456 are not also a Short Straight, line 4067);
- c, identical patterns: a set used in a pattern is not used again for the same pattern (line 4056);
- e, combine-just-once: a set not yet used may be combined once, with at most one set already used
  (line 4030; the Mixed Straight example at 4073 and the four-chows example at 4085).

Taken together: the chosen patterns can be ordered so that each shares at most one set with the
patterns before it, and no two patterns of the same fan share a set. Among the allowed choices the
player takes the one worth most (rule 64d, freedom of choice).

Chows are given by their lowest tile, pungs by their tile (suited tiles 0..26 only). Results are
cached: the same sets always give the same patterns. Pure Python, no Django.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

from scoring.rules.mcr.fan_table import FAN_POINTS

Pattern = tuple[str, tuple[int, ...]]
Option = tuple[Pattern, ...]


def _suit(tile: int) -> int:
    return tile // 9


def _rank(tile: int) -> int:
    return tile % 9


def _two_chows(a: int, b: int) -> str | None:
    """Rule 95 nos. 69-72 for two chows (a <= b)."""
    if a == b:
        return "Pure Double Chow"
    if _rank(a) == _rank(b):
        return "Mixed Double Chow"
    if _suit(a) == _suit(b):
        if b - a == 3:
            return "Short Straight"
        if _rank(a) == 0 and _rank(b) == 6:
            return "Two Terminal Chows"
    return None


def _three_chows(a: int, b: int, c: int) -> str | None:
    """Rule 95 nos. 23, 28, 30, 39, 41, 51 for three chows (a <= b <= c)."""
    if a == b == c:
        return "Pure Triple Chow"
    suits = {_suit(a), _suit(b), _suit(c)}
    if len(suits) == 1:
        if _rank(a) == 0 and _rank(b) == 3 and _rank(c) == 6:
            return "Pure Straight"
        if b - a == c - b and b - a in (1, 2):
            return "Pure Shifted Chows"
        return None
    if len(suits) == 3:
        ranks = sorted((_rank(a), _rank(b), _rank(c)))
        if ranks == [0, 3, 6]:
            return "Mixed Straight"
        if ranks[0] == ranks[2]:
            return "Mixed Triple Chow"
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "Mixed Shifted Chows"
    return None


def _four_chows(a: int, b: int, c: int, d: int, pair: int) -> str | None:
    """Rule 95 nos. 13, 14, 16, 29: patterns that use all four chows (two of them the pair too)."""
    if a == b == c == d:
        return "Quadruple Chow"
    if _suit(a) == _suit(d) and b - a == c - b == d - c and b - a in (1, 2):
        return "Four Shifted Chows"
    if pair < 27 and _rank(pair) == 4:
        ranks = (_rank(a), _rank(b), _rank(c), _rank(d))
        if ranks == (0, 0, 6, 6) and _suit(a) == _suit(d) == _suit(pair):
            # Pure Terminal Chows: 123 123 789 789 and 55, all one suit (line 2492).
            return "Pure Terminal Chows"
        suits = sorted((a, b, c, d), key=lambda t: (_suit(t), _rank(t)))
        if (
            [_rank(t) for t in suits] == [0, 6, 0, 6]
            and _suit(suits[0]) == _suit(suits[1])
            and _suit(suits[2]) == _suit(suits[3])
            and len({_suit(suits[0]), _suit(suits[2]), _suit(pair)}) == 3
        ):
            # Three-Suited Terminal Chows: 123 789 in two suits, 55 in the third (line 2587).
            return "Three-Suited Terminal Chows"
    return None


def _two_pungs(a: int, b: int) -> str | None:
    """Rule 95 no. 65: the same number in two suits."""
    if _rank(a) == _rank(b) and _suit(a) != _suit(b):
        return "Double Pung"
    return None


def _three_pungs(a: int, b: int, c: int) -> str | None:
    """Rule 95 nos. 24, 32, 42 for three pungs (a <= b <= c)."""
    suits = {_suit(a), _suit(b), _suit(c)}
    if len(suits) == 1:
        if b == a + 1 and c == b + 1:
            return "Pure Shifted Pungs"
        return None
    if len(suits) == 3:
        ranks = sorted((_rank(a), _rank(b), _rank(c)))
        if ranks[0] == ranks[2]:
            return "Triple Pung"
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "Mixed Shifted Pungs"
    return None


def _four_pungs(a: int, b: int, c: int, d: int) -> str | None:
    """Rule 95 no. 15: four pungs in one suit, each one up from the last."""
    if _suit(a) == _suit(d) and b == a + 1 and c == b + 1 and d == c + 1:
        return "Four Pure Shifted Pungs"
    return None


def _allowed(chosen: tuple[Pattern, ...]) -> bool:
    """Rule 64 b, c and e for a set of patterns (see the module docstring)."""
    for (name_a, sets_a), (name_b, sets_b) in combinations(chosen, 2):
        if name_a == name_b and set(sets_a) & set(sets_b):
            return False
    for order in permutations(chosen):
        used: set[int] = set()
        for _name, sets in order:
            if len(used.intersection(sets)) > 1:
                break
            used.update(sets)
        else:
            return True
    return False


def _best(candidates: list[Pattern], size: int) -> Option:
    """The allowed choice of candidate patterns worth most (ties: the first found, a stable order)."""
    best: Option = ()
    best_points = 0

    def search(start: int, chosen: tuple[Pattern, ...], points: int) -> None:
        nonlocal best, best_points
        if points > best_points:
            best, best_points = chosen, points
        # n sets allow at most n - 1 patterns of two or more sets under combine-just-once.
        if len(chosen) >= size - 1:
            return
        for index in range(start, len(candidates)):
            extended = (*chosen, candidates[index])
            if _allowed(extended):
                search(index + 1, extended, points + FAN_POINTS[candidates[index][0]])

    search(0, (), 0)
    return best


@lru_cache(maxsize=8192)
def chow_options(starts: tuple[int, ...], pair: int) -> tuple[Option, ...]:
    """Ways to claim chow patterns for sorted chow starts (``pair``: the pair tile, for nos. 13, 29).

    The first option is the best choice of two- and three-chow patterns; each further option is one
    pattern that uses all four chows (nothing else may then be made of them, rule 64b). The caller
    picks among the options after the other fans' exclusions.
    """
    candidates: list[Pattern] = []
    for size, finder in ((3, _three_chows), (2, _two_chows)):
        for indices in combinations(range(len(starts)), size):
            name = finder(*(starts[i] for i in indices))
            if name:
                candidates.append((name, indices))
    options: list[Option] = [_best(candidates, len(starts))]
    if len(starts) == 4:
        name = _four_chows(*starts, pair)
        if name:
            options.append(((name, (0, 1, 2, 3)),))
    return tuple(options)


@lru_cache(maxsize=8192)
def pung_options(tiles: tuple[int, ...]) -> tuple[Option, ...]:
    """Ways to claim pung patterns for sorted suited pung (or kong) tiles; as :func:`chow_options`."""
    candidates: list[Pattern] = []
    for size, finder in ((3, _three_pungs), (2, _two_pungs)):
        for indices in combinations(range(len(tiles)), size):
            name = finder(*(tiles[i] for i in indices))
            if name:
                candidates.append((name, indices))
    options: list[Option] = [_best(candidates, len(tiles))]
    if len(tiles) == 4:
        name = _four_pungs(*tiles)
        if name:
            options.append(((name, (0, 1, 2, 3)),))
    return tuple(options)
