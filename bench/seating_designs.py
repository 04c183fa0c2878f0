"""Find the base rounds stored in ``tournaments/seating/designs.py`` (an offline search, minutes at most).

    .venv/bin/python bench/seating_designs.py --players 28 --method cyclic      # seconds
    .venv/bin/python bench/seating_designs.py --players 40 --method backtrack   # about two minutes
    .venv/bin/python bench/seating_designs.py --players 52 --method orbit       # about two minutes
    .venv/bin/python bench/seating_designs.py --players 56 --rounds 17 --method cyclic   # packings

A base round is a partition of the points (x, level), x in Z_g, plus fixed points, into tables of four such
that every difference type (±d within a level, (level i, level j, y - x) between levels, a fixed point with a
level) occurs at most once; developed over Z_g it gives g rounds without a repeat. Methods:

- ``cyclic``: the engine's own conflict-directed tabu search (``constructions.cyclic_classes``), tight
  shapes allowed; with ``--rounds R`` a repeat-free packing of R rounds (the shape of ``cyclic_shape``).
- ``orbit`` / ``backtrack``: base rounds also invariant under the level rotation (x, l) -> (x, l + 1)
  (v = 3g + 1 with 3 not dividing g), by annealing or by depth-first search: a much smaller problem.
- ``tabu`` / ``exhaustive``: several base rounds over Z_g x levels where the half difference g/2 may be
  used once (its pairs then meet twice): the search for the 24-player covering with 12 repeated pairs
  (``SHAPES[24]``; tried over Z_8 x 3, Z_4 x 6 and Z_2 x 12 levels without success so far).

It prints each design as a ``CyclicDesign`` literal to paste into ``designs.py``, after checking it with
``designs.verify``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import constructions
from tournaments.seating.designs import CyclicDesign, verify

# players: (g, levels, fixed points, repeated pairs, max meetings, source)
SHAPES: dict[int, tuple[int, int, int, int, int]] = {
    28: (9, 3, 1, 0, 1),
    40: (13, 3, 1, 0, 1),
    52: (17, 3, 1, 0, 1),
    64: (21, 3, 1, 0, 1),
    76: (25, 3, 1, 0, 1),
    24: (2, 12, 0, 12, 2),
}


def type_table(n: int, g: int, levels: int) -> tuple[list[int], int]:
    """Difference type of every pair as a small integer (0: a pair the method cannot use)."""
    finite = g * levels
    ids: dict[tuple[int, ...], int] = {}
    kid = [0] * (n * n)
    for p in range(n):
        for q in range(p + 1, n):
            if q >= finite:
                key: tuple[int, ...] | None = None if p >= finite else (2, q - finite, p // g)
            else:
                li, xi = divmod(p, g)
                lj, xj = divmod(q, g)
                if li == lj:
                    d = (xj - xi) % g
                    key = (0, li, min(d, g - d))
                else:
                    key = (1, li, lj, (xj - xi) % g)
            value = 0 if key is None else ids.setdefault(key, len(ids) + 1)
            kid[p * n + q] = kid[q * n + p] = value
    return kid, len(ids) + 1


def tabu_base_round(
    n: int, g: int, levels: int, rng: random.Random, deadline: float, classes: int = 1
) -> list[list[int]] | None:
    """Base rounds (``classes`` of them) with every difference type at most once over all of them (the half
    difference g/2 counts as a type), by a conflict-directed tabu search over swaps of two points of one
    round; None when it stalls (restart). Rounds are returned one after the other, n / 4 tables each."""
    real, types = type_table(n, g, levels)
    n_real = n
    n = classes * n_real  # point c * n_real + p is point p in base round c
    kid = [
        real[(u % n_real) * n_real + v % n_real] if u // n_real == v // n_real else 0
        for u in range(n)
        for v in range(n)
    ]
    counts = [0] * types

    def over(t: int) -> int:
        return 1000 if t == 0 else 1

    blocks = []
    for c in range(classes):
        points = list(range(c * n_real, (c + 1) * n_real))
        rng.shuffle(points)
        blocks.extend(points[4 * i : 4 * i + 4] for i in range(n_real // 4))
    where = [0] * n
    for b, block in enumerate(blocks):
        for p in block:
            where[p] = b
        for i in range(4):
            for j in range(i + 1, 4):
                counts[kid[block[i] * n + block[j]]] += 1
    cost = sum(max(0, c - 1) * over(t) for t, c in enumerate(counts))
    tabu = [0] * n
    step = 0
    best, last = cost, 0
    while cost > 0:
        step += 1
        if step & 255 == 0 and time.perf_counter() > deadline:
            return None
        if cost < best:
            best, last = cost, step
        elif step - last > 200 * n:
            return None
        conflicted = [
            (block[i], block[j])
            for block in blocks
            for i in range(4)
            for j in range(i + 1, 4)
            if counts[kid[block[i] * n + block[j]]] > 1 or kid[block[i] * n + block[j]] == 0
        ]
        a = rng.choice(rng.choice(conflicted))
        ba = where[a]
        best_d, moves = None, []
        for b in range(n):
            bb = where[b]
            if bb == ba or b // n_real != a // n_real:
                continue
            d = 0
            removed = [kid[a * n + x] for x in blocks[ba] if x != a] + [
                kid[b * n + y] for y in blocks[bb] if y != b
            ]
            added = [kid[b * n + x] for x in blocks[ba] if x != a] + [
                kid[a * n + y] for y in blocks[bb] if y != b
            ]
            for t in removed:
                d -= over(t) if counts[t] > 1 else 0
                counts[t] -= 1
            for t in added:
                d += over(t) if counts[t] >= 1 else 0
                counts[t] += 1
            for t in added:
                counts[t] -= 1
            for t in removed:
                counts[t] += 1
            if tabu[b] > step and cost + d >= best:
                continue
            if best_d is None or d < best_d:
                best_d, moves = d, [b]
            elif d == best_d:
                moves.append(b)
        if not moves:
            continue
        b = rng.choice(moves)
        bb = where[b]
        for x in blocks[ba]:
            if x != a:
                counts[kid[a * n + x]] -= 1
                counts[kid[b * n + x]] += 1
        for y in blocks[bb]:
            if y != b:
                counts[kid[b * n + y]] -= 1
                counts[kid[a * n + y]] += 1
        blocks[ba][blocks[ba].index(a)] = b
        blocks[bb][blocks[bb].index(b)] = a
        where[a], where[b] = bb, ba
        cost += best_d or 0
        tabu[a] = step + 5 + rng.randrange(10)
    return [sorted(p % n_real for p in block) for block in blocks]


def backtrack_base_round(
    n: int, g: int, levels: int, rng: random.Random, deadline: float
) -> list[list[int]] | None:
    """A base round with every difference type at most once by depth-first search (exhaustive when it
    returns None before the deadline): points in a shuffled order, each into a table, a type never twice."""
    kid, types = type_table(n, g, levels)
    order = list(range(n))
    rng.shuffle(order)
    blocks: list[list[int]] = [[] for _ in range(n // 4)]
    used = [0] * types
    used[0] = 1  # pairs the method cannot use
    nodes = 0

    def place(i: int) -> bool:
        nonlocal nodes
        if i == n:
            return True
        nodes += 1
        if nodes & 4095 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        p = order[i]
        opened = False
        for block in blocks:
            if len(block) == 4:
                continue
            if not block:
                if opened:
                    continue
                opened = True
            ts = [kid[p * n + q] for q in block]
            for t in ts:
                used[t] += 1
            if all(used[t] == 1 for t in ts):
                block.append(p)
                if place(i + 1):
                    return True
                block.pop()
            for t in ts:
                used[t] -= 1
        return False

    try:
        found = place(0)
    except TimeoutError:
        return None
    print(f"# exhaustive search: {'found' if found else 'no base round exists'} ({nodes} nodes)", flush=True)
    return [sorted(block) for block in blocks] if found else None


def orbit_search(g: int, infinity: bool, rng: random.Random, max_steps: int) -> list[list[int]] | None:
    """Base blocks (points x * 3 + level) for the level-rotation construction, or None after ``max_steps``.

    Points (x, level), x in Z_g, levels 0..2, and with ``infinity`` a point fixed by everything. The base round
    is invariant under tau: (x, l) -> (x, l + 1): it is {inf, (0, 0), (0, 1), (0, 2)} (with ``infinity``) and
    the three rotations of each of the (g - 1) / 4 (else g / 4) base blocks, whose points take every x (but
    0 with ``infinity``) once. Under Z_g and tau together, a pair within a level has type ±(y - x) and a pair
    (x, l), (y, l + 1) has type y - x; the search asks every type once (4 = g / 2 counts as one pure type).
    """
    xs = list(range(1, g)) if infinity else list(range(g))
    blocks = len(xs) // 4
    pure_types = g // 2
    size = pure_types + g  # pure types 1..g//2, then mixed types g..2g-1 (0 taken by the infinity block)

    def types(block: list[tuple[int, int]]) -> list[int]:
        out = []
        for i in range(4):
            x, lx = block[i]
            for j in range(i + 1, 4):
                y, ly = block[j]
                if lx == ly:
                    d = (y - x) % g
                    out.append(min(d, g - d) - 1)
                elif (lx + 1) % 3 == ly:
                    out.append(pure_types + (y - x) % g)
                else:
                    out.append(pure_types + (x - y) % g)
        return out

    for _ in range(200):
        rng.shuffle(xs)
        state = [[(xs[4 * b + i], rng.randrange(3)) for i in range(4)] for b in range(blocks)]

        def cost(state: list[list[tuple[int, int]]] = state) -> int:
            counts = [0] * size
            if infinity:
                counts[pure_types] = 1
            for block in state:
                for t in types(block):
                    counts[t] += 1
            return sum(c - 1 for c in counts if c > 1) + sum(1 for c in counts[:pure_types] if c == 0)

        current = cost()
        temperature = 1.0
        for _ in range(max_steps):
            if current == 0:
                out = []
                for block in state:
                    for shift in range(3):
                        out.append(sorted(((level + shift) % 3) * g + x for x, level in block))
                if infinity:
                    out.append([0, g, 2 * g, 3 * g])
                return out
            b1, i1 = rng.randrange(blocks), rng.randrange(4)
            old1 = state[b1][i1]
            if rng.random() < 0.5:
                state[b1][i1] = (old1[0], (old1[1] + 1 + rng.randrange(2)) % 3)
                new = cost()
                if new <= current or rng.random() < math.exp((current - new) / temperature):
                    current = new
                else:
                    state[b1][i1] = old1
            else:
                b2, i2 = rng.randrange(blocks), rng.randrange(4)
                if b1 == b2:
                    continue
                old2 = state[b2][i2]
                state[b1][i1], state[b2][i2] = (old2[0], old1[1]), (old1[0], old2[1])
                new = cost()
                if new <= current or rng.random() < math.exp((current - new) / temperature):
                    current = new
                else:
                    state[b1][i1], state[b2][i2] = old1, old2
            temperature = max(0.05, temperature * 0.9995)
    return None


def backtrack_orbits(g: int, rng: random.Random, deadline: float) -> list[list[int]] | None:
    """The level-rotation construction of ``orbit_search`` by randomised depth-first search (exhaustive for
    small g): x = 1..g-1 placed in a shuffled order, each into a base block with a level, a type never twice."""
    xs = list(range(1, g))
    rng.shuffle(xs)
    blocks: list[list[tuple[int, int]]] = [[] for _ in range(len(xs) // 4)]
    pure = g // 2
    used = [0] * (pure + g)
    used[pure] = 1  # mixed difference 0: the infinity block

    def kind(x: int, lx: int, y: int, ly: int) -> int:
        if lx == ly:
            d = (y - x) % g
            return min(d, g - d) - 1
        return pure + ((y - x) % g if (lx + 1) % 3 == ly else (x - y) % g)

    def place(i: int) -> bool:
        if i == len(xs):
            return True
        if i & 1023 == 0 and time.perf_counter() > deadline:
            return False
        options = []
        opened = False
        for b, block in enumerate(blocks):
            if len(block) == 4:
                continue
            if not block:
                if opened:
                    continue  # empty blocks are interchangeable
                opened = True
            options.extend((b, level) for level in range(3) if i or not level)
        rng.shuffle(options)
        for b, level in options:
            ts = [kind(y, ly, xs[i], level) for y, ly in blocks[b]]
            for t in ts:
                used[t] += 1
            if all(used[t] == 1 for t in ts):
                blocks[b].append((xs[i], level))
                if place(i + 1):
                    return True
                blocks[b].pop()
            for t in ts:
                used[t] -= 1
        return False

    if not place(0):
        return None
    out = [[0, g, 2 * g, 3 * g]]
    for block in blocks:
        for shift in range(3):
            out.append(sorted(((level + shift) % 3) * g + x for x, level in block))
    return out


def find(
    players: int, seed: int, minutes: float, method: str, rounds: int | None = None
) -> CyclicDesign | None:
    if rounds is not None:
        # A repeat-free packing over ``rounds`` rounds, shaped as the engine's run-time cyclic search.
        shape = constructions.cyclic_shape(players, rounds)
        if shape is None:
            return None
        g, levels, fixed, _slack = shape
        repeated, worst = 0, 1
    else:
        g, levels, fixed, repeated, worst = SHAPES[players]
    classes = 1 if rounds is not None else (players - 1) // 3 // g if repeated == 0 else players // 3 // g
    rng = random.Random(seed)
    deadline = time.perf_counter() + 60 * minutes
    tries = 0
    while time.perf_counter() < deadline:
        tries += 1
        if method == "tabu":
            base = tabu_base_round(players, g, levels, rng, deadline, classes)
        elif method == "exhaustive":
            base = backtrack_base_round(players, g, levels, rng, deadline)
            if base is None:
                return None
        elif method == "backtrack":
            base = backtrack_orbits(g, rng, deadline)
        elif method == "cyclic":
            found = constructions.cyclic_classes(
                players, g, rng, max_steps=200_000, restart_after=3000, allow_tight=True, deadline=deadline
            )
            base = found[0] if found else None
        else:
            base = orbit_search(g, fixed == 1, rng, max_steps=20_000)
        if base is None:
            continue
        design = CyclicDesign(
            players=players,
            g=g,
            levels=levels,
            fixed=fixed,
            base=tuple(
                tuple(block)  # type: ignore[misc]
                for start in range(0, len(base), players // 4)
                for block in sorted(base[start : start + players // 4])
            ),
            repeated_pairs=repeated,
            max_meetings=worst,
            source=f"bench/seating_designs.py --players {players} --method {method} --seed {seed}"
            + (f" --rounds {rounds}" if rounds is not None else ""),
        )
        problems = verify(design.rounds(), players, repeated_pairs=repeated, max_meetings=worst)
        if problems:
            print(f"{players}: rejected: {problems}", file=sys.stderr)
            continue
        return design
    return None


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, nargs="*", default=[24, 28, 40, 52])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, help="with --method cyclic: a packing over this many rounds")
    parser.add_argument(
        "--method", choices=["orbit", "tabu", "backtrack", "cyclic", "exhaustive"], default="orbit"
    )
    parser.add_argument("--minutes", type=float, default=20.0, help="give up on a size after this long")
    options = parser.parse_args()
    status = 0
    for players in options.players:
        started = time.perf_counter()
        design = find(players, options.seed, options.minutes, options.method, options.rounds)
        if design is None:
            print(f"# {players}: nothing found in {options.minutes:g} min", flush=True)
            status = 1
            continue
        print(f"# {players}: found in {time.perf_counter() - started:.1f} s", flush=True)
        print(f"{design!r},", flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
