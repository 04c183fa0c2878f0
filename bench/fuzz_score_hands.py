"""Fuzz the score_hands engines with generated hostile input: 10,000 inputs per rule set.

    .venv/bin/python bench/fuzz_score_hands.py [--examples 10000] [--rules mcr ...] [--seed 0]

For each rule set it prints the inputs tried, how many were scored and how many refused with a clear
error, the error codes seen, the slowest input and its time, and every crash (an exception other than
the engines' ``HandInputError``), then a document-level run of ``load_json`` on hostile documents.
Times per input are CPU time (the machine may be shared) and wall-clock time. Exit status 1 when
anything crashed or an input took more than ``--max-seconds`` of CPU. Pure: no Django.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, given, seed, settings

from scoring.rules.errors import HandInputError
from scoring.rules.limits import UnreadableInputError, check_document_value, load_json
from scoring.rules.tests.strategies import RULE_SETS, VALID, Tally, describe, requests, score_one

DOCUMENTS = {
    "tiles nested 50,000 deep": '[{"concealed": ' + "[" * 50_000 + "]" * 50_000 + "}]",
    "a 5,000-digit number": '{"flowers": ' + "9" * 5_000 + "}",
    "a list of 500,000 tiles": '{"concealed": [' + ",".join(['"1m"'] * 500_000) + "]}",
    "a 4 MB string": '{"seat_wind": "' + "E" * 4_000_000 + '"}',
    "NUL bytes": '{"seat_wind": "E\\u0000", "concealed": ["1m\\u0000"]}',
    "unbalanced brackets": "[" * 100_000,
    "10,001 requests": "[" + ",".join(["{}"] * 10_001) + "]",
}


def fuzz(rules: str, examples: int, run_seed: int) -> tuple[Tally, list[str]]:
    score_one(rules, VALID[rules][0])  # warm up: card files and tables load on first use, not timed
    tally = Tally(rules)
    crashes: list[str] = []

    @seed(run_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
    )
    @given(requests(rules))
    def run(data: object) -> None:
        try:
            score_one(rules, data, tally)
        except Exception as error:
            frame = traceback.extract_tb(error.__traceback__)[-1]
            crashes.append(
                f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}: {error} "
                f"for {describe(data)}"
            )
            tally.tried += 1

    run()
    return tally, crashes


def documents() -> list[str]:
    lines = []
    for name, text in DOCUMENTS.items():
        started = time.perf_counter()
        try:
            items = load_json(text)
        except UnreadableInputError as error:
            outcome = f"unreadable: {error.message}"
        else:
            answers = []
            for item in items[:3]:
                try:
                    check_document_value(item)
                    answers.append("passes the limits")
                except HandInputError as error:
                    answers.append(error.message)
            outcome = "; ".join(answers)
        elapsed = time.perf_counter() - started
        lines.append(f"  {name:<26} {elapsed * 1000:8.1f} ms  {outcome[:110]}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--rules", nargs="*", default=list(RULE_SETS), choices=RULE_SETS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=0.5)
    options = parser.parse_args()
    failed = False
    print(
        f"{'rules':<14} {'tried':>7} {'scored':>7} {'refused':>8} {'crashes':>8} {'max CPU ms':>10} "
        f"{'max wall ms':>11}  slowest input (by CPU)"
    )
    for rules in options.rules:
        started = time.perf_counter()
        tally, crashes = fuzz(rules, options.examples, options.seed)
        wall = time.perf_counter() - started
        print(
            f"{rules:<14} {tally.tried:>7} {tally.scored:>7} {tally.refused:>8} {len(crashes):>8} "
            f"{tally.slowest * 1000:>10.1f} {tally.slowest_wall * 1000:>11.1f}  {tally.slowest_input[:50]}  "
            f"({wall:.0f} s in all)"
        )
        top = sorted(tally.codes.items(), key=lambda item: -item[1])[:6]
        print("               error codes: " + ", ".join(f"{code} {count}" for code, count in top))
        for crash in crashes[:10]:
            print(f"  CRASH {crash}")
        failed = failed or bool(crashes) or tally.slowest > options.max_seconds
    print("hostile documents (load_json, then the limits):")
    for line in documents():
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
