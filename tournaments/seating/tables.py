"""Table numbers: which group sits at which numbered table, so players rarely return to a table.

Each round in turn is an assignment problem, groups against table numbers, with cost the number of earlier
visits of the group's players to that number; pinned groups (a player with a fixed table) keep their number.
Small rounds are solved exactly (Hungarian method); large ones greedily and then by pairwise exchanges.
"""

from __future__ import annotations

import math
import random
import time


def _hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost perfect assignment for a square matrix: ``result[row] = column``."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = cost[i0 - 1]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    result = [0] * n
    for j in range(1, n + 1):
        result[p[j] - 1] = j - 1
    return result


def number_tables(
    groups: list[list[list[int]]],
    pinned: list[dict[int, int]],
    visits: dict[int, dict[int, int]],
    rng: random.Random,
) -> list[list[int]]:
    """For each round, the table number (0-based) of each group; ``pinned[r]`` maps group -> number.

    ``visits[p][number]`` counts earlier rounds (history) and is updated round by round.
    """
    numbers: list[list[int]] = []
    for r, tables in enumerate(groups):
        t = len(tables)
        fixed = pinned[r]
        free_groups = [k for k in range(t) if k not in fixed]
        free_numbers = sorted(set(range(t)) - set(fixed.values()))
        column = {num: j for j, num in enumerate(free_numbers)}
        cost = [[0] * len(free_numbers) for _ in free_groups]
        for row, k in enumerate(free_groups):
            for p in tables[k]:
                for num, times in visits.get(p, {}).items():
                    if num in column:
                        cost[row][column[num]] += times
        assigned = dict(fixed)
        if free_groups:
            choice = _hungarian(cost) if len(free_groups) <= 40 else _greedy(cost, rng)
            for row, k in enumerate(free_groups):
                assigned[k] = free_numbers[choice[row]]
        numbers.append([assigned[k] for k in range(t)])
        for k, table in enumerate(tables):
            for p in table:
                seen = visits.setdefault(p, {})
                seen[assigned[k]] = seen.get(assigned[k], 0) + 1
    return numbers


def _greedy(cost: list[list[int]], rng: random.Random) -> list[int]:
    n = len(cost)
    order = sorted(range(n), key=lambda i: (-sum(1 for c in cost[i] if c), rng.random()))
    taken = [False] * n
    choice = [0] * n
    for i in order:
        row = cost[i]
        best = min((row[j], j) for j in range(n) if not taken[j])[1]
        taken[best] = True
        choice[i] = best
    improved = True
    while improved:
        improved = False
        for i in range(n):
            if cost[i][choice[i]] == 0:
                continue
            for j in range(n):
                a, b = choice[i], choice[j]
                if cost[i][b] + cost[j][a] < cost[i][a] + cost[j][b]:
                    choice[i], choice[j] = b, a
                    improved = True
                    break
    return choice


def improve_numbers(
    groups: list[list[list[int]]],
    numbers: list[list[int]],
    pinned: list[dict[int, int]],
    history_visits: dict[int, dict[int, int]],
    rng: random.Random,
    *,
    target: int = 0,
    steps: int = 20_000,
    patience: int = 60_000,
    deadline: float | None = None,
) -> None:
    """Simulated annealing exchanging the numbers of two groups of one round to lower the returns, in place.

    Returns are counted as sum over players and numbers of max(0, visits - 1), history included; the search
    stops at ``target`` (a lower bound), after ``steps`` moves or at ``deadline`` (perf_counter).
    """
    counts: dict[int, dict[int, int]] = {p: dict(v) for p, v in history_visits.items()}
    for r, tables in enumerate(groups):
        for k, table in enumerate(tables):
            for p in table:
                seen = counts.setdefault(p, {})
                seen[numbers[r][k]] = seen.get(numbers[r][k], 0) + 1
    total = sum(max(0, c - 1) for seen in counts.values() for c in seen.values())

    def delta(r: int, k1: int, k2: int) -> int:
        x, y = numbers[r][k1], numbers[r][k2]
        d = 0
        for p in groups[r][k1]:
            c = counts[p]
            d += (1 if c.get(y, 0) >= 1 else 0) - (1 if c[x] > 1 else 0)
        for p in groups[r][k2]:
            c = counts[p]
            d += (1 if c.get(x, 0) >= 1 else 0) - (1 if c[y] > 1 else 0)
        return d

    def swap(r: int, k1: int, k2: int) -> None:
        x, y = numbers[r][k1], numbers[r][k2]
        for p in groups[r][k1]:
            counts[p][x] -= 1
            counts[p][y] = counts[p].get(y, 0) + 1
        for p in groups[r][k2]:
            counts[p][y] -= 1
            counts[p][x] = counts[p].get(x, 0) + 1
        numbers[r][k1], numbers[r][k2] = y, x

    rounds = [r for r in range(len(groups)) if len(groups[r]) - len(pinned[r]) > 1]
    best_total = total
    best_numbers = [list(row) for row in numbers]
    free = {r: [k for k in range(len(groups[r])) if k not in pinned[r]] for r in rounds}
    # Simulated annealing over exchanges of two groups' numbers in one round.
    temperature, final = 1.0, 0.1
    ratio = (final / temperature) ** (1.0 / max(1, steps))
    last_gain = 0
    for step in range(steps):
        if total <= target or not rounds or step - last_gain > patience:
            break
        if deadline is not None and step % 256 == 0 and time.perf_counter() > deadline:
            break
        temperature *= ratio
        r = rounds[rng.randrange(len(rounds))]
        ks = free[r]
        k1 = ks[rng.randrange(len(ks))]
        k2 = ks[rng.randrange(len(ks))]
        if k1 == k2:
            continue
        d = delta(r, k1, k2)
        if d > 0 and rng.random() >= math.exp(-d / temperature):
            continue
        swap(r, k1, k2)
        total += d
        if total < best_total:
            last_gain = step
            best_total = total
            best_numbers = [list(row) for row in numbers]
    for r, row in enumerate(best_numbers):
        numbers[r][:] = row


def reassign_rounds(
    groups: list[list[list[int]]],
    numbers: list[list[int]],
    pinned: list[dict[int, int]],
    history_visits: dict[int, dict[int, int]],
    rng: random.Random,
    *,
    passes: int = 6,
) -> None:
    """Block coordinate descent: renumber one round at a time optimally given all the others, in place.

    Returns are symmetric in the rounds (sum over players and numbers of max(0, visits - 1)), so the best
    numbering of one round given the rest is an assignment problem with cost "has this player sat at that
    number in another round"; no pass makes the total worse.
    """
    counts: dict[int, dict[int, int]] = {p: dict(v) for p, v in history_visits.items()}
    for r, tables in enumerate(groups):
        for k, table in enumerate(tables):
            for p in table:
                seen = counts.setdefault(p, {})
                seen[numbers[r][k]] = seen.get(numbers[r][k], 0) + 1
    if all(c <= 1 for seen in counts.values() for c in seen.values()):
        return
    order = list(range(len(groups)))
    for _ in range(passes):
        changed = False
        rng.shuffle(order)
        for r in order:
            tables = groups[r]
            for k, table in enumerate(tables):
                for p in table:
                    counts[p][numbers[r][k]] -= 1
            fixed = pinned[r]
            free_groups = [k for k in range(len(tables)) if k not in fixed]
            free_numbers = sorted(set(range(len(tables))) - set(fixed.values()))
            column = {num: j for j, num in enumerate(free_numbers)}
            cost = [[0] * len(free_numbers) for _ in free_groups]
            for row, k in enumerate(free_groups):
                for p in tables[k]:
                    for num, times in counts[p].items():
                        if times > 0 and num in column:
                            cost[row][column[num]] += 1
            if free_groups:
                before = sum(cost[i][free_numbers.index(numbers[r][k])] for i, k in enumerate(free_groups))
                choice = _hungarian(cost) if len(free_groups) <= 40 else _greedy(cost, rng)
                after = sum(cost[i][choice[i]] for i in range(len(free_groups)))
                if after < before:
                    changed = True
                    for i, k in enumerate(free_groups):
                        numbers[r][k] = free_numbers[choice[i]]
            for k, table in enumerate(tables):
                for p in table:
                    counts[p][numbers[r][k]] = counts[p].get(numbers[r][k], 0) + 1
        if not changed:
            break
