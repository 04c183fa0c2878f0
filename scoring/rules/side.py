"""Side rankings beside the standings (no Django here): the best single hand, and counts such as most
hands won or most self-drawn wins. Which rankings an event offers, what a hand counts towards and
what a hand is worth come from its rule set (``RuleSet.side_rankings``, ``side_counts``,
``hand_value``); the pages only label them. Like the standings, only confirmed tables are fed in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.ruleset import HandRecord

BEST_HAND = "best_hand"
HANDS_WON = "hands_won"
SELF_DRAWN = "self_drawn"
GAMES_WON = "games_won"
JOKERLESS_WINS = "jokerless_wins"
KINDS = (BEST_HAND, HANDS_WON, SELF_DRAWN, GAMES_WON, JOKERLESS_WINS)


@dataclass(frozen=True)
class SideHand:
    """One played hand with where it was played and who won it (a registration code)."""

    winner: str
    round_number: int
    table_number: int
    hand_number: int
    record: HandRecord
    tiles: Any = None


@dataclass(frozen=True)
class CountRow:
    rank: int
    player: str
    count: int


@dataclass(frozen=True)
class BestHandRow:
    rank: int
    hand: SideHand
    value: int


@dataclass(frozen=True)
class SideRanking:
    key: str
    rows: Sequence[CountRow | BestHandRow]


def _ranked(values: list[tuple[int, Any]], limit: int) -> list[tuple[int, int, Any]]:
    """(rank, value, item) best first, equal values sharing a rank ("1, 1, 3"); only ranks up to
    ``limit`` (a tie at the limit is kept whole)."""
    out: list[tuple[int, int, Any]] = []
    for position, (value, item) in enumerate(values, start=1):
        rank = out[-1][0] if out and out[-1][1] == value else position
        if rank > limit:
            break
        out.append((rank, value, item))
    return out


def count_ranking(
    hands: Iterable[SideHand], key: str, counts: Callable[[HandRecord], Iterable[str]], *, limit: int = 10
) -> list[CountRow]:
    """Players by how many of their won hands count towards ``key``, most first (ties by id, sharing
    the rank); players with none are left out."""
    tally = Counter(hand.winner for hand in hands if key in counts(hand.record))
    ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
    return [
        CountRow(rank=rank, player=player, count=value)
        for rank, value, player in _ranked([(count, player) for player, count in ordered], limit)
    ]


def best_hands(
    hands: Iterable[SideHand], value: Callable[[HandRecord], int | None], *, limit: int = 10
) -> list[BestHandRow]:
    """The highest-valued single hands, best first; equal hands share the rank and are listed in the
    order they were played."""
    valued = [(worth, hand) for hand in hands if (worth := value(hand.record)) is not None]
    valued.sort(key=lambda item: (-item[0], item[1].round_number, item[1].table_number, item[1].hand_number))
    return [BestHandRow(rank=rank, hand=hand, value=worth) for rank, worth, hand in _ranked(valued, limit)]


def side_rankings(
    keys: Sequence[str],
    hands: Sequence[SideHand],
    *,
    counts: Callable[[HandRecord], Iterable[str]],
    value: Callable[[HandRecord], int | None],
    limit: int = 10,
) -> list[SideRanking]:
    """Every ranking in ``keys`` (the rule set's ``side_rankings``), in that order."""
    return [
        SideRanking(
            key=key,
            rows=best_hands(hands, value, limit=limit)
            if key == BEST_HAND
            else count_ranking(hands, key, counts, limit=limit),
        )
        for key in keys
    ]
