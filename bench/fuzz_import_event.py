"""Fuzz ``import_event`` with 10,000 mangled documents: each is imported or refused with its
problems listed, never a traceback, and nothing half-written. One command:

    .venv/bin/python bench/fuzz_import_event.py [--examples N]

Prints how many were imported, refused and crashed, and the slowest document's time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection, transaction
    from django.test.utils import setup_test_environment
    from hypothesis import HealthCheck, given, settings

    from scoring.interchange import EventImportError, import_event
    from scoring.tests.fuzz_documents import mangled
    from tournaments.models import Tournament

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    spec = json.loads((ROOT / "fixtures" / "spec-example.json").read_text(encoding="utf-8"))
    counts = {"imported": 0, "refused": 0, "crashed": 0}
    slowest = 0.0

    @settings(
        max_examples=args.examples, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(mangled(spec))
    def run(doc: object) -> None:
        nonlocal slowest
        start = time.perf_counter()
        try:
            with transaction.atomic():
                import_event(doc, replace=True)
            counts["imported"] += 1
        except EventImportError:
            counts["refused"] += 1
            if Tournament.objects.filter(slug="spring-open-2027").exists() and counts["imported"] == 0:
                counts["crashed"] += 1  # a refused document must leave nothing behind
        except Exception as error:  # a crash is what this counts
            counts["crashed"] += 1
            print("crash:", type(error).__name__, error, file=sys.stderr)
        slowest = max(slowest, time.perf_counter() - start)

    started = time.perf_counter()
    try:
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"import_event fuzz: {args.examples} documents in {time.perf_counter() - started:.1f} s")
    print(f"  imported {counts['imported']}, refused {counts['refused']}, crashed {counts['crashed']}")
    print(f"  slowest document {slowest * 1000:.0f} ms")
    sys.exit(1 if counts["crashed"] else 0)


if __name__ == "__main__":
    main()
