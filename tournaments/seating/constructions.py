"""Exact constructions of rounds in which no two players meet twice.

- ``affine_classes``: N = 4^m players as the affine space AG(m, 4); the parallel classes of its lines are
  (N - 1) / 3 rounds where every pair meets exactly once (a resolvable 2-(N, 4, 1) design).
- ``binary_spread_classes``: N = 2^k players as F_2^k; cosets of pairwise trivially-intersecting 2-dimensional
  subspaces (a partial line spread of PG(k-1, 2)) give rounds without repeats (9 rounds for N = 32).
- ``transversal_classes``: N = 4q players, q a prime or a power of two at least 4; a resolvable transversal
  design TD(4, q) gives q rounds without repeats (blocks {(i, a + b*t_i)}).
- ``binary_quotient_classes``: N = 32, ten rounds without repeats (the most possible: 3 * 10 = 30 of 31
  opponents), from rounds invariant under translation by a subgroup of order 8 of F_2^5.
- ``transversal_group_classes``: 20 players over 7 rounds with 24 repeated pairs, worst pair 2 (TD(4, 5) and
  two rounds within its groups).
- ``cyclic_classes``: N = g*L + F players as Z_g x L levels plus F fixed points; one base round found by a
  small local search so that every pure and mixed difference occurs at most once, developed over Z_g into
  g rounds without repeats (the 1-rotational method for resolvable designs). It settles N = 40 over 10
  rounds, where a plain search struggles.

Each function returns rounds as lists of 4-point tables over points 0..N-1, or None when it does not apply.
"""

from __future__ import annotations

import itertools
import random
import time

Rounds = list[list[list[int]]]

_GF2_POLY = {2: 0b111, 3: 0b1011, 4: 0b10011, 5: 0b100101, 6: 0b1000011, 7: 0b10000011, 8: 0b100011011}


def _gf2_mul(a: int, b: int, k: int) -> int:
    poly = _GF2_POLY[k]
    out = 0
    while b:
        if b & 1:
            out ^= a
        b >>= 1
        a <<= 1
        if a >> k:
            a ^= poly
    return out


def _is_prime(q: int) -> bool:
    return q >= 2 and all(q % d for d in range(2, int(q**0.5) + 1))


def affine_classes(n: int) -> Rounds | None:
    """AG(m, 4) for n = 4^m: points are vectors over GF(4) packed two bits per coordinate."""
    m = 0
    while 4**m < n:
        m += 1
    if m < 1 or 4**m != n:
        return None

    def scale(c: int, v: int) -> int:
        out = 0
        for i in range(m):
            out |= _gf2_mul(c, (v >> (2 * i)) & 3, 2) << (2 * i)
        return out

    rounds: Rounds = []
    seen: set[frozenset[int]] = set()
    for v in range(1, n):
        line = frozenset({0, v, scale(2, v), scale(3, v)})
        if line in seen:
            continue
        seen.add(line)
        tables: list[list[int]] = []
        covered: set[int] = set()
        for x in range(n):
            if x not in covered:
                table = sorted(x ^ u for u in line)
                covered.update(table)
                tables.append(table)
        rounds.append(tables)
    return rounds


def binary_spread_classes(n: int, rng: random.Random, attempts: int = 200) -> Rounds | None:
    """F_2^k for n = 2^k: a randomised greedy partial spread of 2-dimensional subspaces, best of ``attempts``."""
    k = n.bit_length() - 1
    if k < 2 or 1 << k != n:
        return None
    lines = [(a, b, a ^ b) for a in range(1, n) for b in range(a + 1, n) if (a ^ b) > b]
    best: list[tuple[int, int, int]] = []
    target = (n - 1) // 3 if k % 2 == 0 else (n - 5) // 3
    for _ in range(attempts):
        rng.shuffle(lines)
        used: set[int] = set()
        chosen = []
        for line in lines:
            if not used.intersection(line):
                used.update(line)
                chosen.append(line)
        if len(chosen) > len(best):
            best = chosen
        if len(best) >= target:
            break
    rounds: Rounds = []
    for a, b, c in best:
        tables = []
        covered: set[int] = set()
        for x in range(n):
            if x not in covered:
                table = sorted((x, x ^ a, x ^ b, x ^ c))
                covered.update(table)
                tables.append(table)
        rounds.append(tables)
    return rounds


def transversal_classes(n: int) -> Rounds | None:
    """Resolvable TD(4, q) for n = 4q, q prime or a power of two, q >= 4: q rounds, groups never meet."""
    if n % 4:
        return None
    q = n // 4
    if q < 4:
        return None
    if _is_prime(q):

        def add(a: int, b: int) -> int:
            return (a + b) % q

        def mul(a: int, b: int) -> int:
            return a * b % q

    elif q & (q - 1) == 0 and (q.bit_length() - 1) in _GF2_POLY:
        k = q.bit_length() - 1

        def add(a: int, b: int) -> int:
            return a ^ b

        def mul(a: int, b: int) -> int:
            return _gf2_mul(a, b, k)

    else:
        return None
    ts = (0, 1, 2, 3)
    lam = 4 if q > 4 else 0
    rounds: Rounds = []
    for b in range(q):
        # Table k of round b is block a = k - lam*b: with lam outside {t_i}, a player never returns to a
        # table number within q rounds (x - b*t_i + lam*b is injective in b).
        by_number: dict[int, list[int]] = {}
        for a in range(q):
            number = add(a, mul(lam, b))
            by_number[number] = [i * q + add(a, mul(b, ts[i])) for i in range(4)]
        rounds.append([by_number[k] for k in range(q)])
    return rounds


def cyclic_shape(n: int, rounds_needed: int, orbits: int = 1) -> tuple[int, int, int, int] | None:
    """(g, levels, fixed points, slack) of the cyclic method for n players over ``rounds_needed`` rounds.

    Slack is the number of difference types left unused by a solution; None when the counting fails.
    """
    if orbits < 1 or rounds_needed % orbits or n % 4:
        return None
    g = rounds_needed // orbits
    if g < 2:
        return None
    levels = n // g
    fixed = n - levels * g
    while levels >= 3 and fixed > n // 4:
        levels -= 1
        fixed += g
    if levels < 3 or fixed > n // 4 or fixed * orbits > levels * fixed:
        return None
    available = levels * ((g - 1) // 2) + levels * (levels - 1) // 2 * g
    needed = orbits * (6 * (n // 4) - 3 * fixed)
    if needed > available:
        return None
    return g, levels, fixed, available - needed


def cyclic_classes(
    n: int,
    rounds_needed: int,
    rng: random.Random,
    *,
    orbits: int = 1,
    max_steps: int = 200_000,
    deadline: float | None = None,
    restart_after: int = 3000,
    allow_tight: bool = False,
) -> Rounds | None:
    """Develop ``orbits`` base rounds over Z_g (g = rounds_needed / orbits), points (x, level) and fixed points.

    The base rounds are partitions into tables with every difference type used at most once over all of
    them: a pure difference ±d within a level, a mixed difference (level i, level j, y - x), or a fixed point
    with a level. Then the g translates of each are rounds in which no pair meets twice. Returns None when
    the counting condition fails, when it leaves no slack (unless ``allow_tight``), or when the search does
    not finish in ``max_steps`` moves (restarting after ``restart_after`` moves without progress).
    """
    shape = cyclic_shape(n, rounds_needed, orbits)
    if shape is None:
        return None
    g, levels, _fixed, slack = shape
    if slack == 0 and not allow_tight:
        # With no slack at all (32 players over 10 rounds) this search has never succeeded: skip it.
        return None
    finite = levels * g

    def kind(p: int, q: int) -> tuple[int, ...] | None:
        """Difference type of a pair; None for a pair that would meet in several rounds anyway."""
        if p > q:
            p, q = q, p
        if q >= finite:
            if p >= finite:
                return None
            return (2, q - finite, p // g)
        li, xi = divmod(p, g)
        lj, xj = divmod(q, g)
        if li == lj:
            d = (xj - xi) % g
            d = min(d, g - d)
            if 2 * d == g:
                return None
            return (0, li, d)
        return (1, li, lj, (xj - xi) % g)

    # Difference types as small integers; type 0 marks pairs that would meet in several rounds.
    type_ids: dict[tuple[int, ...], int] = {}
    kid = [0] * (n * n)
    for p in range(n):
        for q in range(p + 1, n):
            key = kind(p, q)
            value = 0 if key is None else type_ids.setdefault(key, len(type_ids) + 1)
            kid[p * n + q] = kid[q * n + p] = value
    counts = [0] * (len(type_ids) + 1)

    def bump(t: int, sign: int) -> int:
        old = counts[t]
        counts[t] = old + sign
        if t == 0:
            return 100 * sign
        return (1 if old + sign > 1 else 0) * sign if sign > 0 else (-1 if old > 1 else 0)

    classes: list[list[list[int]]] = []
    current = 0
    for _ in range(orbits):
        points = list(range(n))
        rng.shuffle(points)
        blocks = [points[4 * i : 4 * i + 4] for i in range(n // 4)]
        for block in blocks:
            for p, q in itertools.combinations(block, 2):
                current += bump(kid[p * n + q], 1)
        classes.append(blocks)

    def swap_delta(a: list[int], b: list[int], i: int, j: int, sign: int) -> int:
        p, q = a[i], b[j]
        rp, rq = p * n, q * n
        d = 0
        for x in a:
            if x != p:
                d += bump(kid[rp + x], -sign)
                d += bump(kid[rq + x], sign)
        for y in b:
            if y != q:
                d += bump(kid[rq + y], -sign)
                d += bump(kid[rp + y], sign)
        return d

    def block_bad(block: list[int]) -> bool:
        for i in range(4):
            row = block[i] * n
            for j in range(i + 1, 4):
                t = kid[row + block[j]]
                if t == 0 or counts[t] > 1:
                    return True
        return False

    tabu: dict[tuple[int, int], int] = {}
    step = 0
    size = n // 4
    best_seen, last_gain = current, 0
    while current > 0 and step < max_steps:
        step += 1
        if deadline is not None and step % 16 == 0 and time.perf_counter() > deadline:
            break
        if current < best_seen:
            best_seen, last_gain = current, step
        elif step - last_gain > restart_after:
            # Heavy-tailed run times: start again from a fresh random base round.
            for blocks in classes:
                points = [p for block in blocks for p in block]
                rng.shuffle(points)
                blocks[:] = [points[4 * i : 4 * i + 4] for i in range(size)]
            counts[:] = [0] * len(counts)
            current = 0
            for blocks in classes:
                for block in blocks:
                    for p, q in itertools.combinations(block, 2):
                        current += bump(kid[p * n + q], 1)
            best_seen, last_gain = current, step
            continue
        blocks = classes[rng.randrange(orbits)]
        bad = [k for k, block in enumerate(blocks) if block_bad(block)]
        bi = rng.choice(bad) if bad else rng.randrange(size)
        best: tuple[int, int, int] | None = None
        ties = 0
        for bj in range(size):
            if bj == bi:
                continue
            for i in range(4):
                for j in range(4):
                    d = swap_delta(blocks[bi], blocks[bj], i, j, 1)
                    swap_delta(blocks[bi], blocks[bj], i, j, -1)
                    if tabu.get((blocks[bi][i], bj), 0) > step and current + d > 0:
                        continue
                    if best is None or d < best[0]:
                        best = (d, bj, i * 4 + j)
                        ties = 1
                    elif d == best[0]:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best = (d, bj, i * 4 + j)
        if best is None:
            continue
        d, bj, ij = best
        i, j = divmod(ij, 4)
        p, q = blocks[bi][i], blocks[bj][j]
        current += swap_delta(blocks[bi], blocks[bj], i, j, 1)
        blocks[bi][i], blocks[bj][j] = q, p
        tabu[(p, bi)] = step + 2 + rng.randrange(6)
        tabu[(q, bj)] = step + 2 + rng.randrange(6)
    if current > 0:
        return None

    def shift(p: int, t: int) -> int:
        if p >= finite:
            return p
        level, x = divmod(p, g)
        return level * g + (x + t) % g

    return [[sorted(shift(p, t) for p in block) for block in blocks] for blocks in classes for t in range(g)]


_COSET_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def binary_quotient_classes(n: int, rng: random.Random, attempts: int = 20_000) -> Rounds | None:
    """Ten rounds for 32 players with no pair twice (a resolvable 4-GDD of type 2^16), built in F_2^5.

    Points are (k, c): k in K = F_2^3, c one of the four cosets of K. Every round is invariant under
    translation by K, so a pair is covered together with its whole K-orbit and the search is tiny:
    - six "transversal" rounds, blocks {(h, 0), (h + k1, 1), (h + k2, 2), (h + k3, 3)} for a triple (k1, k2, k3),
      with the six triples giving distinct values k_a + k_b on every pair of cosets (a, b);
    - three rounds pairing the cosets by a perfect matching, each pair (a, b) holding blocks
      {(h, a), (h + s, a), (h + d, b), (h + d + s, b)} where d, d + s are the two values the triples left on (a, b);
    - one round splitting each coset into the cosets of a plane of K avoiding the three s values used there.
    Each coset then misses one difference, so the pairs left over form a perfect matching (16 pairs).
    Random triples are drawn until the s values fit (usually at once); None for n != 32 or after ``attempts``.
    """
    if n != 32:
        return None
    lines = [(a, b, a ^ b) for a in range(1, 8) for b in range(a + 1, 8) if (a ^ b) > b]
    for _ in range(attempts):
        used: list[set[int]] = [set() for _ in _COSET_PAIRS]
        triples: list[tuple[int, int, int, int]] = []
        for _ in range(6):
            for _ in range(300):
                k = (0, rng.randrange(8), rng.randrange(8), rng.randrange(8))
                values = [k[a] ^ k[b] for a, b in _COSET_PAIRS]
                if all(values[i] not in used[i] for i in range(6)):
                    for i in range(6):
                        used[i].add(values[i])
                    triples.append(k)
                    break
            else:
                break
        if len(triples) < 6:
            continue
        left = [sorted(set(range(8)) - used[i]) for i in range(6)]
        s_values = [pair[0] ^ pair[1] for pair in left]
        planes: list[tuple[int, int, int]] = []
        for c in range(4):
            around = [s_values[i] for i, pair in enumerate(_COSET_PAIRS) if c in pair]
            if len(set(around)) != 3:
                break
            free = [line for line in lines if not set(line) & set(around)]
            if not free:
                break
            planes.append(free[rng.randrange(len(free))])
        if len(planes) < 4:
            continue

        def point(k: int, c: int) -> int:
            return c * 8 + k

        rounds: Rounds = []
        for k in triples:
            rounds.append([sorted(point(h ^ k[c], c) for c in range(4)) for h in range(8)])
        for matching in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))):
            tables: list[list[int]] = []
            for a, b in matching:
                i = _COSET_PAIRS.index((a, b))
                d, s = left[i][0], s_values[i]
                seen: set[int] = set()
                for h in range(8):
                    if h in seen:
                        continue
                    seen.update((h, h ^ s))
                    tables.append(
                        sorted((point(h, a), point(h ^ s, a), point(h ^ d, b), point(h ^ d ^ s, b)))
                    )
            rounds.append(tables)
        last: list[list[int]] = []
        for c, (p, q, r) in enumerate(planes):
            seen = set()
            for h in range(8):
                if h not in seen:
                    block = (h, h ^ p, h ^ q, h ^ r)
                    seen.update(block)
                    last.append(sorted(point(x, c) for x in block))
        rounds.append(last)
        return rounds
    return None


def transversal_group_classes(n: int) -> Rounds | None:
    """Seven rounds for 20 players with 24 repeated pairs and no pair three times (counting bound 20).

    The five rounds of the resolvable TD(4, 5) (``transversal_classes``) seat every pair from different
    groups exactly once and no pair within a group. Two more rounds seat the groups {0..4}, {5..9}, ...:
    round 6 puts four players of each group at a table, the fifth ones x_i together; round 7 puts x_i with
    three of the four others of its group, and the four left over together. Round 6 misses the four pairs
    {x_i, d_i}, round 7 repeats the three pairs of each group's trio and both rounds repeat one table of
    cross-group pairs: 6 + 18 = 24 repeated pairs. None for other sizes.
    """
    if n != 20:
        return None
    rounds = transversal_classes(20)
    assert rounds is not None
    q = 5
    groups = [list(range(i * q, (i + 1) * q)) for i in range(4)]
    sixth = [g[:4] for g in groups] + [[g[4] for g in groups]]
    seventh = [[*g[:3], g[4]] for g in groups] + [[g[3] for g in groups]]
    return [*rounds, sixth, seventh]
