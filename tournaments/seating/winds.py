"""Seat winds: ordering each table's four players as East, South, West, North.

Balance comes from an equitable edge colouring (de Werra): the bipartite graph between tables and players,
with each player's rounds cut into runs of four, is coloured with the four winds by König's alternating-path
method. Every table gets each wind once and every run of four rounds gives a player each wind once, so a
player's counts differ by at most one, and are exactly equal when the rounds are a multiple of four. With
earlier rounds (history) a short hill climb then evens out the totals.
"""

from __future__ import annotations

import itertools

_PERMUTATIONS = list(itertools.permutations(range(4)))


def order_seats(
    groups: list[list[list[int]]],
    history: dict[int, list[int]] | None = None,
) -> list[list[list[int]]]:
    """Return ``groups`` with each table's players reordered to seats E, S, W, N."""
    table_nodes: list[tuple[int, int]] = []
    for r, tables in enumerate(groups):
        for k in range(len(tables)):
            table_nodes.append((r, k))
    table_id = {rk: i for i, rk in enumerate(table_nodes)}
    played: dict[int, int] = {}
    copy_id: dict[tuple[int, int], int] = {}
    edges: list[tuple[int, int, int]] = []
    next_id = len(table_nodes)
    for r, tables in enumerate(groups):
        for k, table in enumerate(tables):
            for p in table:
                run = played.get(p, 0) // 4
                played[p] = played.get(p, 0) + 1
                key = (p, run)
                if key not in copy_id:
                    copy_id[key] = next_id
                    next_id += 1
                edges.append((table_id[(r, k)], copy_id[key], p))
    mate: list[list[int | None]] = [[None, None, None, None] for _ in range(next_id)]
    for u, v, _ in edges:
        a = next(c for c in range(4) if mate[u][c] is None)
        b = next(c for c in range(4) if mate[v][c] is None)
        if mate[v][a] is not None:
            # Swap colours a and b along the alternating path that starts at v.
            path: list[tuple[int, int, int]] = []
            x, colour = v, a
            while mate[x][colour] is not None:
                y = mate[x][colour]
                assert y is not None
                path.append((x, y, colour))
                x, colour = y, (b if colour == a else a)
            for x, y, c in path:
                mate[x][c] = None
                mate[y][c] = None
            for x, y, c in path:
                other = b if c == a else a
                mate[x][other] = y
                mate[y][other] = x
        mate[u][a] = v
        mate[v][a] = u
    result: list[list[list[int]]] = []
    edge_iter = iter(edges)
    for r, tables in enumerate(groups):
        ordered_tables = []
        for k, table in enumerate(tables):
            u = table_id[(r, k)]
            seats: list[int] = [-1, -1, -1, -1]
            for _ in table:
                _, v, p = next(edge_iter)
                colour = mate[u].index(v)
                seats[colour] = p
            ordered_tables.append(seats)
        result.append(ordered_tables)
    if history:
        _even_out(result, history)
    return result


def _even_out(result: list[list[list[int]]], history: dict[int, list[int]]) -> None:
    counts: dict[int, list[int]] = {p: list(c) for p, c in history.items()}
    for tables in result:
        for seats in tables:
            for w, p in enumerate(seats):
                counts.setdefault(p, [0, 0, 0, 0])[w] += 1
    improved = True
    while improved:
        improved = False
        for tables in result:
            for seats in tables:
                before = sum(counts[p][w] ** 2 for w, p in enumerate(seats))
                for w, p in enumerate(seats):
                    counts[p][w] -= 1
                best, best_perm = None, None
                for perm in _PERMUTATIONS:
                    value = sum((counts[seats[perm[w]]][w] + 1) ** 2 for w in range(4))
                    if best is None or value < best:
                        best, best_perm = value, perm
                assert best is not None and best_perm is not None
                if best < before:
                    seats[:] = [seats[best_perm[w]] for w in range(4)]
                    improved = True
                for w, p in enumerate(seats):
                    counts[p][w] += 1
