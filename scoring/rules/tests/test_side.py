"""Side rankings as plain logic (no database): counts and best hands, ties sharing a rank."""

from __future__ import annotations

from scoring.rules.classical.ruleset import BabcockRuleSet
from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.nmjl.ruleset import NMJLRuleSet
from scoring.rules.ruleset import HandRecord
from scoring.rules.side import BestHandRow, CountRow, SideHand, best_hands, count_ranking, side_rankings


def hand(winner: str, number: int, *, seat: str = "E", discarder: str | None = "S", fan: int = 8, **data):
    return SideHand(
        winner=winner,
        round_number=1 + number // 16,
        table_number=1,
        hand_number=number,
        record=HandRecord(winner=seat, discarder=discarder, fan=fan, data=data),
    )


def test_mcr_counts_a_self_drawn_win_as_a_hand_won_and_a_self_drawn_win():
    # MCR rule 67 (seeds/003, line ~2306): a self-drawn win has no discarder.
    rules = MCRRuleSet()
    assert rules.side_counts(HandRecord(winner="E", discarder=None, fan=8)) == {"hands_won", "self_drawn"}
    assert rules.side_counts(HandRecord(winner="E", discarder="S", fan=8)) == {"hands_won"}
    assert rules.side_counts(HandRecord(winner=None)) == frozenset()
    assert rules.hand_value(HandRecord(winner="E", discarder="S", fan=24)) == 24
    assert rules.side_rankings == ("best_hand", "hands_won", "self_drawn")


def test_nmjl_counts_games_won_and_jokerless_wins():
    # NMJL rules 73 and 73a (seeds/003, line ~831): a hand with no jokers when mah-jongg is declared.
    rules = NMJLRuleSet()
    jokerless = HandRecord(winner="E", discarder="S", data={"won_by": "discard", "jokerless": True})
    plain = HandRecord(winner="E", discarder="S", data={"won_by": "discard", "jokerless": False})
    assert rules.side_counts(jokerless) == {"games_won", "jokerless_wins"}
    assert rules.side_counts(plain) == {"games_won"}
    assert rules.side_rankings == ("games_won", "jokerless_wins")
    assert rules.hand_value(plain) is None


def test_classical_rules_rank_the_best_hand_by_the_winners_hand_score():
    rules = BabcockRuleSet()
    record = HandRecord(winner="S", data={"east": "E", "scores": {"E": 4, "S": 120, "W": 0, "N": 8}})
    assert rules.hand_value(record) == 120


def test_equal_counts_share_a_rank_and_players_with_none_are_left_out():
    hands = [hand("a", 1), hand("b", 2), hand("a", 3), hand("b", 4), hand("c", 5)]
    rows = count_ranking(hands, "hands_won", MCRRuleSet().side_counts)
    assert rows == [CountRow(1, "a", 2), CountRow(1, "b", 2), CountRow(3, "c", 1)]
    assert count_ranking(hands, "self_drawn", MCRRuleSet().side_counts) == []


def test_a_tie_at_the_limit_is_listed_whole():
    hands = [hand(player, n) for n, player in enumerate("abcd")]
    assert len(count_ranking(hands, "hands_won", MCRRuleSet().side_counts, limit=2)) == 4
    hands.append(hand("a", 9))
    assert [row.player for row in count_ranking(hands, "hands_won", MCRRuleSet().side_counts, limit=1)] == [
        "a"
    ]


def test_the_best_hands_come_first_and_equal_hands_in_the_order_played():
    hands = [hand("a", 3, fan=24), hand("b", 1, fan=64), hand("c", 2, fan=24), hand("d", 4, fan=8)]
    rows = best_hands(hands, MCRRuleSet().hand_value, limit=2)
    assert [(row.rank, row.hand.winner, row.value) for row in rows] == [
        (1, "b", 64),
        (2, "c", 24),
        (2, "a", 24),
    ]
    assert isinstance(rows[0], BestHandRow)


def test_every_ranking_the_rule_set_offers_is_returned_in_its_order():
    rules = MCRRuleSet()
    hands = [hand("a", 1, discarder=None, fan=10)]
    rankings = side_rankings(rules.side_rankings, hands, counts=rules.side_counts, value=rules.hand_value)
    assert [r.key for r in rankings] == ["best_hand", "hands_won", "self_drawn"]
    assert all(len(r.rows) == 1 for r in rankings)
