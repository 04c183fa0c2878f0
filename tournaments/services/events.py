"""An event's own rows: creating it with its sessions, its roles, its settings (and the rule set's card),
and which tables may enter totals only. Every write is in a transaction, attributed to ``acting_user``
and written to the audit log."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import get_language, gettext

from scoring.rules import registry
from scoring.rules.errors import HandInputError
from scoring.rules.finals import cut_of
from scoring.rules.settings import lookup, with_value
from tournaments import event_settings
from tournaments.addresses import address_from_name
from tournaments.audit import AuditAction, User, acting, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.event_settings import settings_problems
from tournaments.field_limits import check_length
from tournaments.messages import rule_sentence, text_message
from tournaments.models import EventRole, Role, Round, Table, Tournament
from tournaments.services.seating import round_results_exist
from tournaments.venue_time import default_time_zone, zone_problem

MAX_SESSIONS = 50


@dataclass(frozen=True)
class EventDetails:
    """What the organiser gives to create an event (checked before anything is written)."""

    name: str
    slug: str = ""
    rules: str = registry.DEFAULT
    start_date: date | None = None
    end_date: date | None = None
    num_sessions: int = 4
    hands_per_session: int | None = 16
    session_minutes: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    time_zone: str = field(default_factory=default_time_zone)


def _check_event_details(details: EventDetails) -> None:
    if not details.name.strip():
        raise ServiceError(gettext("The event needs a name."), code="name_required")
    check_length(Tournament, "name", details.name.strip(), label=gettext("The event's name"))
    check_length(Tournament, "slug", details.slug, label=gettext("The web address"))
    if details.rules not in registry.codes():
        raise ServiceError(
            gettext("Unknown rule set %(rules)s.") % {"rules": repr(details.rules)}, code="bad_rules"
        )
    if not 1 <= details.num_sessions <= MAX_SESSIONS:
        raise ServiceError(
            gettext("Sessions must be between 1 and %(max_sessions)s.") % {"max_sessions": MAX_SESSIONS},
            code="bad_sessions",
        )
    if details.hands_per_session is None and details.session_minutes is None:
        raise ServiceError(
            gettext("Set hands per session or a time limit per session."), code="session_length"
        )
    if details.hands_per_session is not None and not 1 <= details.hands_per_session <= 64:
        raise ServiceError(gettext("Hands per session must be between 1 and 64."), code="bad_hands")
    if details.rules in registry.codes():
        problem = registry.rule_set_class(details.rules)().hands_per_session_problem(
            details.hands_per_session
        )
        if problem:
            raise ServiceError(rule_sentence(problem), code="bad_hands")
    if details.start_date and details.end_date and details.end_date < details.start_date:
        raise ServiceError(gettext("The event cannot end before it starts."), code="bad_dates")
    problem = zone_problem(details.time_zone)
    if problem:
        raise ServiceError(problem, code="bad_time_zone")


@transaction.atomic
def create_tournament(details: EventDetails, *, acting_user: User) -> Tournament:
    """Create an event with its sessions; the creator becomes its organiser."""
    _check_event_details(details)
    slug = details.slug or address_from_name(details.name.strip())
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(
            gettext("An event with the address %(slug)s already exists.") % {"slug": repr(slug)},
            code="slug_taken",
        )
    creator = acting(acting_user)
    settings = {**registry.rule_set_class(details.rules).default_settings(), **details.settings}
    problems = settings_problems(details.rules, settings)
    if problems:
        raise ServiceError(
            gettext("Settings: %(problems)s.") % {"problems": text_message(problems[0])}, code="bad_settings"
        )
    tournament = Tournament.objects.create(
        name=details.name.strip(),
        slug=slug,
        rules=details.rules,
        start_date=details.start_date,
        end_date=details.end_date,
        num_sessions=details.num_sessions,
        hands_per_session=details.hands_per_session,
        session_minutes=details.session_minutes,
        settings=settings,
        time_zone=details.time_zone,
        created_by=creator,
    )
    Round.objects.bulk_create(
        Round(tournament=tournament, number=n) for n in range(1, details.num_sessions + 1)
    )
    if creator is not None:
        EventRole.objects.create(tournament=tournament, user=creator, role=Role.ORGANISER)
    audit(tournament, acting_user, AuditAction.CREATE_EVENT, f"Created {tournament.name}", slug=slug)
    return tournament


@transaction.atomic
def grant_role(tournament: Tournament, user: AbstractBaseUser, role: str, *, acting_user: User) -> None:
    """Give ``user`` a role in the event (granting it twice changes nothing but the log)."""
    EventRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    audit(tournament, acting_user, AuditAction.GRANT_ROLE, f"{user} is {role}", user=str(user), role=role)


@transaction.atomic
def revoke_role(event_role: EventRole, *, acting_user: User) -> None:
    """Take a role back (logged); an event always keeps at least one organiser."""
    tournament = event_role.tournament
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    organisers = EventRole.objects.filter(tournament=tournament, role=Role.ORGANISER)
    if event_role.role == Role.ORGANISER and organisers.count() <= 1:
        raise ServiceError(
            gettext("An event needs at least one organiser: grant the role to someone else first."),
            code="last_organiser",
        )
    deleted, _ = EventRole.objects.filter(pk=event_role.pk).delete()
    if deleted:
        audit(
            tournament,
            acting_user,
            AuditAction.REVOKE_ROLE,
            f"{event_role.user} is no longer {event_role.role}",
            user=str(event_role.user),
            role=event_role.role,
        )


@transaction.atomic
def set_totals_only(table: Table, allowed: bool, *, acting_user: User) -> None:
    """Let a table enter its session's totals without the hands (a table that kept score on paper)."""
    Table.objects.filter(pk=table.pk).update(totals_only=allowed)
    table.totals_only = allowed
    audit(
        table.round.tournament,
        acting_user,
        AuditAction.TOTALS_ONLY,
        f"Session {table.round.number} table {table.number}: totals only {'allowed' if allowed else 'off'}",
    )


# --- settings ------------------------------------------------------------------------------------


def _check_not_cut(tournament: Tournament, key: str) -> None:
    """The finals settings stay as they were once the cut is made: it keeps its own finalists, seated by
    them (``tournaments.services.finals``); undo the cut to change them."""
    if key.startswith("finals.") and cut_of(tournament.settings) is not None:
        raise ServiceError(
            gettext(
                "The cut has been made: the finals settings can no longer change (the cut keeps its own "
                "finalists). Undo the cut on the Finals page to change them."
            ),
            code="cut_made",
        )


@transaction.atomic
def update_settings(tournament: Tournament, changes: dict[str, Any], *, acting_user: User) -> Tournament:
    """Change settings by dotted key (``{"seating.time_limit": 8}``), checked against the event's schema
    (:mod:`tournaments.event_settings`). The event's row is locked so two organisers' edits do not
    overwrite each other; settings that rescore results cannot change once results are entered."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    new = dict(locked.settings)
    for key, value in changes.items():
        setting = event_settings.field(locked.rules, key)
        if setting is None:
            raise ServiceError(
                gettext("%(key)s is not a setting of a %(label)s event.")
                % {"key": key, "label": locked.rule_set.label_in(get_language())},
                code="not_a_setting",
            )
        if lookup(locked.settings, key) != value:
            _check_not_cut(locked, key)
        if (
            setting.locked_after_results
            and lookup(locked.settings, key) != value
            and round_results_exist(locked)
        ):
            raise ServiceError(
                gettext("Results have been entered; %(label)s can no longer change.")
                % {"label": setting.label.lower()},
                code="has_results",
            )
        new = with_value(new, key, value)
    problems = settings_problems(locked.rules, new)
    if problems:
        raise ServiceError(rule_sentence(problems[0]), code="bad_settings")
    tournament.settings = new
    if new == locked.settings:
        return tournament
    locked.settings = new
    locked.save(update_fields=["settings"])
    bump_standings(locked)
    summary = ", ".join(
        f"{key} = {value if len(str(value)) < 40 else '(file)'}" for key, value in changes.items()
    )
    audit(locked, acting_user, AuditAction.SETTINGS, f"Settings: {summary}", keys=sorted(changes))
    return tournament


@transaction.atomic
def set_time_zone(tournament: Tournament, name: str, *, acting_user: User) -> Tournament:
    """The venue's clock (an IANA name, ``tournaments/venue_time.py``): every page, print and export shows
    the event's times in it from now on. Logged, and every public page and print is redrawn (their times
    change)."""
    problem = zone_problem(name)
    if problem:
        raise ServiceError(problem, code="bad_time_zone")
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.time_zone = name
    if locked.time_zone == name:
        return tournament
    before = locked.time_zone
    locked.time_zone = name
    locked.save(update_fields=["time_zone"])
    bump_standings(locked)  # the prints' made-at lines and every public page's times
    audit(
        locked,
        acting_user,
        AuditAction.TIME_ZONE,
        f"Time zone: {before} -> {name}",
        before=before,
        after=name,
    )
    return tournament


def set_seating_options(
    tournament: Tournament, *, substitute_policy: str, swiss: bool, time_limit: float, acting_user: User
) -> None:
    """The seating options in one change, checked like every setting (``update_settings``)."""
    update_settings(
        tournament,
        {
            "seating.substitute_policy": substitute_policy,
            "seating.swiss": swiss,
            "seating.time_limit": time_limit,
        },
        acting_user=acting_user,
    )


def load_event_card(tournament: Tournament, content: bytes, *, acting_user: User) -> str:
    """Load the year's card (organisers own it; the app ships only made-up samples) from a JSON file."""

    rules = tournament.rule_set
    if not rules.card_max_bytes:
        raise ServiceError(gettext("These rules have no card to load."), code="no_card")
    if len(content) > rules.card_max_bytes:
        raise ServiceError(
            gettext("The card file has %(count)s bytes; at most %(max_card_bytes)s are accepted.")
            % {"count": format(len(content), ","), "max_card_bytes": format(rules.card_max_bytes, ",")},
            code="bad_card",
        )
    try:
        data = json.loads(content.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ServiceError(gettext("The card file is not UTF-8 text."), code="bad_card") from None
    except RecursionError:
        raise ServiceError(
            gettext("The card file nests lists or objects too deeply."), code="bad_card"
        ) from None
    except ValueError as error:  # bad JSON, or a number of more than 4,300 digits
        raise ServiceError(
            gettext("The card file is not valid JSON (%(error)s).") % {"error": str(error)[:200]},
            code="bad_card",
        ) from None
    try:
        card = rules.load_card(data)
    except HandInputError as error:
        raise ServiceError(
            gettext("The card file has a problem: %(message)s") % {"message": error.message}, code="bad_card"
        ) from None
    update_settings(tournament, {"card": data}, acting_user=acting_user)
    name: str = card.name
    return name
