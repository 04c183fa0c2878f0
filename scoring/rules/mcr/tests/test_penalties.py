"""The MCR penalty catalogue against Sloper's rules 76-93 (seeds/003_2541481d343502a5.txt, lines 2352-2400)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.penalties import (
    ALL_KINDS,
    BY_KEY,
    CATALOGUE,
    OUTCOMES,
    PAID_TO,
    RULINGS,
    check_winner_not_barred,
    escalating_points,
    penalty_points,
    points_for,
    winner_barred,
)
from scoring.rules.mcr.session import SEATS
from scoring.rules.ruleset import PenaltyItem, penalty_effect


def test_empty_calling_is_a_warning_then_5_10_20_and_doubling():
    # Rule 79 (line ~2370): warning; second 5; third 10; fourth 20; doubling for each repeat.
    assert [escalating_points(n) for n in range(1, 7)] == [0, 5, 10, 20, 40, 80]


def test_touching_the_wall_and_late_pung_escalate_the_same_way():
    # Rules 80 and 83 (lines ~2375, ~2390): warning, then 5, then each occurrence doubles.
    for key in ("touch_wall", "late_pung"):
        assert [points_for(BY_KEY[key], n) for n in (1, 2, 3)] == [0, 5, 10]


def test_false_hu_costs_10_or_20_to_each_other_player():
    # Rule 84a-b (line ~2395).
    assert (BY_KEY["false_hu_ready"].points, BY_KEY["false_hu_ready"].paid_to) == (10, "each_other")
    assert (BY_KEY["false_hu_unready"].points, BY_KEY["false_hu_unready"].paid_to) == (20, "each_other")


def test_every_entry_cites_its_rule_and_a_way_to_pay():
    assert len({kind.key for kind in CATALOGUE}) == len(CATALOGUE)
    for kind in CATALOGUE:
        assert kind.rule.startswith("MCR ")
        assert kind.paid_to in {"each_other", "none"}
        assert kind.escalates or kind.points > 0


# ---------------------------------------------------------------------------------------------
# Every kind of penalty of rules 76-93 (lines 2352-2400).


def test_every_kind_has_an_outcome_from_rule_77_and_a_rule_number():
    # Rule 77 (line 2353): warning, forced discard, loss of points, no hu, loss of rank, disqualification.
    assert len({kind.key for kind in ALL_KINDS}) == len(ALL_KINDS)
    for kind in ALL_KINDS:
        assert kind.rule.startswith("MCR ")
        assert kind.outcome in OUTCOMES
        assert kind.paid_to in PAID_TO
        if kind.outcome != "points":
            assert kind.points == 0 and not kind.escalates
    assert {kind.outcome for kind in ALL_KINDS} == set(OUTCOMES)


def test_a_warning_under_any_rule_is_a_zero_point_entry_rules_77a_and_85b():
    # Rule 77a (line 2354) and 85b (line 2384): "penalized by a warning".
    for key in ("warning", "reveal_before_valid_win"):
        assert BY_KEY[key].outcome == "warning"
        assert penalty_points(BY_KEY[key]) == 0
    assert penalty_effect(PenaltyItem(seat="S", points=0, paid_to="each_other")) == dict.fromkeys(SEATS, 0)
    assert penalty_effect(PenaltyItem(seat="S", points=0)) == dict.fromkeys(SEATS, 0)


def test_points_for_revealing_an_opponents_tiles_go_to_that_opponent_rule_85e():
    # Rule 85e (line 2387): "5 points per revealed tile, paid to the opponent".
    kind = BY_KEY["reveal_opponent_tiles"]
    assert (kind.paid_to, penalty_points(kind, tiles=3)) == ("opponent", 15)
    assert penalty_effect(PenaltyItem(seat="N", points=15, paid_to="opponent", paid_to_seat="E")) == {
        "E": 15,
        "S": 0,
        "W": 0,
        "N": -15,
    }
    # A seat letter in paid_to does the same (event-json.md: a player id at the table).
    assert penalty_effect(PenaltyItem(seat="N", points=15, paid_to="E")) == {
        "E": 15,
        "S": 0,
        "W": 0,
        "N": -15,
    }


@pytest.mark.parametrize(
    "item",
    [
        PenaltyItem(seat="N", points=5, paid_to="N"),
        PenaltyItem(seat="N", points=5, paid_to="opponent"),
        PenaltyItem(seat="N", points=5, paid_to="opponent", paid_to_seat="X"),
        PenaltyItem(seat="N", points=5, paid_to="each_other", paid_to_seat="E"),
        PenaltyItem(seat="N", points=-5, paid_to="E"),
        PenaltyItem(seat="N", points=True, paid_to="E"),
    ],
)
def test_it_refuses_a_penalty_paid_to_oneself_to_nobody_named_or_negative(item):
    with pytest.raises(HandInputError) as error:
        penalty_effect(item)
    assert error.value.code in {"bad_penalty", "bad_seat"}


@given(
    seat=st.sampled_from(SEATS),
    to=st.sampled_from(SEATS),
    points=st.integers(0, 10_000),
    each_other=st.booleans(),
)
def test_penalties_paid_to_players_sum_to_zero(seat, to, points, each_other):
    if each_other:
        item = PenaltyItem(seat=seat, points=points, paid_to="each_other")
    elif to == seat:
        return
    else:
        item = PenaltyItem(seat=seat, points=points, paid_to="opponent", paid_to_seat=to)
    assert sum(penalty_effect(item).values()) == 0


def test_loss_of_rank_and_disqualification_carry_a_flag_and_no_points_rules_77e_f_and_89():
    # Rule 77e-f (lines 2358-2359); rule 89 (line 2396): disqualification for disturbing the competition.
    assert (BY_KEY["loss_of_rank"].outcome, penalty_points(BY_KEY["loss_of_rank"])) == ("loss_of_rank", 0)
    assert BY_KEY["disqualification"].outcome == "disqualification"
    assert BY_KEY["disqualification"].rule == "MCR 89"


# Rules that say the player may not declare hu "for the duration of the current hand" (lines 2360-2398).
BARRING = {
    "MCR 78": "erroneous_exposure",
    "MCR 81": "see_wall_tile",
    "MCR 82": "reach_then_discard",
    "MCR 84a": "false_hu_ready",
    "MCR 84b": "false_hu_unready",
    "MCR 84c": "empty_hu",
    "MCR 84d": "late_take",
    "MCR 84f": "show_without_hu",
    "MCR 84g": "score_with_hand",
    "MCR 84h": "below_eight",
    "MCR 85c": "reveal_invalid",
    "MCR 86": "wrong_tile_count",
    "MCR 87": "gave_information",
    "MCR 90": "late_take_called",
    "MCR 91": "incorrect_meld",
}


@pytest.mark.parametrize(("rule", "key"), BARRING.items())
def test_each_no_hu_ruling_of_the_book_bars_the_win(rule, key):
    assert BY_KEY[key].rule == rule and BY_KEY[key].bars_hu
    assert winner_barred("E", [("E", key)]) is BY_KEY[key]
    assert winner_barred("E", [("E", rule)]) is BY_KEY[key]


def test_rulings_that_do_not_bar_hu_leave_the_win_alone():
    # Rule 84e (line 2377): "The player is permitted to win subsequently"; 79, 80, 83 cost points only.
    kinds = [kind for kind in ALL_KINDS if not kind.bars_hu]
    assert {"empty_call", "touch_wall", "late_pung", "warning", "reveal_opponent_tiles"} <= {
        k.key for k in kinds
    }
    for kind in kinds:
        assert winner_barred("E", [("E", kind.key)]) is None


def test_rule_85e_bars_hu_only_when_the_referee_chooses_to():
    # Rule 85e (line 2387): "The referee may also impose a prohibition from declaring hu."
    assert winner_barred("S", [("S", "MCR 85e")]) is None
    assert winner_barred("S", [("S", "reveal_opponent_no_hu")]).rule == "MCR 85e"


def test_only_the_penalised_player_is_barred_and_a_draw_is_never_barred():
    assert winner_barred("W", [("E", "empty_hu")]) is None
    assert winner_barred(None, [("E", "empty_hu")]) is None
    check_winner_not_barred("W", [("E", "empty_hu")])
    with pytest.raises(HandInputError) as error:
        check_winner_not_barred("E", [("S", "warning"), ("E", "MCR 86")])
    assert error.value.code == "winner_barred"
    assert "MCR 86" in error.value.message


def test_the_catalogue_of_point_penalties_is_unchanged_and_rulings_are_separate():
    assert {kind.key for kind in CATALOGUE}.isdisjoint({kind.key for kind in RULINGS})
    assert all(kind.outcome == "points" for kind in CATALOGUE)


def test_revealed_tiles_for_rule_85e_must_be_a_possible_number():
    with pytest.raises(HandInputError):
        penalty_points(BY_KEY["reveal_opponent_tiles"], tiles=0)
