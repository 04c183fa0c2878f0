"""Settling a hand, through ``score_request`` as ``score_hands`` calls it and through ``settle``.

``000`` is Babcock ``/work/shared/seeds/000_237ca3ff6aae24f4.txt``; ``004`` the Chinese book.
"""

from __future__ import annotations

import pytest

from scoring.rules.classical.api import RULE_SETS, score_request
from scoring.rules.classical.settlement import running_totals, settle
from scoring.rules.errors import HandInputError


def test_the_spec_example_settles_as_babcocks_example_one_000_lines_365_to_384():
    request = {"settle": {"scores": {"E": 48, "S": 16, "W": 4, "N": 0}, "winner": "E", "east": "E"}}
    assert score_request(request, "babcock") == {"settlement": {"E": 288, "S": -68, "W": -104, "N": -116}}


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_book_settles_the_same_way_000_line_354_004_line_114(rules):
    request = {"settle": {"scores": {"N": 28, "W": 112, "E": 44, "S": 12}, "winner": "N", "east": "E"}}
    assert score_request(request, rules)["settlement"] == {"N": 112, "W": 208, "E": -128, "S": -192}


def test_a_draw_game_counts_no_scores_000_line_416():
    request = {"settle": {"scores": {"E": 48, "S": 16, "W": 4, "N": 0}, "winner": None, "east": "E"}}
    assert score_request(request, "babcock")["settlement"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_a_limit_hand_may_cancel_the_losers_scores_000_line_1199():
    options = {"losers_settle": False}
    result = settle({"E": 40, "S": 300, "W": 10, "N": 0}, "S", "E", "babcock", options=options)
    assert result == {"E": -600, "S": 1200, "W": -300, "N": -300}


def test_the_new_method_makes_the_discarder_pay_double_and_east_plain_000_line_1168():
    options = {"method": "new", "discarder": "W"}
    result = settle({"E": 8, "S": 30, "W": 4, "N": 0}, "S", "E", "babcock", options=options)
    # S wins 30: W pays 60, E and N 30; then N pays E 8 and W 4, W pays E 4.
    assert result == {"E": -30 + 8 + 4, "S": 120, "W": -60 + 4 - 4, "N": -30 - 8 - 4}


def test_in_the_new_method_a_drawn_winning_tile_is_paid_double_by_all_000_line_1168():
    result = settle({"E": 0, "S": 30, "W": 0, "N": 0}, "S", "E", "babcock", options={"method": "new"})
    assert result == {"E": -60, "S": 180, "W": -60, "N": -60}


def test_three_players_settle_the_same_way_000_line_1227():
    # N wins 10: E pays 20, S pays 10; S pays E twice the difference of 20.
    assert settle({"E": 20, "S": 0, "N": 10}, "N", "E", "babcock") == {"E": 20, "S": -50, "N": 30}


def test_a_dead_hand_scores_nothing_pays_everyone_and_is_paid_by_nobody_000_line_442():
    # S wins 30; W is dead (whatever his tiles); E has 8, N 4.
    result = settle({"E": 8, "S": 30, "W": 50, "N": 4}, "S", "E", "babcock", options={"dead": ["W"]})
    # W pays S 30, E 2 x 8 and N 4; N pays E 2 x (8 - 4); E pays S 60, N pays S 30.
    assert result == {"E": -60 + 16 + 8, "S": 120, "W": -30 - 16 - 4, "N": -30 + 4 - 8}


def test_running_totals_add_each_players_results_over_the_hands_000_line_1268():
    hands = [
        settle({"E": 48, "S": 16, "W": 4, "N": 0}, "E", "E", "babcock"),
        settle({"N": 28, "W": 112, "E": 44, "S": 12}, "N", "E", "babcock"),
    ]
    totals = running_totals(hands)
    assert totals == {"E": 288 - 128, "S": -68 - 192, "W": -104 + 208, "N": -116 + 112}
    assert sum(totals.values()) == 0


@pytest.mark.parametrize(
    ("settle_request", "words"),
    [
        ({"scores": {"E": 1, "S": 2, "W": 3, "N": 4}, "winner": "X", "east": "E"}, "winner 'X'"),
        ({"scores": {"E": 1, "S": 2, "W": 3, "N": 4}, "winner": "E", "east": "Q"}, "east 'Q'"),
        ({"scores": {"E": -1, "S": 2, "W": 3, "N": 4}, "winner": "E", "east": "E"}, "0 or more"),
        ({"scores": {"E": 1}, "winner": "E", "east": "E"}, "2 to 4 players"),
        ({"scores": {"E": 1, "S": 2}, "east": "E"}, "missing field 'winner'"),
        ({"winner": "E", "east": "E"}, "missing field 'scores'"),
        ({"scores": {"E": 1, "S": 2}, "winner": "E", "east": "E", "options": {"round": 10}}, "unknown"),
        ([1, 2], "settle must be an object"),
        ({"scores": {"E": 1, "S": 2}, "winner": ["E"], "east": "E"}, "winner ['E']"),
        ({"scores": {"E": 1, "S": 2}, "winner": "E", "east": {}}, "east {}"),
        ({"scores": {"E": 1, "S": 2}, "winner": "E", "east": "E", "options": {"dead": ["E"]}}, "dead"),
    ],
)
def test_a_bad_settlement_is_a_clear_error(settle_request, words):
    with pytest.raises(HandInputError) as error:
        score_request({"settle": settle_request}, "babcock")
    assert words in error.value.message
