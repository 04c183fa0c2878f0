"""The referee's catalogues as every rule set offers them (pure; Sloper's chapter 4 rules 76-91 for MCR,
shared/seeds/003_2541481d343502a5.txt lines 2350-2398)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.penalties import REFEREE_CATALOGUE
from scoring.rules.registry import rule_set
from scoring.rules.rulings import OUTCOMES, Ruling, escalating_points

BY_KEY = {ruling.key: ruling for ruling in REFEREE_CATALOGUE}


def test_escalation_is_a_warning_then_5_10_20_and_doubling_rules_79_80_83():
    assert [escalating_points(n) for n in range(1, 7)] == [0, 5, 10, 20, 40, 80]


@given(st.integers(min_value=2, max_value=200))
def test_each_repeat_costs_at_least_the_one_before_and_never_more_than_the_cap(occurrence):
    assert escalating_points(occurrence - 1) <= escalating_points(occurrence) <= 10_000


def test_every_ruling_that_bars_hu_in_the_book_bars_a_win():
    # Rules 78, 81, 82, 84a-d/f-h, 85c, 86, 87, 90, 91: "prohibited from declaring hu ... current hand".
    for key in [
        "erroneous_exposure",
        "see_wall_tile",
        "reach_then_discard",
        "false_hu_ready",
        "false_hu_unready",
        "empty_hu",
        "late_take",
        "show_without_hu",
        "score_with_hand",
        "below_eight",
        "reveal_invalid",
        "wrong_tile_count",
        "gave_information",
        "late_take_called",
        "incorrect_meld",
    ]:
        assert BY_KEY[key].bars_win and BY_KEY[key].needs_hand, key
    assert not BY_KEY["empty_call"].bars_win and not BY_KEY["warning"].bars_win


def test_loss_of_rank_and_disqualification_are_rulings_of_rules_77e_and_89():
    assert (BY_KEY["loss_of_rank"].outcome, BY_KEY["loss_of_rank"].citation) == ("loss_of_rank", "MCR 77e")
    assert (BY_KEY["disqualification"].outcome, BY_KEY["disqualification"].citation) == (
        "disqualification",
        "MCR 89",
    )


def test_revealing_an_opponents_tiles_costs_5_per_tile_paid_to_that_player_rule_85e():
    ruling = BY_KEY["reveal_opponent_tiles"]
    assert (ruling.points_for(tiles=4), ruling.paid_to) == (20, "player")
    with pytest.raises(HandInputError):
        ruling.points_for(tiles=None)


@pytest.mark.parametrize("code", ["mcr", "nmjl", "babcock"])
def test_every_rule_set_offers_a_warning_loss_of_rank_and_disqualification(code):
    catalogue = rule_set(code, {}).penalty_catalogue()
    outcomes = {ruling.outcome for ruling in catalogue}
    assert {"warning", "loss_of_rank", "disqualification"} <= outcomes <= set(OUTCOMES)
    assert len({ruling.key for ruling in catalogue}) == len(catalogue)


def test_a_ruling_with_an_unknown_outcome_cannot_be_made():
    with pytest.raises(ValueError):
        Ruling("x", "here", "X", outcome="banishment")
