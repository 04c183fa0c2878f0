"""Finals: after the qualifying sessions, a cut to the top 4, 8 or 16 plays the last sessions (no Django).

Sloper's book ranks a tournament once, at its end (MCR rule 73, seeds/003_2541481d343502a5.txt line
2321: table points, then score) and says nothing of finals; a cut is the organiser's choice, as the
carry-over is. Within each stage the book's ranking applies unchanged; what the finalists bring from the
qualifying stage is set by ``finals.carry_over``:

- ``keep``: their qualifying table points and score count in full,
- ``half``: half of them (half a table point is kept exactly, as rule 71e's shared places already make
  halves, line 2318; half a score is rounded toward zero to a whole point),
- ``zero``: the final starts from nothing.

Who sits together at the later final sessions is ``finals.seating``: ``fixed`` (the cut seats every final
session with the same groups, only the winds turn) or ``reseat`` (the cut seats the first final session;
each later one is seated by the organiser, once the one before is confirmed and published, by the final
standings so far: rule 73 over the carry-over plus the final sessions played, in the same rank pattern).

The organiser's cut (``tournaments.services.finals``) stores who went through, in qualifying order, in
``finals.made``; the standings (``scoring.facts``) rank the finalists first and everyone else after them
in their qualifying order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Text, gettext_noop
from scoring.rules.settings import Setting, lookup

FINALS = gettext_noop("Finals")
SIZES = (0, 4, 8, 16)
KEEP, HALF, ZERO = "keep", "half", "zero"
CARRY_OVER = (KEEP, HALF, ZERO)

CARRY_CHOICES: tuple[tuple[str, str], ...] = (
    (KEEP, gettext_noop("Their table points and score")),
    (HALF, gettext_noop("Half their table points and score")),
    (ZERO, gettext_noop("Nothing: the final starts from zero")),
)

FIXED, RESEAT = "fixed", "reseat"
SEATING_CHOICES: tuple[tuple[str, str], ...] = (
    (FIXED, gettext_noop("The same groups every final session (only the winds turn)")),
    (RESEAT, gettext_noop("Re-seated each final session by the final standings so far")),
)

QUALIFYING = gettext_noop("Qualifying")
FINAL = gettext_noop("Final")


def _made_problem(value: Any) -> str | None:
    """The stored cut: the session it follows and the finalists' ids in qualifying order."""
    if (
        not isinstance(value, Mapping)
        or not isinstance(value.get("after"), int)
        or isinstance(value.get("after"), bool)
        or value["after"] < 1
        or not isinstance(value.get("finalists"), list)
        or not all(isinstance(code, str) for code in value["finalists"])
        or len(value["finalists"]) not in SIZES[1:]
        or len(set(value["finalists"])) != len(value["finalists"])
    ):
        return Text(
            gettext_noop("must name the session after which 4, 8 or 16 different players went through")
        )
    return None


FINALS_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="finals.size",
        label=gettext_noop("Finals: how many players go through"),
        kind="choice",
        default=0,
        choices=(
            (0, gettext_noop("No finals")),
            (4, gettext_noop("Top 4 (one table)")),
            (8, gettext_noop("Top 8 (two tables)")),
            (16, gettext_noop("Top 16 (four tables)")),
        ),
        group=FINALS,
    ),
    Setting(
        key="finals.after",
        label=gettext_noop("Finals: the cut is made after session"),
        kind="int",
        default=0,
        minimum=0,
        maximum=100,
        help=gettext_noop("The last qualifying session; the sessions after it are the final"),
        group=FINALS,
    ),
    Setting(
        key="finals.carry_over",
        label=gettext_noop("Finals: what the finalists bring from the qualifying sessions"),
        kind="choice",
        default=KEEP,
        choices=CARRY_CHOICES,
        group=FINALS,
    ),
    Setting(
        key="finals.seating",
        label=gettext_noop("Finals: who sits together at the later final sessions"),
        kind="choice",
        default=FIXED,
        choices=SEATING_CHOICES,
        help=gettext_noop(
            "With 8 or 16 finalists; the organiser seats each later final session on the Finals page"
        ),
        group=FINALS,
    ),
    Setting(
        key="finals.made",
        label=gettext_noop("The cut"),
        kind="any",
        default=None,
        optional=True,
        check=_made_problem,
    ),
)
"""``finals.made`` is written by the organiser's cut (``tournaments.services.finals``), audited; not a form
field."""


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut made: the last qualifying session, the finalists in qualifying order, the carry-over rule."""

    after: int
    finalists: tuple[str, ...]
    carry_over: str = KEEP

    def carried_points(self, points: Fraction) -> Fraction:
        """The qualifying table points a finalist brings."""
        return points if self.carry_over == KEEP else points / 2 if self.carry_over == HALF else Fraction(0)

    def carried_score(self, score: int) -> int:
        """The qualifying score a finalist brings (a half rounded toward zero)."""
        return score if self.carry_over == KEEP else int(Fraction(score, 2)) if self.carry_over == HALF else 0


def carry_over_of(settings: Mapping[str, Any]) -> str:
    """The event's carry-over rule (``keep`` when unset)."""
    carry = lookup(settings, "finals.carry_over", KEEP)
    return carry if carry in CARRY_OVER else KEEP


def reseats(settings: Mapping[str, Any]) -> bool:
    """Whether each later final session is seated by the final standings so far (else: fixed groups)."""
    return bool(lookup(settings, "finals.seating", FIXED) == RESEAT)


def planned(settings: Mapping[str, Any]) -> tuple[int, int]:
    """(finalists, last qualifying session) as the organiser set them; (0, 0): no finals planned."""
    size, after = lookup(settings, "finals.size", 0), lookup(settings, "finals.after", 0)
    if size not in SIZES[1:] or not isinstance(after, int) or after < 1:
        return 0, 0
    return size, after


def cut_of(settings: Mapping[str, Any]) -> Cut | None:
    """The cut made, or None (no cut yet, or none planned)."""
    made = lookup(settings, "finals.made")
    if made is None or _made_problem(made) is not None:
        return None
    return Cut(made["after"], tuple(made["finalists"]), carry_over_of(settings))


def stage_of(settings: Mapping[str, Any], session: int) -> str:
    """ "Qualifying" or "Final" for a session of an event with finals (the made cut first, else the plan);
    "" for an event without finals."""
    cut = cut_of(settings)
    after = cut.after if cut is not None else planned(settings)[1]
    if not after:
        return ""
    return QUALIFYING if session <= after else FINAL
