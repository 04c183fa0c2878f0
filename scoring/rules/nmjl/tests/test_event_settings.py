"""NMJL event settings in the rule set's class: the author's rule 117 beside rule 116 (lines 978-981 of
shared/seeds/003_2541481d343502a5.txt) and a dead hand in a wall game (the table near line 1556)."""

from __future__ import annotations

from scoring.rules.nmjl.rotation import winds_for_hand
from scoring.rules.nmjl.ruleset import NMJLRuleSet
from scoring.rules.ruleset import HandRecord

WALL_WITH_DEAD_EAST = HandRecord(winner=None, data={"won_by": "wall", "dead": ["E"]})


def games(count: int) -> list[HandRecord]:
    return [HandRecord(winner=None, data={"won_by": "wall", "dead": []})] * count


def test_the_official_rule_116_is_the_default_and_the_dice_stay_with_the_seat():
    rules = NMJLRuleSet({})
    # Game 9 (index 8): the pivot moved one seat right; officially the player now in her old seat deals.
    assert rules.winds(games(8)).seats == winds_for_hand(8, dice_follow_pivot=False)
    assert rules.winds(games(8)).seats["E"] != "E"


def test_rule_117_as_an_event_setting_makes_the_pivot_deal_first_after_she_moves():
    # Rule 117 (lines 979-981): "the pivot ("first East") always be the first to deal after a seat rotation".
    official, author = NMJLRuleSet({}), NMJLRuleSet({"seat_rotation": "pivot_deals"})
    assert author.winds(games(8)).seats == winds_for_hand(8, dice_follow_pivot=True)
    assert author.winds(games(8)).seats["E"] == "E"  # the pivot (starting East) deals game 9
    assert official.winds(games(8)).seats != author.winds(games(8)).seats
    assert author.winds(games(3)).seats == official.winds(games(3)).seats  # same until she moves
    assert "117" in author.winds(games(8)).note


def test_by_default_a_dead_hand_in_a_wall_game_scores_the_tables_0():
    """Book 003, "Tournament Scoring" table (lines 1556-1570): "Wall game 10 points" for the others,
    "Dead hand 0 points" for the dead hand (line 1570), whether the game was won or walled."""
    assert NMJLRuleSet({}).points(WALL_WITH_DEAD_EAST) == {"E": 0, "S": 10, "W": 10, "N": 10}
    rules = NMJLRuleSet(NMJLRuleSet.default_settings())
    assert rules.points(WALL_WITH_DEAD_EAST) == {"E": 0, "S": 10, "W": 10, "N": 10}
    fields = {setting.key: setting for setting in NMJLRuleSet.settings_fields}
    assert fields["dead_hand_in_wall_game"].default == "dead_hand"


def test_the_event_can_give_a_dead_hand_in_a_wall_game_the_wall_games_points():
    # Rule 108 (lines 962-964) read as "settled like any nonwinner": the setting kept as a choice.
    rules = NMJLRuleSet({"dead_hand_in_wall_game": "wall_game"})
    assert rules.points(WALL_WITH_DEAD_EAST) == {"E": 10, "S": 10, "W": 10, "N": 10}


def test_the_visible_setting_wins_over_the_schemes_preset():
    rules = NMJLRuleSet({"scheme": {"preset": "wall-live-only"}, "dead_hand_in_wall_game": "wall_game"})
    assert rules.points(WALL_WITH_DEAD_EAST)["E"] == 10
    assert NMJLRuleSet({"scheme": {"preset": "wall-live-only"}}).points(WALL_WITH_DEAD_EAST)["E"] == 0


def test_both_settings_are_shown_to_the_organiser_with_their_choices():
    fields = {setting.key: setting for setting in NMJLRuleSet.settings_fields}
    assert fields["seat_rotation"].group and fields["dead_hand_in_wall_game"].group
    assert {value for value, _ in fields["seat_rotation"].choices} == {"official", "pivot_deals"}
    assert fields["dead_hand_in_wall_game"].problem("sometimes") is not None
    assert fields["penalty_policy.premature_throw_in"].problem(5) == "must be at most 0"
