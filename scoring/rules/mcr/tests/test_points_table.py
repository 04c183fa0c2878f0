"""The points table a referee's phone adds queued hands up with (static/js/offline-entry.js) is the rule
set's own settlement: rule 67 (seeds/003 line 2306) read off ``points``, checked here against it for every
hand shape and many fans; and the winds ahead follow rules 74-75 (lines 2331-2339) as ``winds`` does."""

from __future__ import annotations

from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.ruleset import SEATS, HandRecord


def test_the_table_gives_what_points_gives_for_every_shape_and_fan():
    rules = MCRRuleSet()
    table = rules.points_table()
    assert table.keys == ("how", "winner", "discarder") and table.value == "fan"
    assert len(table.shapes) == 1 + 4 + 12  # a draw, four self-drawn wins, twelve wins by discard
    for key, (base, per) in table.shapes.items():
        _how, *seats = key.split(":")
        winner = seats[0] if seats else None
        discarder = seats[1] if len(seats) > 1 else None
        for fan in (8, 9, 13, 24, 64, 88, 300):
            record = HandRecord(winner=winner, discarder=discarder, fan=fan if winner else None)
            assert {seat: base[seat] + fan * per[seat] for seat in SEATS} == (
                rules.points(record) if winner else dict.fromkeys(SEATS, 0)
            ), (key, fan)


def test_the_winds_ahead_are_the_winds_after_as_many_hands():
    rules = MCRRuleSet()
    for count in range(20):
        assert rules.winds_after(count) == rules.winds([HandRecord(winner=None)] * count)
