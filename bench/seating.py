"""Benchmark of the seating engine over N players x R rounds, with the lower bounds beside each figure.

    .venv/bin/python bench/seating.py                 # N = 4..60 x R = 1..17 at 10 s a cell, 2 jobs (~15 min)
    .venv/bin/python bench/seating.py --quick         # HARD_CELLS only, 10 s each (~1 min)
    .venv/bin/python bench/seating.py --cells 20x7 24x8 --time-limit 3
    .venv/bin/python bench/seating.py --grid large    # the old grid, N up to 400

Each line shows "figure/bound": repeated pairs (sum over pairs of max(0, meetings - 1)) against
``lower_bound`` (the counting bound, and for fewer than four tables the two-round bound); worst pair; wind
imbalance (largest spread of a player's E/S/W/N counts); table returns against N * max(0, R - N/4); pairs
with a common opponent (indirect meetings, no bound); the seconds the cell took and the share of its time
limit. A "*" marks a cell whose repeated pairs or worst pair miss their bound (not always reachable: see
docs/seating.md). The targets (TARGETS) are checked at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import SeatingPlayer, lower_bound, plan_seating

HARD_CELLS = ((28, 9), (52, 17), (40, 13), (24, 8), (20, 7), (12, 3), (16, 5), (28, 17), (36, 11), (60, 17))
TARGETS = {
    # cell: (most repeated pairs, worst pair at most), the targets docs/seating.md measures against
    (28, 9): (0, 1),
    (52, 17): (0, 1),
    (24, 8): (12, 2),
    (20, 7): (24, None),
    (12, 3): (None, 2),
}
NOTES = {
    (
        12,
        3,
    ): " (worst pair 2 forces 9 repeated pairs; the objective order prefers 6 with worst 3: docs/seating.md)",
}
LARGE_N = (16, 20, 32, 40, 64, 100, 200, 400)
LARGE_R = (4, 5, 7, 10)


def cell(args: tuple[int, int, int, float]) -> dict[str, float | int]:
    n, rounds, seed, time_limit = args
    started = time.perf_counter()
    plan = plan_seating(
        [SeatingPlayer(id=str(i + 1)) for i in range(n)], rounds, seed=seed, time_limit=time_limit
    )
    elapsed = time.perf_counter() - started
    q = plan.quality
    bound = lower_bound(n, rounds)
    return {
        "n": n,
        "rounds": rounds,
        "repeated": q.repeated_pairs,
        "repeated_bound": bound.repeated_pairs,
        "worst": q.worst_pair,
        "worst_bound": bound.worst_pair,
        "winds": q.wind_imbalance,
        "winds_bound": bound.wind_imbalance,
        "returns": q.table_returns,
        "returns_bound": bound.table_returns,
        "indirect": q.indirect_meetings,
        "optimal": int(plan.optimal),
        "seconds": elapsed,
        "limit": time_limit,
    }


def tasks_for(options: argparse.Namespace) -> list[tuple[int, int]]:
    if options.cells:
        return [(int(a), int(b)) for a, b in (c.lower().split("x") for c in options.cells)]
    if options.quick:
        return list(HARD_CELLS)
    if options.grid == "large":
        return [(n, r) for n in LARGE_N for r in LARGE_R]
    return [(n, r) for n in range(4, 61, 4) for r in range(1, 18)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="only the hard cells (HARD_CELLS)")
    parser.add_argument("--cells", nargs="*", help="cells as NxR, for example 20x7 (overrides the grid)")
    parser.add_argument("--grid", choices=["full", "large"], default="full", help="full: N<=60, R<=17")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per cell (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="cells run in parallel (default 2: two cores)")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    cells = tasks_for(options)
    tasks = [(n, r, options.seed, options.time_limit) for n, r in cells]
    print(
        f"seating benchmark: {len(tasks)} cells, time limit {options.time_limit:g} s per cell, "
        f"{options.jobs} job(s), seed {options.seed}",
        flush=True,
    )
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        results = list(pool.map(cell, tasks))
    print(
        f"{'N':>3} {'R':>3}  {'repeated':>9}  {'worst':>5}  {'winds':>5}  {'returns':>9}  "
        f"{'indirect':>8}  {'seconds':>7}  {'limit':>5}"
    )
    misses = 0
    for c in results:
        miss = c["repeated"] > c["repeated_bound"] or c["worst"] > c["worst_bound"]
        misses += miss
        print(
            f"{c['n']:>3} {c['rounds']:>3}  {c['repeated']:>4}/{c['repeated_bound']:<4}  "
            f"{c['worst']:>2}/{c['worst_bound']:<2}  {c['winds']:>2}/{c['winds_bound']:<2}  "
            f"{c['returns']:>4}/{c['returns_bound']:<4}  {c['indirect']:>8}  {c['seconds']:>7.1f}  "
            f"{100 * c['seconds'] / c['limit']:>4.0f}%" + (" *" if miss else "")
        )
    ns = sorted({n for n, _ in cells})
    rs = sorted({r for _, r in cells})
    by_key = {(c["n"], c["rounds"]): c for c in results}
    if len(ns) > 1 and len(rs) > 1:
        print("\nrepeated pairs (bound) by N and R; '.' = not run")
        print("N\\R " + "".join(f"{r:>9}" for r in rs))
        for n in ns:
            row = f"{n:>3} "
            for r in rs:
                c = by_key.get((n, r))
                row += f"{'.':>9}" if c is None else f"{c['repeated']:>4}({c['repeated_bound']})".rjust(9)
            print(row)
    print(
        f"\ncells off the pair bound: {misses} of {len(results)}; "
        f"total {time.perf_counter() - started:.0f} s; "
        f"slowest cell {max(float(c['seconds']) for c in results):.1f} s"
    )
    off_bound = [float(c["seconds"]) / float(c["limit"]) for c in results if not c["optimal"]]
    if off_bound:
        # The time given is used on hard cases (the work budget is calibrated to fill about 85 % of
        # the limit on an idle 2-core machine; a loaded one reaches the clock first).
        print(
            f"time used where the bound was not reached: {100 * min(off_bound):.0f} % to "
            f"{100 * max(off_bound):.0f} % of the limit ({len(off_bound)} cells)"
        )
    failed = 0
    for (n, r), (most, worst) in TARGETS.items():
        c = by_key.get((n, r))
        if c is None:
            continue
        ok = (most is None or c["repeated"] <= most) and (worst is None or c["worst"] <= worst)
        failed += not ok
        wanted = " and ".join(
            x
            for x in (f"<= {most} repeated" if most is not None else "", f"worst <= {worst}" if worst else "")
            if x
        )
        note = NOTES.get((n, r), "") if not ok else ""
        print(
            f"target {n}x{r}: {wanted}: got {c['repeated']} repeated, worst {c['worst']}: "
            f"{'ok' if ok else 'missed'}{note}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
