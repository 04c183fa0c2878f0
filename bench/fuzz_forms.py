"""Fuzz the hand, penalty and player-import forms with 10,000 generated posts each.

Every post is answered without a 500, and nothing is half-written: the table's hands stay numbered 1..n
and score as a session, penalties stay on the table's players, a player list is imported whole or not at
all (the checks are in tests/form_fuzz.py; the suite runs 30 of each). One command:

    .venv/bin/python bench/fuzz_forms.py [--examples N] [--form hand|penalty|players]

Each example runs in a transaction that is rolled back afterwards, so every post meets the same event.
Prints, per form, how many posts were accepted, refused and crashed, and the slowest answer.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")


class RollbackError(Exception):
    """Raised to undo one example's writes after its checks."""


def fuzz(kind: str, strategy: Any, examples: int, post: Any) -> tuple[dict[str, int], float, float]:
    """Run ``examples`` generated posts of one form; returns the counts, the slowest answer and the time."""
    from hypothesis import HealthCheck, given, settings

    from tests import form_fuzz

    counts = {"accepted": 0, "refused": 0, "crashed": 0}
    slowest = 0.0

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(value: object) -> None:
        nonlocal slowest
        start = time.perf_counter()
        try:
            status, saved = post(kind, value)
            if status not in form_fuzz.ANSWERS:
                raise AssertionError(f"answered {status}")
            counts["accepted" if saved else "refused"] += 1
        except Exception as error:  # a crash or a broken check is what this counts
            counts["crashed"] += 1
            print(f"{kind} crash: {type(error).__name__}: {str(error)[:300]}", file=sys.stderr)
        slowest = max(slowest, time.perf_counter() - start)

    started = time.perf_counter()
    run()
    return counts, slowest, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--form", choices=["hand", "penalty", "players"], action="append")
    args = parser.parse_args()

    import django

    django.setup()
    logging.getLogger("django.request").setLevel(
        logging.ERROR
    )  # refusals (4xx) are expected; 500s still show
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tests import form_fuzz
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    crashed = 0
    try:
        users = get_user_model().objects
        organiser = users.create_user("olga", password="pw-olga-123")
        referee = users.create_user("rick", password="pw-rick-123")
        tournament = event_services.create_tournament(
            event_services.EventDetails(
                name="Fuzz Open", slug="fuzz-open", num_sessions=2, hands_per_session=16
            ),
            acting_user=organiser,
        )
        event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
        event_services.set_seating_options(
            tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
        )
        for name in ["Ana", "Bo", "Cy", "Di"]:
            registrations.register_player(
                tournament, registrations.PlayerRow(name=name), acting_user=organiser
            )
        [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
        referee_client, organiser_client = Client(), Client()
        referee_client.force_login(referee)
        organiser_client.force_login(organiser)

        def post(kind: str, value: object) -> tuple[int, bool]:
            """One post in a transaction rolled back afterwards: (status, saved something)."""
            status, saved = 0, False
            try:
                with transaction.atomic():
                    if kind == "hand":
                        before = table.hands.count()
                        status = form_fuzz.post_hand(referee_client, table, value)  # type: ignore[arg-type]
                        saved = table.hands.count() > before
                        form_fuzz.check_table_is_whole(table)
                    elif kind == "penalty":
                        before = table.penalties.count()
                        status = form_fuzz.post_penalty(referee_client, table, value)  # type: ignore[arg-type]
                        saved = table.penalties.count() > before
                        form_fuzz.check_table_is_whole(table)
                    else:
                        name, content = cast(tuple[str, bytes], value)
                        outcome = form_fuzz.post_player_file(organiser_client, tournament, name, content)
                        status, saved = outcome[0], outcome[1] > 0
                        form_fuzz.check_import_all_or_nothing(*outcome)
                    raise RollbackError
            except RollbackError:
                pass
            return status, saved

        strategies = {
            "hand": form_fuzz.hand_posts,
            "penalty": form_fuzz.penalty_posts,
            "players": form_fuzz.player_files(),
        }
        for kind in args.form or list(strategies):
            counts, slowest, seconds = fuzz(kind, strategies[kind], args.examples, post)
            crashed += counts["crashed"]
            print(
                f"{kind} form fuzz: {args.examples} posts in {seconds:.1f} s: accepted {counts['accepted']}, "
                f"refused {counts['refused']}, crashed {counts['crashed']}; slowest {slowest * 1000:.0f} ms"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    sys.exit(1 if crashed else 0)


if __name__ == "__main__":
    main()
