"""Standings from facts (scoring/facts.py): one computation for the standings, a table's session, the player
page and the exports, and one rule for which rulings count (MCR rule 94: a granted appeal cancels the ruling,
seeds/003_2541481d343502a5.txt line 2405). The pure part is tested on plain values; the two loaders (the
whole event's, a prefetched table's) are tested to agree on a real event."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.facts import (
    EventFacts,
    LateFact,
    PenaltyFact,
    SeatFact,
    StandInFact,
    TableFacts,
    counted,
    counts,
    standings_from_facts,
    table_result,
)
from scoring.rules.registry import rule_set
from scoring.rules.ruleset import HandRecord
from scoring.services.queries import tables_with_results
from scoring.services.standings import event_standings, load_event_facts, session_result, table_facts

MCR = rule_set("mcr")
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def seats(*codes: str, first_id: int = 1) -> list[SeatFact]:
    return [
        SeatFact(wind, first_id + i, code) for i, (wind, code) in enumerate(zip("ESWN", codes, strict=True))
    ]


def mcr_table(table_id: int = 1, **changes: object) -> TableFacts:
    """East wins a self-drawn 8-fan hand (MCR rule 67c, seeds/003_2541481d343502a5.txt line 2309: 3 x (8 + 8) = 48
    for East, -16 each), then South wins
    10 fan from West's discard (10 + 8 from West, 8 from each of the others)."""
    values: dict[str, object] = {
        "table_id": table_id,
        "round_number": 1,
        "table_number": table_id,
        "seats": seats("A", "B", "C", "D"),
        "hands": [
            HandRecord(winner="E", discarder=None, fan=8),
            HandRecord(winner="S", discarder="W", fan=10),
        ],
        "confirmed": True,
    }
    values.update(changes)
    return TableFacts(**values)  # type: ignore[arg-type]


def test_a_ruling_counts_unless_an_appeal_overturned_it():
    assert counts(PenaltyFact(1, 10, "none"))
    assert not counts(PenaltyFact(1, 10, "none", overturned=True))
    assert counts(LateFact(1, 5)) and not counts(LateFact(1, 5, overturned=True))


def test_a_tables_session_by_rule_67_and_table_points_by_rule_71():
    # Rule 67a-b (seeds/003 lines 2307-2308): the discarder pays basic + 8, the others 8; rule 71a-d (lines
    # 2313-2317): 4-2-1-0 by the session's score.
    result = table_result(MCR, mcr_table())
    assert result.scores == {"E": 48 - 8, "S": -16 + 34, "W": -16 - 18, "N": -16 - 8}
    assert result.table_points == {"E": 4, "S": 2, "N": 1, "W": 0}


def test_an_overturned_penalty_costs_nothing_and_a_standing_one_does():
    plain = table_result(MCR, mcr_table()).scores
    penalty = PenaltyFact(registration_id=1, points=10, paid_to="none")
    assert table_result(MCR, mcr_table(penalties=[penalty])).scores["E"] == plain["E"] - 10
    overturned = PenaltyFact(registration_id=1, points=10, paid_to="none", overturned=True)
    assert table_result(MCR, mcr_table(penalties=[overturned])).scores == plain


def test_a_penalty_naming_a_substitute_counts_at_the_seat_they_took_over():
    stand_in = StandInFact(wind="W", registration_id=99, code="Z", from_hand=2)
    table = mcr_table(stand_ins=[stand_in], penalties=[PenaltyFact(99, 5, "none")])
    assert table_result(MCR, table).scores["W"] == table_result(MCR, mcr_table()).scores["W"] - 5


@pytest.mark.parametrize(
    ("changes", "provisional", "frozen_after", "expected"),
    [
        ({}, False, None, True),
        ({"confirmed": False}, False, None, False),
        ({"confirmed": False}, True, None, True),
        ({"published": False}, False, None, False),
        ({"round_number": 2}, False, 1, False),
        ({"round_number": 1}, False, 1, True),
        ({"hands": []}, True, None, False),
    ],
)
def test_which_tables_count(changes, provisional, frozen_after, expected):
    assert (
        counted(mcr_table(**changes), include_provisional=provisional, frozen_after=frozen_after) is expected
    )


def test_standings_rank_table_points_then_score_and_leave_out_substitutes_and_the_withdrawn():
    second = mcr_table(
        2,
        seats=[
            SeatFact("E", 5, "E1"),
            SeatFact("S", 6, "S1", substitute=True),
            SeatFact("W", 7, "W1", withdrawn=True),
            SeatFact("N", 8, "N1"),
        ],
    )
    rows = standings_from_facts(MCR, EventFacts(tables=[mcr_table(), second]))
    assert [(row.player, row.rank, row.table_points) for row in rows] == [
        ("A", 1, Fraction(4)),
        ("E1", 1, Fraction(4)),
        ("B", 3, Fraction(2)),
        ("D", 4, Fraction(1)),
        ("N1", 4, Fraction(1)),
        ("C", 6, Fraction(0)),
    ]


def test_a_disqualified_player_is_listed_unranked_even_without_a_counted_table():
    ruling = PenaltyFact(3, 0, "none", outcome="disqualification", code="C")
    rows = standings_from_facts(MCR, EventFacts(tables=[mcr_table(confirmed=False, penalties=[ruling])]))
    assert [(row.player, row.rank, row.status) for row in rows] == [("C", None, "disqualification")]
    overturned = PenaltyFact(3, 0, "none", outcome="disqualification", code="C", overturned=True)
    assert (
        standings_from_facts(MCR, EventFacts(tables=[mcr_table(confirmed=False, penalties=[overturned])]))
        == []
    )


@pytest.fixture
def demo(db):
    from scoring.interchange import import_event

    with (FIXTURES / "demo-mcr.json").open(encoding="utf-8") as handle:
        return import_event(json.load(handle))


def test_the_event_loader_and_the_page_loader_agree_on_every_table(demo):
    """The standings read the whole event as plain values; a page reads one prefetched table: the same facts
    (penalties and lateness with their appeals, substitutions, totals), so the same session result."""
    by_table = {facts.table_id: facts for facts in load_event_facts(demo).tables}
    tables = tables_with_results(demo)
    assert any(facts.penalties for facts in by_table.values())
    for table in tables:
        page = table_facts(table)
        event = by_table[table.pk]
        assert (page.hands, page.totals, page.confirmed, page.published) == (
            event.hands,
            event.totals,
            event.confirmed,
            event.published,
        )
        assert [(p.registration_id, p.points, p.overturned) for p in page.penalties] == [
            (p.registration_id, p.points, p.overturned) for p in event.penalties
        ]
        if page.started:
            assert session_result(table) == table_result(demo.rule_set, event)


def test_event_standings_are_the_facts_standings(demo):
    assert event_standings(demo) == standings_from_facts(demo.rule_set, load_event_facts(demo))
    assert event_standings(demo)
