"""Home settlement: rules 71-76 (~line 824), 78, 95c, 98, 100, 104, 108 and the worked examples at ~1524
and ~1630 of shared/seeds/003_2541481d343502a5.txt."""

from __future__ import annotations

from functools import partial
from operator import ne

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.outcome import SEATS, DeathChallenge, FalseMahjong, Outcome
from scoring.rules.nmjl.payments import bettor_transfers, net, payments, transfers


def pts(**fields) -> dict[str, int]:
    return payments(Outcome(**fields))


def test_on_a_discard_the_discarder_pays_double_and_the_others_single_rule_72a():
    assert pts(won_by="discard", value=25, winner="E", discarder="S") == {
        "E": 100,
        "S": -50,
        "W": -25,
        "N": -25,
    }


def test_on_a_self_pick_every_nonwinner_pays_double_rule_72b():
    assert pts(won_by="self_pick", value=30, winner="W") == {"E": -60, "S": -60, "W": 180, "N": -60}


def test_a_jokerless_hand_doubles_every_payment_rule_73_and_bettys_example_line_1526():
    # Alice (S) discards, Betty (E) wins a 25-point jokerless hand: Alice pays $1, the others 50 cents.
    assert pts(won_by="discard", value=25, winner="E", discarder="S", jokerless=True) == {
        "E": 200,
        "S": -100,
        "W": -50,
        "N": -50,
    }


def test_a_singles_and_pairs_hand_gets_no_jokerless_double_rule_73():
    assert pts(won_by="self_pick", value=50, winner="N", jokerless=True, singles_and_pairs=True) == {
        "E": -100,
        "S": -100,
        "W": -100,
        "N": 300,
    }


def test_one_nonwinner_pays_at_most_four_times_the_value_rule_74():
    result = pts(won_by="self_pick", value=25, winner="E", jokerless=True)
    assert min(result.values()) == -100


def test_winning_by_redeeming_a_joker_is_a_self_pick_fifty_all_rule_88_line_1528():
    assert pts(won_by="self_pick", value=25, winner="S") == {"E": -50, "S": 150, "W": -50, "N": -50}


def test_a_wall_game_pays_nothing_rule_78():
    assert pts(won_by="wall") == dict.fromkeys(SEATS, 0)


def test_a_dead_player_pays_the_winner_as_any_nonwinner_rule_108():
    alive = pts(won_by="discard", value=25, winner="E", discarder="S")
    assert pts(won_by="discard", value=25, winner="E", discarder="S", dead=frozenset({"W", "N"})) == alive


def test_a_misnamed_discard_called_for_mahjong_is_paid_four_times_by_the_misnamer_alone_rule_95c():
    result = pts(won_by="discard", value=30, winner="W", discarder="N", misnamed_by="N", jokerless=True)
    assert result == {"E": 0, "S": 0, "W": 120, "N": -120}


def test_a_discard_out_of_turn_is_paid_four_times_by_that_discarder_alone_rule_100():
    result = pts(won_by="discard", value=25, winner="E", discarder="W", out_of_turn_by="W")
    assert result == {"E": 100, "S": 0, "W": -100, "N": 0}


def test_a_penalty_discard_must_be_the_discard_the_winner_took_rules_95c_and_100():
    with pytest.raises(HandInputError) as info:
        pts(won_by="discard", value=25, winner="E", discarder="S", out_of_turn_by="W")
    assert "rule 100" in info.value.message
    with pytest.raises(HandInputError):
        pts(won_by="self_pick", value=25, winner="E", misnamed_by="W")


def test_a_false_mahjong_without_cascade_leaves_the_declarer_dead_paying_the_winner_rule_98b_line_1622():
    result = pts(
        won_by="discard", value=25, winner="E", discarder="S", false_mahjong=FalseMahjong(declarer="W")
    )
    assert result == {"E": 100, "S": -50, "W": -25, "N": -25}


def test_the_declarer_of_a_false_mahjong_cannot_win_later_rule_98b():
    with pytest.raises(HandInputError) as info:
        pts(won_by="self_pick", value=25, winner="W", false_mahjong=FalseMahjong(declarer="W"))
    assert "rule 108" in info.value.message


def test_with_one_hand_thrown_in_two_are_dead_and_all_three_pay_the_winner_rule_98c_line_1626():
    fm = FalseMahjong(declarer="W", threw_in=("N",))
    result = pts(won_by="self_pick", value=25, winner="E", false_mahjong=fm)
    assert result == {"E": 150, "S": -50, "W": -50, "N": -50}
    with pytest.raises(HandInputError):
        pts(won_by="self_pick", value=25, winner="N", false_mahjong=fm)


def test_with_two_hands_thrown_in_the_declarer_pays_the_survivor_double_rule_98d_line_1630():
    fm = FalseMahjong(declarer="S", declared_value=25, threw_in=("W", "N"))
    assert pts(won_by=None, false_mahjong=fm) == {"E": 50, "S": -50, "W": 0, "N": 0}


def test_a_game_ended_by_a_false_mahjong_has_no_winner_rule_98d():
    fm = FalseMahjong(declarer="S", declared_value=25, threw_in=("W", "N"))
    with pytest.raises(HandInputError) as info:
        pts(won_by="self_pick", value=25, winner="E", false_mahjong=fm)
    assert "no winner" in info.value.message


def test_two_hands_thrown_in_need_the_declared_value_rule_98d():
    with pytest.raises(HandInputError) as info:
        FalseMahjong(declarer="S", threw_in=("W", "N"))
    assert info.value.code == "missing_field"


def test_destroying_the_wall_pays_each_survivor_the_lowest_card_value_rule_98e():
    fm = FalseMahjong(declarer="S", wall_destroyed_by="W")
    assert pts(won_by=None, false_mahjong=fm, lowest_value=25) == {"E": 25, "S": 0, "W": -50, "N": 25}


def test_a_destroyed_wall_needs_the_lowest_value_rule_98e():
    with pytest.raises(HandInputError) as info:
        pts(won_by=None, false_mahjong=FalseMahjong(declarer="S", wall_destroyed_by="W"))
    assert "lowest_value" in info.value.message


def test_a_player_found_dead_pays_the_challenger_the_lowest_value_rule_104a():
    challenge = DeathChallenge(challenger="N", challenged="W", challenged_was_dead=True)
    assert pts(won_by="wall", challenges=(challenge,), lowest_value=25) == {"E": 0, "S": 0, "W": -25, "N": 25}


def test_a_wrong_challenger_pays_the_challenged_the_lowest_value_rule_104b():
    challenge = DeathChallenge(challenger="N", challenged="W", challenged_was_dead=False)
    result = pts(won_by="self_pick", value=25, winner="W", challenges=(challenge,), lowest_value=25)
    assert result == {"E": -50, "S": -50, "W": 175, "N": -75}


def test_a_challenged_winner_cannot_have_been_dead_rule_104():
    challenge = DeathChallenge(challenger="N", challenged="W", challenged_was_dead=True)
    with pytest.raises(HandInputError):
        pts(won_by="self_pick", value=25, winner="W", challenges=(challenge,), lowest_value=25)


def test_a_player_cannot_challenge_herself_rule_105():
    with pytest.raises(HandInputError):
        DeathChallenge(challenger="N", challenged="N", challenged_was_dead=True)


def test_the_spec_example_gives_e_100_s_minus_50_w_minus_50_n_0_rules_72a_104a_108():
    challenge = DeathChallenge(challenger="N", challenged="W", challenged_was_dead=True)
    result = pts(
        won_by="discard",
        value=25,
        winner="E",
        discarder="S",
        winner_exposures=2,
        dead=frozenset({"W"}),
        lowest_value=25,
        challenges=(challenge,),
    )
    assert result == {"E": 100, "S": -50, "W": -50, "N": 0}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"won_by": "discard", "value": 25, "winner": "E"}, "discarder"),
        ({"won_by": "discard", "value": 25, "winner": "E", "discarder": "E"}, "cannot be the discarder"),
        ({"won_by": "self_pick", "value": 25, "winner": "E", "discarder": "S"}, "no discarder"),
        ({"won_by": "wall", "winner": "E"}, "rule 78"),
        ({"won_by": "self_pick", "winner": "E"}, "value"),
        ({"won_by": "self_pick", "value": 0, "winner": "E"}, "positive"),
        ({"won_by": "self_pick", "value": 25, "winner": "X"}, "E, S, W, N"),
        ({"won_by": "robbed", "value": 25, "winner": "E"}, "won_by"),
        ({"won_by": "self_pick", "value": 25, "winner": "E", "dead": frozenset({"E"})}, "rule 108"),
        ({"won_by": "self_pick", "value": 25, "winner": "E", "winner_exposures": 5}, "0 to 4"),
        (
            {
                "won_by": "self_pick",
                "value": 50,
                "winner": "E",
                "singles_and_pairs": True,
                "winner_exposures": 1,
            },
            "Singles And Pairs",
        ),
    ],
)
def test_impossible_outcomes_are_clear_errors(fields, words):
    with pytest.raises(HandInputError) as info:
        Outcome(**fields)
    assert words in info.value.message


seats = st.sampled_from(SEATS)


@st.composite
def outcomes(draw) -> Outcome:
    won_by = draw(st.sampled_from(["discard", "self_pick", "wall"]))
    value = draw(st.integers(1, 100))
    winner = discarder = None
    if won_by != "wall":
        winner = draw(seats)
        if won_by == "discard":
            discarder = draw(seats.filter(lambda s: s != winner))
    others = [s for s in SEATS if s != winner]
    dead = frozenset(draw(st.lists(st.sampled_from(others), max_size=2, unique=True)))
    challenges = []
    for _ in range(draw(st.integers(0, 2))):
        challenger = draw(seats)
        challenged = draw(seats.filter(partial(ne, challenger)))
        was_dead = challenged != winner and draw(st.booleans())
        if not was_dead and challenged in dead:
            was_dead = True
        challenges.append(DeathChallenge(challenger, challenged, was_dead))
    penalty: dict[str, str | None] = {"misnamed_by": None, "out_of_turn_by": None}
    if won_by == "discard" and draw(st.booleans()):
        penalty[draw(st.sampled_from(["misnamed_by", "out_of_turn_by"]))] = discarder
    return Outcome(
        won_by=won_by,
        value=value if winner else None,
        winner=winner,
        discarder=discarder,
        jokerless=draw(st.booleans()),
        singles_and_pairs=draw(st.booleans()),
        dead=dead,
        lowest_value=draw(st.integers(1, 50)),
        challenges=tuple(challenges),
        misnamed_by=penalty["misnamed_by"],
        out_of_turn_by=penalty["out_of_turn_by"],
    )


@given(outcomes())
def test_payments_always_sum_to_zero_rule_75c(outcome):
    assert sum(payments(outcome).values()) == 0


@given(outcomes())
def test_only_the_winner_gains_from_the_hand_itself_rules_72_and_108(outcome):
    plain = Outcome(
        won_by=outcome.won_by,
        value=outcome.value,
        winner=outcome.winner,
        discarder=outcome.discarder,
        jokerless=outcome.jokerless,
        singles_and_pairs=outcome.singles_and_pairs,
    )
    result = payments(plain)
    for seat, amount in result.items():
        assert amount <= 0 or seat == outcome.winner


def test_payments_are_itemised_with_their_rule_for_the_score_sheet_rules_72_104():
    challenge = DeathChallenge(challenger="N", challenged="W", challenged_was_dead=True)
    outcome = Outcome(
        won_by="discard", value=25, winner="E", discarder="S", lowest_value=25, challenges=(challenge,)
    )
    assert [(t.payer, t.payee, t.amount, t.rule) for t in transfers(outcome)] == [
        ("S", "E", 50, "72"),
        ("W", "E", 25, "72"),
        ("N", "E", 25, "72"),
        ("W", "N", 25, "104"),
    ]


def test_a_bettor_on_the_winner_is_paid_what_each_nonwinner_paid_the_winner_rule_127_line_1526():
    outcome = Outcome(won_by="discard", value=25, winner="E", discarder="S", jokerless=True)
    assert net(bettor_transfers(outcome, "E"), (*SEATS, "bettor")) == {
        "E": 0,
        "S": -100,
        "W": -50,
        "N": -50,
        "bettor": 200,
    }


def test_a_bettor_on_the_discarder_pays_what_the_discarder_paid_rule_127():
    outcome = Outcome(won_by="discard", value=25, winner="E", discarder="S")
    assert net(bettor_transfers(outcome, "S", bettor="Esther")) == {
        "E": 50,
        "S": 0,
        "W": 0,
        "N": 0,
        "Esther": -50,
    }


def test_a_bettor_shares_the_penalties_of_her_player_rule_127():
    outcome = Outcome(won_by="discard", value=25, winner="E", discarder="W", out_of_turn_by="W")
    assert net(bettor_transfers(outcome, "W"))["bettor"] == -100
    assert net(bettor_transfers(outcome, "N"), ("bettor",))["bettor"] == 0


def test_a_bettor_who_predicted_a_wall_game_is_paid_the_lowest_value_by_each_player_rule_128():
    assert net(bettor_transfers(Outcome(won_by="wall", lowest_value=25), "wall"))["bettor"] == 100
    assert bettor_transfers(Outcome(won_by="self_pick", value=25, winner="E"), "wall") == []
    with pytest.raises(HandInputError):
        bettor_transfers(Outcome(won_by="wall"), "wall")
    with pytest.raises(HandInputError):
        bettor_transfers(Outcome(won_by="wall"), "X")


@given(outcomes(), st.sampled_from([*SEATS, "wall"]))
def test_a_bettor_ends_up_exactly_as_the_player_she_bet_on_rule_127(outcome, bet):
    result = net(bettor_transfers(outcome, bet), (*SEATS, "bettor"))
    assert sum(result.values()) == 0
    if bet != "wall":
        assert result["bettor"] == payments(outcome)[bet]


def test_a_game_ended_by_a_false_mahjong_has_no_discarder_either_rule_98d():
    fm = FalseMahjong(declarer="S", declared_value=25, threw_in=("W", "N"))
    with pytest.raises(HandInputError):
        Outcome(won_by=None, discarder="E", false_mahjong=fm)
