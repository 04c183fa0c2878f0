"""Tie-breaks explained (scoring/standings.py, scoring/rules/tie_breaks.py), pure: MCR rule 73 first (table
points, then score, seeds/003_2541481d343502a5.txt line 2322), then the event's own order; each row says
what decided its place against its neighbours, and players equal in everything share the rank."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.facts import EventFacts, PenaltyFact, SeatFact, TableFacts, standings_from_facts
from scoring.rules.registry import rule_set
from scoring.rules.tie_breaks import TIE_BREAK_ORDER_SETTING, order_of, parse_order
from scoring.standings import SessionLine, TieBreaking, compute_standings


def line(player: str, round_number: int, table: int, points: int, score: int, **more: object) -> SessionLine:
    return SessionLine(
        player=player,
        round_number=round_number,
        table_number=table,
        table_points=Fraction(points),
        score=score,
        **more,  # type: ignore[arg-type]
    )


def ranked(lines: list[SessionLine], *order: str, lots: dict[str, int] | None = None) -> list[tuple]:
    rows = compute_standings(lines, tie_breaks=TieBreaking(order, lots or {}))
    return [(row.player, row.rank, row.above_by, row.below_by) for row in rows]


# A and B end equal on table points (5) and score (40) in every case below, never at one table.
APART = [line("A", 1, 1, 4, 40), line("A", 2, 1, 1, 0), line("B", 1, 2, 4, 30), line("B", 2, 2, 1, 10)]


def test_rule_73_alone_lets_equal_players_share_the_rank():
    assert ranked(APART) == [("A", 1, "", "shared"), ("B", 1, "shared", "")]


def test_rule_73_decides_on_score_when_table_points_are_equal():
    lines = [line("A", 1, 1, 4, 50), line("B", 1, 2, 4, 30), line("C", 1, 3, 2, 90)]
    assert ranked(lines) == [("A", 1, "", "score"), ("B", 2, "score", ""), ("C", 3, "", "")]


def test_head_to_head_counts_only_the_tables_where_the_tied_players_met():
    lines = [
        line("A", 1, 1, 4, 30),
        line("B", 1, 1, 2, 10),
        line("A", 2, 3, 2, 10),
        line("B", 2, 2, 4, 30),
    ]
    assert ranked(lines) == [("A", 1, "", "shared"), ("B", 1, "shared", "")]
    assert ranked(lines, "head_to_head") == [("A", 1, "", "head_to_head"), ("B", 2, "head_to_head", "")]


def test_head_to_head_decides_nothing_when_the_tied_players_never_met():
    assert ranked(APART, "head_to_head") == [("A", 1, "", "shared"), ("B", 1, "shared", "")]


def test_best_session_decides_after_a_head_to_head_that_could_not():
    assert ranked(APART, "head_to_head", "best_session") == [
        ("A", 1, "", "best_session"),
        ("B", 2, "best_session", ""),
    ]


def test_most_first_places():
    lines = [
        line("A", 1, 1, 2, 20, first_place=False),
        line("A", 2, 1, 2, 20, first_place=False),
        line("B", 1, 2, 4, 30, first_place=True),
        line("B", 2, 2, 0, 10, first_place=False),
    ]
    assert ranked(lines, "first_places") == [("B", 1, "", "first_places"), ("A", 2, "first_places", "")]


def test_most_hands_won():
    lines = [line("A", 1, 1, 4, 40, wins=2), line("B", 1, 2, 4, 40, wins=5)]
    assert ranked(lines, "hands_won") == [("B", 1, "", "hands_won"), ("A", 2, "hands_won", "")]


def test_fewest_penalty_points():
    lines = [line("A", 1, 1, 4, 40, penalty_points=30), line("B", 1, 2, 4, 40, penalty_points=10)]
    assert ranked(lines, "fewest_penalties") == [
        ("B", 1, "", "fewest_penalties"),
        ("A", 2, "fewest_penalties", ""),
    ]


def test_the_recorded_draw_of_lots_decides_last():
    assert ranked(APART, "lots", lots={"B": 1, "A": 2}) == [("B", 1, "", "lots"), ("A", 2, "lots", "")]
    # A player missing from the draw (registered after it) cannot be told apart by it.
    assert ranked(APART, "lots", lots={"B": 1}) == [("A", 1, "", "shared"), ("B", 1, "shared", "")]


def test_the_order_matters_and_a_middle_player_is_explained_both_ways():
    lines = [
        line("A", 1, 1, 4, 40, wins=1),
        line("B", 1, 2, 4, 40, wins=3),
        line("C", 1, 3, 4, 40, wins=3),
    ]
    assert ranked(lines, "hands_won", "lots", lots={"C": 1, "B": 2, "A": 3}) == [
        ("C", 1, "", "lots"),
        ("B", 2, "lots", "hands_won"),
        ("A", 3, "hands_won", ""),
    ]
    assert ranked(lines, "lots", "hands_won", lots={"C": 1, "B": 2, "A": 3})[0] == ("C", 1, "", "lots")


def test_players_equal_after_every_tie_break_share_the_rank():
    lines = [line("A", 1, 1, 4, 40), line("B", 1, 2, 4, 40), line("C", 1, 3, 2, 50)]
    order = ("head_to_head", "best_session", "first_places", "hands_won", "fewest_penalties", "lots")
    assert ranked(lines, *order) == [("A", 1, "", "shared"), ("B", 1, "shared", ""), ("C", 3, "", "")]


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="unknown tie-breaks"):
        compute_standings([], tie_breaks=TieBreaking(("coin",)))


def test_the_older_wins_setting_reads_as_most_hands_won():
    rows = compute_standings(
        [SessionLine("A", 1, 40, wins=1), SessionLine("B", 1, 40, wins=2)],
        use_table_points=False,
        tie_break="wins",
    )
    assert [(row.player, row.rank, row.below_by) for row in rows] == [("B", 1, "hands_won"), ("A", 2, "")]
    assert order_of({}, "wins") == ("hands_won",)


def test_the_setting_is_checked_and_read_from_the_form():
    assert TIE_BREAK_ORDER_SETTING.problem(["head_to_head", "lots"]) is None
    assert TIE_BREAK_ORDER_SETTING.problem(["coin"])
    assert TIE_BREAK_ORDER_SETTING.problem(["lots", "lots"])
    assert parse_order("head_to_head, best_session lots") == ["head_to_head", "best_session", "lots"]
    assert order_of({}) == ()  # MCR's default: rule 73, then shared, as before


def table(
    round_number: int, number: int, scores: dict[str, int], first_id: int, **more: object
) -> TableFacts:
    seats = [
        SeatFact(wind, first_id + i, code) for i, (wind, code) in enumerate(zip("ESWN", scores, strict=True))
    ]
    totals = dict(zip("ESWN", scores.values(), strict=True))
    return TableFacts(
        table_id=first_id,
        round_number=round_number,
        table_number=number,
        seats=seats,
        totals=totals,
        confirmed=True,
        **more,  # type: ignore[arg-type]
    )


def head_to_head_event(**more: object) -> EventFacts:
    """A and B meet in session 1 (A first, B second) and sit apart in session 2 (B first, A second):
    both end on 6 table points (MCR rule 71: 4-2-1-0) and a score of 40."""
    return EventFacts(
        tables=[
            table(1, 1, {"A": 30, "B": 10, "P": -15, "Q": -25}, 1, **more),
            table(1, 2, {"R": 5, "S": 0, "T": -2, "U": -3}, 5),
            table(2, 1, {"B": 30, "P": 5, "R": -10, "S": -25}, 9),
            table(2, 2, {"Q": 20, "A": 10, "T": -10, "U": -20}, 13),
        ]
    )


def test_standings_from_facts_follow_the_events_order():
    shared = standings_from_facts(rule_set("mcr"), head_to_head_event())
    assert [(r.player, r.rank, r.table_points, r.score) for r in shared[:2]] == [
        ("A", 1, Fraction(6), 40),
        ("B", 1, Fraction(6), 40),
    ]
    decided = standings_from_facts(
        rule_set("mcr", {"tie_break_order": ["head_to_head"]}), head_to_head_event()
    )
    assert [(r.player, r.rank, r.above_by, r.below_by) for r in decided[:2]] == [
        ("A", 1, "", "head_to_head"),
        ("B", 2, "head_to_head", ""),
    ]


def test_penalties_in_force_reach_the_fewest_penalties_tie_break():
    penalty = PenaltyFact(registration_id=1, points=10, paid_to="none")
    rows = standings_from_facts(
        rule_set("mcr", {"tie_break_order": ["fewest_penalties"]}),
        EventFacts(
            tables=[
                table(1, 1, {"A": 40, "P": 10, "Q": -20, "R": -30}, 1, penalties=[penalty]),
                table(1, 2, {"B": 40, "S": 10, "T": -20, "U": -30}, 5),
            ]
        ),
    )
    # The penalty is deducted from A's score (MCR rule 79), so B is ahead on score already.
    assert [(r.player, r.rank, r.above_by) for r in rows[:2]] == [("B", 1, ""), ("A", 2, "score")]
    assert sum(s.penalty_points for s in rows[1].sessions) == 10
