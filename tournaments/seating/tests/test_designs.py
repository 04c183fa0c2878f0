"""Stored designs: each round a partition into tables of four, pair meetings exactly as claimed."""

from __future__ import annotations

import pytest

from tournaments.seating import (
    RoundSeating,
    SeatingPlayer,
    TableSeating,
    designs,
    lower_bound,
    plan_seating,
    quality_report,
)


@pytest.mark.parametrize("players", sorted(designs.DESIGNS))
def test_every_stored_design_is_what_it_claims(players):
    design = designs.DESIGNS[players]
    rounds = design.rounds()
    assert len(rounds) == len(design.base) // (players // 4) * design.g
    assert (
        designs.verify(
            rounds, players, repeated_pairs=design.repeated_pairs, max_meetings=design.max_meetings
        )
        == []
    )


@pytest.mark.parametrize("players", [28, 40, 52])
def test_perfect_designs_meet_every_pair_exactly_once(players):
    counts = designs.pair_meetings(designs.design_rounds(players))
    assert len(counts) == players * (players - 1) // 2
    assert set(counts.values()) == {1}
    assert len(designs.design_rounds(players)) == (players - 1) // 3


@pytest.mark.parametrize("players", sorted(designs.DESIGNS))
def test_every_truncation_keeps_its_promise(players):
    design = designs.DESIGNS[players]
    rounds = design.rounds()
    for r in range(1, len(rounds) + 1):
        counts = designs.pair_meetings(rounds[:r])
        assert max(counts.values()) <= design.max_meetings
        if design.repeated_pairs == 0:
            assert sum(counts.values()) == 6 * (players // 4) * r


def test_the_verifier_names_what_is_wrong():
    rounds = designs.design_rounds(28)
    broken = [[list(t) for t in tables] for tables in rounds]
    broken[0][0][0], broken[0][1][0] = broken[0][1][0], broken[0][0][0]
    assert any("repeated pairs" in p for p in designs.verify(broken, 28))
    broken[1][0] = broken[1][0][:3]
    assert any("round 1" in p for p in designs.verify(broken, 28))
    assert designs.design_rounds(36) is None


@pytest.mark.parametrize(("players", "rounds"), [(28, 9), (52, 17), (40, 13), (28, 6)])
def test_the_engine_seats_the_design_cells_without_a_repeat(players, rounds):
    plan = plan_seating([SeatingPlayer(id=str(i + 1)) for i in range(players)], rounds, time_limit=0.3)
    assert plan.quality.repeated_pairs == 0
    assert plan.optimal


def test_twenty_four_players_over_eight_rounds_reach_the_counting_bound():
    # 8 rounds give each player 24 opponent seats for 23 opponents, so at least 12 pairs meet
    # twice; the stored resolvable minimum covering reaches it (every pair meets, no pair three times).
    assert lower_bound(24, 8).repeated_pairs == 12
    counts = designs.pair_meetings(designs.stored_rounds(24, 8))
    assert len(counts) == 24 * 23 // 2
    assert sorted(counts.values()).count(2) == 12 and max(counts.values()) == 2
    plan = plan_seating([SeatingPlayer(id=str(i + 1)) for i in range(24)], 8, time_limit=0.5)
    assert plan.quality.repeated_pairs == 12
    assert plan.quality.worst_pair == 2
    assert plan.optimal


def test_few_tables_are_bounded_two_rounds_at_a_time():
    assert lower_bound(12, 3).repeated_pairs == 6
    assert lower_bound(12, 3).worst_pair == 2
    assert lower_bound(8, 2).repeated_pairs == 4
    assert lower_bound(4, 3).repeated_pairs == 12
    assert lower_bound(16, 7).repeated_pairs == 48


def test_indirect_meetings_count_pairs_with_a_common_opponent():
    rounds = [
        RoundSeating(tables=(TableSeating(1, ("a", "b", "c", "d")), TableSeating(2, ("e", "f", "g", "h")))),
        RoundSeating(tables=(TableSeating(1, ("a", "e", "x", "y")),)),
    ]
    report = quality_report(rounds)
    # Checked against a brute force over every pair of players.
    opponents: dict[str, set[str]] = {}
    for seating in rounds:
        for table in seating.tables:
            for p in table.seats:
                opponents.setdefault(p, set()).update(q for q in table.seats if q != p)
    players_ = sorted(opponents)
    shared = [len(opponents[p] & opponents[q]) for i, p in enumerate(players_) for q in players_[i + 1 :]]
    assert report.indirect_meetings == sum(1 for s in shared if s)
    assert report.most_common_opponents == max(shared)
    assert report.repeated_pairs == 0


def test_a_perfect_design_leaves_every_pair_with_common_opponents():
    rounds = designs.design_rounds(28)
    seatings = [
        RoundSeating(tables=tuple(TableSeating(k + 1, tuple(str(p) for p in t)) for k, t in enumerate(r)))
        for r in rounds
    ]
    report = quality_report(seatings)
    assert report.indirect_meetings == 28 * 27 // 2
    assert report.most_common_opponents == 26


@pytest.mark.parametrize("cell", sorted(designs.SCHEDULES))
def test_every_stored_schedule_is_what_it_claims(cell):
    schedule = designs.SCHEDULES[cell]
    rounds = schedule.decode()
    assert (schedule.players, schedule.rounds) == cell == (schedule.players, len(rounds))
    assert (
        designs.verify(
            rounds,
            schedule.players,
            repeated_pairs=schedule.repeated_pairs,
            max_meetings=schedule.max_meetings,
        )
        == []
    )
