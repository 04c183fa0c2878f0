"""Ranking by rule 73 (Sloper, seeds/003_2541481d343502a5.txt, line ~2335)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import SessionLine, compute_standings


def test_table_points_rank_before_score():
    rows = compute_standings(
        [
            SessionLine("ana", 1, score=10, table_points=Fraction(4)),
            SessionLine("bo", 1, score=200, table_points=Fraction(2)),
        ]
    )
    assert [r.player for r in rows] == ["ana", "bo"]


def test_equal_table_points_are_ranked_by_score():
    rows = compute_standings(
        [
            SessionLine("ana", 1, score=10, table_points=Fraction(4)),
            SessionLine("bo", 1, score=40, table_points=Fraction(4)),
        ]
    )
    assert [(r.player, r.rank) for r in rows] == [("bo", 1), ("ana", 2)]


def test_players_equal_in_both_share_the_rank_and_the_next_rank_is_skipped():
    rows = compute_standings(
        [
            SessionLine("ana", 1, score=10, table_points=Fraction(2)),
            SessionLine("bo", 1, score=10, table_points=Fraction(2)),
            SessionLine("cy", 1, score=5, table_points=Fraction(2)),
        ]
    )
    assert [(r.player, r.rank) for r in rows] == [("ana", 1), ("bo", 1), ("cy", 3)]


def test_registered_players_without_results_still_appear():
    rows = compute_standings([SessionLine("ana", 1, score=3, table_points=Fraction(1))], ["ana", "zed"])
    assert [(r.player, r.score) for r in rows] == [("ana", 3), ("zed", 0)]


def test_score_only_rule_sets_rank_by_score():
    rows = compute_standings(
        [SessionLine("ana", 1, score=10), SessionLine("bo", 1, score=30)], use_table_points=False
    )
    assert [r.player for r in rows] == ["bo", "ana"]
    assert rows[0].table_points is None


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", "d", "e"]),
            st.integers(-100, 100),
            st.sampled_from([Fraction(0), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)]),
        ),
        max_size=30,
    )
)
def test_ranking_is_a_total_order_consistent_with_the_keys(entries):
    rows = compute_standings([SessionLine(p, 1, score=s, table_points=t) for p, s, t in entries])
    for better, worse in itertools.pairwise(rows):
        assert (better.table_points, better.score) >= (worse.table_points, worse.score)
        if (better.table_points, better.score) == (worse.table_points, worse.score):
            assert better.rank == worse.rank
        else:
            assert worse.rank > better.rank


def test_the_wins_tie_break_ranks_the_player_with_more_wins_first():
    lines = [SessionLine("ana", 1, score=50, wins=1), SessionLine("bo", 1, score=50, wins=3)]
    shared = compute_standings(lines, use_table_points=False)
    assert [(r.player, r.rank) for r in shared] == [("ana", 1), ("bo", 1)]
    by_wins = compute_standings(lines, use_table_points=False, tie_break="wins")
    assert [(r.player, r.rank) for r in by_wins] == [("bo", 1), ("ana", 2)]
