"""Tabu search over table groups: which four players share a table in each round.

The objective is a sum over pairs of a convex cost of their meetings, plus a per-meeting weight for pairs
that should not meet (teammates, same club, far apart in a Swiss standing). With total meetings fixed, a
convex pair cost is smallest when meetings are spread evenly, which gives the counting lower bound used to
stop early (see ``quality.lower_bound``). The moves swap two players of one round between tables; the player
to move is drawn from a pair that costs something, as in the conflict-directed tabu search for the social
golfer problem (Dotú and Van Hentenryck, 2005).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

REPEAT_WEIGHT = 10**6
"""Cost of each meeting beyond the first of one pair."""
WORST_WEIGHT = 2 * REPEAT_WEIGHT + 10**4
"""Cost of C(m-1, 2) for a pair meeting m times. A third meeting of one pair then costs more than three
pairs meeting twice (4 000 000 + 10 000 against 3 000 000): a tournament director would rather three more
pairs meet again than one pair sit together in all three sessions (12 players over 3 sessions: 9 repeated
pairs, none three times, instead of 6 with three pairs together every time; see docs/seating.md). Once
every pair has met, repeated pairs are fixed by the counting and this only spreads meetings evenly."""
ANNEAL_FLOOR = 0.05 * 10**4
"""The annealing's final temperature: low enough that no worsening move is accepted at the end."""
TEAM_WEIGHT = 10**10
CLUB_WEIGHT = 10**9

EVALUATIONS_PER_SECOND = 160_000
"""Calibration of the deterministic work budget: a search may evaluate this many swaps per second of its
time limit. The budget, not the clock, ends a normal search, so a seed gives the same plan on any machine at
least this fast; the clock only cuts the search short on a slower one. Calibrated so that a hard
cell uses about 85 % of its limit on an idle 2-core machine of this project's CI (the earlier 60,000 and
250,000 stopped it at 25-35 %, leaving quality on the table: 20 x 7 went from 24 repeated pairs to its bound
of 20, 36 x 11 from 30 to 27)."""
ANNEALING_MOVES_PER_SECOND = 660_000
"""The same calibration for the annealing moves. Sized so that on a hard cell the annealing phase, 75 % of the
budget, ends near 85 % of the time limit on an idle 2-core CI machine (measured 25 November: 24 x 8 at 87 %,
36 x 11 at 69 %): the time given is used; a slower or busier machine is stopped by the clock instead (then the
plan may depend on the load)."""


def pair_cost(meetings: int) -> int:
    """Cost of one pair meeting ``meetings`` times: repeats first, then a convex push on the worst pair."""
    if meetings <= 1:
        return 0
    extra = meetings - 1
    return REPEAT_WEIGHT * extra + WORST_WEIGHT * (extra * (extra - 1) // 2)


@dataclass
class SearchProblem:
    """Players are indices 0..n-1; each round seats its ``active`` players at ``len(active) // 4`` tables."""

    n: int
    active: list[list[int]]
    pins: list[dict[int, int]]
    base: list[int]
    extra: list[int] | None
    lower_bound: int
    history_pairs: tuple[int, ...] = ()
    """Indices a * n + b (a < b) of the pairs that met in the history, so costs never scan all pairs."""

    @property
    def tables(self) -> list[int]:
        return [len(a) // 4 for a in self.active]


@dataclass
class SearchResult:
    groups: list[list[list[int]]]
    cost: int
    iterations: int
    evaluations: int
    reached_bound: bool


def _deltas(max_meetings: int) -> list[int]:
    return [pair_cost(m + 1) - pair_cost(m) for m in range(max_meetings + 2)]


def total_cost(problem: SearchProblem, groups: list[list[list[int]]]) -> int:
    """The objective of ``groups`` from scratch (history counts included), touching only pairs that met."""
    n = problem.n
    base = problem.base
    extra = problem.extra
    planned: dict[int, int] = {}
    cost = 0
    for tables in groups:
        for table in tables:
            for i in range(4):
                a = table[i]
                for j in range(i + 1, 4):
                    b = table[j]
                    key = a * n + b if a < b else b * n + a
                    planned[key] = planned.get(key, 0) + 1
                    if extra is not None:
                        cost += extra[key]
    for key, times in planned.items():
        cost += pair_cost(base[key] + times)
    for key in problem.history_pairs:
        if key not in planned:
            cost += pair_cost(base[key])
    return cost


def initial_groups(problem: SearchProblem, rng: random.Random) -> list[list[list[int]]]:
    """Greedy start: pinned players at their tables, then each player at the cheapest open table."""
    n = problem.n
    cnt = list(problem.base)
    extra = problem.extra
    groups: list[list[list[int]]] = []
    for r, active in enumerate(problem.active):
        t = len(active) // 4
        tables: list[list[int]] = [[] for _ in range(t)]
        pins = problem.pins[r]
        for p, k in sorted(pins.items()):
            tables[k].append(p)
        free = [p for p in active if p not in pins]
        rng.shuffle(free)
        open_tables = [k for k in range(t) if len(tables[k]) < 4]
        for p in free:
            if len(open_tables) <= 8:
                candidates = open_tables
            else:
                size = len(open_tables)
                candidates = [open_tables[int(rng.random() * size)] for _ in range(8)]
            best_k = candidates[0]
            best = None
            row = p * n
            for k in candidates:
                c = 0
                for q in tables[k]:
                    m = cnt[row + q]
                    c += pair_cost(m + 1) - pair_cost(m)
                    if extra is not None:
                        c += extra[row + q]
                if best is None or c < best:
                    best = c
                    best_k = k
            tables[best_k].append(p)
            for q in tables[best_k]:
                if q != p:
                    cnt[row + q] += 1
                    cnt[q * n + p] += 1
            if len(tables[best_k]) == 4:
                open_tables.remove(best_k)
        groups.append(tables)
    return groups


def _search_state(
    problem: SearchProblem, groups: list[list[list[int]]]
) -> tuple[list[list[list[int]]], list[int], list[list[int]]]:
    """A private copy of ``groups``, the pair-meeting counts (history included) and each player's table
    per round: the state both searches update move by move."""
    n = problem.n
    groups = [[list(t) for t in tables] for tables in groups]
    cnt = list(problem.base)
    where: list[list[int]] = []
    for tables in groups:
        w = [-1] * n
        for k, table in enumerate(tables):
            for p in table:
                w[p] = k
            for i in range(4):
                for j in range(i + 1, 4):
                    a, b = table[i], table[j]
                    cnt[a * n + b] += 1
                    cnt[b * n + a] += 1
        where.append(w)
    return groups, cnt, where


def tabu_search(
    problem: SearchProblem,
    groups: list[list[list[int]]],
    rng: random.Random,
    *,
    budget: int,
    deadline: float,
) -> SearchResult:
    """Improve ``groups`` until the lower bound, the work ``budget`` or the ``deadline`` (perf_counter)."""
    n = problem.n
    extra = problem.extra
    rounds = len(groups)
    groups, cnt, where = _search_state(problem, groups)
    max_m = max(cnt) if cnt else 0
    dlt = _deltas(max_m + rounds + 2)
    cost = total_cost(problem, groups)
    best_cost = cost
    best_groups = [[list(t) for t in tables] for tables in groups]
    lower = problem.lower_bound
    pinned = [set(p) for p in problem.pins]
    tabu = [[0] * n for _ in range(rounds)]
    it = 0
    work = 0
    last_improvement = 0
    stall_limit = 400 + 20 * n
    movable_rounds = [r for r in range(rounds) if len(groups[r]) > 1]

    def bad_players(r: int) -> list[int]:
        """Players of round r in a pair that costs something; half the time only the costliest pairs."""
        out: list[int] = []
        top: list[int] = []
        top_cost = 0
        for table in groups[r]:
            for i in range(4):
                a = table[i]
                row = a * n
                for j in range(i + 1, 4):
                    b = table[j]
                    c = dlt[cnt[row + b] - 1]
                    if extra is not None:
                        c += extra[row + b]
                    if c > 0:
                        out.append(a)
                        out.append(b)
                        if c > top_cost:
                            top_cost = c
                            top = [a, b]
                        elif c == top_cost:
                            top.append(a)
                            top.append(b)
        if top and len(top) < len(out) and rng.random() < 0.5:
            return top
        return out

    def apply_swap(r: int, a: int, b: int) -> None:
        w = where[r]
        ka, kb = w[a], w[b]
        ta, tb = groups[r][ka], groups[r][kb]
        for x in ta:
            if x != a:
                cnt[a * n + x] -= 1
                cnt[x * n + a] -= 1
                cnt[b * n + x] += 1
                cnt[x * n + b] += 1
        for y in tb:
            if y != b:
                cnt[b * n + y] -= 1
                cnt[y * n + b] -= 1
                cnt[a * n + y] += 1
                cnt[y * n + a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        w[a], w[b] = kb, ka

    while movable_rounds and cost > lower and work < budget:
        if it & 63 == 0 and time.perf_counter() > deadline:
            break
        it += 1
        if it - last_improvement > stall_limit:
            # Restart from the best plan, shaken by a few random swaps.
            for r in range(rounds):
                for k in range(len(groups[r])):
                    groups[r][k][:] = best_groups[r][k]
                for k, table in enumerate(groups[r]):
                    for p in table:
                        where[r][p] = k
            cnt[:] = problem.base
            for tables in groups:
                for table in tables:
                    for i in range(4):
                        for j in range(i + 1, 4):
                            a, b = table[i], table[j]
                            cnt[a * n + b] += 1
                            cnt[b * n + a] += 1
            for _ in range(1 + rng.randrange(max(2, n // 8))):
                r = rng.choice(movable_rounds)
                cand = [p for tb in groups[r] for p in tb if p not in pinned[r]]
                if len(cand) < 2:
                    continue
                a, b = rng.sample(cand, 2)
                if where[r][a] != where[r][b]:
                    apply_swap(r, a, b)
            cost = total_cost(problem, groups)
            last_improvement = it
            continue
        r = movable_rounds[rng.randrange(len(movable_rounds))]
        bad: list[int] = []
        for step in range(len(movable_rounds)):
            rr = movable_rounds[(movable_rounds.index(r) + step) % len(movable_rounds)]
            bad = [p for p in bad_players(rr) if p not in pinned[rr]]
            if bad:
                r = rr
                break
        if not bad:
            break
        tab = tabu[r]
        fresh = [p for p in bad if tab[p] <= it]
        a = rng.choice(fresh or bad)
        w = where[r]
        ka = w[a]
        ta = groups[r][ka]
        rowa = a * n
        others_a = [x for x in ta if x != a]
        remove_a = 0
        for x in others_a:
            remove_a += dlt[cnt[rowa + x] - 1]
            if extra is not None:
                remove_a += extra[rowa + x]
        best_delta = None
        best_moves: list[int] = []
        pins_r = pinned[r]
        aspiration = best_cost - cost
        for kb, tb in enumerate(groups[r]):
            if kb == ka:
                continue
            add_a = [dlt[cnt[rowa + y]] for y in tb]
            if extra is not None:
                add_a = [add_a[i] + extra[rowa + tb[i]] for i in range(4)]
            sum_add_a = add_a[0] + add_a[1] + add_a[2] + add_a[3]
            for i in range(4):
                b = tb[i]
                if b in pins_r:
                    continue
                rowb = b * n
                d = sum_add_a - add_a[i] - remove_a
                for y in tb:
                    if y != b:
                        d -= dlt[cnt[rowb + y] - 1]
                        if extra is not None:
                            d -= extra[rowb + y]
                for x in others_a:
                    d += dlt[cnt[rowb + x]]
                    if extra is not None:
                        d += extra[rowb + x]
                if tab[b] > it and d >= aspiration:
                    continue
                if best_delta is None or d < best_delta:
                    best_delta = d
                    best_moves = [b]
                elif d == best_delta:
                    best_moves.append(b)
            work += 4
        if best_delta is None:
            continue
        b = best_moves[rng.randrange(len(best_moves))] if len(best_moves) > 1 else best_moves[0]
        apply_swap(r, a, b)
        cost += best_delta
        tenure = 3 + rng.randrange(8)
        tab[a] = it + tenure
        tab[b] = it + tenure
        if cost < best_cost:
            best_cost = cost
            best_groups = [[list(t) for t in tables] for tables in groups]
            last_improvement = it
    return SearchResult(
        groups=best_groups,
        cost=best_cost,
        iterations=it,
        evaluations=work,
        reached_bound=best_cost <= lower,
    )


def anneal(
    problem: SearchProblem,
    groups: list[list[list[int]]],
    rng: random.Random,
    *,
    budget: int,
    deadline: float,
    start_temperature: float = 2.0 * REPEAT_WEIGHT,
    end_temperature: float = ANNEAL_FLOOR,
) -> SearchResult:
    """Simulated annealing over the same swaps, with geometric cooling over ``budget`` evaluations.

    Cheaper moves than the tabu search (one random swap each), better at the last few repeats or the worst
    pair of small dense cases (20 players over 7 or 10 rounds).
    """
    n = problem.n
    extra = problem.extra
    rounds = len(groups)
    groups, cnt, where = _search_state(problem, groups)
    dlt = _deltas(max(cnt, default=0) + rounds + 2)
    cost = total_cost(problem, groups)
    best_cost = cost
    best_groups = [[list(t) for t in tables] for tables in groups]
    lower = problem.lower_bound
    movable = [
        [p for tb in groups[r] for p in tb if p not in problem.pins[r]] if len(groups[r]) > 1 else []
        for r in range(rounds)
    ]
    movable_rounds = [r for r in range(rounds) if len(movable[r]) > 1]
    if not movable_rounds or budget <= 0:
        return SearchResult(best_groups, best_cost, 0, 0, best_cost <= lower)
    # The temperature follows progress = max(share of the budget, share of the time): on a fast machine the
    # budget decides (deterministic); on a slow one the clock does, and the search still cools down fully.
    began = time.perf_counter()
    span = max(1e-9, deadline - began)
    log_ratio = math.log(end_temperature / start_temperature)
    temperature = start_temperature
    it = 0
    while it < budget and cost > lower:
        if it & 1023 == 0:
            progress = max(it / budget, (time.perf_counter() - began) / span)
            if progress >= 1.0:
                break
            temperature = start_temperature * math.exp(log_ratio * progress)
        it += 1
        r = movable_rounds[rng.randrange(len(movable_rounds))]
        mv = movable[r]
        a = mv[rng.randrange(len(mv))]
        b = mv[rng.randrange(len(mv))]
        w = where[r]
        ka, kb = w[a], w[b]
        if ka == kb:
            continue
        ta, tb = groups[r][ka], groups[r][kb]
        rowa, rowb = a * n, b * n
        d = 0
        for x in ta:
            if x != a:
                d += dlt[cnt[rowb + x]] - dlt[cnt[rowa + x] - 1]
                if extra is not None:
                    d += extra[rowb + x] - extra[rowa + x]
        for y in tb:
            if y != b:
                d += dlt[cnt[rowa + y]] - dlt[cnt[rowb + y] - 1]
                if extra is not None:
                    d += extra[rowa + y] - extra[rowb + y]
        if d > 0 and rng.random() >= math.exp(-d / temperature):
            continue
        for x in ta:
            if x != a:
                cnt[rowa + x] -= 1
                cnt[x * n + a] -= 1
                cnt[rowb + x] += 1
                cnt[x * n + b] += 1
        for y in tb:
            if y != b:
                cnt[rowb + y] -= 1
                cnt[y * n + b] -= 1
                cnt[rowa + y] += 1
                cnt[y * n + a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        w[a], w[b] = kb, ka
        cost += d
        if cost < best_cost:
            best_cost = cost
            best_groups = [[list(t) for t in tables] for tables in groups]
    return SearchResult(best_groups, best_cost, it, it, best_cost <= lower)


def polish_returns(
    problem: SearchProblem,
    groups: list[list[list[int]]],
    rng: random.Random,
    *,
    history_visits: dict[int, dict[int, int]],
    target: int,
    budget: int,
    deadline: float,
) -> list[list[list[int]]]:
    """Move players between tables of a round to cut returns to a table number, never worsening pairs.

    Here a group's position in its round is its table number. A swap is taken when it costs nothing on the
    pair objective (repeats, worst pair, teammates) and does not add returns, or, rarely, adds one (a random
    walk over plateaus). Returns are counted as sum over players and numbers of max(0, visits - 1).
    """
    n = problem.n
    extra = problem.extra
    groups = [[list(t) for t in tables] for tables in groups]
    rounds = len(groups)
    cnt = list(problem.base)
    visits: list[dict[int, int]] = [dict(history_visits.get(p, {})) for p in range(n)]
    where: list[list[int]] = []
    for tables in groups:
        w = [-1] * n
        for k, table in enumerate(tables):
            for p in table:
                w[p] = k
                visits[p][k] = visits[p].get(k, 0) + 1
            for i in range(4):
                for j in range(i + 1, 4):
                    a, b = table[i], table[j]
                    cnt[a * n + b] += 1
                    cnt[b * n + a] += 1
        where.append(w)
    returns = sum(max(0, c - 1) for v in visits for c in v.values())
    best_returns, best = returns, [[list(t) for t in tables] for tables in groups]
    dlt = _deltas(max(cnt, default=0) + rounds + 2)
    movable = [
        [p for tb in groups[r] for p in tb if p not in problem.pins[r]] if len(groups[r]) > 1 else []
        for r in range(rounds)
    ]
    movable_rounds = [r for r in range(rounds) if len(movable[r]) > 1]
    step = 0
    while movable_rounds and returns > target and step < budget:
        step += 1
        if step & 1023 == 0 and time.perf_counter() > deadline:
            break
        r = movable_rounds[rng.randrange(len(movable_rounds))]
        mv = movable[r]
        a = mv[rng.randrange(len(mv))]
        w = where[r]
        ka = w[a]
        if visits[a][ka] <= 1 and rng.random() < 0.9:
            continue
        b = mv[rng.randrange(len(mv))]
        kb = w[b]
        if ka == kb:
            continue
        va, vb = visits[a], visits[b]
        dr = (
            (1 if va.get(kb, 0) >= 1 else 0)
            - (1 if va[ka] > 1 else 0)
            + (1 if vb.get(ka, 0) >= 1 else 0)
            - (1 if vb[kb] > 1 else 0)
        )
        if dr > 0 and rng.random() > 0.02:
            continue
        ta, tb = groups[r][ka], groups[r][kb]
        rowa, rowb = a * n, b * n
        d = 0
        for x in ta:
            if x != a:
                d += dlt[cnt[rowb + x]] - dlt[cnt[rowa + x] - 1]
                if extra is not None:
                    d += extra[rowb + x] - extra[rowa + x]
        for y in tb:
            if y != b:
                d += dlt[cnt[rowa + y]] - dlt[cnt[rowb + y] - 1]
                if extra is not None:
                    d += extra[rowa + y] - extra[rowb + y]
        if d > 0:
            continue
        for x in ta:
            if x != a:
                cnt[rowa + x] -= 1
                cnt[x * n + a] -= 1
                cnt[rowb + x] += 1
                cnt[x * n + b] += 1
        for y in tb:
            if y != b:
                cnt[rowb + y] -= 1
                cnt[y * n + b] -= 1
                cnt[rowa + y] += 1
                cnt[y * n + a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        w[a], w[b] = kb, ka
        va[ka] -= 1
        va[kb] = va.get(kb, 0) + 1
        vb[kb] -= 1
        vb[ka] = vb.get(ka, 0) + 1
        returns += dr
        if returns < best_returns:
            best_returns, best = returns, [[list(t) for t in tables] for tables in groups]
    return best
