"""The public-read state machine (tests/test_public_read_property.py) run longer than in the suite: organiser
and referee actions interleaved with anonymous reads, every cached answer compared with an uncached one.

Run: .venv/bin/python bench/public_read_property.py [--steps 2000] [--examples 5] [--no-shrink] [-k exact]
Prints, per test, the examples and steps run, the requests made and the time taken, then pytest's verdict
(a failure prints hypothesis's shortest failing sequence; shrinking one may take up to 5 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST = "tests/test_public_read_property.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps per example (PUBLIC_READ_STEPS)")
    parser.add_argument("--examples", type=int, default=5, help="examples per test (PUBLIC_READ_EXAMPLES)")
    parser.add_argument("--no-shrink", action="store_true", help="report the first failing sequence as found")
    parser.add_argument(
        "-k", default="", help="pytest -k expression (answer: the exact test, visibility: the other)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.jsonl"
        env = {
            **os.environ,
            "PUBLIC_READ_STEPS": str(args.steps),
            "PUBLIC_READ_EXAMPLES": str(args.examples),
            "PUBLIC_READ_SHRINK": "0" if args.no_shrink else "1",
            "PUBLIC_READ_REPORT": str(report),
        }
        command = [sys.executable, "-m", "pytest", TEST, "-q", "-p", "no:randomly", "-n", "0"]
        command += ["--show-capture=no", "-p", "no:logging"] + (["-k", args.k] if args.k else [])
        started = time.perf_counter()
        result = subprocess.run(command, cwd=ROOT, env=env, check=False)
        total = time.perf_counter() - started
        lines = report.read_text(encoding="utf-8").splitlines() if report.exists() else []
    print(f"\n{'test':<12}{'examples':>10}{'steps':>10}{'requests':>10}{'seconds':>10}{'steps/s':>10}")
    for line in lines:
        row = json.loads(line)
        rate = row["steps"] / row["seconds"] if row["seconds"] else 0.0
        print(
            f"{row['test']:<12}{row['examples']:>10}{row['steps']:>10}{row['requests']:>10}"
            f"{row['seconds']:>10.1f}{rate:>10.0f}"
        )
    print(f"pytest exit code {result.returncode} after {total:.1f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
