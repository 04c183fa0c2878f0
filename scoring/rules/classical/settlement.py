"""Settling a hand: the winner is paid by all, the losers pay each other the differences.

Babcock ``000_...txt`` lines 352-406 (with worked settlements I and II); the Chinese book
``004_...txt`` line 114; Foster ``001_...txt`` laws 55 and 60 (lines 229, 239). East pays and receives
double. Options: ``round_to`` (pay to the nearest ten, Babcock line 1204), ``losers_settle`` (false: the
losers' scores cancel when a limit hand wins, line 1199), ``method: "new"`` with ``discarder`` (the
New Method, line 1168), ``stakes_limit`` (Foster question 11, line 117: a limit on what one player
pays another) and ``dead`` (players holding a Dead Hand, Babcock line 442, Foster's foul hand, law 70:
they score nothing, pay the winner and every other player his full score, and nobody pays them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.rules.classical.rulesets import RULE_BOOKS
from scoring.rules.errors import HandInputError

SETTLE_OPTIONS = ("round_to", "losers_settle", "method", "discarder", "stakes_limit", "dead")


def _bad(message: str) -> HandInputError:
    return HandInputError(message, code="bad_settlement")


def _round(amount: int, step: int) -> int:
    """To the nearest ``step``, a half going up: 12 and 14 count as 10, 16 and 18 as 20 (line 1204)."""
    return (amount + step // 2) // step * step if step > 1 else amount


def settle(
    scores: Mapping[str, int],
    winner: str | None,
    east: str,
    rules: str,
    *,
    options: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """Net gain (+) or loss (-) of each player for one hand; the result sums to zero.

    ``scores`` are the hands' totals after the limit, keyed by player (usually seat letters);
    ``winner`` is ``None`` for a draw game, where no scores count (Babcock line 416).
    """
    if rules not in RULE_BOOKS:
        raise HandInputError(f"unknown rules {rules!r} (use {', '.join(RULE_BOOKS)})", code="unknown_rules")
    options = dict(options or {})
    unknown = sorted(set(options) - set(SETTLE_OPTIONS))
    if unknown:
        raise _bad(f"unknown settlement option {', '.join(unknown)} (known: {', '.join(SETTLE_OPTIONS)})")
    if not isinstance(scores, Mapping) or not 2 <= len(scores) <= 4:
        raise _bad("scores must be an object with the score of each of the 2 to 4 players")
    for player, score in scores.items():
        if not isinstance(player, str) or isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise _bad(f"the score of {player!r} must be a whole number of 0 or more, not {score!r}")
    if not isinstance(east, str) or east not in scores:
        raise _bad(f"east {east!r} is not one of the players {', '.join(scores)}")
    if winner is not None and (not isinstance(winner, str) or winner not in scores):
        raise _bad(f"winner {winner!r} is not one of the players {', '.join(scores)}")
    step = options.get("round_to", 1)
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise _bad(f"round_to must be a whole number of 1 or more, not {step!r}")
    losers_settle = options.get("losers_settle", True)
    if not isinstance(losers_settle, bool):
        raise _bad(f"losers_settle must be true or false, not {losers_settle!r}")
    cap = options.get("stakes_limit")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        raise _bad(f"stakes_limit must be a whole number of 1 or more, not {cap!r}")
    method = options.get("method", "east_double")
    if method not in ("east_double", "new"):
        raise _bad(f'method must be "east_double" or "new", not {method!r}')
    discarder = options.get("discarder")
    if discarder is not None and (
        not isinstance(discarder, str) or discarder not in scores or discarder == winner
    ):
        raise _bad(f"discarder {discarder!r} must be one of the losing players")
    dead = options.get("dead", [])
    if not isinstance(dead, list) or any(
        not isinstance(player, str) or player not in scores or player == winner for player in dead
    ):
        raise _bad("dead must be a list of the losing players whose hands are dead")

    result = dict.fromkeys(scores, 0)
    if winner is None:
        return result

    def pay(payer: str, payee: str, amount: int, double: bool) -> None:
        amount = amount * 2 if double else amount
        amount = _round(amount, step)
        if cap is not None:
            amount = min(amount, cap)
        result[payer] -= amount
        result[payee] += amount

    players = list(scores)
    for player in players:
        if player == winner:
            continue
        if method == "new":  # the discarder, or all when the tile was drawn, pay double (line 1168)
            pay(player, winner, scores[winner], discarder is None or player == discarder)
        else:
            pay(player, winner, scores[winner], east in (player, winner))
    if not losers_settle:
        return result
    losers = [player for player in players if player != winner]
    for position, first in enumerate(losers):
        for second in losers[position + 1 :]:
            if first in dead or second in dead:
                live = second if first in dead else first
                if live not in dead:
                    payer = first if first in dead else second
                    pay(payer, live, scores[live], method != "new" and east in (payer, live))
                continue
            high, low = (first, second) if scores[first] >= scores[second] else (second, first)
            difference = scores[high] - scores[low]
            if difference:
                pay(low, high, difference, method != "new" and east in (high, low))
    return result


def running_totals(settlements: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each player's net result over many hands, the ranking score of a classical event.

    Babcock's progressive game (line 1262) enters each player's plus or minus and totals them.
    """
    totals: dict[str, int] = {}
    for settlement in settlements:
        for player, amount in settlement.items():
            totals[player] = totals.get(player, 0) + amount
    return totals
