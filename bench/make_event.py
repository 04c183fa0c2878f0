"""A large MCR event as JSON (../shared/specs/event-json.md), for load tests and the performance work.

    .venv/bin/python bench/make_event.py --players 400 --sessions 10 [--played 10] [--hands 16] [--seed 1]
        [--slug bench-400] [--output FILE]        # default: standard output

then ``python manage.py import_event FILE --replace``. Players are seated at random each session (400 players:
100 tables); each played table has up to ``--hands`` hands (MCR rule 74: at most 16): about 6 % draws, a third
self-drawn, the rest on a discard, fan points 8 and up with a long tail. Same seed, same event.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

FIRST = [
    "Ana",
    "Bo",
    "Chen",
    "Dana",
    "Eva",
    "Felix",
    "Giulia",
    "Hiro",
    "Ines",
    "Jakub",
    "Karin",
    "Liu",
    "Marta",
]
LAST = [
    "Silva",
    "Costa",
    "Wei",
    "Novak",
    "Lindqvist",
    "Wagner",
    "Rossi",
    "Tanaka",
    "Moreau",
    "Kowalski",
    "de Vries",
]
COUNTRIES = ["PT", "CN", "CZ", "SE", "DE", "IT", "JP", "FR", "PL", "NL", "ES", "DK", "GB", "US", "HK"]
WINDS = ("E", "S", "W", "N")


def _fan(rng: random.Random) -> int:
    """Basic points of a winning hand: at least 8, mostly 8-16, now and then much more."""
    fan = 8 + int(rng.expovariate(1 / 4))
    return min(fan, 88 if rng.random() < 0.995 else 300)


def make_event(
    *, players: int, sessions: int, played: int, hands: int, seed: int, slug: str
) -> dict[str, Any]:
    if players % 4:
        raise SystemExit("--players must be a multiple of 4 (no substitutes in generated events)")
    if not 1 <= hands <= 16:
        raise SystemExit("--hands must be 1 to 16 (MCR rule 74)")
    rng = random.Random(seed)
    people = [
        {
            "id": f"p{n}",
            "name": f"{rng.choice(FIRST)} {rng.choice(LAST)} {n}",
            "country": rng.choice(COUNTRIES),
            "ema_id": f"{rng.randrange(10**8):08d}" if rng.random() < 0.6 else "",
            "team": f"Club {n % 37}" if rng.random() < 0.5 else "",
        }
        for n in range(1, players + 1)
    ]
    ids = [p["id"] for p in people]
    rounds = []
    for number in range(1, sessions + 1):
        order = rng.sample(ids, len(ids))
        tables = []
        for t in range(len(order) // 4):
            four = order[4 * t : 4 * t + 4]
            table: dict[str, Any] = {
                "number": t + 1,
                "seats": dict(zip(WINDS, four, strict=True)),
                "hands": [],
                "penalties": [],
                "late": [],
            }
            if number <= played:
                for _ in range(hands):
                    if rng.random() < 0.06:
                        table["hands"].append({"winner": None})
                        continue
                    winner = rng.choice(four)
                    discarder = None if rng.random() < 0.33 else rng.choice([p for p in four if p != winner])
                    table["hands"].append({"winner": winner, "discarder": discarder, "fan": _fan(rng)})
            tables.append(table)
        rounds.append({"number": number, "tables": tables})
    return {
        "format": "mahjong-event/1",
        "tournament": {
            "name": f"Benchmark Open ({players} players)",
            "slug": slug,
            "rules": "mcr",
            "settings": {"hands_per_session": hands, "sessions": sessions},
        },
        "players": people,
        "rounds": rounds,
        "appeals": [],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--played", type=int, help="sessions with results (default: all)")
    parser.add_argument("--hands", type=int, default=16, help="hands per table and session (at most 16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slug", help="default: bench-<players>")
    parser.add_argument("--output", help="file to write (default: standard output)")
    args = parser.parse_args()
    started = time.perf_counter()
    doc = make_event(
        players=args.players,
        sessions=args.sessions,
        played=args.sessions if args.played is None else args.played,
        hands=args.hands,
        seed=args.seed,
        slug=args.slug or f"bench-{args.players}",
    )
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    tables = sum(len(r["tables"]) for r in doc["rounds"])
    hands = sum(len(t["hands"]) for r in doc["rounds"] for t in r["tables"])
    print(
        f"{len(doc['players'])} players, {len(doc['rounds'])} sessions, {tables} tables, {hands} hands, "
        f"{len(text) / 1e6:.1f} MB in {time.perf_counter() - started:.2f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
