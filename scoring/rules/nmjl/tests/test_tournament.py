"""Tournament points: the "Tournament Scoring" table at ~line 1556 of shared/seeds/003_2541481d343502a5.txt
and the variants organisers use, as schemes with named presets."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.outcome import SEATS, DeathChallenge, FalseMahjong, Outcome
from scoring.rules.nmjl.tournament import BOOK, PRESETS, TournamentScheme, round_totals, tournament_points


def tp(scheme: TournamentScheme = BOOK, **fields) -> dict[str, int]:
    return tournament_points(Outcome(**fields), scheme)


def test_going_mahjong_scores_the_card_value_and_nonwinners_0_line_1562():
    assert tp(won_by="discard", value=30, winner="S", discarder="E", winner_exposures=0) == {
        "E": 0,
        "S": 30,
        "W": 0,
        "N": 0,
    }


def test_self_pick_adds_10_line_1563():
    assert tp(won_by="self_pick", value=25, winner="N")["N"] == 35


def test_jokerless_adds_20_line_1564():
    assert tp(won_by="self_pick", value=25, winner="N", jokerless=True)["N"] == 55


def test_no_jokerless_bonus_for_singles_and_pairs_by_default_rule_73_and_the_spec():
    assert tp(won_by="self_pick", value=50, winner="N", jokerless=True, singles_and_pairs=True)["N"] == 60
    variant = PRESETS["jokerless-any-hand"]
    result = tp(variant, won_by="self_pick", value=50, winner="N", jokerless=True, singles_and_pairs=True)
    assert result["N"] == 80


def test_a_wall_game_gives_every_live_player_10_line_1565_and_a_dead_hand_0_line_1570():
    assert tp(won_by="wall") == dict.fromkeys(SEATS, 10)
    assert tp(won_by="wall", dead=frozenset({"W"})) == {"E": 10, "S": 10, "W": 0, "N": 10}
    scheme = replace(BOOK, wall_game_to_dead=True)  # the event's other reading (docs/nmjl-rules.md)
    assert tp(scheme, won_by="wall", dead=frozenset({"W"})) == dict.fromkeys(SEATS, 10)


def test_the_wall_game_to_live_players_only_variant_gives_the_dead_0():
    assert tp(PRESETS["wall-live-only"], won_by="wall", dead=frozenset({"W"})) == {
        "E": 10,
        "S": 10,
        "W": 0,
        "N": 10,
    }


@pytest.mark.parametrize(("exposures", "penalty"), [(0, 0), (1, 0), (2, -10), (3, -25), (4, -25)])
def test_throwing_the_win_to_two_exposures_costs_10_and_to_three_25_lines_1566_1567(exposures, penalty):
    result = tp(won_by="discard", value=25, winner="E", discarder="W", winner_exposures=exposures)
    assert result == {"E": 25, "S": 0, "W": penalty, "N": 0}


@pytest.mark.parametrize(
    ("preset", "penalties"),
    [("exposures-10-20-25", [0, 0, -10, -20, -25]), ("exposures-10-20-30", [0, 0, -10, -20, -30])],
)
def test_the_graded_discard_penalty_presets(preset, penalties):
    scheme = PRESETS[preset]
    for exposures, penalty in enumerate(penalties):
        result = tp(scheme, won_by="discard", value=25, winner="E", discarder="W", winner_exposures=exposures)
        assert result["W"] == penalty


def test_not_being_in_seat_at_game_start_costs_25_line_1568():
    assert tp(won_by="self_pick", value=25, winner="E", late=frozenset({"E", "S"})) == {
        "E": 10,
        "S": -25,
        "W": 0,
        "N": 0,
    }


def test_a_dead_hand_scores_0_line_1570():
    challenge = DeathChallenge("N", "W", challenged_was_dead=True)
    result = tp(won_by="self_pick", value=25, winner="E", challenges=(challenge,), lowest_value=25)
    assert result == {"E": 35, "S": 0, "W": 0, "N": 0}
    harsh = TournamentScheme(dead_hand=-10)
    assert tp(harsh, won_by="self_pick", value=25, winner="E", dead=frozenset({"W"}))["W"] == -10


def test_a_game_ended_by_a_false_mahjong_scores_nothing_but_lateness_rule_98d():
    fm = FalseMahjong(declarer="S", declared_value=25, threw_in=("W", "N"))
    assert tp(won_by=None, false_mahjong=fm, late=frozenset({"E"})) == {"E": -25, "S": 0, "W": 0, "N": 0}


def test_a_misnamed_discard_counts_as_the_discard_of_the_win_in_tournaments_rule_95c():
    result = tp(won_by="discard", value=25, winner="E", discarder="S", misnamed_by="S", winner_exposures=3)
    assert result == {"E": 25, "S": -25, "W": 0, "N": 0}


def test_a_discarded_win_needs_the_winners_exposures_line_1566():
    with pytest.raises(HandInputError) as info:
        tp(won_by="discard", value=25, winner="E", discarder="S")
    assert info.value.code == "missing_field"


def test_from_settings_starts_from_a_preset_and_applies_overrides():
    scheme = TournamentScheme.from_settings({"preset": "exposures-10-20-30", "late": -10, "wall_game": 5})
    assert (scheme.late, scheme.wall_game, scheme.discard_penalty(4)) == (-10, 5, -30)
    assert TournamentScheme.from_settings(None) == BOOK
    assert TournamentScheme.from_settings({}) == BOOK


def test_from_settings_reads_discard_penalties_as_an_object_or_pairs():
    by_object = TournamentScheme.from_settings({"discard_penalties": {"2": -5, "3": -15}})
    by_pairs = TournamentScheme.from_settings({"discard_penalties": [[3, -15], [2, -5]]})
    assert by_object.discard_penalties == by_pairs.discard_penalties == ((2, -5), (3, -15))


def test_to_settings_round_trips_every_preset():
    for scheme in PRESETS.values():
        assert TournamentScheme.from_settings(scheme.to_settings()) == scheme


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"preset": "nope"}, "unknown scoring preset"),
        ({"selfpick": 10}, "unknown scheme field 'selfpick'"),
        ({"late": "x"}, "whole number"),
        ({"wall_game_to_dead": 1}, "true or false"),
        ({"discard_penalties": {"5": -10}}, "from 1 to 4"),
        ({"discard_penalties": [[2, -10], [2, -20]]}, "increasing"),
        ({"discard_penalties": 3}, "object or a list"),
        ({"discard_penalties": {"two": -10}}, "(exposures, points)"),
        ("book", "must be an object"),
    ],
)
def test_bad_scheme_settings_are_clear_errors(settings, words):
    with pytest.raises(HandInputError) as info:
        TournamentScheme.from_settings(settings)
    assert info.value.code == "bad_scheme"
    assert words in info.value.message


def test_a_round_of_four_games_is_added_up_line_1574():
    games = [{"ann": 25, "bea": 0}, {"ann": 10, "bea": -10}, {"ann": 0, "bea": 35}, {"ann": -25, "bea": 10}]
    assert round_totals(games) == {"ann": 10, "bea": 35}


@given(
    won_by=st.sampled_from(["discard", "self_pick"]),
    value=st.integers(25, 100),
    winner=st.sampled_from(SEATS),
    exposures=st.integers(0, 4),
    jokerless=st.booleans(),
)
def test_only_the_winner_scores_and_only_the_discarder_loses_line_1558(
    won_by, value, winner, exposures, jokerless
):
    discarder = None
    if won_by == "discard":
        discarder = next(s for s in SEATS if s != winner)
    result = tp(
        won_by=won_by,
        value=value,
        winner=winner,
        discarder=discarder,
        winner_exposures=exposures,
        jokerless=jokerless,
    )
    assert result[winner] >= value
    for seat in SEATS:
        if seat not in (winner, discarder):
            assert result[seat] == 0
