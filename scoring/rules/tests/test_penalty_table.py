"""The penalty table a referee's phone adds queued penalties up with (static/js/offline-entry.js) is what
every rule set's ``score_session`` does with a penalty (``penalty_effect``: MCR rules 79-88, seeds/003 lines
2360-2392): for every offender, payee and points, and every ruling of each catalogue it can list."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.rules.points_table import PointsTable
from scoring.rules.registry import codes, rule_set
from scoring.rules.ruleset import SEATS, PenaltyItem, penalty_effect


def fields(
    kind: str, seat: str, paid_to: str = "", points: str = "", receiver: str = ""
) -> dict[str, list[str]]:
    """The penalty form as the page keeps it, the players already named by their seats (the page's
    fills, scoring/views_referee_table.py penalty_points)."""
    return {"kind": [kind], "seat": [seat], "paid_to": [paid_to], "points": [points], "receiver": [receiver]}


def with_other(table: PointsTable) -> PointsTable:
    """As the page gets it: "Other" stands for the points and payee typed (the form's word)."""
    return replace(table, fills={"kind": {**table.fills["kind"], "other": {}}})


@pytest.mark.parametrize("code", codes())
def test_the_table_does_what_the_rule_set_does_with_each_penalty(code):
    rules = rule_set(code, {})
    table = with_other(rules.penalty_table())
    for seat in SEATS:
        for points in (0, 1, 5, 30, 10_000):
            for paid_to in ("none", "each_other"):
                expected = penalty_effect(PenaltyItem(seat=seat, points=points, paid_to=paid_to))
                assert table.lookup(fields("other", seat, paid_to, str(points), "N")) == expected
            for receiver in SEATS:
                if receiver != seat:
                    expected = penalty_effect(PenaltyItem(seat=seat, points=points, paid_to=receiver))
                    assert table.lookup(fields("other", seat, "player", str(points), receiver)) == expected
    listed = table.fills["kind"]
    for ruling in rules.penalty_catalogue():
        if ruling.escalates or ruling.per_tile:  # points from the event's history or the tiles: "?"
            assert ruling.key not in listed
            continue
        for seat in SEATS:
            receiver = next(other for other in SEATS if other != seat)
            paid_to = receiver if ruling.paid_to == "player" else ruling.paid_to
            expected = penalty_effect(PenaltyItem(seat=seat, points=ruling.points_for(), paid_to=paid_to))
            # What the form shows for Other (its points and payee) does not count for a ruling.
            assert table.lookup(fields(ruling.key, seat, "each_other", "99", receiver)) == expected


def test_what_the_penalty_table_cannot_say_is_not_looked_up():
    table = with_other(rule_set("mcr", {}).penalty_table())
    assert table.lookup(fields("empty_call", "E")) is None  # escalating (MCR 79)
    assert table.lookup(fields("reveal_opponent_tiles", "E", receiver="S")) is None  # per tile (85e)
    assert table.lookup(fields("other", "E", "player", "10")) is None  # paid to nobody named
    assert table.lookup(fields("false_hu_ready", "E")) == {"E": -30, "S": 10, "W": 10, "N": 10}  # rule 84
