"""Tournament points for one NMJL game, by a per-event scheme.

Sloper (shared/seeds/003_2541481d343502a5.txt), "Tournament Scoring" (~line 1556): each tournament sets
its own system; the book's example table is the default scheme here:

    Going mah-jongg                    card value
    Self-pick                          +10
    Jokerless                          +20  (not for Singles And Pairs, as rule 73 and the spec say)
    Wall game                          10
    Throwing win to two exposures      -10
    Throwing win to three exposures    -25
    Not being in seat at game start    -25
    Nonwinner / dead hand              0   (a dead hand scores 0 in a wall game too: the table's
                                            "Dead hand 0 points", line 1570; docs/nmjl-rules.md)

Named presets cover the variants organisers use. After four games (one round) a table's points are added
(~line 1574); the standings rank players by their total over all rounds (~line 1576).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.nmjl.outcome import MAX_EXPOSURES, SEATS, Outcome


@dataclass(frozen=True, slots=True)
class TournamentScheme:
    """Points per game. ``discard_penalties`` maps a least number of the winner's exposures to the points
    of the player who discarded the win (the entry with the highest threshold reached applies)."""

    name: str = "book"
    self_pick_bonus: int = 10
    jokerless_bonus: int = 20
    jokerless_bonus_singles_and_pairs: bool = False
    wall_game: int = 10
    wall_game_to_dead: bool = False  # the table's "Dead hand 0 points" (line 1570), in a wall game too
    discard_penalties: tuple[tuple[int, int], ...] = ((2, -10), (3, -25))
    late: int = -25
    nonwinner: int = 0
    dead_hand: int = 0

    def __post_init__(self) -> None:
        for name in ("self_pick_bonus", "jokerless_bonus", "wall_game", "late", "nonwinner", "dead_hand"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10_000:
                raise HandInputError(
                    gettext_noop("scheme %(name)s must be a whole number, not %(value)r"),
                    code="bad_scheme",
                    name=name,
                    value=value,
                )
        for name in ("jokerless_bonus_singles_and_pairs", "wall_game_to_dead"):
            if not isinstance(getattr(self, name), bool):
                raise HandInputError(
                    gettext_noop("scheme %(name)s must be true or false"), code="bad_scheme", name=name
                )
        previous = 0
        for entry in self.discard_penalties:
            if (
                not isinstance(entry, tuple)
                or len(entry) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry)
            ):
                raise HandInputError(
                    gettext_noop("scheme discard_penalties entries are (exposures, points), not %(entry)r"),
                    code="bad_scheme",
                    entry=entry,
                )
            exposures, _points = entry
            if not previous < exposures <= MAX_EXPOSURES:
                raise HandInputError(
                    gettext_noop(
                        "scheme discard_penalties need increasing exposure counts from 1 to "
                        "%(max_exposures)s, not %(exposures)r"
                    ),
                    code="bad_scheme",
                    max_exposures=MAX_EXPOSURES,
                    exposures=exposures,
                )
            previous = exposures

    def discard_penalty(self, winner_exposures: int) -> int:
        """Points of the player who discarded the win to a winner with this many exposures."""
        points = 0
        for threshold, penalty in self.discard_penalties:
            if winner_exposures >= threshold:
                points = penalty
        return points

    @classmethod
    def preset(cls, name: str) -> TournamentScheme:
        """A named preset (see :data:`PRESETS`), or a clear error listing them."""
        try:
            if not isinstance(name, str):
                raise KeyError(name)
            return PRESETS[name]
        except KeyError:
            raise HandInputError(
                gettext_noop("unknown scoring preset %(name)r (presets: %(presets)s)"),
                code="bad_scheme",
                name=name,
                presets=", ".join(PRESETS),
            ) from None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any] | None) -> TournamentScheme:
        """A scheme from an event's settings: ``{"preset": "book", ...overrides}``; keys are the field
        names, ``discard_penalties`` as ``{"2": -10, "3": -25}`` or ``[[2, -10], [3, -25]]``."""
        if settings is None:
            return PRESETS["book"]
        if not isinstance(settings, Mapping):
            raise HandInputError(gettext_noop("scheme must be an object"), code="bad_scheme")
        base = cls.preset(settings.get("preset", "book"))
        allowed = {name for name in cls.__dataclass_fields__ if name != "name"}
        changes: dict[str, Any] = {}
        for key, value in settings.items():
            if key == "preset":
                continue
            if key == "name":
                if not isinstance(value, str):
                    raise HandInputError(gettext_noop("scheme name must be a text"), code="bad_scheme")
                changes["name"] = value
                continue
            if key not in allowed:
                raise HandInputError(
                    gettext_noop("unknown scheme field %(key)r (fields: preset, name, %(allowed)s)"),
                    code="bad_scheme",
                    key=key,
                    allowed=", ".join(sorted(allowed)),
                )
            changes[key] = _penalties(value) if key == "discard_penalties" else value
        if changes and "name" not in changes:
            changes["name"] = f"{base.name} (changed)"
        return replace(base, **changes)

    def to_settings(self) -> dict[str, Any]:
        """JSON-ready settings that :meth:`from_settings` turns back into this scheme."""
        settings = asdict(self)
        settings["discard_penalties"] = {str(n): p for n, p in self.discard_penalties}
        return settings


def _penalties(value: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list | tuple):
        items = [tuple(item) if isinstance(item, list | tuple) else item for item in value]
    else:
        raise HandInputError(
            gettext_noop("scheme discard_penalties must be an object or a list of pairs"), code="bad_scheme"
        )
    entries = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise HandInputError(
                gettext_noop("scheme discard_penalties entry %(item)r is not a pair"),
                code="bad_scheme",
                item=item,
            )
        exposures, points = item
        if isinstance(exposures, str) and exposures.isdigit():
            exposures = int(exposures)
        entries.append((exposures, points))
    return tuple(sorted(entries, key=lambda e: e[0] if isinstance(e[0], int) else 0))


BOOK = TournamentScheme()
PRESETS: dict[str, TournamentScheme] = {
    "book": BOOK,
    "exposures-10-20-25": replace(
        BOOK, name="exposures-10-20-25", discard_penalties=((2, -10), (3, -20), (4, -25))
    ),
    "exposures-10-20-30": replace(
        BOOK, name="exposures-10-20-30", discard_penalties=((2, -10), (3, -20), (4, -30))
    ),
    # Once the variant, now the book's reading (line 1570); the name stays: it is stored in events.
    "wall-live-only": replace(BOOK, name="wall-live-only", wall_game_to_dead=False),
    "jokerless-any-hand": replace(BOOK, name="jokerless-any-hand", jokerless_bonus_singles_and_pairs=True),
}


def tournament_points(outcome: Outcome, scheme: TournamentScheme = BOOK) -> dict[str, int]:
    """Tournament points of the four seats for one game (table at ~line 1556)."""
    dead = outcome.all_dead
    points = {seat: scheme.dead_hand if seat in dead else scheme.nonwinner for seat in SEATS}
    if outcome.won_by == "wall":
        for seat in SEATS:
            if seat not in dead or scheme.wall_game_to_dead:
                points[seat] = scheme.wall_game
    elif outcome.won_by in ("discard", "self_pick"):
        assert outcome.winner is not None and outcome.value is not None
        winner_points = outcome.value
        if outcome.won_by == "self_pick":
            winner_points += scheme.self_pick_bonus
        if outcome.jokerless and (not outcome.singles_and_pairs or scheme.jokerless_bonus_singles_and_pairs):
            winner_points += scheme.jokerless_bonus
        points[outcome.winner] = winner_points
        if outcome.won_by == "discard":
            assert outcome.discarder is not None
            if outcome.winner_exposures is None:
                raise HandInputError(
                    gettext_noop(
                        "winner_exposures is needed for a win by discard in tournament scoring (line ~1556)"
                    ),
                    code="missing_field",
                )
            points[outcome.discarder] += scheme.discard_penalty(outcome.winner_exposures)
    for seat in outcome.late:
        points[seat] += scheme.late
    return points


def round_totals(games: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Line ~1574: after the games of a round, each player's points are added (keys as given)."""
    totals: dict[str, int] = {}
    for game in games:
        for player, value in game.items():
            totals[player] = totals.get(player, 0) + value
    return totals
