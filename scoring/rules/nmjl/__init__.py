"""American (NMJL) rules engine: the card as data, the hand matcher, payments and tournament points.

Pure Python, no Django. Source: Tom Sloper, *The Red Dragon & The West Wind* (2007), chapter 3
(shared/seeds/003_2541481d343502a5.txt, rules 1-130 from line ~650, tournament scoring at ~1556).
Card file format: docs/nmjl-card-format.md.
"""

from __future__ import annotations

from scoring.rules.nmjl.api import parse_outcome, score_request
from scoring.rules.nmjl.card import (
    Card,
    CardHand,
    Family,
    card_for,
    card_year,
    load_card,
    load_card_file,
    load_sample_cards,
)
from scoring.rules.nmjl.matcher import Match, NearMiss, check_hand, close_hands, match_hand
from scoring.rules.nmjl.outcome import DeathChallenge, FalseMahjong, Outcome
from scoring.rules.nmjl.payments import Transfer, bettor_transfers, net, payments, transfers
from scoring.rules.nmjl.rotation import Deal, Game, deal_for_hand, pivot_rotation, schedule
from scoring.rules.nmjl.tournament import PRESETS, TournamentScheme, round_totals, tournament_points

__all__ = [
    "PRESETS",
    "Card",
    "CardHand",
    "Deal",
    "DeathChallenge",
    "FalseMahjong",
    "Family",
    "Game",
    "Match",
    "NearMiss",
    "Outcome",
    "TournamentScheme",
    "Transfer",
    "bettor_transfers",
    "card_for",
    "card_year",
    "check_hand",
    "close_hands",
    "deal_for_hand",
    "load_card",
    "load_card_file",
    "load_sample_cards",
    "match_hand",
    "net",
    "parse_outcome",
    "payments",
    "pivot_rotation",
    "round_totals",
    "schedule",
    "score_request",
    "tournament_points",
    "transfers",
]
