"""``manage.py seating``, as /work/shared/specs/seating-cli.md specifies it."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> dict:
    out = StringIO()
    call_command("seating", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_prints_every_round_as_tables_of_four_ids_in_seat_order():
    plan = run("--players", "16", "--rounds", "5", "--time-limit", "1")
    assert plan["players"] == [str(i) for i in range(1, 17)]
    assert len(plan["rounds"]) == 5
    for tables in plan["rounds"]:
        assert len(tables) == 4
        assert all(len(t) == 4 for t in tables)
        assert sorted(p for t in tables for p in t) == sorted(plan["players"])


def test_it_never_repeats_a_pair_where_the_counting_bound_allows_it():
    plan = run("--players", "16", "--rounds", "5", "--time-limit", "1")
    pairs = [
        pair for tables in plan["rounds"] for t in tables for pair in itertools.combinations(sorted(t), 2)
    ]
    assert len(pairs) == len(set(pairs))


def test_the_same_seed_gives_the_same_plan():
    args = ("--players", "24", "--rounds", "3", "--seed", "7", "--time-limit", "2")
    assert run(*args) == run(*args)


def test_it_prints_a_readable_plan_as_text():
    out = StringIO()
    call_command("seating", "--players", "8", "--rounds", "1", "--format", "text", stdout=out)
    assert "Round 1" in out.getvalue() and "repeated pairs" in out.getvalue()


@pytest.mark.parametrize(("players", "rounds"), [("10", "2"), ("0", "2"), ("-4", "2"), ("8", "0")])
def test_it_rejects_bad_players_or_rounds_with_status_2(players, rounds):
    with pytest.raises(CommandError) as error:
        call_command("seating", "--players", players, "--rounds", rounds, stdout=StringIO())
    assert error.value.returncode == 2


@pytest.mark.slow
def test_a_bad_count_exits_2_with_a_message_on_stderr_and_nothing_on_stdout():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    done = subprocess.run(
        [sys.executable, "manage.py", "seating", "--players", "10", "--rounds", "3"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "multiple of 4" in done.stderr
