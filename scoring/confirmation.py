"""Who confirms a table's result, as the event's settings say (``confirmation.by``): a second referee,
or the table's players signing with the PIN printed on their seat slip (Sloper rule 72: "each player
signs his score", shared/seeds/003_2541481d343502a5.txt line 2320), optionally after a blind second
entry of the score sheet that must agree with the first. Every write here is a service: in a
transaction, under the table's lock, audited."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring import services
from scoring.models import (
    BlindEntry,
    Confirmation,
    ConfirmedBy,
    Hand,
    PinAttempt,
    PlayerPin,
    Signature,
    TableTotals,
)
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import check_totals
from scoring.rules.settings import lookup
from tournaments.access import has_role
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.messages import rule_message
from tournaments.models import WINDS, Registration, Role, Substitution, Table, Tournament

PIN_DIGITS = 6
PIN_TRIES = 5
"""Refused PINs allowed per table per minute: a person mistyping is not slowed, guessing one of a
million PINs at five a minute would take months."""
PIN_WINDOW = timedelta(minutes=1)


def confirmation_by(tournament: Tournament) -> str:
    """ "referee", "players" or "either" (the event setting ``confirmation.by``)."""
    return str(lookup(tournament.settings, "confirmation.by", "either"))


def blind_entry_on(tournament: Tournament) -> bool:
    return bool(lookup(tournament.settings, "confirmation.blind_entry", False))


def referees_confirm(tournament: Tournament) -> bool:
    return confirmation_by(tournament) in ("referee", "either")


def players_sign(tournament: Tournament) -> bool:
    return confirmation_by(tournament) in ("players", "either")


# --- PINs ------------------------------------------------------------------------------------------


def new_pin() -> str:
    """Six random digits from the operating system's secure source (not guessable from others)."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def _store_pin(registration: Registration, *, acting_user: User, first: bool = False) -> PlayerPin:
    """A fresh PIN, unique among the event's current PINs (a clash is drawn again); ``first``: a new
    registration's, with no earlier version to supersede."""
    current = PlayerPin.objects.filter(tournament_id=registration.tournament_id, is_current=True)
    while True:
        pin = new_pin()
        if current.filter(pin=pin).exists():
            continue
        try:
            with transaction.atomic():
                if first:
                    return PlayerPin.objects.create(
                        tournament_id=registration.tournament_id, registration=registration, pin=pin
                    )
                return PlayerPin.supersede(
                    tournament_id=registration.tournament_id,
                    registration=registration,
                    pin=pin,
                    acting_user=acting_user,
                )
        except IntegrityError:  # issued meanwhile by someone else: draw again
            continue


def pin_for_new_registration(
    sender: Any, instance: Registration, created: bool, raw: bool = False, **_: Any
) -> None:
    """A new registration's PIN (connected to ``post_save`` in ``ScoringConfig.ready``); fixtures loaded
    raw are left alone (printing the slips issues any PIN still missing)."""
    if created and not raw:
        _store_pin(instance, acting_user=None, first=True)


def pins_for(tournament: Tournament) -> dict[int, str]:
    """The current PIN of each registration that has one."""
    return dict(
        PlayerPin.objects.filter(tournament=tournament, is_current=True).values_list("registration_id", "pin")
    )


@transaction.atomic
def issue_pins(tournament: Tournament, *, acting_user: User) -> dict[int, str]:
    """Give every registration without a PIN one (registrations get theirs when they are made; this
    covers those made before PINs existed), and return every registration's PIN. Printing the seat
    slips calls it. Issuing twice gives nobody a second PIN."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    have = pins_for(locked)
    if locked.archived_at is not None:
        return have  # read-only: its slips print the PINs it has
    missing = locked.registrations.exclude(pk__in=have)
    issued = 0
    for registration in missing:
        have[registration.pk] = _store_pin(registration, acting_user=acting_user).pin
        issued += 1
    if issued:
        audit(locked, acting_user, AuditAction.ISSUE_PINS, f"PINs issued to {issued} players", count=issued)
    return have


@transaction.atomic
def reissue_pin(registration: Registration, *, acting_user: User) -> str:
    """A new PIN for a player who lost theirs or whose PIN was seen; the old one stops working at once.
    Logged (without the PIN itself)."""
    check_open(Tournament.objects.select_for_update().get(pk=registration.tournament_id))
    pin = _store_pin(registration, acting_user=acting_user)
    audit(
        registration.tournament,
        acting_user,
        AuditAction.REISSUE_PIN,
        f"New PIN for {registration.player.name} (version {pin.version})",
        code=registration.code,
    )
    return pin.pin


# --- Signing with PINs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignResult:
    name: str
    signed: list[str]
    waiting: list[str]
    confirmed: bool


def signatures(table: Table) -> set[int]:
    """Registrations whose signature of the table's current result stands."""
    return set(
        Signature.objects.filter(table=table, is_current=True, voided=False).values_list(
            "registration_id", flat=True
        )
    )


def _refused_recently(table: Table) -> int:
    return PinAttempt.objects.filter(table=table, created_at__gte=timezone.now() - PIN_WINDOW).count()


def seat_signers(table: Table) -> tuple[dict[int, str], dict[int, Registration]]:
    """Who may sign for each seat: its player and anyone who substituted for them in the session (a
    player who left ill cannot sign; the substitute signs the seat's score). Returns each signer's
    seat and registration (prefetched seats)."""
    seat_of: dict[int, str] = {}
    players: dict[int, Registration] = {}
    for seat in table.seats.all():
        seat_of[seat.registration_id] = seat.wind
        players[seat.registration_id] = seat.registration
    for substitution in Substitution.objects.filter(seat__table=table).select_related(
        "seat", "substitute__player"
    ):
        seat_of.setdefault(substitution.substitute_id, substitution.seat.wind)
        players.setdefault(substitution.substitute_id, substitution.substitute)
    return seat_of, players


def signing_status(table: Table, signed_ids: set[int]) -> tuple[list[str], list[str]]:
    """Names of those who signed, and of the seats' players still to sign (every seat signs once)."""
    seat_of, players = seat_signers(table)
    done_seats = {seat_of[r] for r in signed_ids if r in seat_of}
    signed = sorted((players[r].player.name for r in signed_ids if r in players), key=str.casefold)
    waiting = sorted(
        (seat.registration.player.name for seat in table.seats.all() if seat.wind not in done_seats),
        key=str.casefold,
    )
    return signed, waiting


def sign_with_pin(table: Table, pin: str, *, acting_user: User) -> SignResult:
    """A player at the table signs its complete result with their PIN (rule 72); when every seated
    player has signed, the table is confirmed (``ConfirmedBy.PLAYERS``). A wrong PIN, or the PIN of a
    player who is not at this table, is refused and counted: after ``PIN_TRIES`` refusals in a minute
    the table takes no PIN until the minute has passed. Signing twice is harmless."""
    pin = (pin or "").strip()
    refusal: ServiceError | None = None
    with transaction.atomic():
        table = services._lock_table(table)
        tournament = table.round.tournament
        if not players_sign(tournament):
            raise ServiceError(
                gettext("In this event a second referee confirms results, not the players' PINs."),
                code="not_allowed",
            )
        if _refused_recently(table) >= PIN_TRIES:
            raise ServiceError(
                gettext(
                    "Too many wrong PINs at this table: wait a minute before trying again "
                    "(%(pin_tries)s tries a minute)."
                )
                % {"pin_tries": PIN_TRIES},
                code="pin_throttled",
            )
        loaded = services.table_with_results(table)
        if services.table_state(loaded) != "complete":
            raise ServiceError(
                gettext(
                    "Only a complete table's result can be signed: enter its last hand or mark it complete."
                ),
                code="not_complete",
            )
        seat_of, players = seat_signers(loaded)
        owner = (
            PlayerPin.objects.filter(tournament=tournament, is_current=True, pin=pin).first() if pin else None
        )
        if services.is_confirmed(loaded) and (
            owner is None or owner.registration_id not in signatures(table)
        ):
            raise ServiceError(gettext("This table's result is already confirmed."), code="already_confirmed")
        if owner is None or owner.registration_id not in seat_of:
            PinAttempt.objects.create(table=table)
            refusal = ServiceError(
                gettext(
                    "That PIN belongs to a player who is not at this table; each player signs with their "
                    "own PIN."
                )
                if owner is not None
                else gettext("That PIN is not right; check the PIN on your seat slip and try again."),
                code="pin_not_at_table" if owner is not None else "wrong_pin",
            )
        else:
            registration = players[owner.registration_id]
            already = signatures(table)
            if registration.pk not in already:
                Signature.supersede(table=table, registration=registration, acting_user=acting_user)
                already.add(registration.pk)
                audit(
                    tournament,
                    acting_user,
                    AuditAction.SIGN_TABLE,
                    f"Session {table.round.number} table {table.number}: signed by {registration.player.name}",
                    code=registration.code,
                )
            signed, waiting = signing_status(loaded, already)
            confirmed = False
            if not waiting and not services.is_confirmed(table, fresh=True):
                services.confirm_table(table, acting_user=acting_user, how=ConfirmedBy.PLAYERS)
                confirmed = True
            return SignResult(
                name=registration.player.name, signed=signed, waiting=waiting, confirmed=confirmed
            )
    raise refusal  # the refused try is committed above, so it counts towards the limit


# --- Blind double entry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    hand: int | None
    """The hand's number, or None for the session's totals."""
    first: dict[str, int] | None
    second: dict[str, int] | None


def first_entry(table: Table) -> tuple[list[dict[str, int]], dict[str, int]]:
    """The first entry as the score sheet has it: each hand's points per starting seat and the totals
    (hands and totals before penalties and lateness, which are the referee's). Prefetched table."""
    rows = [{seat: int(row["delta"][seat]) for seat in WINDS} for row in services.running_scores(table)]
    totals = next((t.scores for t in table.totals_versions.all() if t.is_current), None)
    if totals is None:
        totals = {seat: sum(row[seat] for row in rows) for seat in WINDS}
    return rows, {seat: int(totals[seat]) for seat in WINDS}


def differences(table: Table, entry: BlindEntry) -> list[Difference]:
    """Where the blind entry and the first entry disagree, hand by hand (when the second person entered
    hands) and in the totals; empty when they agree."""
    rows, totals = first_entry(table)
    found = []
    if entry.rows:
        for number in range(1, max(len(rows), len(entry.rows)) + 1):
            first = rows[number - 1] if number <= len(rows) else None
            second = entry.rows[number - 1] if number <= len(entry.rows) else None
            if first != second:
                found.append(Difference(number, first, second))
    if totals != entry.totals:
        found.append(Difference(None, totals, dict(entry.totals)))
    return found


def current_blind_entry(table: Table) -> BlindEntry | None:
    return BlindEntry.objects.filter(table=table, is_current=True, voided=False).first()


def previews_unconfirmed(user: Any, tournament: Tournament) -> bool:
    """Whether ``user`` previews the event's unconfirmed figures under blind double entry: its organisers
    (and superusers) do (the provisional standings, their prints and exports); nobody else."""
    return user is not None and has_role(user, tournament, Role.ORGANISER)


def entered_at(table: Table, user: Any) -> bool:
    """Whether ``user`` entered any version of a hand or of the totals at ``table`` (so has seen them)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        Hand.objects.filter(table=table, entered_by=user).exists()
        or TableTotals.objects.filter(table=table, entered_by=user).exists()
    )


def figures_visible(table: Table, user: Any = None) -> bool:
    """May ``user`` (``None``: the public) see the figures entered at ``table`` now: its hands (winner,
    discarder, fan, points), scores and totals, on any page, fragment or export? The one place this is
    decided (issue 22).

    Always, except under blind double entry while the table is unconfirmed (in play or complete):
    then the public sees nothing, and of the staff only those who entered results at the table and the
    organisers, who preview unconfirmed figures (docs/confirmation.md). Once a second entry is stored,
    the two entries are compared and every referee sees the first entry, to resolve the differences;
    once they agree the table is confirmed and everyone sees it. Prefetched ``confirmations``."""
    tournament = table.round.tournament
    if not blind_entry_on(tournament) or services.is_confirmed(table):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        previews_unconfirmed(user, tournament)
        or entered_at(table, user)
        or current_blind_entry(table) is not None
    )


def _check_scores(scores: dict[str, Any], what: str) -> dict[str, int]:
    try:
        check_totals(scores)
    except HandInputError as error:
        raise ServiceError(
            gettext("%(what)s: %(message)s.") % {"what": what, "message": rule_message(error)},
            code=error.code,
        ) from None
    return {seat: int(scores[seat]) for seat in WINDS}


def record_blind_entry(
    table: Table,
    totals: dict[str, int],
    rows: list[dict[str, int]] | None = None,
    *,
    acting_user: User,
    expected_version: int | None = None,
) -> tuple[BlindEntry, list[Difference]]:
    """The second, blind entry of a complete table's score sheet (``rows`` hand by hand, optional, and
    the ``totals``). When it agrees with the first entry the table is confirmed
    (``ConfirmedBy.BLIND``); when not, nothing is confirmed and the differences are returned (and shown
    to the referees on the table's page). The person who entered the results cannot make it.
    ``expected_version`` is the blind entry's version the form was made from (0: none): a repeated post
    is refused instead of stored twice."""
    rows = rows or []
    checked_rows = [_check_scores(row, f"Hand {number}") for number, row in enumerate(rows, start=1)]
    checked_totals = _check_scores(totals, "Totals")
    if checked_rows and {seat: sum(row[seat] for row in checked_rows) for seat in WINDS} != checked_totals:
        raise ServiceError(
            gettext("The hands entered do not add up to the totals entered."), code="bad_totals"
        )
    with transaction.atomic():
        table = services._lock_table(table)
        tournament = table.round.tournament
        if not blind_entry_on(tournament):
            raise ServiceError(gettext("This event does not use blind double entry."), code="not_allowed")
        loaded = services.table_with_results(table)
        if services.table_state(loaded) != "complete":
            raise ServiceError(
                gettext(
                    "The first entry is not complete yet: the second entry is made once the table is "
                    "complete."
                ),
                code="not_complete",
            )
        if services.is_confirmed(loaded):
            raise ServiceError(gettext("This table's result is already confirmed."), code="already_confirmed")
        current = current_blind_entry(table)
        if expected_version is not None and (current.version if current else 0) != expected_version:
            raise ServiceError(
                gettext(
                    "A second entry for this table was saved meanwhile (perhaps this form was sent "
                    "twice); nothing was saved."
                ),
                code="stale_entry",
            )
        user = acting(acting_user)
        if user is None or user.pk in services._entered_by(table):
            raise ServiceError(
                gettext(
                    "You entered results at this table; the blind second entry must be made by someone else."
                ),
                code="own_entry",
            )
        entry = BlindEntry.supersede(
            table=table, rows=checked_rows, totals=checked_totals, acting_user=acting_user
        )
        found = differences(loaded, entry)
        audit(
            tournament,
            acting_user,
            AuditAction.BLIND_ENTRY,
            f"Session {table.round.number} table {table.number}: second entry "
            + ("agrees" if not found else f"differs ({len(found)} differences)"),
            version=entry.version,
        )
        if not found:
            services.confirm_table(table, acting_user=acting_user, how=ConfirmedBy.BLIND)
        return entry, found


def confirm(table: Table, *, acting_user: User) -> Confirmation:
    """The table page's "confirm" button: under blind double entry, when the second entry agrees with
    the results now in force (a referee corrected the first entry after a disagreement), the table is
    confirmed as agreed, provided the second entry's author entered none of those results; otherwise
    a second referee confirms (``services.confirm_table``, which refuses one's own entry)."""
    with transaction.atomic():
        table = services._lock_table(table)
        entry = current_blind_entry(table) if blind_entry_on(table.round.tournament) else None
        loaded = services.table_with_results(table)
        if entry is not None and not services.is_confirmed(loaded) and not differences(loaded, entry):
            if entry.entered_by_id in services._entered_by(table):
                raise ServiceError(
                    gettext(
                        "The second entry and the results now in force were both made by the same "
                        "person; another referee must confirm them."
                    ),
                    code="own_entry",
                )
            return services.confirm_table(table, acting_user=acting_user, how=ConfirmedBy.BLIND)
        return services.confirm_table(table, acting_user=acting_user)
