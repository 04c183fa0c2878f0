"""The players' PINs and signing a table's result with them (Sloper rule 72: "each player signs his
score", shared/seeds/003_2541481d343502a5.txt line 2320): a PIN per registration, printed on the seat
slip; when every seat has signed, the table is confirmed (``services.confirmation.confirm_table``).
Refused PINs are counted and limited so that guessing one is hopeless.

Signing does not change the result, so it is not a :func:`services.kernel.table_write`: it holds the
table's lock (``services.kernel.lock_table``) in its own transaction, which also keeps a refused try
counted when the refusal is raised.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import ConfirmedBy, PinAttempt, PlayerPin, Signature
from scoring.services.confirmation import confirm_table, players_sign, refuse_if_disputed, table_state
from scoring.services.kernel import lock_table
from scoring.services.queries import is_confirmed, table_with_results
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.models import Registration, Round, Seat, Substitution, Table, Tournament

PIN_DIGITS = 6


PIN_WINDOW = timedelta(minutes=15)
"""How long a refused PIN counts. PINs last the whole event, so the limits below are per window, and
a try refused during a lockout is not counted (the lockout ends a window after the tries that caused
it)."""


PIN_TRIES = 5
"""Refused PINs allowed at one table per window: the four players mistyping are not slowed; at five tries a
quarter of an hour, guessing one of the table's four PINs among a million takes more than a year."""


PIN_TRIES_PERSON = 10
"""Refused PINs allowed per user (the referee's login on the device the players type on) per window, across
tables and events: a guesser cannot spread the tries over every table."""


PIN_TRIES_EVENT = 30
"""Refused PINs allowed per event per window, across tables and people (several accounts guessing), and
per client address across events: a hall's devices often share one address behind the venue's router,
so an address gets the event's allowance, not a person's."""


PIN_TRIES_ADDRESS = PIN_TRIES_EVENT


def new_pin() -> str:
    """Six random digits from the operating system's secure source (not guessable from others)."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def _store_pin(registration: Registration, *, acting_user: User, first: bool = False) -> PlayerPin:
    """A fresh PIN, unique among the event's current PINs (a clash is drawn again); ``first``: a new
    registration's, with no earlier version to supersede."""
    current = PlayerPin.objects.current().filter(tournament_id=registration.tournament_id)
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
        PlayerPin.objects.current().filter(tournament=tournament).values_list("registration_id", "pin")
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


def seated_in(round_: Round) -> list[Registration]:
    """Everyone seated in a session: its seats' players and those who substituted for them."""
    ids = set(Seat.objects.filter(table__round=round_).values_list("registration_id", flat=True))
    ids |= set(Substitution.objects.filter(seat__table__round=round_).values_list("substitute_id", flat=True))
    return list(
        Registration.objects.filter(pk__in=ids).select_related("player").order_by("player__name", "code")
    )


@transaction.atomic
def reissue_session_pins(round_: Round, *, acting_user: User) -> dict[int, str]:
    """A new PIN for every player seated in a session (slips of the session lost or seen, a guesser at
    work): every old one stops working at once; signatures already made stand. Returns the new PINs by
    registration; logged with their number, not the PINs. The session's seat slips print them."""
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    check_open(tournament)
    players = seated_in(round_)
    if not players:
        raise ServiceError(
            gettext("%(session)s is not seated yet: nobody has a seat slip to reissue.")
            % {"session": round_},
            code="not_seated",
        )
    issued = {
        registration.pk: _store_pin(registration, acting_user=acting_user).pin for registration in players
    }
    audit(
        tournament,
        acting_user,
        AuditAction.REISSUE_SESSION_PINS,
        f"New PINs for the {len(issued)} players seated in session {round_.number}",
        public_pages=False,
        round=round_.number,
        count=len(issued),
    )
    return issued


@dataclass(frozen=True)
class SignResult:
    """A signature's answer: how many of the table's seats have signed, never whose PIN it was (an
    answer naming the player would tell a guesser whose PIN they found)."""

    signed: int
    seats: int
    confirmed: bool


def signatures(table: Table) -> set[int]:
    """Registrations whose signature of the table's current result stands."""
    return set(Signature.objects.in_force().filter(table=table).values_list("registration_id", flat=True))


def pin_limits() -> dict[str, int]:
    """Refused PINs allowed per window, by what they are counted against (a "player": one player's PIN
    tried at the kiosk, limited like a table)."""
    return {
        "table": PIN_TRIES,
        "player": PIN_TRIES,
        "person": PIN_TRIES_PERSON,
        "event": PIN_TRIES_EVENT,
        "address": PIN_TRIES_ADDRESS,
    }


@dataclass(frozen=True)
class PinTry:
    """Where a PIN is typed: at a table (signing it) or for one player (``registration``: the kiosk),
    in an event, by a user (None: nobody signed in) from a client address."""

    tournament_id: int
    table: Table | None = None
    registration: Registration | None = None
    user: Any = None
    address: str = ""

    def scope(self) -> Q:
        scope = Q(tournament_id=self.tournament_id)
        if self.table is not None:
            scope |= Q(table=self.table)
        if self.registration is not None:
            scope |= Q(registration=self.registration)
        if self.user is not None:
            scope |= Q(user_id=self.user.pk)
        if self.address:
            scope |= Q(address=self.address)
        return scope


def _refused_recently(where: PinTry) -> dict[str, int]:
    """The PINs refused within the window at this table (or at this player's PIN), in its event, by this
    user (in any event) and from this address (in any event): one query."""
    counts = {"event": Count("pk", filter=Q(tournament_id=where.tournament_id))}
    if where.table is not None:
        counts["table"] = Count("pk", filter=Q(table=where.table))
    if where.registration is not None:
        counts["player"] = Count("pk", filter=Q(registration=where.registration))
    if where.user is not None:
        counts["person"] = Count("pk", filter=Q(user_id=where.user.pk))
    if where.address:
        counts["address"] = Count("pk", filter=Q(address=where.address))
    return PinAttempt.objects.filter(where.scope(), created_at__gte=timezone.now() - PIN_WINDOW).aggregate(
        **counts
    )


def locked_out(counts: dict[str, int]) -> list[str]:
    """What has reached its limit of refused PINs ("table", "player", "person", "event", "address")."""
    limits = pin_limits()
    return [what for what, count in counts.items() if count >= limits[what]]


def pin_refused(*, signing_in: bool = False) -> ServiceError:
    """The one answer to every PIN that does not sign: wrong, another table's, already signed, the table
    already confirmed. The same words each time, so a guess learns nothing about the PIN it tried.
    ``signing_in``: a player's code and PIN that do not match (the player's own page), equally silent
    about which of the two was wrong."""
    if signing_in:
        return ServiceError(
            gettext("That player code and PIN do not match. Check them on your seat slip."), code="wrong_pin"
        )
    return ServiceError(
        gettext("That PIN does not sign this table. Check the PIN on your seat slip."), code="wrong_pin"
    )


def pin_throttled() -> ServiceError:
    return ServiceError(gettext("Too many wrong PINs: ask the organiser."), code="pin_throttled")


def _count_refusal(where: PinTry, counts: dict[str, int], place: str) -> None:
    """Store a refused PIN; when it brings something to its limit, log the lockout (once: a try refused
    during the lockout is not stored). ``place`` begins the log line ("Session 1 table 2")."""
    PinAttempt.objects.create(
        table=where.table,
        registration=where.registration,
        tournament_id=where.tournament_id,
        user=where.user,
        address=where.address,
    )
    limits = pin_limits()
    reached = [what for what, count in counts.items() if count + 1 == limits[what]]
    if not reached:
        return
    who = {
        "table": f"{limits['table']} at this table",
        "player": f"{limits['player']} at this player's PIN",
        "person": f"{limits['person']} by {getattr(where.user, 'username', where.user)}",
        "event": f"{limits['event']} in the event",
        "address": f"{limits['address']} from {where.address}",
    }
    minutes = int(PIN_WINDOW.total_seconds() // 60)
    details: dict[str, Any] = {"reached": reached, "address": where.address}
    if where.table is not None:
        details.update(table=where.table.number, round=where.table.round.number)
    if where.registration is not None:
        details["code"] = where.registration.code
    audit(
        Tournament.objects.get(pk=where.tournament_id),
        where.user,
        AuditAction.PIN_LOCKOUT,
        f"{place}: too many wrong PINs "
        f"({', '.join(who[what] for what in reached)} in {minutes} minutes); PINs refused until then",
        public_pages=False,
        **details,
    )


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


def signing_progress(table: Table, signed_ids: set[int]) -> tuple[int, int]:
    """How many seats have signed, of how many (every seat signs once, by its player or substitute).
    Counts, not names: the page shows them while players type PINs on it."""
    seat_of, _ = seat_signers(table)
    return len({seat_of[r] for r in signed_ids if r in seat_of}), len(table.seats.all())


def _check_players_sign(tournament: Tournament) -> None:
    if not players_sign(tournament):
        raise ServiceError(
            gettext("In this event a second referee confirms results, not the players' PINs."),
            code="not_allowed",
        )


def _signable(table: Table) -> Table:
    """The locked table with its results, refused unless complete and not disputed."""
    loaded = table_with_results(table)
    if table_state(loaded) != "complete":
        raise ServiceError(
            gettext("Only a complete table's result can be signed: enter its last hand or mark it complete."),
            code="not_complete",
        )
    refuse_if_disputed(table)
    return loaded


def _signature(
    table: Table, loaded: Table, registration: Registration, done: set[str], seat: str, *, acting_user: User
) -> SignResult:
    """Record one seat's signature (the table locked); the last seat's confirms the table. The audit
    entry names the signer's registration; no user when the player signed on their own phone."""
    Signature.supersede(table=table, registration=registration, acting_user=acting_user)
    done.add(seat)
    own = "" if acting(acting_user) is not None else " on their own phone"
    audit(
        table.round.tournament,
        acting_user,
        AuditAction.SIGN_TABLE,
        f"Session {table.round.number} table {table.number}: signed by {registration.player.name}{own}",
        code=registration.code,
    )
    seats = len(loaded.seats.all())
    confirmed = False
    if len(done) >= seats and not is_confirmed(table, fresh=True):
        confirm_table(table, acting_user=acting_user, how=ConfirmedBy.PLAYERS)
        confirmed = True
    return SignResult(signed=len(done), seats=seats, confirmed=confirmed)


def sign_with_pin(table: Table, pin: str, *, acting_user: User, address: str = "") -> SignResult:
    """A player at the table signs its complete result with their PIN (rule 72); when every seat has
    signed, the table is confirmed (``ConfirmedBy.PLAYERS``). Any PIN that does not sign (wrong,
    another table's, a seat already signed, the table already confirmed) is refused with the same words
    (``pin_refused``) and counted per table, event, user (``acting_user``) and client ``address``; past
    a limit (``pin_limits``) within ``PIN_WINDOW`` every PIN is refused (``pin_throttled``) until the
    window has passed, and the lockout is logged. The answer says how many have signed, not who.
    Refused while a player's disagreement is open (``services.disputes``)."""
    pin = (pin or "").strip()
    address = (address or "")[:45]
    user = acting(acting_user)
    refusal: ServiceError | None = None
    with transaction.atomic():
        table = lock_table(table)
        tournament = table.round.tournament
        _check_players_sign(tournament)
        where = PinTry(tournament.pk, table=table, user=user, address=address)
        counts = _refused_recently(where)
        if locked_out(counts):
            raise pin_throttled()
        loaded = _signable(table)
        seat_of, players = seat_signers(loaded)
        owner = PlayerPin.objects.current().filter(tournament=tournament, pin=pin).first() if pin else None
        already = signatures(table)
        done = {seat_of[r] for r in already if r in seat_of}
        signer = owner.registration_id if owner is not None else None
        if signer is None or signer not in seat_of or seat_of[signer] in done or is_confirmed(loaded):
            _count_refusal(where, counts, f"Session {table.round.number} table {table.number}")
            refusal = pin_refused()
        else:
            return _signature(table, loaded, players[signer], done, seat_of[signer], acting_user=acting_user)
    raise refusal  # the refused try is committed above, so it counts towards the limits


def sign_as_player(table: Table, registration: Registration, *, acting_user: User = None) -> SignResult:
    """A player signed in on their own phone (``tournaments.player_session``, their PIN checked when
    they signed in) signs their table's complete result: the same signature as :func:`sign_with_pin`
    (one per seat, the fourth confirms the table, audited, under the table's lock). The player knows
    who they are, so a refusal here says why (another table, already signed)."""
    with transaction.atomic():
        table = lock_table(table)
        _check_players_sign(table.round.tournament)
        loaded = _signable(table)
        seat_of, players = seat_signers(loaded)
        if registration.pk not in seat_of:
            raise ServiceError(gettext("You do not play at this table."), code="not_at_table")
        if is_confirmed(loaded):
            raise ServiceError(gettext("This table's result is already confirmed."), code="already_confirmed")
        done = {seat_of[r] for r in signatures(table) if r in seat_of}
        seat = seat_of[registration.pk]
        if seat in done:
            raise ServiceError(gettext("Your seat has signed this result already."), code="already_signed")
        return _signature(table, loaded, players[registration.pk], done, seat, acting_user=acting_user)


def sign_in_with_pin(tournament: Tournament, code: str, pin: str, *, address: str = "") -> Registration:
    """The registration whose player ``code`` and current PIN these are, for the player's own page
    (``tournaments.player_session.sign_in`` then remembers it). A withdrawn player is refused. A code
    and PIN that do not match are refused with the same words whichever was wrong (``pin_refused``) and
    counted per event and client ``address`` as the signing's refusals are (``pin_limits``); past the
    limit every try is refused until the window has passed."""
    code, pin = (code or "").strip(), (pin or "").strip()
    address = (address or "")[:45]
    refusal: ServiceError | None = None
    with transaction.atomic():
        where = PinTry(tournament.pk, address=address)
        counts = _refused_recently(where)
        if locked_out(counts):
            raise pin_throttled()
        current = (
            PlayerPin.objects.current()
            .filter(tournament=tournament, registration__code__iexact=code, registration__withdrawn_at=None)
            .select_related("registration__player", "registration__tournament")
            .first()
            if code and pin
            else None
        )
        if current is not None and secrets.compare_digest(current.pin, pin):
            return current.registration
        _count_refusal(where, counts, "Players signing in")
        refusal = pin_refused(signing_in=True)
    raise refusal  # the refused try is committed above, so it counts towards the limits


def check_own_pin(registration: Registration, pin: str, *, acting_user: User, address: str = "") -> None:
    """A player proves who they are with their own PIN (the kiosk's self check-in): nothing when ``pin`` is
    ``registration``'s current PIN, else ``own_pin_refused``, counted like a table's signatures (per player
    as per table, event, user and client ``address``, ``pin_limits``); past a limit every PIN is refused
    (``pin_throttled``) until ``PIN_WINDOW`` has passed, and the lockout is logged."""
    pin = (pin or "").strip()
    where = PinTry(
        registration.tournament_id,
        registration=registration,
        user=acting(acting_user),
        address=(address or "")[:45],
    )
    with transaction.atomic():  # committed before the refusal is raised: the try counts
        counts = _refused_recently(where)
        if locked_out(counts):
            raise pin_throttled()
        current = PlayerPin.objects.current().filter(registration=registration).values_list("pin", flat=True)
        if pin and secrets.compare_digest(pin.encode(), (current.first() or "").encode()):
            return
        _count_refusal(where, counts, f"Kiosk, {registration.player.name} ({registration.code})")
    raise ServiceError(gettext("That is not your PIN. Check the PIN on your seat slip."), code="wrong_pin")
