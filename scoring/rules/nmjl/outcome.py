"""The outcome of one NMJL game (hand): who won, how, jokers, dead players and errors.

Sloper (shared/seeds/003_2541481d343502a5.txt): rule 72 (won by discard or by self-pick), rule 78 (wall
game), rule 95c (misnamed discard), rule 98 (mah-jongg in error), rule 100 (discard out of turn), rules
101-108 (dead hands and death challenges). An :class:`Outcome` checks itself when built, so payments and
tournament points never see an impossible game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.rules.errors import HandInputError, gettext_noop

SEATS = ("E", "S", "W", "N")
WON_BY = ("discard", "self_pick", "wall")
MAX_EXPOSURES = 4


def _seat(value: object, where: str) -> str:
    if value not in SEATS:
        raise HandInputError(
            gettext_noop("%(where)s must be one of E, S, W, N, not %(value)r"),
            code="bad_seat",
            where=where,
            value=value,
        )
    return str(value)


def _positive(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise HandInputError(
            gettext_noop("%(where)s must be a positive whole number, not %(value)r"),
            code="bad_value",
            where=where,
            value=value,
        )
    return value


@dataclass(frozen=True, slots=True)
class DeathChallenge:
    """Rules 102-104: ``challenger`` called ``challenged`` dead; at the end, was the hand dead?"""

    challenger: str
    challenged: str
    challenged_was_dead: bool

    def __post_init__(self) -> None:
        _seat(self.challenger, "death_challenge challenger")
        _seat(self.challenged, "death_challenge challenged")
        if self.challenger == self.challenged:
            raise HandInputError(
                gettext_noop("a player cannot issue a death challenge to herself (rule 105)"),
                code="bad_event",
            )

    @property
    def wrong(self) -> str:
        """Rule 104: the challenged pays when her hand was dead, the challenger when it was not."""
        return self.challenged if self.challenged_was_dead else self.challenger

    @property
    def right(self) -> str:
        return self.challenger if self.challenged_was_dead else self.challenged


@dataclass(frozen=True, slots=True)
class FalseMahjong:
    """Rule 98: ``declarer`` declared mah-jongg in error; ``threw_in`` then exposed or destroyed their hands;
    ``wall_destroyed_by`` destroyed the wall."""

    declarer: str
    declared_value: int | None = None
    threw_in: tuple[str, ...] = ()
    wall_destroyed_by: str | None = None

    def __post_init__(self) -> None:
        _seat(self.declarer, "false_mahjong declarer")
        for seat in self.threw_in:
            _seat(seat, "false_mahjong threw_in")
        if len(set(self.threw_in)) != len(self.threw_in):
            raise HandInputError(
                gettext_noop("false_mahjong threw_in names a player twice"), code="bad_event"
            )
        if self.declarer in self.threw_in:
            raise HandInputError(
                gettext_noop("false_mahjong: the declarer cannot also be in threw_in"), code="bad_event"
            )
        if len(self.threw_in) > 2:
            raise HandInputError(
                gettext_noop(
                    "false_mahjong: at most two other players can throw in; rule 98d ends the game at two"
                ),
                code="bad_event",
            )
        if self.wall_destroyed_by is not None:
            _seat(self.wall_destroyed_by, "false_mahjong wall_destroyed_by")
            if self.wall_destroyed_by == self.declarer or self.wall_destroyed_by in self.threw_in:
                raise HandInputError(
                    gettext_noop(
                        "false_mahjong: wall_destroyed_by must be another player than the declarer and "
                        "those who threw in (rule 98e)"
                    ),
                    code="bad_event",
                )
            if len(self.threw_in) == 2:
                raise HandInputError(
                    gettext_noop(
                        "false_mahjong: two players threw in and the wall was destroyed; rule 98 does "
                        "not cover this, enter the game as a referee decides"
                    ),
                    code="bad_event",
                )
        if len(self.threw_in) == 2 and self.declared_value is None:
            raise HandInputError(
                gettext_noop(
                    "false_mahjong: declared_value is needed when two players threw in (rule 98d "
                    "pays double it)"
                ),
                code="missing_field",
            )
        if self.declared_value is not None:
            _positive(self.declared_value, "false_mahjong declared_value")

    @property
    def ends_game(self) -> bool:
        """Rules 98d and 98e end the game; with one or none thrown in play goes on (98b, 98c)."""
        return len(self.threw_in) == 2 or self.wall_destroyed_by is not None

    @property
    def dead(self) -> frozenset[str]:
        """Rules 98b-c: the declarer and everyone who threw in are dead."""
        return frozenset((self.declarer, *self.threw_in))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game. ``won_by`` is ``discard``, ``self_pick`` or ``wall``, or ``None`` when rule 98d/e ended it.

    ``misnamed_by`` (rule 95c) and ``out_of_turn_by`` (rule 100) name a discarder who alone pays the winner
    four times the value. ``dead`` lists players whose hands were dead; death challenges found true and
    false mah-jongg add to it (see :attr:`all_dead`).
    """

    won_by: str | None
    value: int | None = None
    winner: str | None = None
    discarder: str | None = None
    jokerless: bool = False
    singles_and_pairs: bool = False
    winner_exposures: int | None = None
    dead: frozenset[str] = field(default_factory=frozenset)
    lowest_value: int | None = None
    misnamed_by: str | None = None
    out_of_turn_by: str | None = None
    false_mahjong: FalseMahjong | None = None
    challenges: tuple[DeathChallenge, ...] = ()
    late: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        for seat in self.dead:
            _seat(seat, "dead")
        for seat in self.late:
            _seat(seat, "late")
        if self.lowest_value is not None:
            _positive(self.lowest_value, "lowest_value")
        self._check_win()
        self._check_events()

    def _check_win(self) -> None:
        ends = self.false_mahjong is not None and self.false_mahjong.ends_game
        if ends:
            if self.won_by is not None or self.winner is not None or self.discarder is not None:
                raise HandInputError(
                    gettext_noop(
                        "a false mah-jongg with two players thrown in or the wall destroyed ends the "
                        "game (rules 98d, 98e): give no winner, no won_by and no discarder"
                    ),
                    code="bad_outcome",
                )
            return
        if self.won_by not in WON_BY:
            raise HandInputError(
                gettext_noop("won_by must be one of %(won_by)s, not %(won_by2)r (rules 72, 78)"),
                code="bad_field",
                won_by=", ".join(WON_BY),
                won_by2=self.won_by,
            )
        if self.won_by == "wall":
            if self.winner is not None or self.discarder is not None:
                raise HandInputError(
                    gettext_noop("a wall game has no winner and no discarder (rule 78)"), code="bad_outcome"
                )
            return
        if self.winner is None:
            raise HandInputError(
                gettext_noop("won_by %(won_by)r needs a winner"), code="missing_field", won_by=self.won_by
            )
        _seat(self.winner, "winner")
        if self.value is None:
            raise HandInputError(
                gettext_noop("value (or card and hand) is needed for a win (rule 71)"), code="missing_field"
            )
        _positive(self.value, "value")
        if self.won_by == "discard":
            if self.discarder is None:
                raise HandInputError(
                    gettext_noop("a win by discard needs the discarder (rule 72a)"), code="missing_field"
                )
            _seat(self.discarder, "discarder")
            if self.discarder == self.winner:
                raise HandInputError(gettext_noop("the winner cannot be the discarder"), code="bad_outcome")
        elif self.discarder is not None:
            raise HandInputError(
                gettext_noop("a self-picked win has no discarder (rule 72b)"), code="bad_outcome"
            )
        if self.winner in self.all_dead:
            raise HandInputError(
                gettext_noop(
                    "%(winner)s is dead and cannot win: a dead player does not pick or discard (rule 108)"
                ),
                code="bad_outcome",
                winner=self.winner,
            )
        if self.winner_exposures is not None:
            exposures = self.winner_exposures
            if isinstance(exposures, bool) or not isinstance(exposures, int) or not 0 <= exposures <= 4:
                raise HandInputError(
                    gettext_noop(
                        "winner_exposures must be a whole number from 0 to %(max_exposures)s, not "
                        "%(exposures)r"
                    ),
                    code="bad_field",
                    max_exposures=MAX_EXPOSURES,
                    exposures=exposures,
                )
            if self.singles_and_pairs and exposures:
                raise HandInputError(
                    gettext_noop(
                        "a Singles And Pairs hand has no set to expose (rule 97b): winner_exposures must be 0"
                    ),
                    code="bad_outcome",
                )

    def _check_events(self) -> None:
        penalised = [seat for seat in (self.misnamed_by, self.out_of_turn_by) if seat is not None]
        if len(penalised) > 1:
            raise HandInputError(
                gettext_noop("give either a misnamed discard or an out-of-turn discard, not both"),
                code="bad_event",
            )
        for seat in penalised:
            rule = "95c" if seat == self.misnamed_by else "100"
            _seat(seat, "discarder of the penalised discard")
            if self.won_by != "discard" or self.discarder != seat:
                raise HandInputError(
                    gettext_noop(
                        "rule %(rule)s applies to a win on %(seat)s's discard: give won_by 'discard' and "
                        "discarder %(seat)r"
                    ),
                    code="bad_event",
                    rule=rule,
                    seat=seat,
                )
        for challenge in self.challenges:
            if challenge.challenged_was_dead and challenge.challenged == self.winner:
                raise HandInputError(
                    gettext_noop("%(challenged)s won, so her hand was not dead (rule 104)"),
                    code="bad_event",
                    challenged=challenge.challenged,
                )
            if not challenge.challenged_was_dead and challenge.challenged in self.dead:
                raise HandInputError(
                    gettext_noop(
                        "%(challenged)s is listed dead but the death challenge says her hand was valid"
                    ),
                    code="bad_event",
                    challenged=challenge.challenged,
                )
        needs_lowest = bool(self.challenges) or (
            self.false_mahjong is not None and self.false_mahjong.wall_destroyed_by is not None
        )
        if needs_lowest and self.lowest_value is None:
            raise HandInputError(
                gettext_noop(
                    "lowest_value (the lowest hand value on the card) is needed for death challenges "
                    "and a destroyed wall (rules 98e, 104)"
                ),
                code="missing_field",
            )

    @property
    def all_dead(self) -> frozenset[str]:
        """Players dead at the end: listed, found dead on a challenge (104a), or by false mah-jongg (98)."""
        dead = set(self.dead)
        dead.update(c.challenged for c in self.challenges if c.challenged_was_dead)
        if self.false_mahjong is not None:
            dead.update(self.false_mahjong.dead)
        return frozenset(dead)

    @property
    def penalty_discarder(self) -> str | None:
        """The seat paying four times the value alone (rules 95c, 100), if any."""
        return self.misnamed_by or self.out_of_turn_by
