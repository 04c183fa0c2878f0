"""Registration by the players: the organiser opens it with a capacity and a closing time, players enter
themselves at ``/e/<event>/register/``, entries beyond the capacity wait and move up, first come first
served, when a place frees (the desk's own registrations use places too: ``places_taken``); the organiser approves (the entry becomes a ``Registration`` through
``tournaments.services.registrations.add_registration``, as at the desk), refuses, and marks fees paid.

Every write is in a transaction and audited; a player's own writes are attributed to nobody. Bots and
floods are refused before anything is stored: a signed timestamp in the form (the time trap), a field
people never see (the honeypot, checked by the view) and a per-address count in the cache."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from players.folding import fold
from players.models import Player
from tournaments import desk
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.consent import Consent
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import Entry, EntryStatus, EntryWindow, Tournament
from tournaments.services.registrations import PlayerRow, add_registration, clean_player_row
from tournaments.venue_time import venue_time

logger = logging.getLogger(__name__)

TIME_TRAP_SECONDS = 3.0
"""A person needs more than this to fill the form in; a script posting at once is refused."""
STAMP_MAX_AGE = 24 * 60 * 60
STAMP_SALT = "tournaments.entries.stamp"
LINK_SALT = "tournaments.entries.link"
HOLDING = (EntryStatus.APPLIED, EntryStatus.APPROVED)
"""Entries that hold one of the places (the capacity)."""
ACTIVE = (EntryStatus.APPLIED, EntryStatus.APPROVED, EntryStatus.WAITING)


@dataclass(frozen=True)
class EntryDetails:
    """What a player types in the registration form."""

    family_name: str
    given_name: str
    email: str
    country: str = ""
    ema_id: str = ""
    team: str = ""


# -- The organiser's window ----------------------------------------------------------------------------------


@transaction.atomic
def open_registration(
    tournament: Tournament, *, capacity: int, closes_at: datetime, acting_user: User
) -> EntryWindow:
    """Open (or change) registration by the players; a larger capacity moves the waiting list up."""
    if capacity < 1:
        raise ServiceError(gettext("The capacity must be at least 1."), code="bad_capacity")
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    window, _ = EntryWindow.objects.update_or_create(
        tournament=tournament, defaults={"opened": True, "capacity": capacity, "closes_at": closes_at}
    )
    audit(
        tournament,
        acting_user,
        AuditAction.ENTRY_WINDOW,
        f"Registration by the players open: {capacity} places until {venue_time(closes_at, tournament).isoformat()}",
        capacity=capacity,
        closes_at=closes_at.isoformat(),
    )
    _move_up(tournament, window)
    return window


@transaction.atomic
def close_registration(tournament: Tournament, *, acting_user: User) -> None:
    """No more entries (those received are kept, and the waiting list still moves up)."""
    if EntryWindow.objects.filter(tournament=tournament, opened=True).update(opened=False):
        audit(tournament, acting_user, AuditAction.ENTRY_WINDOW, "Registration by the players closed")


def closed_reason(tournament: Tournament, *, now: datetime | None = None) -> str:
    """Why the event takes no entries now ("" while it does)."""
    window = EntryWindow.objects.filter(tournament=tournament).first()
    if window is None or not window.opened or tournament.archived_at is not None:
        return gettext("Registration for this event is not open.")
    if (now or timezone.now()) >= window.closes_at:
        return gettext("Registration for this event closed on %(closes_at)s.") % {
            "closes_at": venue_time(window.closes_at, tournament).strftime("%Y-%m-%d %H:%M")
        }
    return ""


# -- Bots and floods -----------------------------------------------------------------------------------------


def form_stamp(now: float | None = None) -> str:
    """The signed time at which the form was shown (the time trap's hidden field)."""
    return signing.dumps(time.time() if now is None else now, salt=STAMP_SALT)


def check_stamp(stamp: str, *, now: float | None = None) -> None:
    """Refuse a form sent back sooner than a person can fill it in, or with a stamp that is not ours."""
    try:
        shown = float(signing.loads(stamp, salt=STAMP_SALT, max_age=STAMP_MAX_AGE))
    except (signing.BadSignature, TypeError, ValueError):
        raise ServiceError(
            gettext("The form has expired or was not sent by this site: please fill it in again."),
            code="bad_stamp",
        ) from None
    if (time.time() if now is None else now) - shown < TIME_TRAP_SECONDS:
        raise ServiceError(
            gettext(
                "The form was sent back too quickly to have been filled in by a person: please try again."
            ),
            code="too_fast",
        )


def check_flood(address: str) -> None:
    """Count one attempt from this address; refuse beyond ``ENTRY_ADDRESS_LIMIT`` an hour."""
    limit: int = settings.ENTRY_ADDRESS_LIMIT
    key = f"entries:address:{address}"
    cache.add(key, 0, timeout=settings.ENTRY_ADDRESS_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between the two calls: start again
        cache.set(key, 1, timeout=settings.ENTRY_ADDRESS_WINDOW)
        count = 1
    if count > limit:
        raise ServiceError(
            gettext("Too many entries were sent from your address: please try again later."), code="flood"
        )


# -- A player's entry ----------------------------------------------------------------------------------------


def _clean(details: EntryDetails) -> tuple[PlayerRow, str]:
    family = " ".join(details.family_name.split())
    given = " ".join(details.given_name.split())
    if not family or not given:
        raise ServiceError(gettext("Give both your family name and your given names."), code="name_required")
    row = clean_player_row(
        PlayerRow(
            name=f"{given} {family}",
            family_name=family,
            given_name=given,
            country=details.country,
            ema_id=details.ema_id,
            team=details.team,
        ),
        country_names=True,
    )
    email = details.email.strip()
    check_length(Entry, "email", email, label=gettext("email address"))
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(gettext("Enter a valid email address."), code="bad_email") from None
    return row, email


def _check_duplicates(tournament: Tournament, row: PlayerRow, email: str) -> None:
    active = tournament.entries.filter(status__in=ACTIVE)
    if active.filter(email__iexact=email).exists():
        raise ServiceError(
            gettext(
                "An entry with this email address is already in: see the link in its confirmation email."
            ),
            code="duplicate_email",
        )
    if row.ema_id and (
        active.filter(ema_id=row.ema_id).exists()
        or tournament.registrations.filter(player__ema_id=row.ema_id).exists()
    ):
        raise ServiceError(
            gettext("EMA id %(ema_id)s is already entered in this event.") % {"ema_id": row.ema_id},
            code="duplicate_ema_id",
        )
    wanted = fold(row.name)
    if any(fold(entry.name) == wanted for entry in active):
        raise ServiceError(
            gettext("%(name)s is already entered in this event.") % {"name": row.name}, code="duplicate_name"
        )


@transaction.atomic
def submit_entry(tournament: Tournament, details: EntryDetails, *, now: datetime | None = None) -> Entry:
    """Store a player's entry: a place while there is one, else the waiting list. The same EMA number as an
    earlier player of the site links the entry to that player (the desk finds players the same way)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)  # one arrival at a time
    reason = closed_reason(tournament, now=now)
    if reason:
        raise ServiceError(reason, code="closed")
    row, email = _clean(details)
    _check_duplicates(tournament, row, email)
    consent = Consent.now()  # the entry form shows the notice (templates/tournaments/register.html)
    window = EntryWindow.objects.get(tournament=tournament)
    taken = places_taken(tournament)
    last = tournament.entries.aggregate(last=Max("position"))["last"] or 0
    entry = Entry.objects.create(
        tournament=tournament,
        position=last + 1,
        status=EntryStatus.APPLIED if taken < window.capacity else EntryStatus.WAITING,
        family_name=row.family_name,
        given_name=row.given_name,
        country=row.country,
        ema_id=row.ema_id,
        team=row.team,
        email=email,
        player=Player.objects.filter(ema_id=row.ema_id).first() if row.ema_id else None,
        consent_version=consent.version,
        consent_at=consent.at,
    )
    audit(
        tournament,
        None,
        AuditAction.ENTRY,
        f"Entry {entry.position}: {entry.name} ({entry.status})"
        + (f", recognised as player {entry.player.pk}" if entry.player else ""),
        public_pages=False,
        entry=entry.pk,
        status=entry.status,
    )
    return entry


def places_taken(tournament: Tournament) -> int:
    """The places in use: entries that hold one (``HOLDING``; an approved entry is its registration) and
    the players the desk registered itself (not withdrawn, not a substitute). A capacity of 8 with 3 desk
    registrations leaves 5 places for the players' own entries."""
    entries = tournament.entries.filter(status__in=HOLDING).count()
    at_desk = tournament.registrations.filter(
        entry__isnull=True, withdrawn_at__isnull=True, is_substitute=False
    ).count()
    return entries + at_desk


def waiting_number(entry: Entry) -> int | None:
    """The entry's place on the waiting list (1 is next), or None when it is not waiting."""
    if entry.status != EntryStatus.WAITING:
        return None
    return entry.tournament.entries.filter(status=EntryStatus.WAITING, position__lte=entry.position).count()


def _move_up(tournament: Tournament, window: EntryWindow | None = None) -> list[Entry]:
    """Fill the free places from the waiting list, in order of arrival; each move is logged."""
    window = window or EntryWindow.objects.filter(tournament=tournament).first()
    if window is None:
        return []
    free = window.capacity - places_taken(tournament)
    moved = list(tournament.entries.filter(status=EntryStatus.WAITING).order_by("position")[: max(free, 0)])
    for entry in moved:
        entry.status = EntryStatus.APPLIED
        entry.save(update_fields=["status"])
        audit(
            tournament,
            None,
            AuditAction.ENTRY_MOVED_UP,
            f"Entry {entry.position}: {entry.name} moved up from the waiting list",
            public_pages=False,
            entry=entry.pk,
        )
    return moved


@transaction.atomic
def fill_places(tournament: Tournament) -> list[Entry]:
    """Move the waiting list up into places the desk freed (a player it registered withdrawn), while
    registration is open: after it closes, the organiser decides at the desk who else plays. Returns the
    entries that moved up (to tell them, ``notify_moved_up``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if closed_reason(tournament):
        return []
    return _move_up(tournament)


def _locked(entry: Entry) -> Entry:
    Tournament.objects.select_for_update().filter(pk=entry.tournament_id).first()
    entry = Entry.objects.select_related("tournament", "registration").get(pk=entry.pk)
    check_open(entry.tournament)  # an archived event changes no more
    return entry


@transaction.atomic
def withdraw_entry(entry: Entry, *, acting_user: User = None) -> list[Entry]:
    """The player withdraws (from their own page): an approved player is withdrawn at the desk too, and
    the place goes to the first on the waiting list. Returns the entries that moved up."""
    entry = _locked(entry)
    if entry.status not in ACTIVE:
        raise ServiceError(gettext("This entry was already withdrawn or refused."), code="not_active")
    held = entry.status in HOLDING
    if entry.registration is not None:
        desk.set_withdrawn(entry.registration, True, acting_user=acting_user, reason="entry withdrawn")
    entry.status = EntryStatus.WITHDRAWN
    entry.save(update_fields=["status"])
    audit(
        entry.tournament,
        acting_user,
        AuditAction.WITHDRAW_ENTRY,
        f"Entry {entry.position}: {entry.name} withdrawn",
        public_pages=False,
        entry=entry.pk,
    )
    return _move_up(entry.tournament) if held else []


@transaction.atomic
def approve_entry(entry: Entry, *, acting_user: User) -> Entry:
    """The organiser accepts an entry that holds a place: it becomes a registration the desk, seating and
    standings see as any player's (the EMA number finds the site's earlier player, never a copy)."""
    entry = _locked(entry)
    if entry.status != EntryStatus.APPLIED:
        raise ServiceError(
            gettext("Only an entry that holds a place can be approved (this one is: %(status)s).")
            % {"status": entry.get_status_display()},
            code="not_applied",
        )
    row = PlayerRow(
        name=entry.name,
        family_name=entry.family_name,
        given_name=entry.given_name,
        country=entry.country,
        ema_id=entry.ema_id,
        team=entry.team,
    )
    consent = Consent(entry.consent_version, entry.consent_at) if entry.consent_at else None
    entry.registration = add_registration(entry.tournament, row, consent=consent)
    entry.status = EntryStatus.APPROVED
    entry.save(update_fields=["registration", "status"])
    bump_standings(entry.tournament)
    audit(
        entry.tournament,
        acting_user,
        AuditAction.APPROVE_ENTRY,
        f"Entry {entry.position}: {entry.name} approved as {entry.registration.code}",
        entry=entry.pk,
        code=entry.registration.code,
    )
    return entry


@transaction.atomic
def refuse_entry(entry: Entry, *, acting_user: User) -> list[Entry]:
    """The organiser refuses an entry not yet approved; a place it held goes to the waiting list."""
    entry = _locked(entry)
    if entry.status not in (EntryStatus.APPLIED, EntryStatus.WAITING):
        raise ServiceError(
            gettext("Only an entry not yet approved can be refused (this one is: %(status)s).")
            % {"status": entry.get_status_display()},
            code="not_refusable",
        )
    held = entry.status == EntryStatus.APPLIED
    entry.status = EntryStatus.REFUSED
    entry.save(update_fields=["status"])
    audit(
        entry.tournament,
        acting_user,
        AuditAction.REFUSE_ENTRY,
        f"Entry {entry.position}: {entry.name} refused",
        public_pages=False,
        entry=entry.pk,
    )
    return _move_up(entry.tournament) if held else []


@transaction.atomic
def set_fee_paid(entry: Entry, paid: bool, *, acting_user: User) -> Entry:
    """The organiser marks the entry fee paid (or not)."""
    entry = _locked(entry)
    if entry.fee_paid != paid:
        entry.fee_paid = paid
        entry.save(update_fields=["fee_paid"])
        audit(
            entry.tournament,
            acting_user,
            AuditAction.ENTRY_FEE,
            f"Entry {entry.position}: {entry.name} fee {'paid' if paid else 'not paid'}",
            public_pages=False,
            entry=entry.pk,
            paid=paid,
        )
    return entry


# -- The player's private link and emails ---------------------------------------------------------------------


def entry_token(entry: Entry) -> str:
    """The signed part of the player's private link (no account needed: whoever holds it sees the entry)."""
    return signing.dumps([entry.tournament_id, entry.pk], salt=LINK_SALT)


def entry_from_token(tournament: Tournament, token: str) -> Entry | None:
    """The entry a private link names, or None for a link that is not ours or not this event's."""
    try:
        event_id, entry_id = signing.loads(token, salt=LINK_SALT)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    if event_id != tournament.pk:
        return None
    return Entry.objects.filter(tournament=tournament, pk=entry_id).first()


def _status_line(entry: Entry) -> str:
    if entry.status == EntryStatus.WAITING:
        return gettext(
            "The event is full: you are number %(number)s on the waiting list, and you move up automatically "
            "when someone withdraws."
        ) % {"number": waiting_number(entry)}
    return gettext("You have a place; the organiser will confirm your entry.")


def send_entry_email(entry: Entry, link: str, *, moved_up: bool = False) -> bool:
    """The confirmation (or "you moved up") email with the private link, through Django's email backend
    (``EMAIL_BACKEND`` in config/settings.py). A failure is logged and reported, never raised: the entry
    is stored either way and its page shows the link."""
    subject = (
        gettext("A place for you at %(event)s") if moved_up else gettext("Your entry for %(event)s")
    ) % {"event": entry.tournament.name}
    body = "\n\n".join(
        [
            gettext("Hello %(name)s,") % {"name": entry.given_name},
            gettext("A place freed up and you moved up from the waiting list.") if moved_up else "",
            _status_line(entry),
            gettext("See or withdraw your entry here: %(link)s") % {"link": link},
        ]
    ).replace("\n\n\n\n", "\n\n")
    try:
        send_mail(subject, body, None, [entry.email])
    except Exception:  # an SMTP server away must not lose the entry
        logger.exception("entry email to entry %s failed", entry.pk)
        return False
    return True


def notify_moved_up(moved: list[Entry], link: Callable[[Entry], str]) -> None:
    """Tell each player who moved up from the waiting list (after the transaction that moved them)."""
    for entry in moved:
        send_entry_email(entry, link(entry), moved_up=True)
