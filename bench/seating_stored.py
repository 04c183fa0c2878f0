"""Long offline runs of the seating search for the small dense cells, printed as stored schedules.

    .venv/bin/python bench/seating_stored.py 20x7 24x8 [--minutes 5] [--seed 0]

Each cell is planned with a long time limit (the engine's own tabu search and annealing) and printed as a
``StoredSchedule`` literal for ``tournaments/seating/designs.py``: the rounds as one string, a table of four
players per four characters (players 0..N-1 written in base 36), rounds separated by "/". The engine starts
from the stored schedule and searches on from there, so a stored cell is never worse than its schedule.
"""

from __future__ import annotations

import argparse
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import SeatingPlayer, plan_seating

DIGITS = string.digits + string.ascii_lowercase


def encode(rounds: list[list[list[int]]]) -> str:
    return "/".join("".join(DIGITS[p] for table in tables for p in table) for tables in rounds)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cells", nargs="+", help="NxR, for example 20x7")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    for cell in options.cells:
        n, r = (int(x) for x in cell.split("x"))
        started = time.perf_counter()
        plan = plan_seating(
            [SeatingPlayer(id=str(i)) for i in range(n)],
            r,
            seed=options.seed,
            time_limit=60 * options.minutes,
        )
        rounds = [[sorted(int(p) for p in t.seats) for t in seating.tables] for seating in plan.rounds]
        q = plan.quality
        print(
            f"# {cell}: {q.repeated_pairs} repeated pairs, worst pair {q.worst_pair}, "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        print(
            f"StoredSchedule(players={n}, rounds={r}, repeated_pairs={q.repeated_pairs}, "
            f'max_meetings={q.worst_pair}, tables="{encode(rounds)}", '
            f'source="bench/seating_stored.py {cell} --minutes {options.minutes:g} --seed {options.seed}"),',
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
