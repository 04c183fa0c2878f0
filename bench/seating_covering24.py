"""Exact (SAT) searches for the 24-player, 8-round seating with 12 repeated pairs, offline
(docs/seating.md, "24 players over 8 rounds").

    python3 -m venv /tmp/satenv && /tmp/satenv/bin/pip install python-sat   # NOT a project dependency
    nice -n 19 /tmp/satenv/bin/python bench/seating_covering24.py --model lift
    nice -n 19 /tmp/satenv/bin/python bench/seating_covering24.py --model plain --form 7+1
    nice -n 19 /tmp/satenv/bin/python bench/seating_covering24.py --model plain --perm flip --rho 0,1,2,3,5,4,7,6

The schedule stored in ``tournaments/seating/designs.py`` came from (12 s): an automorphism of order 3 moving the
matching pairs in four 3-cycles and the rounds in two, fixing rounds 6 and 7:

    nice -n 19 /tmp/satenv/bin/python bench/seating_covering24.py --model plain \
        --perm 2,3,4,5,0,1,8,9,10,11,6,7,14,15,16,17,12,13,20,21,22,23,18,19 --rho 1,2,0,4,5,3,6,7

8 rounds x 6 tables x 6 pairs = 288 meetings for 276 pairs, so 12 repeated pairs means every pair meets and
the extra meetings form a perfect matching; WLOG the matching is {0, 1}, {2, 3}, ..., {22, 23} (a resolvable
minimum covering with quadruples, Handbook of Combinatorial Designs, coverings; Lamken, Mills and Rees 1998).
The solver (CaDiCaL through python-sat, one thread) is only needed to look for one: a schedule it finds is
printed as a ``StoredSchedule`` for ``tournaments/seating/designs.py`` and checked there by ``designs.verify``.
The project itself never imports this script's dependency.

Models (docs/seating.md, "24 players over 8 rounds", lists what each settled):

- ``plain``: x[p][r][t] (player p at table t of round r), each player one table a round, four a table; a
  matching pair meets exactly twice, every other pair exactly once. ``--form 7+1`` fixes round 8 as the
  tables {4i..4i+3} (each repeating its two matching pairs) and asks for 7 rounds meeting every other pair
  once and never the four remaining pairs of each such table. ``--perm`` (a point permutation, or ``flip``:
  p -> p xor 1) with ``--rho`` (where it sends each round) imposes that automorphism.
- ``truncate``: the stored RBIBD(28) less four points (``--remove``) and one class (``--drop``), only the
  blocks the removed points broke (and up to ``--free-blocks`` whole blocks a class) seated anew.
- ``lift``: invariant under the flip (x, s) -> (x, 1 - s) fixing every round. Each round is then a
  partition of 12 points x into quads (a quad with a sign per point gives the tables {(x, s_x)} and
  {(x, 1 - s_x)}) and edges (a "double table" {(x, 0), (x, 1), (y, 0), (y, 1)}); the edges form a 2-regular
  graph G, every pair {x, y} outside G lies in exactly two quads, with different sign parities
  s_x + s_y, so its four signed pairs meet once each. ``--sigma``/``--rho`` impose an automorphism of the
  12 points (on the meetings; signs stay free).
"""

from __future__ import annotations

import argparse
import itertools
import string
import sys
import time
from collections.abc import Callable

try:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver
except ImportError:  # pragma: no cover - offline tool
    sys.exit(
        "This offline search needs python-sat, which is not a dependency of the project:\n"
        "    python3 -m venv /tmp/satenv && /tmp/satenv/bin/pip install python-sat\n"
        "    nice -n 19 /tmp/satenv/bin/python bench/seating_covering24.py ..."
    )

DIGITS = string.digits + string.ascii_lowercase
Rounds = list[list[list[int]]]


class Model:
    """Clauses and a variable pool, with exact cardinality constraints (sequential counters)."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []

    def var(self, *key: object) -> int:
        return self.pool.id(key)

    def count(self, lits: list[int], k: int, kind: str = "eq", unless: int | None = None) -> None:
        """sum(lits) == / <= / >= k, dropped when the literal ``unless`` holds."""
        enc = {"eq": CardEnc.equals, "le": CardEnc.atmost, "ge": CardEnc.atleast}[kind]
        extra = [] if unless is None else [unless]
        clauses = enc(lits=lits, bound=k, vpool=self.pool, encoding=EncType.seqcounter).clauses
        self.clauses.extend(c + extra for c in clauses)

    def solve(self, solver: str) -> set[int] | None:
        with Solver(name=solver, bootstrap_with=self.clauses) as s:
            return {v for v in s.get_model() if v > 0} if s.solve() else None


def together(m: Model, member: Callable[[int, int, int], int], n: int, rounds: int, tables: int, tag: str):
    """y(p, q, r): p and q share a table in round r (p's table is exactly one)."""

    def y(p: int, q: int, r: int) -> int:
        return m.var(tag, min(p, q), max(p, q), r)

    for p, q in itertools.combinations(range(n), 2):
        for r in range(rounds):
            for t in range(tables):
                m.clauses.append([-member(p, r, t), -member(q, r, t), y(p, q, r)])
                m.clauses.append([-y(p, q, r), -member(p, r, t), member(q, r, t)])
                m.clauses.append([-y(p, q, r), -member(q, r, t), member(p, r, t)])
    return y


def plain(options: argparse.Namespace) -> Rounds | None:
    """The 24-point model (optionally the 7+1 form and an imposed automorphism)."""
    n, tables = 24, 6
    seven = options.form == "7+1"
    rounds = 7 if seven else 8
    m = Model()

    def x(p: int, r: int, t: int) -> int:
        return m.var("x", p, r, t)

    for p in range(n):
        for r in range(rounds):
            m.count([x(p, r, t) for t in range(tables)], 1)
    for r in range(rounds):
        for t in range(tables):
            m.count([x(p, r, t) for p in range(n)], 4)
    y = together(m, x, n, rounds, tables, "y")
    for p, q in itertools.combinations(range(n), 2):
        m.count([y(p, q, r) for r in range(rounds)], _meetings(p, q, seven=seven))
    for p in range(n):
        for r in range(rounds):
            m.count([y(p, q, r) for q in range(n) if q != p], 3)
    # Symmetry: player 0 at table 0, tables in order of their smallest player.
    for r in range(rounds):
        m.clauses.append([x(0, r, 0)])
        for t in range(1, tables):
            for p in range(n):
                m.clauses.append([-x(p, r, t)] + [x(q, r, t - 1) for q in range(p)])
    m.clauses.append([y(0, 1, 0)])
    if options.perm:
        perm = [p ^ 1 for p in range(n)] if options.perm == "flip" else _ints(options.perm)
        rho = _ints(options.rho)
        for p, q in itertools.combinations(range(n), 2):
            for r in range(rounds):
                a, b = y(p, q, r), y(perm[p], perm[q], rho[r])
                m.clauses.extend([[-a, b], [a, -b]])
    else:
        # Rounds in order of player 0's smallest table-mate (ties allowed: 0 meets 1 twice).
        for r in range(1, rounds):
            for q in range(1, n):
                later = range(1, q) if seven else range(1, q + 1)
                m.clauses.append([-y(0, q, r)] + [y(0, s, r - 1) for s in later])
    if seven:
        m.clauses.append([x(4, 0, 0)])
        m.clauses.append([x(5, 0, 0), x(8, 0, 0)])
    model = m.solve(options.solver)
    if model is None:
        return None
    found = [[[p for p in range(n) if x(p, r, t) in model] for t in range(tables)] for r in range(rounds)]
    if seven:
        found.append([[4 * i + j for j in range(4)] for i in range(tables)])
    return found


def lift(options: argparse.Namespace) -> Rounds | None:
    """The flip-invariant model over 12 points (quads with signs and double tables)."""
    n, rounds = 12, 8
    m = Model()

    def z(x: int, r: int, t: int) -> int:  # quad slot t = 0..2
        return m.var("z", x, r, t)

    def e(x: int, r: int, k: int) -> int:  # edge slot k = 0..5
        return m.var("e", x, r, k)

    def sign(x: int, r: int) -> int:
        return m.var("s", x, r)

    for x in range(n):
        for r in range(rounds):
            m.count([z(x, r, t) for t in range(3)] + [e(x, r, k) for k in range(6)], 1)
        m.count([e(x, r, k) for r in range(rounds) for k in range(6)], 2)
    for r in range(rounds):
        for slots, size, name in ((3, 4, "uq"), (6, 2, "ue")):
            member = z if name == "uq" else e
            for t in range(slots):
                used = m.var(name, r, t)
                lits = [member(x, r, t) for x in range(n)]
                m.clauses.extend([used, -lit] for lit in lits)
                m.count(lits, size, "le")
                m.count(lits, size, "ge", unless=-used)
                if t:
                    m.clauses.append([-used, m.var(name, r, t - 1)])
                    for x in range(n):
                        m.clauses.append([-member(x, r, t)] + [member(q, r, t - 1) for q in range(x)])
    yq = together(m, z, n, rounds, 3, "yq")
    ye = together(m, e, n, rounds, 6, "ye")
    for x, y in itertools.combinations(range(n), 2):
        edge = m.var("edge", x, y)
        met_e = [ye(x, y, r) for r in range(rounds)]
        met_q = [yq(x, y, r) for r in range(rounds)]
        m.count(met_e, 1, "le")
        m.clauses.append([-edge, *met_e])
        m.clauses.extend([edge, -v] for v in met_e)
        m.clauses.extend([-edge, -v] for v in met_q)
        m.count(met_q, 2, unless=edge)
        if options.lazy_signs:
            continue
        odd = []
        for r in range(rounds):
            parity, both = m.var("par", x, y, r), m.var("odd", x, y, r)
            sx, sy = sign(x, r), sign(y, r)
            m.clauses.extend([[-parity, sx, sy], [-parity, -sx, -sy], [parity, -sx, sy], [parity, sx, -sy]])
            m.clauses.extend([[-both, met_q[r]], [-both, parity], [both, -met_q[r], -parity]])
            odd.append(both)
        m.count(odd, 1, unless=edge)  # the two quads of {x, y} have different parities
    for x in range(n):
        m.count([m.var("edge", min(x, y), max(x, y)) for y in range(n) if y != x], 2)
    # Two quads share at most two points (three shared points would need three odd parities in a triangle).
    for x, y, w in itertools.combinations(range(n), 3):
        tri = [m.var("tri", x, y, w, r) for r in range(rounds)]
        for r in range(rounds):
            for t in range(3):
                m.clauses.append([-z(x, r, t), -z(y, r, t), -z(w, r, t), tri[r]])
        m.count(tri, 1, "le")
    if options.sigma:
        sigma, rho = _ints(options.sigma), _ints(options.rho)
        for x, y in itertools.combinations(range(n), 2):
            for r in range(rounds):
                for met in (yq, ye):
                    a, b = met(x, y, r), met(sigma[x], sigma[y], rho[r])
                    m.clauses.extend([[-a, b], [a, -b]])
    if options.lazy_signs:
        model, signs = _lazy(m, yq, options.solver)
    else:
        model = m.solve(options.solver)
        signs = None
    if model is None:
        return None
    found: Rounds = []
    for r in range(rounds):
        tables = []
        for t in range(3):
            quad = [x for x in range(n) if z(x, r, t) in model]
            if quad:
                s = {x: signs[x, r] if signs else int(sign(x, r) in model) for x in quad}
                tables.append([2 * x + s[x] for x in quad])
                tables.append([2 * x + 1 - s[x] for x in quad])
        for k in range(6):
            pair = [x for x in range(n) if e(x, r, k) in model]
            if pair:
                tables.append([2 * pair[0], 2 * pair[0] + 1, 2 * pair[1], 2 * pair[1] + 1])
        found.append(tables)
    return found


def _lazy(m: Model, yq: Callable[[int, int, int], int], solver: str):
    """Solve without the signs; each time the signs' GF(2) system for the rounds found has no solution, add
    a clause forbidding a small contradictory set of its equations (which pairs meet in which two rounds)."""
    with Solver(name=solver, bootstrap_with=m.clauses) as s:
        while s.solve():
            model = {v for v in s.get_model() if v > 0}
            equations, reasons = [], []
            for x, y in itertools.combinations(range(12), 2):
                met = [r for r in range(8) if yq(x, y, r) in model]
                if len(met) == 2:
                    equations.append([(x, met[0]), (y, met[0]), (x, met[1]), (y, met[1])])
                    reasons.append([-yq(x, y, met[0]), -yq(x, y, met[1])])
            core, signs = _gf2(equations)
            if core is None:
                return model, signs
            shrunk = True
            while shrunk:  # drop equations while the rest still contradict
                shrunk = False
                for i in core:
                    rest = [j for j in core if j != i]
                    sub, _ = _gf2([equations[j] for j in rest])
                    if sub is not None:
                        core, shrunk = [rest[k] for k in sub], True
                        break
            s.add_clause([lit for j in core for lit in reasons[j]])
    return None, {}


def _gf2(equations: list[list[tuple[int, int]]]) -> tuple[list[int] | None, dict[tuple[int, int], int]]:
    """Each equation: its variables sum to 1 (mod 2). Returns (indices of equations summing to 0 = 1, {}) or
    (None, a solution with the free variables 0)."""
    index: dict[tuple[int, int], int] = {}
    pivots: dict[int, tuple[int, int, int]] = {}
    for i, eq in enumerate(equations):
        row, rhs, used = 0, 1, 1 << i
        for key in eq:
            row ^= 1 << index.setdefault(key, len(index))
        while row:
            top = row.bit_length() - 1
            if top not in pivots:
                pivots[top] = (row, rhs, used)
                break
            prow, prhs, pused = pivots[top]
            row, rhs, used = row ^ prow, rhs ^ prhs, used ^ pused
        else:
            if rhs:
                return [j for j in range(len(equations)) if used >> j & 1], {}
    value = [0] * len(index)
    for top in sorted(pivots):
        row, rhs, _ = pivots[top]
        rest = row & ~(1 << top)
        value[top] = (rhs + sum(value[k] for k in range(top) if rest >> k & 1)) % 2
    return None, {key: value[k] for key, k in index.items()}


def truncate(options: argparse.Namespace) -> Rounds | None:
    """From the stored RBIBD(28) (``designs.DESIGNS[28]``): delete the four points ``--remove`` and the class
    ``--drop``; in each of the eight other classes the blocks the removed points hit lose them, and only
    their remaining points (plus up to ``--free-blocks`` whole blocks of the class) are seated anew, so that
    every pair of the 24 meets (8 x 36 = 288 meetings for 276 pairs: then exactly 12 pairs meet twice)."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    from tournaments.seating.designs import DESIGNS

    design = DESIGNS[28].rounds()
    removed = set(_ints(options.remove)) if options.remove else set(design[0][0])
    if len(removed) != 4:
        sys.exit("--remove: four points of the 28")
    kept = [p for p in range(28) if p not in removed]
    index = {p: i for i, p in enumerate(kept)}
    classes = [
        [[index[p] for p in block if p not in removed] for block in design[r]]
        for r in range(len(design))
        if r != options.drop
    ]
    n, tables, m = 24, 6, Model()

    def x(p: int, r: int, t: int) -> int:
        return m.var("x", p, r, t)

    for r, blocks in enumerate(classes):
        whole = [block for block in blocks if len(block) == 4]
        for p in range(n):
            m.count([x(p, r, t) for t in range(tables)], 1)
        for t in range(tables):
            m.count([x(p, r, t) for p in range(n)], 4)
        # A whole block stays a table (table i for whole block i) unless it is one of the freed ones.
        freed = [m.var("free", r, i) for i in range(len(whole))]
        m.count(freed, options.free_blocks, "le")
        for i, block in enumerate(whole):
            m.clauses.extend([freed[i], x(p, r, i)] for p in block)
    y = together(m, x, n, len(classes), tables, "y")
    for p, q in itertools.combinations(range(n), 2):
        m.clauses.append([y(p, q, r) for r in range(len(classes))])
    model = m.solve(options.solver)
    if model is None:
        return None
    return [
        [[p for p in range(n) if x(p, r, t) in model] for t in range(tables)] for r in range(len(classes))
    ]


def _meetings(p: int, q: int, *, seven: bool) -> int:
    """How often p and q meet: twice for a matching pair {2i, 2i + 1}; in the 7+1 form's seven rounds
    once, except never for the other pairs of a table {4i..4i+3} of round 8."""
    if seven:
        return 0 if p // 4 == q // 4 and p ^ 1 != q else 1
    return 2 if p ^ 1 == q else 1


def _ints(text: str) -> list[int]:
    return [int(c) for c in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", choices=["plain", "lift", "truncate"], default="lift")
    parser.add_argument("--form", choices=["8", "7+1"], default="8")
    parser.add_argument("--perm", default="", help="plain: point permutation (comma list) or 'flip'")
    parser.add_argument("--sigma", default="", help="lift: permutation of the 12 points (comma list)")
    parser.add_argument("--rho", default="", help="where the automorphism sends each round (comma list)")
    parser.add_argument(
        "--lazy-signs",
        action="store_true",
        help="lift: signs by GF(2) elimination, contradictions as clauses",
    )
    parser.add_argument("--remove", default="", help="truncate: four points of the 28 (default: a block)")
    parser.add_argument("--drop", type=int, default=0, help="truncate: the class of the 28 left out")
    parser.add_argument("--free-blocks", type=int, default=0, help="truncate: whole blocks a class may redo")
    parser.add_argument("--solver", default="cadical153")
    options = parser.parse_args()
    started = time.perf_counter()
    found = {"plain": plain, "lift": lift, "truncate": truncate}[options.model](options)
    elapsed = time.perf_counter() - started
    if found is None:
        print(f"# unsatisfiable: no such schedule ({elapsed:.1f} s)")
        return 1
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    from tournaments.seating.designs import verify

    rounds = [sorted(sorted(t) for t in tables) for tables in found]
    problems = verify(rounds, 24, repeated_pairs=12, max_meetings=2)
    print(f"# found in {elapsed:.1f} s; check: {problems or 'ok'}")
    text = "/".join("".join(DIGITS[p] for table in tables for p in table) for tables in rounds)
    args = " ".join(sys.argv[1:])
    print(
        f'StoredSchedule(players=24, rounds=8, repeated_pairs=12, max_meetings=2, tables="{text}", '
        f'source="bench/seating_covering24.py {args}"),'
    )
    return 0 if not problems else 2


if __name__ == "__main__":
    raise SystemExit(main())
