"""NMJL penalties in the American game's own words: the tournament table and the organiser's policy.

Sloper, *The Red Dragon & The West Wind* (shared/seeds/003_2541481d343502a5.txt), American part:

- "Tournament Scoring" (line 1556): the example table's penalties: "Throwing win to two exposures -10
  points", "Throwing win to three exposures -25 points", "Not being in seat at game start -25 points",
  "Dead hand 0 points" (lines 1566-1569);
- line 1572: "A thorough tournament organizer also has a policy on how to penalize certain errors ...
  such as misnaming a discard (when this results in a mishap) or throwing in the hand prematurely": the
  book gives no points for these, so the organiser sets them (:class:`OrganiserPolicy`; 0 until set);
- the official rules that settle errors in play (rules 92c, 93, 94, 95c, 96, 97b-c, 98, 100, 101, 104):
  a dead hand, or a payment in multiples of the hand's value (the home-game settlement of
  ``payments.py``), never points of the MCR kind.

Nothing here uses MCR rule numbers or MCR words ("hu", "fan"). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.rulings import Ruling

TABLE = "Tournament scoring table (line 1556)"
POLICY = "Organiser's policy (line 1572)"
EFFECTS = ("tournament_points", "organiser_policy", "dead_hand", "payment", "warning")


@dataclass(frozen=True, slots=True)
class NmjlPenalty:
    """One NMJL penalty: ``source`` is the book's table, the organiser's policy, or "NMJL rule N";
    ``effect`` is one of :data:`EFFECTS`; ``points`` are tournament points (negative: lost) for
    ``tournament_points``; ``times_value`` the multiple of the hand's value paid for ``payment``."""

    key: str
    source: str
    label: str
    effect: str
    points: int = 0
    times_value: int = 0
    payer: str = ""  # who pays, in the rule's words, for ``payment``


CATALOGUE: tuple[NmjlPenalty, ...] = (
    NmjlPenalty("throw_win_two_exposures", TABLE, "Throwing win to two exposures", "tournament_points", -10),
    NmjlPenalty(
        "throw_win_three_exposures", TABLE, "Throwing win to three exposures", "tournament_points", -25
    ),
    NmjlPenalty("not_in_seat", TABLE, "Not being in seat at game start", "tournament_points", -25),
    NmjlPenalty("dead_hand", TABLE, "Dead hand", "tournament_points", 0),
    NmjlPenalty(
        "misnamed_discard_mishap",
        POLICY,
        "Misnaming a discard, when this results in a mishap",
        "organiser_policy",
    ),
    NmjlPenalty("premature_throw_in", POLICY, "Throwing in the hand prematurely", "organiser_policy"),
    NmjlPenalty(
        "misnamed_discard_mahjongg",
        "NMJL rule 95c",
        "Misnamed discard called for mah-jongg: the misnamer alone pays four times the hand",
        "payment",
        times_value=4,
        payer="the player who misnamed the tile",
    ),
    NmjlPenalty(
        "out_of_turn_discard",
        "NMJL rule 100",
        "Discarding out of turn another player's winning tile: the discarder alone pays four times the hand",
        "payment",
        times_value=4,
        payer="the player who discarded out of turn",
    ),
    NmjlPenalty(
        "wrong_tile_count", "NMJL rule 92c", "Wrong number of tiles after East's first discard", "dead_hand"
    ),
    NmjlPenalty("picking_ahead", "NMJL rule 93", "Picking ahead (in a tournament)", "dead_hand"),
    NmjlPenalty(
        "peeking_blind_pass", "NMJL rule 94", "Peeking at the blind pass (in a tournament)", "dead_hand"
    ),
    NmjlPenalty(
        "discard_into_hand",
        "NMJL rule 96",
        "Putting a taken discard into the hand before exposing (at the tournament judge's discretion)",
        "dead_hand",
    ),
    NmjlPenalty("illegal_exposure", "NMJL rule 97b", "Exposing an illegal set not remedied", "dead_hand"),
    NmjlPenalty(
        "exposure_shows_illegal_hand", "NMJL rule 97c", "Exposure that shows an illegal hand", "dead_hand"
    ),
    NmjlPenalty("mahjongg_in_error", "NMJL rule 98b", "Mah-jongg in error, hand exposed", "dead_hand"),
    NmjlPenalty(
        "home_warning", "NMJL rules 93-94", "First picking ahead or peeking in a home game", "warning"
    ),
)
BY_KEY: dict[str, NmjlPenalty] = {penalty.key: penalty for penalty in CATALOGUE}


@dataclass(frozen=True, slots=True)
class OrganiserPolicy:
    """The tournament organiser's points for the errors the book leaves to them (line 1572), as
    tournament points (0 or negative). Both 0 until the organiser sets them."""

    misnamed_discard_mishap: int = 0
    premature_throw_in: int = 0

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or not -10_000 <= value <= 0:
                raise HandInputError(
                    gettext_noop(
                        "policy %(name)s must be a whole number of points from -10000 to 0, not %(value)r"
                    ),
                    code="bad_policy",
                    name=field.name,
                    value=value,
                )

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any] | None) -> OrganiserPolicy:
        """From an event's settings, e.g. ``{"misnamed_discard_mishap": -10}``; unknown keys refused."""
        if settings is None:
            return cls()
        if not isinstance(settings, Mapping):
            raise HandInputError(gettext_noop("the penalty policy must be an object"), code="bad_policy")
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(key) for key in settings if key not in known)
        if unknown:
            raise HandInputError(
                gettext_noop("unknown policy field %(unknown)r (fields: %(known)s)"),
                code="bad_policy",
                unknown=unknown[0],
                known=", ".join(sorted(known)),
            )
        return cls(**dict(settings))


def tournament_points(key: str, policy: OrganiserPolicy | None = None) -> int:
    """Tournament points of a penalty under the book's table and the organiser's ``policy``.

    Raises :class:`HandInputError` (``bad_penalty``) for a key that is not a tournament-points penalty
    (a dead hand under the rules scores the table's "Dead hand 0 points"; payments belong to home play).
    """
    penalty = BY_KEY.get(key) if isinstance(key, str) else None
    if penalty is None:
        raise HandInputError(gettext_noop("unknown NMJL penalty %(key)r"), code="bad_penalty", key=key)
    if penalty.effect == "tournament_points":
        return penalty.points
    if penalty.effect == "organiser_policy":
        points: int = getattr(policy or OrganiserPolicy(), penalty.key)  # a whole number (__post_init__)
        return points
    if penalty.effect == "dead_hand":
        return BY_KEY["dead_hand"].points
    raise HandInputError(
        gettext_noop("%(label)s (%(source)s) is settled by payment or warning, not tournament points"),
        code="bad_penalty",
        label=penalty.label,
        source=penalty.source,
    )


def payment(key: str, hand_value: int) -> int:
    """What the one paying player pays the winner for rules 95c and 100: four times the hand's value."""
    penalty = BY_KEY.get(key) if isinstance(key, str) else None
    if penalty is None or penalty.effect != "payment":
        raise HandInputError(
            gettext_noop("%(key)r is not an NMJL penalty paid in hand values"), code="bad_penalty", key=key
        )
    if isinstance(hand_value, bool) or not isinstance(hand_value, int) or not 0 < hand_value <= 10_000:
        raise HandInputError(
            gettext_noop("the hand value must be a positive whole number, not %(hand_value)r"),
            code="bad_value",
            hand_value=hand_value,
        )
    return penalty.times_value * hand_value


TOURNAMENT_RULES = "Tournament rules"


def referee_catalogue(policy: OrganiserPolicy | None = None) -> tuple[Ruling, ...]:
    """What a tournament referee rules at an NMJL table, in the American game's words.

    From the book's tournament table (line 1556): "Dead hand 0 points" (a dead hand may not win the game,
    rules 92c-98b, each listed with its own rule). From the organiser's policy (line 1572): misnaming a
    discard and throwing in the hand prematurely, at the points the event sets (0 until set). Throwing the
    win to exposures and "not being in seat" are left out: the game form and the lateness form score them
    already. Payments in hand values (rules 95c, 100) belong to home play, not tournament points. A warning,
    loss of rank and disqualification are the tournament's own rulings."""
    policy = policy or OrganiserPolicy()
    rulings: list[Ruling] = [Ruling("warning", TOURNAMENT_RULES, "Warning", outcome="warning")]
    for penalty in CATALOGUE:
        if penalty.effect == "organiser_policy":
            lost = -tournament_points(penalty.key, policy)
            rulings.append(
                Ruling(
                    penalty.key,
                    penalty.source,
                    penalty.label,
                    outcome="points" if lost else "warning",
                    points=lost,
                )
            )
        elif penalty.effect == "dead_hand" or penalty.key == "dead_hand":
            label = (
                penalty.label
                if penalty.key == "dead_hand"
                else f"Dead hand: {penalty.label[0].lower()}{penalty.label[1:]}"
            )
            rulings.append(Ruling(penalty.key, penalty.source, label, outcome="no_win", bars_win=True))
    rulings += [
        Ruling("loss_of_rank", TOURNAMENT_RULES, "Loss of rank in the tournament", outcome="loss_of_rank"),
        Ruling("disqualification", TOURNAMENT_RULES, "Disqualification", outcome="disqualification"),
    ]
    return tuple(rulings)
