"""The MCR penalty catalogue against Sloper's rules 79-85 (seeds/003_2541481d343502a5.txt)."""

from __future__ import annotations

from scoring.rules.mcr.penalties import BY_KEY, CATALOGUE, escalating_points, points_for


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
