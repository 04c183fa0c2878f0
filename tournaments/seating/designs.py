"""Stored resolvable designs for the hard cells, as compact base rounds developed over a cyclic group.

Each design is one *base round* (a partition of the points into tables of four) over the points
``level * g + x`` (x in Z_g, ``levels`` levels) and ``fixed`` points ``levels * g ..`` left in place. Adding
t (mod g) to the x part of every point gives round t, so g rounds come from one stored round: a design with
a cyclic automorphism group of order g, point orbits of length g and fixed points (see the Handbook of
Combinatorial Designs, 2nd ed., on difference families and resolvable designs). A pair meets in as many rounds as its *difference type* (a pure difference ±d within a level, a
mixed difference between two levels, a fixed point with a level) occurs in the base round, so a base round
using every type exactly once gives rounds where every pair meets exactly once.

- 28, 40 and 52 players: resolvable 2-(v, 4, 1) designs (v ≡ 4 mod 12 exist for every such v: Hanani,
  Ray-Chaudhuri and Wilson, 1972) over Z_g x 3 levels plus one fixed point, g = (v - 1) / 3 = 9, 13, 17
  rounds in which every pair of players meets exactly once.
- Other sizes: repeat-free packings over Z_R x 3 levels plus a few fixed points, R rounds (24 players over 7,
  and the larger ones the engine's run-time search does not always finish in its time limit).
- ``SCHEDULES``: explicit rounds for single cells from offline searches: 24 players over 8 rounds, a resolvable
  minimum covering (every pair meets, exactly the twelve pairs {2i, 2i + 1} meet twice: 12 repeated pairs,
  the counting bound), found by an exact SAT search with an automorphism of order 3
  (``bench/seating_covering24.py``, docs/seating.md).

The base rounds were found by ``bench/seating_designs.py`` (a tabu search over base rounds, offline) and are
checked by ``verify`` in the tests. Any subset of the rounds of a design is still repeat-free, so the first
R rounds serve every R up to g.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

Rounds = list[list[list[int]]]


@dataclass(frozen=True)
class CyclicDesign:
    """A base round developed over Z_g; ``max_meetings`` is the most any pair meets over the g rounds."""

    players: int
    g: int
    levels: int
    fixed: int
    base: tuple[tuple[int, int, int, int], ...]
    repeated_pairs: int
    max_meetings: int
    source: str

    def rounds(self) -> Rounds:
        """All rounds: base round c shifted by t, t = 0..g-1, for each base round c (``base`` holds them one
        after the other, players / 4 tables each), tables sorted."""
        finite = self.levels * self.g
        size = self.players // 4

        def shift(p: int, t: int) -> int:
            if p >= finite:
                return p
            level, x = divmod(p, self.g)
            return level * self.g + (x + t) % self.g

        bases = [self.base[i : i + size] for i in range(0, len(self.base), size)]
        return [
            [sorted(shift(p, t) for p in block) for block in base] for base in bases for t in range(self.g)
        ]


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class StoredSchedule:
    """Rounds for one cell found by a long offline search (``bench/seating_stored.py``).

    ``tables``: rounds separated by "/", each a run of players 0..N-1 in base 36, four characters a table.
    """

    players: int
    rounds: int
    repeated_pairs: int
    max_meetings: int
    tables: str
    source: str

    def decode(self) -> Rounds:
        return [
            [[_DIGITS.index(c) for c in text[i : i + 4]] for i in range(0, len(text), 4)]
            for text in self.tables.split("/")
        ]


DESIGNS: dict[int, CyclicDesign] = {}
"""Stored designs by number of players (filled below from the generator's output)."""
SCHEDULES: dict[tuple[int, int], StoredSchedule] = {}
"""Stored schedules by (players, rounds)."""


def design_rounds(players: int) -> Rounds | None:
    """The rounds of the stored design for ``players``, or None when none is stored."""
    design = DESIGNS.get(players)
    return design.rounds() if design is not None else None


def stored_rounds(players: int, rounds: int) -> Rounds | None:
    """A stored schedule of exactly ``rounds`` rounds for ``players``, or None."""
    schedule = SCHEDULES.get((players, rounds))
    return schedule.decode() if schedule is not None else None


def pair_meetings(rounds: Rounds) -> dict[tuple[int, int], int]:
    """How many times each pair (smaller point first) shares a table in ``rounds``."""
    counts: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def verify(rounds: Rounds, players: int, *, repeated_pairs: int = 0, max_meetings: int = 1) -> list[str]:
    """Problems with ``rounds`` as a seating of ``players`` (empty when it is what it claims).

    Checks that every round is a partition of 0..players-1 into tables of four, that the repeated pairs
    (sum over pairs of max(0, meetings - 1)) are exactly ``repeated_pairs`` and that no pair meets more than
    ``max_meetings`` times.
    """
    problems: list[str] = []
    for r, tables in enumerate(rounds):
        if any(len(table) != 4 for table in tables):
            problems.append(f"round {r}: a table without four players")
        if sorted(p for table in tables for p in table) != list(range(players)):
            problems.append(f"round {r}: not a partition of the {players} players")
    counts = pair_meetings(rounds)
    repeated = sum(m - 1 for m in counts.values() if m > 1)
    if repeated != repeated_pairs:
        problems.append(f"{repeated} repeated pairs, {repeated_pairs} claimed")
    worst = max(counts.values(), default=0)
    if worst > max_meetings:
        problems.append(f"a pair meets {worst} times, at most {max_meetings} claimed")
    return problems


def _store(design: CyclicDesign) -> None:
    DESIGNS[design.players] = design


_store(
    CyclicDesign(
        players=28,
        g=9,
        levels=3,
        fixed=1,
        base=(
            (0, 10, 21, 26),
            (1, 13, 15, 23),
            (2, 5, 7, 9),
            (3, 4, 12, 18),
            (6, 22, 24, 25),
            (8, 14, 19, 27),
            (11, 16, 17, 20),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 28 --method cyclic --seed 0",
    )
)
_store(
    CyclicDesign(
        players=40,
        g=13,
        levels=3,
        fixed=1,
        base=(
            (0, 13, 26, 39),
            (1, 12, 31, 34),
            (2, 11, 29, 36),
            (3, 10, 15, 24),
            (4, 9, 19, 20),
            (5, 8, 14, 25),
            (6, 7, 30, 35),
            (16, 23, 28, 37),
            (17, 22, 32, 33),
            (18, 21, 27, 38),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 40 --method backtrack --seed 0",
    )
)
_store(
    CyclicDesign(
        players=52,
        g=17,
        levels=3,
        fixed=1,
        base=(
            (0, 17, 34, 51),
            (1, 8, 23, 39),
            (2, 20, 26, 49),
            (3, 9, 32, 36),
            (4, 44, 46, 47),
            (5, 18, 25, 40),
            (6, 22, 35, 42),
            (7, 11, 16, 48),
            (10, 12, 13, 21),
            (14, 24, 28, 33),
            (15, 19, 37, 43),
            (27, 29, 30, 38),
            (31, 41, 45, 50),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 52 --method orbit --seed 0",
    )
)
SCHEDULES[(24, 8)] = StoredSchedule(
    players=24,
    rounds=8,
    repeated_pairs=12,
    max_meetings=2,
    tables=(
        "012637ab45dk89clefijghmn/01fm23485679abencdijghkl/045a189b23hi67gjcdmnefkl/03ce15il29jn47fh6bkm8adg/"
        "09dh13kn25eg4bjl6acf78im/07ln14cg2bdf35jm68eh9aik/0bgi1ahj27ck36dl49em58fn/08jk17de2alm39fg46in5bch"
    ),
    source=(
        "bench/seating_covering24.py --model plain --perm 2,3,4,5,0,1,8,9,10,11,6,7,14,15,16,17,12,13,20,21,22,23,"
        "18,19 --rho 1,2,0,4,5,3,6,7 (a resolvable minimum covering: every pair meets, the twelve pairs "
        "{2i, 2i + 1} twice; found in 12 s)"
    ),
)
_store(
    CyclicDesign(
        players=24,
        g=7,
        levels=3,
        fixed=3,
        base=(
            (0, 9, 15, 21),
            (1, 11, 19, 23),
            (2, 4, 5, 18),
            (3, 8, 20, 22),
            (6, 10, 12, 13),
            (7, 14, 16, 17),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 24 --method cyclic --seed 0 --rounds 7",
    )
)
_store(
    CyclicDesign(
        players=56,
        g=16,
        levels=3,
        fixed=8,
        base=(
            (0, 2, 29, 34),
            (1, 27, 42, 48),
            (3, 18, 40, 49),
            (4, 24, 37, 50),
            (5, 28, 47, 53),
            (6, 9, 10, 15),
            (7, 23, 46, 52),
            (8, 30, 44, 51),
            (11, 25, 35, 55),
            (12, 21, 39, 41),
            (13, 16, 31, 43),
            (14, 19, 36, 54),
            (17, 20, 22, 26),
            (32, 33, 38, 45),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 56 --method cyclic --seed 0 --rounds 16",
    )
)
_store(
    CyclicDesign(
        players=44,
        g=13,
        levels=3,
        fixed=5,
        base=(
            (0, 20, 37, 39),
            (1, 16, 34, 40),
            (2, 5, 15, 36),
            (3, 10, 12, 29),
            (4, 13, 22, 25),
            (6, 18, 31, 41),
            (7, 8, 24, 35),
            (9, 23, 38, 42),
            (11, 17, 33, 43),
            (14, 19, 21, 28),
            (26, 27, 30, 32),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 44 --method cyclic --seed 0 --rounds 13",
    )
)
_store(
    CyclicDesign(
        players=60,
        g=17,
        levels=3,
        fixed=9,
        base=(
            (0, 21, 37, 56),
            (1, 20, 50, 53),
            (2, 15, 42, 44),
            (3, 5, 6, 11),
            (4, 19, 34, 54),
            (7, 24, 30, 33),
            (8, 28, 36, 51),
            (9, 25, 35, 55),
            (10, 18, 46, 58),
            (12, 23, 45, 57),
            (13, 27, 31, 48),
            (14, 26, 38, 59),
            (16, 29, 47, 52),
            (17, 22, 32, 41),
            (39, 40, 43, 49),
        ),
        repeated_pairs=0,
        max_meetings=1,
        source="bench/seating_designs.py --players 60 --method cyclic --seed 0 --rounds 17",
    )
)
