"""A rehearsal: a marked copy of an event that the organiser plays through before the day (with simulated
referees, ``manage.py play_rehearsal``) and throws away, while the real event stays as it was.

The copy has the event's settings, its registered players (the same people, not new records), its staff, its
sessions, the seating made so far and the pairs kept apart; no results, PINs or self-registrations. It is marked by
``Tournament.rehearsal_of`` and can never be published (``tournaments.release``), so every public page, fragment
and API answer treats it as a draft (404), no player's history counts it (``scoring.player_history``) and the EMA
results file refuses it (``scoring.exports.ema``). Both actions are logged in the real event's audit log too,
without redrawing its public pages (nothing of them changes)."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import transaction
from django.utils.translation import gettext

from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.field_limits import max_length
from tournaments.models import EventRole, KeptApart, Registration, Role, Round, Seat, Table, Tournament

SUFFIX = "rehearsal"
SIMULATED_REFEREES = 2  # one enters a table's hands, the other confirms them (rule 72: a second person)


def simulated_referee_names(rehearsal: Tournament) -> list[str]:
    """The logins of the rehearsal's simulated referees (``scoring.services.simulated_referees``): made for
    it alone, without a password, and deleted with it."""
    return [f"rehearsal-{rehearsal.pk}-referee-{n}" for n in range(1, SIMULATED_REFEREES + 1)]


def _free_slug(slug: str) -> str:
    """``<slug>-rehearsal``, then ``-rehearsal-2``... (the slug column's length kept)."""
    limit = max_length(Tournament, "slug")
    number = 1
    while True:
        tail = f"-{SUFFIX}" if number == 1 else f"-{SUFFIX}-{number}"
        candidate = slug[: limit - len(tail)] + tail
        if not Tournament.objects.filter(slug=candidate).exists():
            return candidate
        number += 1


def _rehearsal_name(name: str) -> str:
    tail = f" ({SUFFIX})"
    limit = max_length(Tournament, "name")
    return name[: limit - len(tail)] + tail


def refuse_real(tournament: Tournament, what: str) -> None:
    """Only a rehearsal may be played by simulated referees or thrown away: a real event is refused."""
    if not tournament.is_rehearsal:
        raise ServiceError(
            gettext("%(name)s is a real event, not a rehearsal: %(what)s is only for a rehearsal copy.")
            % {"name": tournament.name, "what": what},
            code="not_rehearsal",
        )


def _copy_event(original: Tournament, acting_user: User) -> Tournament:
    return Tournament.objects.create(
        name=_rehearsal_name(original.name),
        slug=_free_slug(original.slug),
        rules=original.rules,
        start_date=original.start_date,
        end_date=original.end_date,
        num_sessions=original.num_sessions,
        hands_per_session=original.hands_per_session,
        session_minutes=original.session_minutes,
        settings=json.loads(json.dumps(original.settings)),  # its own dict: the original's stays as it is
        standings_frozen_after=original.standings_frozen_after,
        time_zone=original.time_zone,
        created_by=acting(acting_user),
        rehearsal_of=original,
    )


def _copy_people(original: Tournament, copy: Tournament, acting_user: User) -> dict[int, Registration]:
    """The staff (the same people rehearse their roles) and the registrations; the one who asked for the copy
    organises it. Returns the copy's registration for each of the original's registration ids."""
    roles = {(role.user_id, role.role) for role in EventRole.objects.filter(tournament=original)}
    user = acting(acting_user)
    if user is not None:
        roles.add((user.pk, Role.ORGANISER))
    EventRole.objects.bulk_create(
        EventRole(tournament=copy, user_id=user_id, role=role) for user_id, role in sorted(roles)
    )
    originals = list(Registration.objects.filter(tournament=original).order_by("pk"))
    copies = Registration.objects.bulk_create(
        Registration(
            tournament=copy,
            player_id=registration.player_id,
            code=registration.code,
            team=registration.team,
            checked_in=registration.checked_in,
            is_substitute=registration.is_substitute,
            fixed_table=registration.fixed_table,
            withdrawn_at=registration.withdrawn_at,
            consent_version=registration.consent_version,
            consent_at=registration.consent_at,
            public_name=registration.public_name,
        )
        for registration in originals
    )
    return {registration.pk: made for registration, made in zip(originals, copies, strict=True)}


def _copy_seating(original: Tournament, copy: Tournament, registrations: dict[int, Registration]) -> int:
    """Every session, and the tables and seats of those seated so far (results stay behind). Returns the
    number of seated sessions."""
    seated = 0
    for round_ in Round.objects.filter(tournament=original).order_by("number"):
        made = Round.objects.create(
            tournament=copy,
            number=round_.number,
            seated_at=round_.seated_at,
            seating_published_at=round_.seating_published_at,
        )
        tables = list(round_.tables.order_by("number"))
        if tables:
            seated += 1
        new_tables = Table.objects.bulk_create(
            Table(round=made, number=table.number, totals_only=table.totals_only) for table in tables
        )
        by_table = {table.pk: new for table, new in zip(tables, new_tables, strict=True)}
        Seat.objects.bulk_create(
            Seat(
                table=by_table[seat.table_id],
                round=made,
                registration=registrations[seat.registration_id],
                wind=seat.wind,
            )
            for seat in Seat.objects.filter(round=round_).order_by("pk")
        )
    return seated


def _copy_kept_apart(original: Tournament, copy: Tournament, registrations: dict[int, Registration]) -> None:
    """The pairs the seating keeps apart, so a rehearsal's seating is made as the real event's will be; each
    pair stored lowest key first, as ``KeptApart`` requires."""
    pairs = []
    for pair in KeptApart.objects.filter(tournament=original):
        first, second = sorted(
            (registrations[pair.first_id], registrations[pair.second_id]), key=lambda r: r.pk
        )
        pairs.append(KeptApart(tournament=copy, first=first, second=second))
    KeptApart.objects.bulk_create(pairs)


@transaction.atomic
def copy_as_rehearsal(original: Tournament, *, acting_user: User) -> Tournament:
    """Make a rehearsal copy of ``original`` (a real event), logged in both; the original is only read."""
    original = Tournament.objects.select_for_update().get(pk=original.pk)
    if original.is_rehearsal:
        raise ServiceError(
            gettext("This is already a rehearsal: copy the real event instead."),
            code="rehearsal_of_rehearsal",
        )
    copy = _copy_event(original, acting_user)
    registrations = _copy_people(original, copy, acting_user)
    seated = _copy_seating(original, copy, registrations)
    _copy_kept_apart(original, copy, registrations)
    summary = f"Rehearsal copy {copy.slug} made ({len(registrations)} players, {seated} sessions seated)"
    audit(
        copy, acting_user, AuditAction.REHEARSAL_COPY, f"Copied from {original.slug}", original=original.slug
    )
    audit(original, acting_user, AuditAction.REHEARSAL_COPY, summary, public_pages=False, rehearsal=copy.slug)
    return copy


@transaction.atomic
def throw_away(rehearsal: Tournament, *, acting_user: User) -> str:
    """Delete a rehearsal copy and everything in it (results, audit rows kept under its slug); logged in the
    real event. A real event is refused. Returns the real event's slug."""
    rehearsal = Tournament.objects.select_for_update().get(pk=rehearsal.pk)
    refuse_real(rehearsal, gettext("throwing away"))
    original = rehearsal.rehearsal_of
    assert original is not None  # a rehearsal has its original (refuse_real)
    slug = rehearsal.slug
    audit(rehearsal, acting_user, AuditAction.REHEARSAL_DELETE, f"Rehearsal {slug} thrown away")
    names = simulated_referee_names(rehearsal)
    rehearsal.delete()
    # Its simulated referees go with it (their roles went with the event; a login that has one elsewhere stays).
    simulated = get_user_model().objects.filter(username__in=names, event_roles__isnull=True)
    simulated.filter(password__startswith=UNUSABLE_PASSWORD_PREFIX).delete()  # never a person's own login
    audit(
        original,
        acting_user,
        AuditAction.REHEARSAL_DELETE,
        f"Rehearsal copy {slug} thrown away",
        public_pages=False,
        rehearsal=slug,
    )
    return original.slug


def played_through(rehearsal: Tournament, summary: str, *, acting_user: User) -> None:
    """Log a simulated play-through in the rehearsal (``manage.py play_rehearsal``)."""
    refuse_real(rehearsal, gettext("playing with simulated referees"))
    check_open(rehearsal)
    audit(rehearsal, acting_user, AuditAction.REHEARSAL_PLAYED, summary)
