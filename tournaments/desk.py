"""The registration desk: register (with a warning on a probable duplicate), edit, withdraw and
reinstate a player, and check players in by the code on their seat slip or by name; players check
themselves in (their own page, the kiosk) while the organiser's self check-in window is open.

Every write is a service in a transaction, attributed and logged, like ``tournaments.services``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from anyascii import anyascii
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from players.folding import fold, matches, query_words
from players.models import Player
from tournaments import results
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import Registration, Tournament
from tournaments.services.registrations import PlayerRow, clean_player_row, register_player, set_checked_in
from tournaments.services.seating import round_has_results


@dataclass(frozen=True)
class Duplicate:
    """A registration that looks like the person being registered, and why."""

    registration: Registration
    reason: str


def probable_duplicates(
    tournament: Tournament, row: PlayerRow, *, exclude: Registration | None = None
) -> list[Duplicate]:
    """Registrations of this event with the same name (ignoring case and accents) or EMA number."""
    wanted = fold(row.name)
    found = []
    for registration in tournament.registrations.select_related("player"):
        if exclude is not None and registration.pk == exclude.pk:
            continue
        if row.ema_id and registration.player.ema_id == row.ema_id:
            found.append(Duplicate(registration, f"the same EMA number {row.ema_id}"))
        elif fold(registration.player.name) == wanted:
            found.append(Duplicate(registration, "the same name"))
    return found


def _describe(duplicates: list[Duplicate]) -> str:
    return "; ".join(
        f"{d.registration.player.name} ({d.registration.code}) has {d.reason}" for d in duplicates
    )


@transaction.atomic
def register(
    tournament: Tournament, row: PlayerRow, *, register_anyway: bool = False, acting_user: User
) -> Registration:
    """Register one player at the desk. A probable duplicate is refused with code ``probable_duplicate``
    unless the organiser confirmed "register anyway"; the same EMA number is the same person, so it is
    always refused (EMA numbers are unique)."""
    cleaned = clean_player_row(row, country_names=True)
    duplicates = probable_duplicates(tournament, cleaned)
    same_ema = [d for d in duplicates if d.reason.startswith("the same EMA")]
    if same_ema:
        raise ServiceError(
            gettext(
                "%(same_ema)s: an EMA number belongs to one person, who is already registered. "
                "Check the number."
            )
            % {"same_ema": _describe(same_ema)},
            code="duplicate_ema_id",
        )
    if duplicates and not register_anyway:
        raise ServiceError(
            gettext(
                "Probably already registered: %(duplicates)s. Nothing was saved; tick “Register "
                "anyway” if this is a different person."
            )
            % {"duplicates": _describe(duplicates)},
            code="probable_duplicate",
        )
    return register_player(tournament, cleaned, acting_user=acting_user)


def _details(registration: Registration) -> dict[str, str]:
    player = registration.player
    return {
        "name": player.name,
        "family_name": player.family_name,
        "given_name": player.given_name,
        "country": player.country,
        "ema_id": player.ema_id,
        "team": registration.team,
        "public_name": registration.public_name,
    }


PERSON_FIELDS = ("name", "family_name", "given_name", "country", "ema_id")


def _refuse_person_change_in_rehearsal(registration: Registration, cleaned: PlayerRow) -> None:
    """A rehearsal copy shares its players' records with the real event (``tournaments.services.rehearsals``):
    a person's details changed there would change the real event, so only the team and public name may."""
    if not registration.tournament.is_rehearsal:
        return
    player = registration.player
    if any(getattr(player, key) != getattr(cleaned, key) for key in PERSON_FIELDS):
        raise ServiceError(
            gettext(
                "This is a rehearsal: a player's name, country and EMA number are the real event's. "
                "Correct them there."
            ),
            code="rehearsal_person",
        )


@transaction.atomic
def edit(registration: Registration, row: PlayerRow, *, acting_user: User) -> Registration:
    """Correct a player's name, family and given names, country, EMA number or team (the person's details
    change in every event they play, as they are one person)."""
    cleaned = clean_player_row(row, country_names=True)
    registration = (
        Registration.objects.select_for_update()
        .select_related("player", "tournament")
        .get(pk=registration.pk)
    )
    player = registration.player
    if cleaned.ema_id and Player.objects.filter(ema_id=cleaned.ema_id).exclude(pk=player.pk).exists():
        other = Player.objects.get(ema_id=cleaned.ema_id)
        raise ServiceError(
            gettext("EMA number %(ema_id)s already belongs to %(name)s. Check the number.")
            % {"ema_id": cleaned.ema_id, "name": other.name},
            code="ema_id_taken",
        )
    before = _details(registration)
    _refuse_person_change_in_rehearsal(registration, cleaned)
    player.name, player.country, player.ema_id = cleaned.name, cleaned.country, cleaned.ema_id
    player.family_name, player.given_name = cleaned.family_name, cleaned.given_name
    player.save(update_fields=["name", "family_name", "given_name", "country", "ema_id"])
    registration.team = cleaned.team
    registration.public_name = cleaned.public_name
    registration.save(update_fields=["team", "public_name"])
    after = _details(registration)
    changed = {key: [before[key], after[key]] for key in before if before[key] != after[key]}
    if changed:
        bump_standings(registration.tournament)  # names, public names and teams show in the standings
        audit(
            registration.tournament,
            acting_user,
            AuditAction.EDIT_PLAYER,
            f"Edited {player.name} ({registration.code}): {', '.join(changed)}",
            code=registration.code,
            changed=changed,
        )
    return registration


@transaction.atomic
def set_withdrawn(
    registration: Registration, withdrawn: bool, *, acting_user: User, reason: str = ""
) -> Registration:
    """Withdraw a player (kept in history with their results; no longer seated in later sessions nor
    ranked) or reinstate them. ``reason`` is added to the log line (a disqualification, MCR rule 89,
    withdraws through here: ``scoring.services.rulings``)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("player", "tournament")
        .get(pk=registration.pk)
    )
    if registration.withdrawn == withdrawn:
        return registration
    ruling = "" if withdrawn else results.source().disqualification(registration)
    if ruling:
        raise ServiceError(
            gettext(
                "%(name)s is disqualified (%(ruling)s): only a granted appeal reinstates them. "
                "Nothing was changed."
            )
            % {"name": registration.player.name, "ruling": ruling},
            code="disqualified",
        )
    registration.withdrawn_at = timezone.now() if withdrawn else None
    registration.save(update_fields=["withdrawn_at"])
    bump_standings(registration.tournament)
    audit(
        registration.tournament,
        acting_user,
        AuditAction.WITHDRAW if withdrawn else AuditAction.REINSTATE,
        f"{registration.player.name} ({registration.code}) {'withdrawn' if withdrawn else 'reinstated'}"
        + (f": {reason}" if reason else ""),
        code=registration.code,
    )
    return registration


def later_seatings(registration: Registration) -> list[int]:
    """Sessions without results yet in which the player is still seated (to be re-seated)."""
    numbers = []
    for seat in registration.seats.select_related("round").order_by("round__number"):
        if not round_has_results(seat.round):
            numbers.append(seat.round.number)
    return numbers


SLIP_URL = re.compile(r"/players/([^/?#\s]+)/?(?:[?#].*)?$")


def code_of(scanned: str) -> str:
    """The player code in what a scanner typed: the code itself, or the URL of the seat slip's QR
    code (``.../e/<event>/players/<code>/``)."""
    text = scanned.strip()
    match = SLIP_URL.search(text)
    return match.group(1) if match else text


def name_order(name: str) -> tuple[str, str]:
    """The desk's sort key: the name folded (``players.folding``) after transliteration, so accents sort
    with their letter ("Élodie" by E, "Łukasz" by L) and a Chinese name by its pinyin ("李小龙" by L),
    not by code point after "Zoë"; the name itself breaks ties."""
    return (fold(anyascii(name)), name)


def in_desk_order(registrations: Iterable[Registration]) -> list[Registration]:
    """The players as the desk lists them (``name_order``)."""
    return sorted(registrations, key=lambda r: (*name_order(r.player.name), r.code))


def find(tournament: Tournament, query: str) -> list[Registration]:
    """Registrations whose code is the query (a scanned slip), else whose name has every word of it,
    ignoring case, accents and punctuation ("garcia" finds "García", ``players.folding``)."""
    registrations = in_desk_order(tournament.registrations.select_related("player"))
    code = code_of(query)
    by_code = [r for r in registrations if r.code.casefold() == code.casefold()]
    if by_code:
        return by_code
    words = query_words(query)
    return [r for r in registrations if matches(words, r.player.name)]


@transaction.atomic
def check_in_by_code(tournament: Tournament, scanned: str, *, acting_user: User) -> Registration:
    """Check in the player whose seat slip was scanned (or whose code was typed)."""
    code = code_of(scanned)
    registration = (
        Registration.objects.select_related("player", "tournament")
        .filter(tournament=tournament, code__iexact=code)
        .first()
    )
    if registration is None:
        raise ServiceError(
            gettext("No player with the code %(code)s in this event.") % {"code": repr(code)},
            code="unknown_code",
        )
    if registration.withdrawn:
        raise ServiceError(
            gettext("%(name)s has withdrawn: reinstate them first.") % {"name": registration.player.name},
            code="withdrawn",
        )
    if not registration.checked_in:
        set_checked_in(registration, True, acting_user=acting_user)
    return registration


SELF_CHECK_IN_MAX_MINUTES = 12 * 60
"""The longest window an organiser opens at once (a day's first session; reopen for the next)."""

SELF_CHECK_IN_BY = ("phone", "kiosk")


@transaction.atomic
def set_self_check_in(tournament: Tournament, minutes: int | None, *, acting_user: User) -> Tournament:
    """Open self check-in for ``minutes`` from now (reopening moves the end), or close it (``None``).
    Players then check in from their own page or at the kiosk; after it, at the desk."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    if minutes is not None and not 1 <= minutes <= SELF_CHECK_IN_MAX_MINUTES:
        raise ServiceError(
            gettext("Open self check-in for 1 to %(most)s minutes.") % {"most": SELF_CHECK_IN_MAX_MINUTES},
            code="bad_minutes",
        )
    until = timezone.now() + timedelta(minutes=minutes) if minutes is not None else None
    if until is None and not locked.self_check_in_open:
        return locked  # closing a closed window: nothing to log
    locked.self_check_in_until = until
    locked.save(update_fields=["self_check_in_until"])
    audit(
        locked,
        acting_user,
        AuditAction.SELF_CHECK_IN_WINDOW,
        f"Self check-in open until {until.isoformat(timespec='minutes')}"
        if until
        else "Self check-in closed",
        public_pages=False,
        until=until.isoformat() if until else None,
    )
    return locked


@transaction.atomic
def self_check_in(registration: Registration, *, by_player: str) -> Registration:
    """A player checks themselves in (``by_player``: "phone" or "kiosk"), with the desk's own check-in
    (``set_checked_in``), logged as the player's own action. Refused outside the organiser's window (late
    arrivals go to the desk: code ``closed``) and for a withdrawn player (``withdrawn``); checking in twice
    changes nothing."""
    if by_player not in SELF_CHECK_IN_BY:
        raise ValueError(f"by_player is one of {SELF_CHECK_IN_BY}")
    registration = (
        Registration.objects.select_for_update()
        .select_related("player", "tournament")
        .get(pk=registration.pk)
    )
    tournament = registration.tournament
    check_open(tournament)
    if registration.withdrawn:
        raise ServiceError(
            gettext("%(name)s has withdrawn: please see the desk.") % {"name": registration.player.name},
            code="withdrawn",
        )
    if not tournament.self_check_in_open:
        raise ServiceError(gettext("Self check-in is closed: please check in at the desk."), code="closed")
    if not registration.checked_in:
        set_checked_in(registration, True, acting_user=None, by_player=by_player)
    return registration
