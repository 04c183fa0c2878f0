"""The score_hands command of shared/specs/scoring-json.md, for every rule set."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PURE_STRAIGHT = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5s", "5s"],
    "melds": [],
    "win_tile": "9m",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 1,
}


def run(rules: str, payload: str) -> subprocess.CompletedProcess:
    """The command run in this process (Django's start-up costs a second per subprocess); the exit
    status and both streams as a process would give them. ``run_process`` runs the real thing."""
    from unittest import mock

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with mock.patch("sys.stdin", io.StringIO(payload)):
        try:
            call_command("score_hands", "--rules", rules, stdout=out, stderr=err)
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return subprocess.CompletedProcess(args=[], returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def run_process(rules: str, payload: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score_hands", "--rules", rules],
        input=payload,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "config.test_settings", "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_an_mcr_hand_is_scored_with_fan_names_from_the_book():
    result = run("mcr", json.dumps(PURE_STRAIGHT))
    assert result.returncode == 0, result.stderr
    [answer] = json.loads(result.stdout)
    assert answer["fans"]["Pure Straight"] == 16
    assert answer["fans"]["Flower Tiles"] == 1
    assert answer["total"] == sum(answer["fans"].values())
    assert answer["meets_minimum"] is True


def test_a_list_gets_one_result_per_hand_in_order_with_errors_in_place():
    fifth = dict(PURE_STRAIGHT, concealed=["1m"] * 4 + PURE_STRAIGHT["concealed"][1:10], win_tile="1m")
    payload = json.dumps([PURE_STRAIGHT, {"concealed": ["1x"]}, fifth, PURE_STRAIGHT])
    result = run("mcr", payload)
    assert result.returncode == 0
    answers = json.loads(result.stdout)
    assert len(answers) == 4
    assert "total" in answers[0] and answers[0] == answers[3]
    assert "1x" in answers[1]["error"]
    assert "fifth" in answers[2]["error"]
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_input_that_is_not_json_exits_2():
    result = run_process("mcr", "{nope")  # the real command in its own process, exit status and all
    assert result.returncode == 2
    assert result.stdout == ""
    assert "not valid JSON" in result.stderr


def test_the_nmjl_example_of_the_spec_pays_as_the_spec_says():
    outcome = {
        "mode": "payments",
        "value": 25,
        "won_by": "discard",
        "winner": "E",
        "discarder": "S",
        "jokerless": False,
        "singles_and_pairs": False,
        "winner_exposures": 2,
        "dead": ["W"],
        "lowest_value": 25,
        "events": [
            {"kind": "death_challenge", "challenger": "N", "challenged": "W", "challenged_was_dead": True}
        ],
    }
    result = run("nmjl", json.dumps(outcome))
    assert json.loads(result.stdout) == [{"points": {"E": 100, "S": -50, "W": -50, "N": 0}}]


def test_the_babcock_settlement_example_of_the_spec():
    request = {"settle": {"scores": {"E": 48, "S": 16, "W": 4, "N": 0}, "winner": "E", "east": "E"}}
    result = run("babcock", json.dumps(request))
    assert json.loads(result.stdout) == [{"settlement": {"E": 288, "S": -68, "W": -104, "N": -116}}]


@pytest.mark.parametrize("rules", ["babcock", "chinese-1920s", "foster"])
def test_classical_rule_sets_score_a_hand_and_reject_a_bad_one(rules):
    hand = dict(PURE_STRAIGHT, winner=True)
    result = run(rules, json.dumps([hand, {"winner": True}]))
    answers = json.loads(result.stdout)
    assert answers[0]["total"] >= answers[0]["points"] > 0
    assert "error" in answers[1]


def test_the_command_reads_a_file_argument(tmp_path):
    from django.core.management import call_command

    path = tmp_path / "hands.json"
    path.write_text(json.dumps(PURE_STRAIGHT))
    out = io.StringIO()
    call_command("score_hands", "--rules", "mcr", str(path), stdout=out)
    assert json.loads(out.getvalue())[0]["fans"]["Pure Straight"] == 16
