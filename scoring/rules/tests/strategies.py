"""Hypothesis strategies for hostile input to the pure request parsers.

Used by ``test_hostile_input.py`` (a few hundred examples per rule set) and by
``bench/fuzz_score_hands.py`` (10,000 per rule set). Each rule set gets valid requests, valid requests
with one field replaced by any JSON value (so the engines' own checks are reached), and arbitrary JSON.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from scoring.rules.errors import MAX_MESSAGE, RuleError
from scoring.rules.tiles import TILE_CODES

RULE_SETS = ("mcr", "nmjl", "babcock", "chinese-1920s", "foster")

MCR_HAND: dict[str, Any] = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5s", "5s"],
    "melds": [],
    "win_tile": "9m",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 1,
}
MCR_MELDED: dict[str, Any] = {
    "concealed": ["6m", "7m", "5p", "5p"],
    "melds": [
        {"type": "chow", "tiles": ["1m", "2m", "3m"]},
        {"type": "chow", "tiles": ["2p", "3p", "4p"]},
        {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "concealed": True},
    ],
    "win_tile": "8m",
    "flowers": 2,
}
NMJL_OUTCOME: dict[str, Any] = {
    "mode": "payments",
    "value": 25,
    "won_by": "discard",
    "winner": "E",
    "discarder": "S",
    "jokerless": False,
    "singles_and_pairs": False,
    "winner_exposures": 2,
    "dead": ["W"],
    "lowest_value": 25,
    "events": [
        {"kind": "death_challenge", "challenger": "N", "challenged": "W", "challenged_was_dead": True}
    ],
}
NMJL_TOURNAMENT: dict[str, Any] = {
    "mode": "tournament",
    "value": 30,
    "won_by": "self_pick",
    "winner": "N",
    "jokerless": True,
    "late": ["S"],
    "scheme": {"preset": "book", "wall_game": 5, "discard_penalties": {"2": -10, "3": -25}},
}
CLASSICAL_SETTLE: dict[str, Any] = {
    "settle": {"scores": {"E": 48, "S": 16, "W": 4, "N": 0}, "winner": "E", "east": "E"}
}

VALID: dict[str, tuple[dict[str, Any], ...]] = {
    "mcr": (MCR_HAND, MCR_MELDED),
    "nmjl": (NMJL_OUTCOME, NMJL_TOURNAMENT),
    "babcock": (dict(MCR_HAND, winner=True), CLASSICAL_SETTLE, dict(MCR_MELDED, options={"limit": 300})),
    "chinese-1920s": (dict(MCR_HAND, winner=True), CLASSICAL_SETTLE),
    "foster": (dict(MCR_HAND, winner=True), CLASSICAL_SETTLE),
}

_HOSTILE_TEXT = st.sampled_from(
    ["", "\x00", "1m\x00", "E\x00", "\ud800", "x" * 1000, "9" * 400, "1z", "8z", "0m", "E", "N", "mcr", "-"]
)
_TEXT = st.one_of(st.sampled_from(TILE_CODES), _HOSTILE_TEXT, st.text(max_size=12))
_NUMBER = st.one_of(
    st.integers(-3, 30),
    st.integers(),
    st.sampled_from([10**9, 10**9 + 1, -(10**9) - 1, 10**30, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
)
SCALAR = st.one_of(st.none(), st.booleans(), _NUMBER, _TEXT)
JSON = st.recursive(
    SCALAR,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(_TEXT, st.sampled_from(["type", "tiles"])), children, max_size=4),
    ),
    max_leaves=8,
)


def _nested(depth: int) -> Any:
    value: Any = ["1m"]
    for _ in range(depth):
        value = [value]
    return value


def _huge(which: int) -> Any:
    """Built on demand: a repr of these would itself be too deep or too long."""
    builders: tuple[Callable[[], Any], ...] = (
        lambda: _nested(50),
        lambda: _nested(2_000),
        lambda: ["1m"] * 100_000,
        lambda: "x" * 1_000_000,
        lambda: {f"k{i}": i for i in range(10_000)},
        lambda: [[["1m"] * 100] * 100] * 100,
        lambda: 10**4000,
    )
    return builders[which % len(builders)]()


HUGE = st.integers(0, 6).map(_huge)


def describe(data: Any, length: int = 120) -> str:
    """A short text for a fuzz input, cheap and safe for huge inputs or ones too deep for ``repr``."""
    if isinstance(data, str | bytes) and len(data) > length:
        return f"<{type(data).__name__} of {len(data)} characters>"
    if isinstance(data, list | tuple | dict) and len(data) > 20:
        return f"<{type(data).__name__} of {len(data)} entries>"
    if isinstance(data, int) and data.bit_length() > 64:
        return f"<a number of {data.bit_length()} bits>"
    try:
        text = repr(data)
    except (RecursionError, ValueError):
        return f"<{type(data).__name__} nested too deep to show>"
    return text if len(text) <= length else text[:length] + "..."


def _replace_path(base: Any, path: list[Any], value: Any) -> Any:
    """A copy of ``base`` with the value at ``path`` (keys and indices) replaced."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(base, dict):
        copy = dict(base)
        copy[head] = _replace_path(base.get(head), rest, value)
        return copy
    if isinstance(base, list) and isinstance(head, int) and 0 <= head < len(base):
        items = list(base)
        items[head] = _replace_path(base[head], rest, value)
        return items
    return base


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to the values of a request: not into huge or deep values a mutation put there."""
    found = [prefix]
    if len(prefix) >= 5:
        return found
    if isinstance(value, dict):
        for key in list(value)[:8]:
            found.extend(_paths(value[key], (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value[:8]):
            found.extend(_paths(item, (*prefix, index)))
    return found


@st.composite
def mutated(draw: st.DrawFn, rules: str) -> Any:
    """A valid request of ``rules`` with one to three values replaced, added or removed."""
    request: Any = draw(st.sampled_from(VALID[rules]))
    for _ in range(draw(st.integers(1, 2))):
        paths = _paths(request)
        path = list(draw(st.sampled_from(paths)))
        action = draw(st.sampled_from(["replace", "replace", "huge", "drop", "add"]))
        if action == "drop" and path:
            parent = _get(request, path[:-1])
            if isinstance(parent, dict):
                reduced = {k: v for k, v in parent.items() if k != path[-1]}
                request = _replace_path(request, path[:-1], reduced)
            continue
        if action == "add":
            parent = _get(request, path)
            if isinstance(parent, dict):
                key = draw(st.one_of(_TEXT, st.sampled_from(["flowers", "winner", "options", "settle"])))
                request = _replace_path(request, path, {**parent, key: draw(JSON)})
            elif isinstance(parent, list):
                request = _replace_path(request, path, [*parent, draw(JSON)])
            continue
        value = draw(HUGE) if action == "huge" else draw(JSON)
        request = _replace_path(request, path, value)
    return request


def _get(value: Any, path: list[Any]) -> Any:
    for key in path:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            return None
    return value


def requests(rules: str) -> st.SearchStrategy[Any]:
    """Requests for ``rules``: mostly mutated valid ones, some arbitrary JSON, a few huge values."""
    return st.one_of(mutated(rules), mutated(rules), mutated(rules), JSON, HUGE)


def scorer(rules: str) -> Callable[[Any], dict[str, Any]]:
    if rules == "mcr":
        from scoring.rules.mcr.calculator import score_request

        return score_request
    if rules == "nmjl":
        from scoring.rules.nmjl.api import score_request as nmjl

        return lambda data: nmjl(data)
    from scoring.rules.classical.api import score_request as classical

    return lambda data: classical(data, rules)


@dataclass
class Tally:
    """Figures of a fuzz run: inputs tried, scored, refused with a clear error, and the slowest."""

    rules: str
    tried: int = 0
    scored: int = 0
    refused: int = 0
    slowest: float = 0.0  # CPU seconds of the slowest input (immune to a busy machine's preemption)
    slowest_input: str = ""
    slowest_wall: float = 0.0  # wall-clock seconds of the slowest input by the clock
    codes: dict[str, int] = field(default_factory=dict)


def score_one(rules: str, data: Any, tally: Tally | None = None) -> dict[str, Any] | None:
    """Score ``data``; a :class:`RuleError` is a clear refusal, anything else propagates (a bug)."""
    started = time.perf_counter()
    cpu_started = time.thread_time()
    try:
        result = scorer(rules)(data)
    except RuleError as error:
        assert error.message and isinstance(error.message, str)
        assert len(error.message) <= MAX_MESSAGE, "error messages must stay short whatever the input"
        if tally is not None:
            tally.refused += 1
            tally.codes[error.code] = tally.codes.get(error.code, 0) + 1
        result = None
    else:
        assert isinstance(result, dict)
        if tally is not None:
            tally.scored += 1
    cpu = time.thread_time() - cpu_started
    elapsed = time.perf_counter() - started
    if tally is not None:
        tally.tried += 1
        tally.slowest_wall = max(tally.slowest_wall, elapsed)
        if cpu > tally.slowest:
            tally.slowest = cpu
            tally.slowest_input = describe(data)
    return result
