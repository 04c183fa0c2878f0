"""Frozen dataclasses the engine takes and returns (pure Python, no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")
"""Seat order at a table: East, South, West, North (counter-clockwise, the order of play)."""


class SubstitutePolicy(StrEnum):
    """What to do when the player count is not a multiple of four (organiser's choice)."""

    NONE = "none"
    """Refuse: the count must be a multiple of four."""
    SUBSTITUTES = "substitutes"
    """Add 1 to 3 substitute seats (ids ``sub-1``...) filled every round, never two at one table."""
    SIT_OUT = "sit_out"
    """Leave 1 to 3 players out each round, spread as evenly as possible over the players."""


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat; ``fixed_table`` (1-based) pins them to one table number for accessibility."""

    id: str
    team: str | None = None
    club: str | None = None
    fixed_table: int | None = None


@dataclass(frozen=True)
class TableSeating:
    """One table of one round: its number (1-based) and its four players in seat order E, S, W, N."""

    number: int
    seats: tuple[str, str, str, str]


@dataclass(frozen=True)
class RoundSeating:
    """One round (session): its tables by number, and the players sitting out, if any."""

    tables: tuple[TableSeating, ...]
    sit_outs: tuple[str, ...] = ()

    def table_of(self, player_id: str) -> TableSeating | None:
        """The table where ``player_id`` sits this round, or None when they sit out or are absent."""
        for table in self.tables:
            if player_id in table.seats:
                return table
        return None


@dataclass(frozen=True)
class RepeatedPair:
    """Two players who meet more than once; ``meetings`` counts all their rounds together."""

    a: str
    b: str
    meetings: int


@dataclass(frozen=True)
class QualityReport:
    """How good a seating is, in the engine's order of quality (see ``quality.py``)."""

    rounds: int
    repeated_pairs: int
    worst_pair: int
    wind_counts: dict[str, tuple[int, int, int, int]]
    wind_imbalance: int
    table_returns: int
    repeated: tuple[RepeatedPair, ...]
    conflicts: int = 0
    sit_out_counts: dict[str, int] = field(default_factory=dict)
    indirect_meetings: int = 0
    """Pairs of players who have at least one opponent in common (met the same third player), whether or
    not they met each other: a figure for how well the field is mixed, not part of ``key``."""
    most_common_opponents: int = 0
    """The most opponents any two players have in common."""
    kept_apart_meetings: int = 0
    """Meetings of the pairs the organiser keeps apart (family, couples), also counted in ``conflicts``."""
    kept_apart_met: tuple[RepeatedPair, ...] = ()
    """Those pairs that met, with how often: the organiser sees who was seated together anyway."""

    def key(self) -> tuple[int, int, int, int, int]:
        """Sort key, smaller is better: conflicts, repeated pairs, worst pair, winds, table returns."""
        return (self.conflicts, self.repeated_pairs, self.worst_pair, self.wind_imbalance, self.table_returns)


@dataclass(frozen=True)
class LowerBound:
    """Counting bounds for N players over R full rounds (no history, no sit-outs)."""

    repeated_pairs: int
    worst_pair: int
    wind_imbalance: int
    table_returns: int


@dataclass(frozen=True)
class SeatingPlan:
    """A plan: the rounds to play (after ``history``), with its quality over history and plan together."""

    players: tuple[str, ...]
    rounds: tuple[RoundSeating, ...]
    quality: QualityReport
    history: tuple[RoundSeating, ...] = ()
    substitutes: tuple[str, ...] = ()
    seed: int = 0
    optimal: bool = False
    """True when the pair objective reached its counting lower bound, so no plan can do better on pairs."""
    constraints: SeatingConstraints | None = None


@dataclass(frozen=True)
class SeatingConstraints:
    """What a plan must keep when it is edited later (swaps): pinned tables and who may not meet
    (``apart``: teammates, club mates and the organiser's pairs; ``kept_apart``: those pairs alone)."""

    fixed_tables: dict[str, int] = field(default_factory=dict)
    apart: frozenset[frozenset[str]] = frozenset()
    kept_apart: frozenset[frozenset[str]] = frozenset()
