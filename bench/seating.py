"""Benchmark of the seating engine over N players x R rounds, with the counting bound beside each figure.

    cd /work/main && .venv/bin/python bench/seating.py [--quick] [--time-limit 10] [--jobs 2] [--seed 0]

Each cell shows "figure/bound": repeated pairs (sum over pairs of max(0, meetings - 1)) against
ceil(N * max(0, 3R - (N - 1)) / 2); worst pair against ceil(3R / (N - 1)); wind imbalance (largest spread of a
player's E/S/W/N counts) against 0 or 1; table returns against N * max(0, R - N/4); and the time of the cell.
A "*" marks a cell where repeated pairs or worst pair miss their bound.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import SeatingPlayer, lower_bound, plan_seating

FULL_N = (16, 20, 32, 40, 64, 100, 200, 400)
FULL_R = (4, 5, 7, 10)
QUICK_N = (16, 20, 32, 64)
QUICK_R = (4, 7)


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
        "seconds": elapsed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a small subset of the grid")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per cell (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="cells run in parallel (default 2: two cores)")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    ns, rs = (QUICK_N, QUICK_R) if options.quick else (FULL_N, FULL_R)
    tasks = [(n, r, options.seed, options.time_limit) for n in ns for r in rs]
    print(
        f"seating benchmark: time limit {options.time_limit:g} s per cell, {options.jobs} job(s), seed {options.seed}"
    )
    print("cell: repeated/bound  worst/bound  winds/bound  returns/bound  seconds")
    header = "N \\ R".ljust(7) + "".join(f"R={r}".ljust(40) for r in rs)
    print(header)
    with ProcessPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        results = list(pool.map(cell, tasks))
    by_key = {(c["n"], c["rounds"]): c for c in results}
    misses = 0
    slowest = 0.0
    for n in ns:
        row = str(n).ljust(7)
        for r in rs:
            c = by_key[(n, r)]
            miss = c["repeated"] > c["repeated_bound"] or c["worst"] > c["worst_bound"]
            misses += miss
            slowest = max(slowest, float(c["seconds"]))
            text = (
                f"{c['repeated']}/{c['repeated_bound']} {c['worst']}/{c['worst_bound']} "
                f"{c['winds']}/{c['winds_bound']} {c['returns']}/{c['returns_bound']} {c['seconds']:.1f}s"
                + ("*" if miss else "")
            )
            row += text.ljust(40)
        print(row)
    print(f"cells off the pair bound: {misses} of {len(results)}; slowest cell {slowest:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
