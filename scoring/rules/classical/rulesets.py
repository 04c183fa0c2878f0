"""The three classical rule books as data, and the table options each allows.

Seed files (``/work/shared/seeds``): Babcock's Red Book, 2nd ed. 1923 (``000_...``, chapter 6 alone in
``002_...``); the 1920s Chinese-published English rule book (``004_...``); Foster's *Proposed Laws*,
part 1 (``001_...``). Line numbers below are of those files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoring.rules.errors import HandInputError

BONUSES = ("no_score", "loose_tile", "no_runs", "robbing_kong", "last_tile")

# Optional limit hands. Babcock chapter VII (lines 814-944) unless noted.
LIMIT_HANDS = (
    "four_winds",  # three wind sets with the own Wind and a pair of the fourth (line 816)
    "terminals_honours",  # nothing but ones, nines and honours (line 841)
    "nine_gates",  # line 859
    "four_kongs",  # line 875
    "four_concealed_pungs",  # line 910
    "thirteen_orphans",  # line 928
    "seven_twins",  # half the limit (line 938)
    "three_dragons",  # three sets of Dragons (Babcock line 1101; Chinese book line 120)
    "all_winds",  # four sets of Winds (Chinese book line 120)
    "all_honours",  # all Winds and Dragons score the limit in the Chinese game (Babcock line 1099)
)
SPECIAL_HANDS = ("heaven", "earth", "lucky_thirteen")


@dataclass(frozen=True, slots=True)
class Table:
    """The rules one table plays: a book's defaults with the options agreed before play."""

    rules: str
    game_points: int
    limit: int | None
    only_place: str  # "only_tile" (Babcock line 579) or "shape" (Chinese way, Babcock line 1047)
    round_wind: bool  # sets of the Wind of the Round double (Babcock line 1031; Foster law 66)
    round_wind_pair: int  # points for a pair of the Wind of the Round
    one_suit_for_losers: bool  # one-suit doubles for hands not completed (Babcock 515 vs 1089)
    bonus_doubles: frozenset[str]  # bonuses taken as a double instead of 10 (Babcock line 947)
    drawn_only_double: bool  # Babcock line 961
    limit_hands: frozenset[str]
    three_concealed_pungs_double: bool  # Babcock line 892
    four_concealed_drawn_only: bool  # Babcock line 926
    own_flower: str  # "single" (one own Season doubles) or "pair_only" (Babcock line 1303)
    bouquet_doubles: int  # doubles for four Seasons of one colour
    flowers_cancel_no_score: bool
    flower_points: int
    all_honours_doubles: int  # Babcock line 522; the Chinese book has no such double
    earth_full_limit: bool  # Chinese book line 175: "Half or Full Points"
    reformed_count: bool  # Foster question 14 (line 123)
    all_sequences_bonus: bool  # Foster question 7 (line 109)


@dataclass(frozen=True, slots=True)
class RuleSet:
    key: str
    title: str
    defaults: Table
    allowed: frozenset[str]


_COMMON = frozenset(
    {
        "limit",
        "game_points",
        "bonus_doubles",
        "limit_hands",
        "round_wind",
        "one_suit_for_losers",
        "only_place",
        "own_flower",
        "bouquet_doubles",
    }
)

BABCOCK = RuleSet(
    key="babcock",
    title="Babcock, Rules for Mah-Jongg (Red Book), 2nd ed. 1923",
    defaults=Table(
        rules="babcock",
        game_points=20,  # line 504
        limit=300,  # line 409
        only_place="only_tile",  # line 579
        round_wind=False,  # only in the Chinese game, line 1031
        round_wind_pair=0,
        one_suit_for_losers=True,  # "These apply to all hands", line 515
        bonus_doubles=frozenset(),
        drawn_only_double=False,
        limit_hands=frozenset(),
        three_concealed_pungs_double=False,
        four_concealed_drawn_only=False,
        own_flower="single",  # line 1297
        bouquet_doubles=3,  # line 1299
        flowers_cancel_no_score=False,  # line 1313
        flower_points=4,  # line 1296
        all_honours_doubles=3,  # line 522
        earth_full_limit=False,
        reformed_count=False,
        all_sequences_bonus=False,
    ),
    allowed=_COMMON
    | {"drawn_only_double", "three_concealed_pungs_double", "four_concealed_drawn_only", "chinese_game"},
)

CHINESE_1920S = RuleSet(
    key="chinese-1920s",
    title="The 1920s Chinese-published English rule book",
    defaults=Table(
        rules="chinese-1920s",
        game_points=10,  # basal score, line 159
        limit=300,  # line 118
        only_place="shape",  # "such as forming a pair, filling in the middle ... or one side", line 201
        round_wind=False,  # the book doubles only the player's own wind, line 167
        round_wind_pair=0,
        one_suit_for_losers=False,  # "applied to winning hands only", line 170
        bonus_doubles=frozenset(),  # 10 points "or double ... as the players like", line 189
        drawn_only_double=False,
        limit_hands=frozenset({"three_dragons", "all_winds"}),  # line 120
        three_concealed_pungs_double=False,
        four_concealed_drawn_only=False,
        own_flower="single",  # line 183
        bouquet_doubles=2,  # "double the total score two times", line 183
        flowers_cancel_no_score=True,  # "Entirely no points", line 194
        flower_points=4,  # line 183
        all_honours_doubles=0,  # not in the table of doubles, lines 163-177
        earth_full_limit=False,
        reformed_count=False,
        all_sequences_bonus=False,
    ),
    allowed=_COMMON | {"earth_full_limit"},
)

FOSTER = RuleSet(
    key="foster",
    title="R. F. Foster, Proposed Laws to Govern Mah Jong, 1923",
    defaults=Table(
        rules="foster",
        game_points=20,  # "20 and 4 is 24", question 14, line 123
        limit=300,  # question 10, line 115
        only_place="only_tile",  # "Filling the only place", law 55, line 229
        round_wind=True,  # the dominating Wind, law 66, line 247
        round_wind_pair=2,
        one_suit_for_losers=True,  # the American count; question 5 (line 105) makes it an option
        bonus_doubles=frozenset(),  # question 6 (line 107) makes doubles an option
        drawn_only_double=False,
        limit_hands=frozenset(),
        three_concealed_pungs_double=False,
        four_concealed_drawn_only=False,
        own_flower="single",  # question 8, line 111
        bouquet_doubles=3,  # question 9, line 113
        flowers_cancel_no_score=False,
        flower_points=4,
        all_honours_doubles=3,
        earth_full_limit=False,
        reformed_count=False,
        all_sequences_bonus=False,
    ),
    allowed=_COMMON | {"reformed_count", "all_sequences_bonus"},
)

RULE_BOOKS: dict[str, RuleSet] = {book.key: book for book in (BABCOCK, CHINESE_1920S, FOSTER)}

# Babcock's chapter VIII (the Chinese game) as one switch: lines 1031, 1047, 1089, 1099, 1101.
CHINESE_GAME_HANDS = frozenset({"three_dragons", "four_winds", "terminals_honours", "four_concealed_pungs"})


def _bad(message: str) -> HandInputError:
    return HandInputError(message, code="bad_option")


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(f"option {name!r} must be true or false, not {value!r}")
    return value


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"option {name!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _names(name: str, value: Any, known: tuple[str, ...]) -> frozenset[str]:
    if value is True:
        return frozenset(known)
    if value is False:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _bad(f"option {name!r} must be true, false or a list of names from {', '.join(known)}")
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise _bad(f"option {name!r}: unknown {', '.join(unknown)} (known: {', '.join(known)})")
    return frozenset(value)


def table_for(rules: str, options: Mapping[str, Any] | None = None) -> Table:
    """The book's defaults for ``rules`` with ``options`` applied; a bad option is a clear error."""
    book = RULE_BOOKS.get(rules)
    if book is None:
        raise HandInputError(f"unknown rules {rules!r} (use {', '.join(RULE_BOOKS)})", code="unknown_rules")
    table = book.defaults
    if options is None:
        return table
    if not isinstance(options, Mapping):
        raise _bad('options must be an object such as {"limit": 300}')
    unknown = sorted(set(options) - book.allowed)
    if unknown:
        raise _bad(
            f"option {', '.join(map(repr, unknown))} is not a table option of {book.key} "
            f"(options: {', '.join(sorted(book.allowed))})"
        )
    if options.get("chinese_game") is not None and _bool("chinese_game", options["chinese_game"]):
        table = replace(
            table,
            only_place="shape",
            round_wind=True,
            one_suit_for_losers=False,
            limit_hands=table.limit_hands | CHINESE_GAME_HANDS | {"all_honours"},
        )
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name == "chinese_game":
            continue
        if name == "limit":
            changes["limit"] = None if value is None else _whole(name, value, 1, 10**9)
        elif name == "game_points":
            changes["game_points"] = _whole(name, value, 0, 1000)
        elif name == "bonus_doubles":
            changes["bonus_doubles"] = _names(name, value, BONUSES)
        elif name == "limit_hands":
            changes["limit_hands"] = _names(name, value, LIMIT_HANDS)
        elif name == "only_place":
            if value not in ("only_tile", "shape"):
                raise _bad(f'option \'only_place\' must be "only_tile" or "shape", not {value!r}')
            changes["only_place"] = value
        elif name == "own_flower":
            if value not in ("single", "pair_only"):
                raise _bad(f'option \'own_flower\' must be "single" or "pair_only", not {value!r}')
            changes["own_flower"] = value
        elif name == "bouquet_doubles":
            changes["bouquet_doubles"] = _whole(name, value, 0, 3)
        else:
            changes[name] = _bool(name, value)
    table = replace(table, **changes)
    if table.reformed_count:
        # Foster, question 14 (line 123): every count a quarter; 10-point bonuses (2.5) become doubles
        # (his question 6, line 107); the limit a quarter of 300 unless the table set one.
        table = replace(
            table,
            game_points=changes.get("game_points", 5),
            limit=changes.get("limit", 75),
            bonus_doubles=frozenset(BONUSES),
            flower_points=1,
            round_wind_pair=0,
        )
    return table
