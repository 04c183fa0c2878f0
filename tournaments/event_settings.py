"""One schema for an event's settings: the rule set's own (``RuleSet.settings_fields``) and the
seating options, checked whenever settings are saved or imported."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext_noop

from scoring.rules import registry
from scoring.rules.errors import HandInputError, Text
from scoring.rules.finals import FINALS_SETTINGS
from scoring.rules.settings import Setting, check_settings, lookup, value_of

SEATING = gettext_noop("Seating")
SEATING_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="seating.substitute_policy",
        label=gettext_noop("When the players are not a multiple of four"),
        kind="choice",
        default="none",
        choices=(
            ("none", gettext_noop("Refuse (check players in or out first)")),
            ("substitutes", gettext_noop("Add substitutes (1 to 3 seats, not ranked)")),
            ("sit_out", gettext_noop("Let 1 to 3 players sit out each session, in turn")),
        ),
        group=SEATING,
    ),
    Setting(
        key="seating.substitution_standings",
        label=gettext_noop("When a substitute takes over a seat during a session"),
        kind="choice",
        default="seat",
        choices=(
            (
                "seat",
                gettext_noop(
                    "The absent player keeps the seat's whole result; the substitute is not ranked for it"
                ),
            ),
            (
                "hands",
                gettext_noop(
                    "Each keeps the points of the hands they played (table points: who played more)"
                ),
            ),
            (
                "absent_hands",
                gettext_noop(
                    "The absent player keeps only the hands they played; the substitute's are not ranked"
                ),
            ),
        ),
        group=SEATING,
    ),
    Setting(
        key="seating.swiss",
        label=gettext_noop("Swiss: seat each session by the current standings"),
        kind="bool",
        default=False,
        group=SEATING,
    ),
    Setting(
        key="seating.time_limit",
        label=gettext_noop("Seconds the engine may search"),
        kind="float",
        default=5.0,
        minimum=0.5,
        maximum=60,
        help=gettext_noop("More time, better plans"),
        group=SEATING,
    ),
)
CLOCK = gettext_noop("Session clock")
CLOCK_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="clock.last_hand_minutes",
        label=gettext_noop('Signal "last hand" when this many minutes are left'),
        kind="int",
        default=5,
        minimum=0,
        maximum=60,
        help=gettext_noop("0: no signal before time"),
        group=CLOCK,
    ),
    Setting(
        key="clock.slow_minutes",
        label=gettext_noop("Mark a table slow when it has entered nothing for this many minutes"),
        kind="int",
        default=15,
        minimum=1,
        maximum=240,
        group=CLOCK,
    ),
)

CONFIRMATION = gettext_noop("Confirmation")
CONFIRMATION_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="confirmation.by",
        label=gettext_noop("A table's result is confirmed by"),
        kind="choice",
        default="either",
        choices=(
            ("referee", gettext_noop("A second referee (not the one who entered it)")),
            ("players", gettext_noop("The table's four players, each with their PIN (rule 72)")),
            ("either", gettext_noop("Either")),
        ),
        help=gettext_noop("Until then the result is provisional and counts nowhere public"),
        group=CONFIRMATION,
    ),
    Setting(
        key="confirmation.blind_entry",
        label=gettext_noop(
            "Blind double entry: a second person enters the score sheet without seeing the first entry"
        ),
        kind="bool",
        default=False,
        help=gettext_noop(
            "When the two agree the table is confirmed; when not, a referee sees the differences"
        ),
        group=CONFIRMATION,
    ),
)
TEAMS = gettext_noop("Team standings")
TEAM_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="teams.best",
        label=gettext_noop("Each team counts its best members"),
        kind="int",
        default=0,
        minimum=0,
        maximum=50,
        help=gettext_noop("0: every member counts; 3: the sum of the team's three best players"),
        group=TEAMS,
    ),
)
"""Team standings (the public team page and the standings PDF): players with the same team name form
a team; the team's total is the sum of its best N members' results, or of all of them."""
PRIVACY = gettext_noop("Privacy")
PUBLIC_NAMES = ("full", "initial", "code")
"""The public name policies, widest first: a player's own choice may only move right (``public_names``)."""
PRIVACY_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="public.names",
        label=gettext_noop("How players appear on public pages, prints for the hall and downloads"),
        kind="choice",
        default="full",
        choices=(
            ("full", gettext_noop("Full name")),
            ("initial", gettext_noop("Given name and family initial (María G.)")),
            ("code", gettext_noop("Player id only (p7)")),
        ),
        help=gettext_noop("A player may choose to show less, never more; staff pages show full names"),
        group=PRIVACY,
    ),
    Setting(
        key="public.indexing",
        label=gettext_noop("Let search engines index the players' pages"),
        kind="bool",
        default=False,
        group=PRIVACY,
    ),
)
"""Who sees a player's name: ``tournaments.public_names`` applies ``public.names`` and the
players' pages say ``noindex`` unless ``public.indexing``."""
APPEAL_FEE = Setting(
    key="appeals.fee",
    label=gettext_noop("Appeal fee (returned if the appeal is granted, forfeited if it is rejected)"),
    kind="int",
    default=0,
    minimum=0,
    maximum=100_000,
    help=gettext_noop("0 for no fee."),
    group=gettext_noop("Appeals"),
)


def appeal_settings(rules: str) -> tuple[Setting, ...]:
    """The appeal fee, whose default is the fee the rule set's book names (MCR rule 94d: US$200)."""
    rule_set = registry.rule_set_class(rules)
    return (replace(APPEAL_FEE, default=rule_set.appeal_fee, help=rule_set.appeal_fee_help),)


STRUCTURAL = ("sessions", "hands_per_session", "session_minutes", "time_zone")
"""Keys the event JSON puts in ``settings`` for the event's own columns (the venue's time zone among what the
organiser set: shared/specs/event-json.md, "settings holds what the organiser set")."""


def settings_fields(rules: str) -> tuple[Setting, ...]:
    return (
        *registry.rule_set_class(rules).settings_fields,
        *SEATING_SETTINGS,
        *CLOCK_SETTINGS,
        *CONFIRMATION_SETTINGS,
        *TEAM_SETTINGS,
        *FINALS_SETTINGS,
        *PRIVACY_SETTINGS,
        *appeal_settings(rules),
    )


def field(rules: str, key: str) -> Setting | None:
    return next((f for f in settings_fields(rules) if f.key == key), None)


def settings_problems(rules: str, settings: Any, *, structural: bool = False) -> list[str]:
    """Every problem with an event's settings, as "key: what is wrong" (empty when they are fine)."""
    try:
        fields = settings_fields(rules)
    except HandInputError as error:
        return [Text(error.template, **error.params)]
    problems = [
        Text(gettext_noop("%(key)s: %(problem)s"), key=key, problem=message) if key else message
        for key, message in check_settings(settings, fields, structural=STRUCTURAL if structural else ())
    ]
    if not problems and isinstance(settings, Mapping):
        problems.extend(registry.rule_set(rules, settings).settings_problems())
    return problems


def current(rules: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Every setting's value, defaults filled in, by dotted key."""
    return {f.key: value_of(settings, f) for f in settings_fields(rules)}


def appeal_fee(tournament: Any) -> int:
    """The fee an appeal must come with (MCR rule 94d), the event's ``appeals.fee`` or the book's default."""
    value = value_of(tournament.settings, appeal_settings(tournament.rules)[0])
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def team_best(tournament: Any) -> int:
    """The event's ``teams.best``: how many members count per team in the team standings (0: all)."""
    value = lookup(tournament.settings, "teams.best", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
