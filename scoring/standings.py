"""Standings as plain domain logic: totals per player over sessions, then a ranked list.

MCR ranking (Sloper, seeds/003_2541481d343502a5.txt, rule 73, line ~2335): by total table points, then by
total score ("contest points"); players equal in both share the rank. Other rule sets rank by score
alone (NMJL tournament points, classical cumulative score). No Django here: the views and the
``standings`` command feed it rows and render what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.rules.tie_breaks import (
    BEST_SESSION,
    FIRST_PLACES,
    HANDS_WON,
    HEAD_TO_HEAD,
    LOTS,
    TIE_BREAK_KEYS,
)


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One player's result at one table in one session."""

    player: str
    round_number: int
    score: int
    table_points: Fraction | None = None
    table_number: int | None = None
    forfeit: bool = False
    wins: int = 0
    first_place: bool = False
    """Top score at the table (equal top scores share it, as rule 71 shares the points)."""
    penalty_points: int = 0
    """Penalty points in force against the player at this table (MCR rules 76-93)."""


SHARED = "shared"
TIE_BREAKS = (SHARED, "wins")
"""How players equal on the main keys are told apart: "shared" (they share the rank, MCR rule 73) or
"wins" (more hands or games won ranks higher, an option NMJL organisers use; still equal: shared)."""


UNRANKED_LABELS = {"loss_of_rank": "loss of rank", "disqualification": "disqualified"}
"""Rulings that take a player out of the ranking (MCR rule 77e-f and 89, seeds/003 lines 2358-2359, 2392)."""


def rank_text(row: Mapping[str, object]) -> object:
    """A standings row's rank for prints and files: the rank, or why the player is not ranked."""
    rank = row.get("rank")
    return rank if rank is not None else UNRANKED_LABELS.get(str(row.get("status")), "not ranked")


@dataclass(slots=True)
class StandingRow:
    player: str
    rank: int | None = 0
    """None for a player out of the ranking by a ruling (``status``)."""
    table_points: Fraction | None = None
    score: int = 0
    wins: int = 0
    sessions: list[SessionLine] = field(default_factory=list)
    tie_break: str = "shared"
    status: str = ""
    above_by: str = ""
    """What put the player just above ahead: "" (the main ranking, or nobody above), "score" (MCR rule
    73's second key), a tie-break of ``scoring.rules.tie_breaks``, or "shared" (equal in everything)."""
    below_by: str = ""
    """The same against the player just below."""
    finalist: bool = False
    """Went through the cut to the final (``scoring.rules.finals``): ranked by carry-over and final."""
    """"loss_of_rank" or "disqualification" when a ruling took the player out of the ranking."""

    def sort_key(self) -> tuple[Fraction, int, int]:
        wins = self.wins if self.tie_break == "wins" else 0
        return (self.table_points if self.table_points is not None else Fraction(0), self.score, wins)


@dataclass(frozen=True, slots=True)
class TieBreaking:
    """An event's tie-breaks after the book's ranking, in order (``scoring.rules.tie_breaks``), and its
    recorded draw of lots (player -> place drawn, 1 first)."""

    order: Sequence[str] = ()
    lots: Mapping[str, int] = field(default_factory=dict)


def compute_standings(
    lines: Iterable[SessionLine],
    players: Iterable[str] | Mapping[str, tuple[Fraction, int]] = (),
    *,
    use_table_points: bool = True,
    tie_break: str = "shared",
    unranked: Mapping[str, str] | None = None,
    tie_breaks: TieBreaking | None = None,
) -> list[StandingRow]:
    """Rank players best first. ``players`` lists everyone registered, so a player with no result yet
    still appears (with zeros). Equal keys share a rank ("1, 1, 3" competition ranking, rule 73).

    ``tie_breaks``: the event's further tie-breaks after the book's ranking, and its recorded draw of
    lots. Each row says what decided its place against its neighbours (``above_by``, ``below_by``).

    ``unranked`` maps players to a ruling that takes them out of the ranking (loss of rank, MCR 77e;
    disqualification, 77f and 89): they are listed after everyone else without a rank, and the others
    close up.

    ``players`` as a mapping gives the table points and score each starts from (a finalist's carry-over,
    ``scoring.rules.finals``); they count in the main keys, not in the tie-breaks that read sessions."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}")
    tie_breaks = tie_breaks or TieBreaking()
    unknown = [name for name in tie_breaks.order if name not in TIE_BREAK_KEYS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; known: {TIE_BREAK_KEYS}")
    rows: dict[str, StandingRow] = {}
    for player in players:
        rows[player] = StandingRow(
            player=player, table_points=Fraction(0) if use_table_points else None, tie_break=tie_break
        )
    if isinstance(players, Mapping):
        _carry(rows, players, use_table_points=use_table_points, tie_break=tie_break)
    for line in lines:
        row = rows.setdefault(
            line.player,
            StandingRow(
                player=line.player,
                table_points=Fraction(0) if use_table_points else None,
                tie_break=tie_break,
            ),
        )
        row.sessions.append(line)
        row.score += line.score
        row.wins += line.wins
        if use_table_points and line.table_points is not None:
            row.table_points = (row.table_points or Fraction(0)) + line.table_points
    unranked = unranked or {}
    order = list(tie_breaks.order)
    if tie_break == "wins" and HANDS_WON not in order:
        order.insert(0, HANDS_WON)
    levels = (["table_points"] if use_table_points else []) + ["score", *order]
    ranked = sorted((r for r in rows.values() if r.player not in unranked), key=lambda r: r.player)
    placed = _order(ranked, levels, _Keys(use_table_points, tie_breaks.lots))
    ordered = [row for row, _ in placed] + sorted(
        (r for r in rows.values() if r.player in unranked),
        key=lambda r: (*(-k for k in r.sort_key()), r.player),
    )
    main = levels[0]
    for position, (row, separated_by) in enumerate(placed, start=1):
        row.sessions.sort(key=lambda s: s.round_number)
        if position == 1:
            row.rank = 1
            continue
        reason = SHARED if separated_by is None else ("" if separated_by == main else separated_by)
        above = placed[position - 2][0]
        row.above_by = above.below_by = reason
        row.rank = above.rank if reason == SHARED else position
    for row in ordered[len(placed) :]:
        row.sessions.sort(key=lambda s: s.round_number)
        row.rank, row.status = None, unranked[row.player]
    return ordered


def _carry(
    rows: dict[str, StandingRow],
    carried: Mapping[str, tuple[Fraction, int]],
    *,
    use_table_points: bool,
    tie_break: str,
) -> None:
    """Start each carried player's totals from what they bring."""
    for player, (points, score) in carried.items():
        row = rows.setdefault(
            player,
            StandingRow(
                player=player, table_points=Fraction(0) if use_table_points else None, tie_break=tie_break
            ),
        )
        row.score += score
        if use_table_points:
            row.table_points = (row.table_points or Fraction(0)) + points


class _Keys:
    """Each level's value for a group of equal players (higher is better)."""

    def __init__(self, use_table_points: bool, lots: Mapping[str, int]) -> None:
        self.use_table_points = use_table_points
        self.lots = lots

    def _line_value(self, line: SessionLine) -> tuple[Fraction, int]:
        points = line.table_points if self.use_table_points and line.table_points is not None else Fraction(0)
        return (points, line.score)

    def values(self, level: str, group: Sequence[StandingRow]) -> dict[str, object]:
        if level == HEAD_TO_HEAD:
            return self._head_to_head(group)
        if level == LOTS:
            # A player missing from the draw (registered after it) cannot be told apart by it.
            drawn = all(row.player in self.lots for row in group)
            return {row.player: -self.lots[row.player] if drawn else 0 for row in group}
        return {row.player: self._value(level, row) for row in group}

    def _value(self, level: str, row: StandingRow) -> object:
        if level == "table_points":
            return row.table_points or Fraction(0)
        if level == "score":
            return row.score
        if level == BEST_SESSION:
            return max((self._line_value(line) for line in row.sessions), default=None) or (
                Fraction(-(10**9)),
                0,
            )
        if level == FIRST_PLACES:
            return sum(1 for line in row.sessions if line.first_place)
        if level == HANDS_WON:
            return row.wins
        return -sum(line.penalty_points for line in row.sessions)  # FEWEST_PENALTIES

    def _head_to_head(self, group: Sequence[StandingRow]) -> dict[str, object]:
        """Among the tied players only: their table points, then score, at the tables where they met
        another of them; decides only when every two of them met at least once."""
        tables = {
            row.player: {(s.round_number, s.table_number) for s in row.sessions if s.table_number is not None}
            for row in group
        }
        players = [row.player for row in group]
        if any(not tables[a] & tables[b] for i, a in enumerate(players) for b in players[i + 1 :]):
            return dict.fromkeys(players, 0)
        result: dict[str, object] = {}
        for row in group:
            met = {t for other in players if other != row.player for t in tables[row.player] & tables[other]}
            points, score = Fraction(0), 0
            for line in row.sessions:
                if (line.round_number, line.table_number) in met:
                    tp, sc = self._line_value(line)
                    points, score = points + tp, score + sc
            result[row.player] = (points, score)
        return result


def _order(
    group: list[StandingRow], levels: Sequence[str], keys: _Keys
) -> list[tuple[StandingRow, str | None]]:
    """The group best first, each with the level that put the one before it ahead (None: nothing did,
    or the first of the group, whose separation the caller sets)."""
    if len(group) < 2 or not levels:
        return [(row, None) for row in group]
    level, rest = levels[0], levels[1:]
    values = keys.values(level, group)
    buckets: dict[object, list[StandingRow]] = {}
    for row in group:
        buckets.setdefault(values[row.player], []).append(row)
    result: list[tuple[StandingRow, str | None]] = []
    for index, value in enumerate(sorted(buckets, key=_comparable, reverse=True)):
        inner = _order(buckets[value], rest, keys)
        if index:
            inner[0] = (inner[0][0], level)
        result.extend(inner)
    return result


def _comparable(value: object) -> Any:
    """A level's values are all of one comparable kind (numbers, or tuples of numbers)."""
    return value


def decided_by(row: StandingRow | Mapping[str, object]) -> tuple[str, str]:
    """(against the player above, against the player below): "" when the main ranking decided or there
    is nobody there, "shared" when they are equal in everything, else the tie-break that decided."""
    if isinstance(row, StandingRow):
        return row.above_by, row.below_by
    return str(row.get("above_by") or ""), str(row.get("below_by") or "")
