"""Entry points for ``score_hands --rules babcock|chinese-1920s|foster`` and the event pages.

``score_request`` takes one JSON object of ``/work/shared/specs/scoring-json.md`` ("Classical result"):
a hand, or ``{"settle": {...}}``; it returns the result object or raises :class:`HandInputError`
with a message fit to show as ``{"error": message}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.classical.scoring import ClassicalScore, score_hand
from scoring.rules.classical.settlement import running_totals, settle
from scoring.rules.errors import HandInputError
from scoring.rules.limits import check_request
from scoring.rules.tiles import parse_hand

RULE_SETS = ("babcock", "chinese-1920s", "foster")
OVERRIDES = ("only_possible_place", "loose_tile", "robbing_kong", "last_tile")

__all__ = ["RULE_SETS", "ClassicalScore", "running_totals", "score_hand", "score_request", "settle"]


def _optional_bool(data: Mapping[str, Any], name: str) -> bool | None:
    value = data.get(name)
    if value is not None and not isinstance(value, bool):
        raise HandInputError(f"field {name!r} must be true or false, not {value!r}", code="bad_field")
    return value


def _settle_request(request: Any, rules: str) -> dict[str, Any]:
    if not isinstance(request, Mapping):
        raise HandInputError(
            'settle must be an object such as {"scores": {"E": 48, "S": 16, "W": 4, "N": 0}, '
            '"winner": "E", "east": "E"}',
            code="bad_settlement",
        )
    for name in ("scores", "east"):
        if name not in request:
            raise HandInputError(f"settle: missing field {name!r}", code="missing_field")
    if "winner" not in request:
        raise HandInputError("settle: missing field 'winner' (null for a draw game)", code="missing_field")
    options = request.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise HandInputError("settle: options must be an object", code="bad_settlement")
    settlement = settle(request["scores"], request["winner"], request["east"], rules, options=options)
    return {"settlement": settlement}


def score_request(data: Any, rules: str) -> dict[str, Any]:
    """One classical request to its result: a hand's score, or a hand's settlement."""
    if rules not in RULE_SETS:
        raise HandInputError(f"unknown rules {rules!r} (use {', '.join(RULE_SETS)})", code="unknown_rules")
    check_request(data)
    if not isinstance(data, Mapping):
        raise HandInputError("each input must be a JSON object", code="bad_field")
    if "settle" in data:
        return _settle_request(data["settle"], rules)
    winner = _optional_bool(data, "winner")
    if winner is None:
        winner = data.get("win_tile") is not None
    hand = parse_hand(data, require_win_tile=winner)
    options = data.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise HandInputError('options must be an object such as {"limit": 300}', code="bad_option")
    special = data.get("special_hand")
    if special is not None and not isinstance(special, str):
        raise HandInputError('special_hand must be a name such as "heaven"', code="bad_field")
    overrides = {name: _optional_bool(data, name) for name in OVERRIDES}
    score = score_hand(
        hand,
        rules,
        winner=winner,
        options=dict(options) if options is not None else None,
        flower_tiles=data.get("flower_tiles"),
        special_hand=special,
        **overrides,
    )
    return score.as_dict()
