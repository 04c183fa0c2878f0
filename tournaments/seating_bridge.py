"""Adapter between the event pages and the pure seating engine (``tournaments.seating``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations


def next_round(
    codes: Sequence[str], history: Sequence[Sequence[Sequence[str]]], *, seed: int
) -> list[list[str]]:
    """One more session's tables (seat order E, S, W, N) for ``codes``, given earlier sessions.

    Greedy with restarts: the best of a few shuffled fillings by repeated pairs.
    """
    met: Counter[tuple[str, str]] = Counter()
    for tables in history:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                met[a, b] += 1
    rng = random.Random(seed)  # noqa: S311 - seating, not cryptography
    best: list[list[str]] | None = None
    best_cost = None
    for _attempt in range(30):
        pool = list(codes)
        rng.shuffle(pool)
        tables: list[list[str]] = []
        cost = 0
        while pool:
            table = [pool.pop()]
            while len(table) < 4:
                choice = min(pool, key=lambda c: sum(met[tuple(sorted((c, t)))] for t in table))
                cost += sum(met[tuple(sorted((choice, t)))] for t in table)
                pool.remove(choice)
                table.append(choice)
            tables.append(table)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return best
