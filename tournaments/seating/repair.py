"""Mend an exact construction for players kept apart (teammates, club mates, the organiser's pairs).

A construction (``constructions``, ``designs``) knows nothing of who must not meet, and in a dense field (a
resolvable design meets every pair exactly once) each clash it has costs more than the greedy start's many
repeats, so the construction would be thrown away for a start far from the best plans. Here each clash is
undone by the one exchange of a clashing player with a player at another table of the same round that costs
least (a few repeated pairs), which keeps the rest of the construction as it was.
"""

from __future__ import annotations

from .search import CLUB_WEIGHT, SearchProblem, pair_cost


def repair_clashes(problem: SearchProblem, groups: list[list[list[int]]]) -> list[list[list[int]]]:
    """``groups`` with its clashes (pairs weighing at least ``CLUB_WEIGHT`` at one table) exchanged away
    where an exchange lowers the cost; pinned players stay at their tables. Returns new lists."""
    groups = [[list(t) for t in tables] for tables in groups]
    if problem.extra is None:
        return groups
    mender = _Mender(problem, problem.extra, groups)
    for r, tables in enumerate(groups):
        for k in range(len(tables)):
            while mender.exchange(tables, k, problem.pins[r]):
                pass
    return groups


class _Mender:
    """Pair counts over the whole plan, kept up to date as players are exchanged."""

    def __init__(self, problem: SearchProblem, extra: list[int], groups: list[list[list[int]]]) -> None:
        self.n = n = problem.n
        self.extra = extra
        self.count = list(problem.base)
        for tables in groups:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self.count[a * n + b] += 1
                        self.count[b * n + a] += 1

    def moved(self, p: int, leaving: list[int], joining: list[int]) -> int:
        """What it costs for ``p`` to leave the players ``leaving`` and join ``joining``."""
        n, count, extra = self.n, self.count, self.extra
        cost = 0
        for x in leaving:
            c = count[p * n + x]
            cost += pair_cost(c - 1) - pair_cost(c) - extra[p * n + x]
        for y in joining:
            c = count[p * n + y]
            cost += pair_cost(c + 1) - pair_cost(c) + extra[p * n + y]
        return cost

    def apply(self, p: int, leaving: list[int], joining: list[int]) -> None:
        n = self.n
        for x in leaving:
            self.count[p * n + x] -= 1
            self.count[x * n + p] -= 1
        for y in joining:
            self.count[p * n + y] += 1
            self.count[y * n + p] += 1

    def clashing(self, table: list[int], pins: dict[int, int]) -> list[int]:
        """The table's players in a clash who may move, in order."""
        n, extra = self.n, self.extra
        found = {
            player
            for i, a in enumerate(table)
            for b in table[i + 1 :]
            if extra[a * n + b] >= CLUB_WEIGHT
            for player in (a, b)
        }
        return sorted(found - set(pins))

    def exchange(self, tables: list[list[int]], k: int, pins: dict[int, int]) -> bool:
        """Make the cheapest exchange that takes a clashing player away from table ``k``, if it lowers the
        cost; True when one was made."""
        table = tables[k]
        best: tuple[int, int, int, int] | None = None
        for mover in self.clashing(table, pins):
            here = [x for x in table if x != mover]
            for u, other in enumerate(tables):
                for z in other if u != k else ():
                    if z in pins:
                        continue
                    there = [y for y in other if y != z]
                    delta = self.moved(mover, here, there) + self.moved(z, there, here)
                    if best is None or delta < best[0]:
                        best = (delta, mover, u, z)
        if best is None or best[0] >= 0:
            return False
        _, mover, u, z = best
        here = [x for x in table if x != mover]
        there = [y for y in tables[u] if y != z]
        self.apply(mover, here, there)
        self.apply(z, there, here)
        table[table.index(mover)] = z
        tables[u][tables[u].index(z)] = mover
        return True
