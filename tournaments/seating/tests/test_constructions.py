"""Exact constructions: every round a partition, no pair twice."""

from __future__ import annotations

import itertools
import random

import pytest

from tournaments.seating import constructions


def _check(rounds: list[list[list[int]]], n: int) -> None:
    seen: set[tuple[int, int]] = set()
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(n))
        for table in tables:
            assert len(table) == 4
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in seen
                seen.add(pair)


@pytest.mark.parametrize("n", [16, 64])
def test_affine_space_over_gf4_meets_every_pair_exactly_once(n):
    rounds = constructions.affine_classes(n)
    assert rounds is not None and len(rounds) == (n - 1) // 3
    _check(rounds, n)
    assert sum(6 * len(t) for t in rounds) == n * (n - 1) // 2


@pytest.mark.parametrize(("n", "expected"), [(16, 5), (32, 9), (64, 21)])
def test_binary_partial_spread_gives_rounds_without_repeats(n, expected):
    rounds = constructions.binary_spread_classes(n, random.Random(3))
    assert rounds is not None and len(rounds) == expected
    _check(rounds, n)


@pytest.mark.parametrize(("n", "q"), [(20, 5), (28, 7), (32, 8), (44, 11), (64, 16)])
def test_transversal_design_gives_q_rounds_without_repeats_or_table_returns(n, q):
    rounds = constructions.transversal_classes(n)
    assert rounds is not None and len(rounds) == q
    _check(rounds, n)
    for p in range(n):
        numbers = [next(k for k, t in enumerate(tables) if p in t) for tables in rounds]
        assert len(set(numbers)) == q


@pytest.mark.parametrize("seed", range(5))
def test_thirty_two_players_get_ten_rounds_without_a_repeat(seed):
    rounds = constructions.binary_quotient_classes(32, random.Random(seed))
    assert rounds is not None and len(rounds) == 10
    _check(rounds, 32)


def test_cyclic_development_settles_twenty_players_over_five_rounds():
    rounds = constructions.cyclic_classes(20, 5, random.Random(1))
    assert rounds is not None and len(rounds) == 5
    _check(rounds, 20)


def test_constructions_decline_sizes_they_do_not_fit():
    assert constructions.affine_classes(20) is None
    assert constructions.transversal_classes(36) is None
    assert constructions.binary_spread_classes(24, random.Random(0)) is None
    assert constructions.binary_quotient_classes(64, random.Random(0)) is None


def test_twenty_players_over_seven_rounds_repeat_24_pairs_and_none_three_times():
    rounds = constructions.transversal_group_classes(20)
    assert rounds is not None and len(rounds) == 7
    counts: dict[tuple[int, int], int] = {}
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(20))
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    assert sum(m - 1 for m in counts.values()) == 24
    assert max(counts.values()) == 2
    assert constructions.transversal_group_classes(24) is None
