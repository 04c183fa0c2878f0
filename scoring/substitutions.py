"""How a seat taken over by a substitute in the middle of a session counts in the standings.

The event's setting ``seating.substitution_standings`` chooses (``tournaments.event_settings``):

- ``seat`` (**the default**): the absent player keeps the seat's whole session result, score and table
  points, and the substitute is not ranked for it. MCR's table points (rule 71) rank whole seats over a
  session and cannot be divided between two people; the three opponents' results are the same whoever
  sits there; the absent player is still in the event and is ranked over all sessions, so a session
  without a result would hurt them more than a stand-in's play. It is also the only reading under which
  every table still hands out exactly its 4-2-1-0 points to ranked players.
- ``hands``: each keeps the points of the hands they played; penalties and lateness stay with the
  registration they were recorded for (the seat's player, or the substitute when a penalty names them);
  table points go to whoever played more of the session's hands (the absent player on a tie). A
  substitute who is a registered player is ranked with those hands; a registered substitute
  (``is_substitute``) never is.
- ``absent_hands``: as ``hands``, but the substitute's hands (and table points they would get) are not
  ranked for anyone.

**A penalty naming the substitute** (the person who committed the offence, during their hands) always
counts at the seat they took over: the seat's score carries it, and the opponents receive what it pays
them (MCR rule 84), so every table still sums as the rules say. Who is ranked with it follows the policy:
under ``seat`` the absent player (who keeps the seat's whole result, penalty included); under ``hands``
the substitute (their own line, if they are ranked at all); under ``absent_hands`` nobody (the
substitute's part of the seat counts for nobody). Points paid *to* a seat stay with its player. The
substitute's own record (their player page) lists the penalty in every case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.rules.ruleset import RuleSet, SessionTotals
from scoring.rules.settings import lookup
from scoring.standings import SessionLine
from tournaments.models import Substitution

POLICY_KEY = "seating.substitution_standings"
DEFAULT_POLICY = "seat"


@dataclass(frozen=True)
class SeatSubstitution:
    """From hand ``from_hand`` on, ``code`` plays the seat (``substitute``: a registered substitute)."""

    from_hand: int
    code: str
    substitute: bool


def substitutions_by_seat(tournament: Any) -> dict[tuple[int, str], list[SeatSubstitution]]:
    """Every substitution of the event by (table id, seat wind), in one query."""
    found: dict[tuple[int, str], list[SeatSubstitution]] = {}
    for table_id, wind, from_hand, code, substitute in Substitution.objects.filter(
        seat__round__tournament=tournament
    ).values_list(
        "seat__table_id", "seat__wind", "from_hand", "substitute__code", "substitute__is_substitute"
    ):
        found.setdefault((table_id, wind), []).append(SeatSubstitution(from_hand, code, substitute))
    return found


def policy(settings: Any) -> str:
    value = lookup(settings, POLICY_KEY, DEFAULT_POLICY)
    return value if value in ("seat", "hands", "absent_hands") else DEFAULT_POLICY


def charged_to_substitutes(
    rule: str,
    result: SessionTotals,
    rescore: Callable[..., SessionTotals],
    penalties: Sequence[tuple[int, int, str, int | None]],
    stand_ins: Mapping[int, tuple[str, str]],
) -> dict[str, dict[str, int]]:
    """What the penalties naming each substitute cost their seat: ``{wind: {substitute code: points}}``.

    Only the ``hands`` policies split a seat by person; under ``seat`` the seat's player carries it all
    (an empty answer). ``rescore(penalties=...)`` scores the table with only those (the rule set decides
    what a penalty costs); ``stand_ins`` maps a substitute's registration id to (seat wind, code)."""
    if rule == "seat":
        return {}
    found: dict[str, dict[str, int]] = {}
    for pk, (wind, code) in stand_ins.items():
        if not any(item[0] == pk for item in penalties):
            continue
        without = rescore(penalties=[item for item in penalties if item[0] != pk])
        found.setdefault(wind, {})[code] = result.scores[wind] - without.scores[wind]
    return found


def seat_lines(
    rule: str,
    *,
    rules: RuleSet,
    wind: str,
    code: str,
    substitute: bool,
    substitutions: Sequence[SeatSubstitution],
    hands: Sequence[Any],
    result: SessionTotals,
    round_number: int,
    table_number: int,
    charged: Mapping[str, int] | None = None,
) -> list[SessionLine]:
    """The standings lines of one seat (no line for someone not ranked); ``charged`` is what penalties
    naming each substitute cost the seat (:func:`charged_to_substitutes`), moved from the seat's player
    to the substitute's line."""
    charged = charged or {}
    wins_of = [1 if record.winner == wind else 0 for record in hands]
    if rule == "seat" or not substitutions:
        holders = [(code, substitute, list(range(len(hands))))]
    else:
        order = sorted(substitutions, key=lambda s: s.from_hand)
        holders = [(code, substitute, [])]
        for substitution in order:
            holders.append((substitution.code, substitution.substitute, []))
        for index in range(len(hands)):
            holder = 0
            for position, substitution in enumerate(order, start=1):
                if index + 1 >= substitution.from_hand:
                    holder = position
            holders[holder][2].append(index)
    per_hand = [rules.points(record)[wind] for record in hands] if len(holders) > 1 else []
    adjustments = result.scores[wind] - sum(per_hand) if per_hand else 0
    most = max(range(len(holders)), key=lambda i: (len(holders[i][2]), -i))
    lines = []
    for position, (player, is_substitute, played) in enumerate(holders):
        if is_substitute or (rule == "absent_hands" and position > 0):
            continue
        if len(holders) == 1:
            score = result.scores[wind]
        elif position == 0:
            score = sum(per_hand[i] for i in played) + adjustments - sum(charged.values())
        else:
            score = sum(per_hand[i] for i in played) + charged.get(player, 0)
        table_points = None
        if result.table_points is not None:
            table_points = result.table_points[wind] if position == most else Fraction(0)
        lines.append(
            SessionLine(
                player=player,
                round_number=round_number,
                table_number=table_number,
                score=score,
                table_points=table_points,
                forfeit=wind in result.forfeits and position == 0,
                wins=sum(wins_of[i] for i in played),
            )
        )
    return lines
