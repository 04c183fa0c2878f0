"""NMJL penalties in NMJL words: the tournament table (line 1556) and the organiser's policy (line 1572)
of shared/seeds/003_2541481d343502a5.txt, and the official rules' payments and dead hands."""

from __future__ import annotations

import pytest

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.penalties import (
    BY_KEY,
    CATALOGUE,
    EFFECTS,
    OrganiserPolicy,
    payment,
    tournament_points,
)


def test_the_tournament_table_penalties_are_the_books_lines_1566_to_1569():
    assert tournament_points("throw_win_two_exposures") == -10
    assert tournament_points("throw_win_three_exposures") == -25
    assert tournament_points("not_in_seat") == -25
    assert tournament_points("dead_hand") == 0
    assert BY_KEY["throw_win_two_exposures"].label == "Throwing win to two exposures"


def test_misnaming_and_early_throw_in_follow_the_organisers_policy_line_1572():
    # "A thorough tournament organizer also has a policy on how to penalize ... misnaming a discard (when
    # this results in a mishap) or throwing in the hand prematurely": no points until the organiser sets them.
    assert tournament_points("misnamed_discard_mishap") == 0
    policy = OrganiserPolicy.from_settings({"misnamed_discard_mishap": -10, "premature_throw_in": -25})
    assert tournament_points("misnamed_discard_mishap", policy) == -10
    assert tournament_points("premature_throw_in", policy) == -25


@pytest.mark.parametrize(
    "settings", [{"misnamed_discard_mishap": 5}, {"misnamed_discard_mishap": "x"}, {"fan": -1}, ["x"]]
)
def test_a_policy_is_zero_or_negative_whole_points_with_known_names(settings):
    with pytest.raises(HandInputError) as error:
        OrganiserPolicy.from_settings(settings)
    assert error.value.code == "bad_policy"


def test_a_misnamed_discard_called_for_mahjongg_costs_the_misnamer_four_times_rule_95c():
    # Rule 95c (line 912) and rule 100 (line 935): four times the value of the winner's hand.
    assert payment("misnamed_discard_mahjongg", 25) == 100
    assert payment("out_of_turn_discard", 30) == 120


def test_rule_breaches_that_kill_the_hand_score_the_tables_dead_hand():
    # Rules 92c, 93, 94, 96, 97b-c, 98b: the death penalty; the table gives a dead hand 0 points.
    dead = [penalty.key for penalty in CATALOGUE if penalty.effect == "dead_hand"]
    assert {"wrong_tile_count", "picking_ahead", "peeking_blind_pass", "mahjongg_in_error"} <= set(dead)
    assert all(tournament_points(key) == 0 for key in dead)


def test_it_speaks_nmjl_never_mcr():
    for penalty in CATALOGUE:
        assert penalty.effect in EFFECTS
        assert "MCR" not in penalty.source and " hu" not in penalty.label.lower()
        assert penalty.source.startswith(("NMJL rule", "Tournament scoring table", "Organiser's policy"))


@pytest.mark.parametrize(
    ("key", "value"), [("home_warning", 25), ("nope", 25), (None, 25), ("not_in_seat", 25)]
)
def test_unknown_or_wrong_kinds_of_penalty_are_refused(key, value):
    with pytest.raises(HandInputError):
        payment(key, value)


def test_tournament_points_refuse_a_payment_penalty_and_an_unknown_key():
    for key in ("misnamed_discard_mahjongg", "nope", ["x"]):
        with pytest.raises(HandInputError):
            tournament_points(key)
