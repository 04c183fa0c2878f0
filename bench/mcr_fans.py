"""Benchmark of the MCR fan calculator: hands per second on one core.

Run as ``.venv/bin/python bench/mcr_fans.py [--hands N] [--seed S]``. It builds N varied complete hands
(four sets and a pair with melds, concealed kongs, flush and honour-heavy hands, seven pairs, thirteen
orphans, knitted hands), then times :func:`scoring.rules.mcr.calculator.score_request` over them,
JSON input to JSON result, as the ``score_hands`` command uses it. Target: 2,000 hands/s or more.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.calculator import score_request
from scoring.rules.mcr.decompose import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS
from scoring.rules.tiles import TILE_CODES, WINDS


def _set_tiles(rng: random.Random, tiles: list[int]) -> tuple[str, list[int]]:
    """A random set drawn from the tiles this hand is built from."""
    tile = rng.choice(tiles)
    if tile < 27 and tile % 9 < 7 and rng.random() < 0.55:
        return "chow", [tile, tile + 1, tile + 2]
    return "pung", [tile] * 3


def _regular(rng: random.Random) -> dict[str, Any] | None:
    style = rng.random()
    if style < 0.25:  # one suit, maybe with honours
        base = rng.randrange(3) * 9
        tiles = list(range(base, base + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    elif style < 0.35:
        tiles = [*range(27, 34), 0, 8, 9, 17, 18, 26]
    else:
        tiles = list(range(34))
    counts = [0] * 34
    sets: list[tuple[str, list[int]]] = []
    while len(sets) < 4:
        kind, set_tiles = _set_tiles(rng, tiles)
        if any(counts[t] + set_tiles.count(t) > 4 for t in set_tiles):
            continue
        for t in set_tiles:
            counts[t] += 1
        sets.append((kind, set_tiles))
    pair = rng.choice(tiles)
    if counts[pair] > 2:
        return None
    counts[pair] += 2
    melds = []
    concealed: list[int] = [pair, pair]
    for kind, set_tiles in sets:
        roll = rng.random()
        if kind == "pung" and roll < 0.12 and counts[set_tiles[0]] == 3:
            counts[set_tiles[0]] += 1
            melds.append(
                {"type": "kong", "tiles": [TILE_CODES[set_tiles[0]]] * 4, "concealed": rng.random() < 0.5}
            )
        elif roll < 0.35:
            melds.append({"type": kind, "tiles": [TILE_CODES[t] for t in set_tiles]})
        else:
            concealed.extend(set_tiles)
    win = rng.choice(concealed)
    concealed.remove(win)
    return _flags(rng, concealed, win, melds)


def _flags(rng: random.Random, concealed: list[int], win: int, melds: list[dict[str, Any]]) -> dict[str, Any]:
    self_drawn = rng.random() < 0.4
    has_kong = any(m["type"] == "kong" for m in melds)
    return {
        "concealed": [TILE_CODES[t] for t in rng.sample(concealed, len(concealed))],
        "melds": melds,
        "win_tile": TILE_CODES[win],
        "self_drawn": self_drawn,
        "last_of_kind": rng.random() < 0.05,
        "kong_related": self_drawn and has_kong and rng.random() < 0.2,
        "last_wall_tile": rng.random() < 0.03,
        "seat_wind": rng.choice(WINDS),
        "prevalent_wind": rng.choice(WINDS),
        "flowers": rng.randrange(4),
    }


def _special(rng: random.Random) -> dict[str, Any]:
    kind = rng.random()
    if kind < 0.5:
        pairs = rng.sample(range(34), 7)
        tiles = [t for t in pairs for _ in range(2)]
    elif kind < 0.7:
        tiles = [*TERMINALS_AND_HONOURS, rng.choice(TERMINALS_AND_HONOURS)]
    else:
        _runs, knitted = rng.choice(KNITTED_STRAIGHTS)
        honours = rng.randint(5, 7)
        tiles = rng.sample(knitted, 14 - honours) + rng.sample(range(27, 34), honours)
    win = rng.choice(tiles)
    tiles.remove(win)
    return _flags(rng, tiles, win, [])


def make_hands(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` varied hands (about one in six a special shape), reproducible from ``seed``."""
    rng = random.Random(seed)
    hands: list[dict[str, Any]] = []
    while len(hands) < count:
        hand = _special(rng) if rng.random() < 0.15 else _regular(rng)
        if hand is not None:
            hands.append(hand)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2007)
    args = parser.parse_args()
    # Warm the calculator's small caches (patterns, suit shapes) on other hands first, as a running
    # server would have them warm; then time the measured hands.
    for hand in make_hands(500, args.seed + 1):
        score_request(hand)
    hands = make_hands(args.hands, args.seed)
    errors = 0
    answers = []
    start, start_cpu = time.perf_counter(), time.process_time()
    for hand in hands:
        try:
            answers.append(score_request(hand))
        except HandInputError:
            errors += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    seen = {name for answer in answers for name in answer["fans"]}
    going_out = sum(1 for answer in answers if answer["meets_minimum"])
    print(
        f"variety: {len(seen)} of the 81 fans scored at least once; "
        f"{going_out} of {len(answers)} hands reach the 8-point minimum"
    )
    print(
        f"{len(hands)} hands, {errors} rejected: {len(hands) / cpu:,.0f} hands/s on one core "
        f"(CPU time {cpu:.3f} s; wall clock {elapsed:.3f} s, {len(hands) / elapsed:,.0f} hands/s)"
    )


if __name__ == "__main__":
    main()
