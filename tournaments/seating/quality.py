"""Measuring a seating, and the counting lower bounds it is judged against.

Order of quality (docs/seating.md, "What 'good' means", and /work/shared/specs/seating-cli.md): every player
once per round; fewest repeated pairs, the sum over pairs of max(0, meetings - 1); fewest meetings for the
worst pair; seat winds balanced per player; fewest returns to a table number already visited.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from .models import WINDS, LowerBound, QualityReport, RepeatedPair, RoundSeating, SeatingPlan


def lower_bound(players: int, rounds: int) -> LowerBound:
    """Counting bounds for ``players`` (a multiple of 4) over ``rounds`` full rounds.

    Each player has 3R opponent slots but only N - 1 distinct opponents, so at least 3R - (N - 1) of their
    slots are repeats: repeated pairs >= ceil(N * max(0, 3R - (N - 1)) / 2), and some pair meets at least
    ceil(3R / (N - 1)) times. Winds can be exactly equal only when R is a multiple of 4, and a player who
    plays more rounds than there are tables must return to one table at least R - N/4 times.

    With fewer than four tables a second bound counts rounds two at a time: the four players of a table
    of one round sit at t < 4 tables of another round, so at least ``_SHARED[t]`` of their pairs meet again,
    and any two rounds share at least S2 = t * _SHARED[t] pairs. Summed over the C(R, 2) pairs of rounds,
    sum over pairs of C(m, 2) >= C(R, 2) * S2; as C(m, 2) <= (R / 2) (m - 1), repeated pairs >=
    2 C(R, 2) S2 / R = (R - 1) S2, and the worst pair meets at least twice (12 players over 3 rounds: 6
    repeated pairs; worst pair 2, but only with 9 repeated pairs, see docs/seating.md).
    """
    n = players
    tables = n // 4
    repeated = -(-n * max(0, 3 * rounds - (n - 1)) // 2)
    worst = -(-3 * rounds // (n - 1)) if n > 1 else 0
    if 1 <= tables < 4 and rounds >= 2:
        shared = tables * _SHARED[tables]
        repeated = max(repeated, (rounds - 1) * shared)
        pairs = n * (n - 1) // 2
        total = rounds * (rounds - 1) // 2 * shared
        w = max(worst, 2)
        while pairs * (w * (w - 1) // 2) < total:
            w += 1
        worst = min(w, rounds)
    return LowerBound(
        repeated_pairs=repeated,
        worst_pair=worst,
        wind_imbalance=0 if rounds % 4 == 0 else 1,
        table_returns=n * max(0, rounds - tables),
    )


_SHARED = {1: 6, 2: 2, 3: 1}
"""Fewest pairs of one table that meet again in a round of t tables (four players in t tables)."""


def pair_counts(rounds: Iterable[RoundSeating]) -> dict[tuple[str, str], int]:
    """How many times each pair of players (ids in sorted order) has shared a table."""
    counts: dict[tuple[str, str], int] = {}
    for seating in rounds:
        for table in seating.tables:
            for a, b in itertools.combinations(sorted(table.seats), 2):
                counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def quality_report(
    plan_or_rounds: SeatingPlan | Sequence[RoundSeating],
    *,
    apart: Iterable[frozenset[str]] = (),
    kept_apart: Iterable[frozenset[str]] = (),
) -> QualityReport:
    """Measure a plan (its history and rounds together) or a bare list of rounds.

    ``apart`` lists pairs that should never meet (teammates); ``kept_apart`` the pairs the organiser keeps
    apart (family, couples). Meetings of either are ``conflicts``; those of ``kept_apart`` are also
    counted and listed on their own (``kept_apart_meetings``, ``kept_apart_met``).
    """
    if isinstance(plan_or_rounds, SeatingPlan):
        rounds = (*plan_or_rounds.history, *plan_or_rounds.rounds)
        if plan_or_rounds.constraints is not None and not apart and not kept_apart:
            apart = plan_or_rounds.constraints.apart
            kept_apart = plan_or_rounds.constraints.kept_apart
    else:
        rounds = tuple(plan_or_rounds)
    counts = pair_counts(rounds)
    repeated = tuple(
        RepeatedPair(a, b, m) for (a, b), m in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if m > 1
    )
    winds: dict[str, list[int]] = {}
    visited: dict[str, set[int]] = {}
    returns = 0
    sit_outs: dict[str, int] = {}
    for seating in rounds:
        for table in seating.tables:
            for seat, player in enumerate(table.seats):
                winds.setdefault(player, [0, 0, 0, 0])[seat] += 1
                seen = visited.setdefault(player, set())
                if table.number in seen:
                    returns += 1
                seen.add(table.number)
        for player in seating.sit_outs:
            sit_outs[player] = sit_outs.get(player, 0) + 1
    indirect, most_common = common_opponents(counts)
    kept_set = {tuple(sorted(pair)) for pair in kept_apart}
    apart_set = {tuple(sorted(pair)) for pair in apart} | kept_set
    conflicts = sum(m for pair, m in counts.items() if pair in apart_set)
    kept_met = tuple(RepeatedPair(a, b, m) for (a, b), m in sorted(counts.items()) if (a, b) in kept_set)
    return QualityReport(
        rounds=len(rounds),
        repeated_pairs=sum(m - 1 for m in counts.values() if m > 1),
        worst_pair=max(counts.values(), default=0),
        wind_counts={p: (c[0], c[1], c[2], c[3]) for p, c in sorted(winds.items())},
        wind_imbalance=max((max(c) - min(c) for c in winds.values()), default=0),
        table_returns=returns,
        repeated=repeated,
        conflicts=conflicts,
        sit_out_counts=dict(sorted(sit_outs.items())),
        indirect_meetings=indirect,
        most_common_opponents=most_common,
        kept_apart_meetings=sum(pair.meetings for pair in kept_met),
        kept_apart_met=kept_met,
    )


def common_opponents(counts: dict[tuple[str, str], int]) -> tuple[int, int]:
    """(pairs with at least one common opponent, most common opponents of one pair) from ``pair_counts``.

    Each player's opponents are counted once however often they met; a pair's common opponents are the third
    players both of them met (in any rounds). Opponents are kept as bit sets, one AND per pair of players.
    """
    index: dict[str, int] = {}
    for a, b in counts:
        index.setdefault(a, len(index))
        index.setdefault(b, len(index))
    masks = [0] * len(index)
    for a, b in counts:
        i, j = index[a], index[b]
        masks[i] |= 1 << j
        masks[j] |= 1 << i
    pairs = 0
    most = 0
    for i, mask in enumerate(masks):
        for other in masks[i + 1 :]:
            common = mask & other
            if common:
                pairs += 1
                most = max(most, common.bit_count())
    return pairs, most


__all__ = ["WINDS", "common_opponents", "lower_bound", "pair_counts", "quality_report"]
