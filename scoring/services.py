"""Every write of a result goes through a function here: checked by the event's rule set, written in a
transaction as a new version (never an edit in place), attributed and audited, standings bumped."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import (
    Count,
    Exists,
    Func,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import get_language, gettext

from scoring import substitutions
from scoring.models import (
    Appeal,
    AppealDecision,
    AppealStatus,
    Confirmation,
    ConfirmedBy,
    Hand,
    LateArrival,
    PaidTo,
    Penalty,
    Signature,
    TableTotals,
)
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord, PenaltyItem, RuleSet, SessionTotals, check_totals
from scoring.rules.rulings import UNRANKED
from scoring.rules.settings import lookup
from scoring.standings import SessionLine, StandingRow, compute_standings
from tournaments import clock as session_clock
from tournaments import takeovers
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, acting, audit, bump_entry, bump_standings
from tournaments.citations import cite
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.messages import rule_sentence
from tournaments.models import (
    WINDS,
    Registration,
    Round,
    Seat,
    SessionClock,
    Substitution,
    Table,
    Tournament,
)
from tournaments.results import TableProgress

APPEAL_DEADLINE_MINUTES = 30  # MCR rule 94a (seeds/003_2541481d343502a5.txt, line 2405)


@dataclass(frozen=True)
class HandEntry:
    """What a referee enters for one hand; seats are winds at the start of the session.

    MCR uses ``fan`` (and optionally ``tiles``); NMJL and the classical rule sets put their details in
    ``data`` (each rule set's class in ``scoring/rules/`` says what it reads).
    """

    winner: str | None
    discarder: str | None = None
    fan: int | None = None
    tiles: dict[str, Any] | None = None
    data: dict[str, Any] | None = None


def event_rules(tournament: Tournament) -> RuleSet:
    """The event's rule set with its settings (built once per rule set and settings)."""
    return tournament.rule_set


def score_table(
    rules: RuleSet,
    seat_of: Mapping[int, str],
    hands: list[HandRecord],
    *,
    totals: Mapping[str, int] | None,
    penalties: Iterable[tuple[int, int, str, int | None]],
    late: Mapping[int, int],
) -> SessionTotals:
    """One table's session from its stored facts: ``seat_of`` maps registrations to starting seats,
    ``penalties`` are (registration, points, paid_to, receiver) still in force, the receiver being the
    registration paid when ``paid_to`` is one player (rule 85e). Warnings (0 points) cost nothing; a
    player no longer seated at the table is ignored."""
    return rules.score_session(
        hands,
        totals=totals,
        penalties=[
            PenaltyItem(
                seat=seat_of[registration],
                points=points,
                paid_to=seat_of[receiver] if paid_to == PaidTo.PLAYER and receiver is not None else paid_to,
            )
            for registration, points, paid_to, receiver in penalties
            if points > 0
            and registration in seat_of
            and (paid_to != PaidTo.PLAYER or (receiver in seat_of and receiver != registration))
        ],
        late_minutes={seat_of[r]: minutes for r, minutes in late.items() if r in seat_of},
    )


def _lock_table(table: Table) -> Table:
    """Take the table's row lock so two referees saving at once are serialised (PostgreSQL);
    SQLite's IMMEDIATE transactions already serialise writers."""
    try:
        locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    except Table.DoesNotExist:
        raise ServiceError(
            gettext(
                "This table is no longer in the seating (its session was seated again); nothing was saved."
            ),
            code="table_gone",
        ) from None
    check_open(locked.round.tournament)
    return locked


def hands_first_entered(table: Table) -> list[datetime]:
    """When each of the table's current hands was first entered (corrections keep that moment): what
    the session clock needs to tell the hand in play at time from a later one (rule 74f). One query."""
    current = Hand.objects.in_force().filter(table=table).values("number")
    return list(
        Hand.objects.filter(table=table, number__in=current)
        .values("number")
        .annotate(first=Min("created_at"))
        .values_list("first", flat=True)
    )


@dataclass(frozen=True)
class _HandState:
    """What adding a hand needs to know of a table besides its locked row (issue 12: each query of a
    save is a round trip, and a wake-up on cores busy with a hall of phones)."""

    seated: int
    has_totals: bool
    played: int  # current hands, deleted ones not counted
    last_number: int  # the highest hand number stored, deleted hands included
    may_bar_win: bool  # a ruling in force bars someone from winning a hand: checked in full then
    signed: bool  # players' signatures in force (withdrawn by the new hand)
    confirmed: bool  # a confirmation in force (withdrawn by the new hand)
    clock: SessionClock | None


def _count(queryset: QuerySet[Any]) -> Subquery:
    """``SELECT COUNT(*)`` of ``queryset`` as a subquery (no GROUP BY: one row, also for none)."""
    return Subquery(
        queryset.order_by().values(n=Func(Value(1), function="COUNT", output_field=IntegerField()))
    )


def _hand_state(table: Table) -> _HandState:
    """One query for the rest of what :func:`record_hand` reads, made once the table's lock is held.

    A statement of its own, not subqueries of the locking ``SELECT ... FOR UPDATE``: on PostgreSQL a
    statement reads the database as of its start, so subqueries of the locking statement would miss what
    the referee who held the lock before committed while this one waited (two hands numbered 1; the
    threaded tests in ``scoring/tests/test_concurrency.py`` show it). A new statement after the lock sees
    it; on SQLite the IMMEDIATE transaction already holds the database's write lock."""
    of_table = {"table": OuterRef("pk")}
    row = (
        Table.objects.filter(pk=table.pk)
        .select_related("round__clock")
        .annotate(
            seated=_count(Seat.objects.filter(**of_table)),
            played=_count(Hand.objects.in_force().filter(**of_table)),
            last_number=Coalesce(
                Subquery(Hand.objects.filter(**of_table).order_by("-number").values("number")[:1]), 0
            ),
            has_totals=Exists(TableTotals.objects.current().filter(**of_table)),
            may_bar_win=Exists(Penalty.objects.in_force().filter(**of_table, bars_win=True)),
            signed=Exists(Signature.objects.in_force().filter(**of_table)),
            confirmed=Exists(Confirmation.objects.in_force().filter(**of_table)),
        )
        .get()
    )
    return _HandState(
        seated=row.seated,
        has_totals=row.has_totals,
        played=row.played,
        last_number=row.last_number,
        may_bar_win=row.may_bar_win,
        signed=row.signed,
        confirmed=row.confirmed,
        clock=getattr(row.round, "clock", None),  # none until the organiser starts it
    )


def current_hands(table: Table) -> list[Hand]:
    return list(table.hands.in_force().order_by("number"))


def _service_error(error: HandInputError) -> ServiceError:
    """The engine's refusal as a service error, in the reader's language (tournaments/messages.py)."""
    return ServiceError(rule_sentence(error), code=error.code)


def check_hand(rules: RuleSet, record: HandRecord, tiles: Any = None) -> HandRecord:
    """A hand checked by the event's rule set (MCR: rules 24 and 67 and the tiles; NMJL: the card and
    the scheme; classical: the settlement), as the record to store. The pages and ``import_event``
    both check hands here."""
    checked = rules.normalise(rules.claim_from_tiles(record, tiles))
    rules.check_tiles(checked, tiles)
    return checked


def _check_entry(entry: HandEntry, tournament: Tournament) -> HandRecord:
    record = HandRecord(winner=entry.winner, discarder=entry.discarder, fan=entry.fan, data=entry.data or {})
    try:
        return check_hand(event_rules(tournament), record, entry.tiles)
    except HandInputError as error:
        raise _service_error(error) from None


def _check_win_allowed(table: Table, number: int, record: HandRecord) -> None:
    """A player ruled unable to win this hand may not be entered as its winner (``scoring.rulings``)."""
    from scoring.rulings import check_win_allowed

    check_win_allowed(table, number, record)


def _seats_ready(table: Table, seated: int | None = None) -> None:
    """Four players seated (``seated``: the count, when the caller read it under the lock)."""
    if (table.seats.count() if seated is None else seated) != 4:
        raise ServiceError(gettext("This table does not have four players seated."), code="table_not_seated")


def _hand_fields(record: HandRecord, tiles: Any) -> dict[str, Any]:
    return {
        "winner": record.winner or "",
        "discarder": record.discarder or "",
        "fan": record.fan,
        "data": dict(record.data),
        "tiles": tiles if record.winner else None,
    }


def store_new_table_hands(
    table: Table, hands: Sequence[tuple[HandRecord, Any]], *, acting_user: User
) -> list[Hand]:
    """A new table's checked hands, numbered from 1, in one insert (``import_event`` of a big event
    writes thousands of hands: one query per hand would hold SQLite's write lock for minutes)."""
    if table.hands.exists():
        raise ServiceError(gettext("This table already has hands."), code="has_hands")
    user = acting(acting_user)
    return Hand.objects.bulk_create(
        Hand(table=table, number=number, version=1, entered_by=user, **_hand_fields(record, tiles))
        for number, (record, tiles) in enumerate(hands, start=1)
    )


def store_hand(
    table: Table, record: HandRecord, tiles: Any, *, acting_user: User, last: int | None = None
) -> Hand:
    """Append a checked hand as the table's next hand number (the table's lock is held; ``last``: the
    highest hand number stored, deleted hands included, when the caller read it under the lock)."""
    if last is None:
        last = table.hands.aggregate(Max("number"))["number__max"] or 0
    return Hand.supersede(
        table=table, number=last + 1, acting_user=acting_user, first=True, **_hand_fields(record, tiles)
    )


@transaction.atomic
def record_hand(
    table: Table, entry: HandEntry, *, acting_user: User, expected_number: int | None = None
) -> Hand:
    """Add the next hand at a table, checked by the event's rule set.

    ``expected_number`` makes entry idempotent: a form posted twice (double click, retry on a bad
    connection) is refused the second time instead of adding the hand again.
    """
    table = _lock_table(table)
    state = _hand_state(table)
    tournament = table.round.tournament
    _seats_ready(table, state.seated)
    record = _check_entry(entry, tournament)
    if state.has_totals:
        raise ServiceError(
            gettext("This table has reported session totals; hands can no longer be added."),
            code="has_totals",
        )
    if table.finished_at is not None:
        raise ServiceError(
            gettext("This table is marked complete; reopen it to add hands."), code="table_finished"
        )
    limit = event_rules(tournament).hands_allowed(tournament.hands_per_session)
    played = state.played
    if expected_number is not None and expected_number != played + 1:
        # Checked before the session's limit: a repeated post of the last hand says what happened.
        raise ServiceError(
            gettext(
                "Hand %(expected_number)s was already entered; the page was out of date and "
                "nothing was added."
            )
            % {"expected_number": expected_number},
            code="already_entered",
        )
    if limit is not None and played >= limit:
        raise ServiceError(
            gettext("The session allows %(limit)s hands and %(played)s are entered.")
            % {"limit": limit, "played": played},
            code="too_many_hands",
        )
    refusal = session_clock.refusal_after_time(
        table, state.clock, partial(hands_first_entered, table), now=timezone.now()
    )
    if refusal is not None:
        raise ServiceError(refusal, code="time_up")
    if state.may_bar_win:
        _check_win_allowed(table, played + 1, record)
    hand = store_hand(table, record, entry.tiles, acting_user=acting_user, last=state.last_number)
    summary = event_rules(tournament).describe(record)
    _after_write(
        table,
        acting_user,
        AuditAction.RECORD_HAND,
        f"hand {played + 1}: {summary}",
        signed=state.signed,
        confirmed=state.confirmed,
        hand=hand.number,
    )
    return hand


@transaction.atomic
def correct_hand(
    hand: Hand, entry: HandEntry, *, acting_user: User, expected_version: int | None = None
) -> Hand:
    """Replace a hand's result by a new version; the old version stays, marked superseded. Allowed at
    any time, after the last hand and on a complete or confirmed table too (the confirmation is
    withdrawn). ``expected_version`` is the version the referee's page showed: if someone corrected the
    hand meanwhile, the correction is refused rather than silently overwriting theirs."""
    table = _lock_table(hand.table)
    current = table.hands.current().get(number=hand.number)
    if expected_version is not None and current.version != expected_version:
        raise ServiceError(
            gettext(
                "Hand %(number)s was changed by someone else while you were correcting it (it is "
                "now version %(version)s); nothing was saved. Check it and correct it again."
            )
            % {"number": current.number, "version": current.version},
            code="stale_correction",
        )
    if current.voided:
        raise ServiceError(
            gettext("Hand %(number)s was deleted; nothing was saved.") % {"number": current.number},
            code="stale_correction",
        )
    record = _check_entry(entry, table.round.tournament)
    _check_win_allowed(table, current.number, record)
    new = Hand.supersede(
        table=table, number=current.number, acting_user=acting_user, **_hand_fields(record, entry.tiles)
    )
    summary = event_rules(table.round.tournament).describe(record)
    _after_write(
        table,
        acting_user,
        AuditAction.CORRECT_HAND,
        f"hand corrected: {summary}",
        hand=new.number,
        version=new.version,
    )
    return new


@transaction.atomic
def void_last_hand(table: Table, *, acting_user: User, expected_last: int | None = None) -> Hand:
    """Delete the last hand entered, as a new voided version (later hands' winds would shift otherwise).

    ``expected_last`` is the number of the last hand the referee's page showed: a repeated post (or a
    second referee pressing at once) is refused instead of deleting the hand before it too."""
    table = _lock_table(table)
    hands = current_hands(table)
    if expected_last is not None and (hands[-1].number if hands else 0) != expected_last:
        raise ServiceError(
            gettext(
                "Hand %(expected_last)s was already deleted or another hand was added; the page "
                "was out of date and nothing was deleted."
            )
            % {"expected_last": expected_last},
            code="already_deleted",
        )
    if not hands:
        raise ServiceError(gettext("There is no hand to delete."), code="no_hand")
    if table.finished_at is not None:
        raise ServiceError(gettext("This table is marked complete; reopen it first."), code="table_finished")
    last = hands[-1]
    new = Hand.supersede(table=table, number=last.number, voided=True, acting_user=acting_user)
    _after_write(table, acting_user, AuditAction.VOID_HAND, f"hand {last.number} deleted", hand=last.number)
    return new


@transaction.atomic
def record_totals(
    table: Table, scores: dict[str, int], *, acting_user: User, expected_version: int | None = None
) -> TableTotals:
    """Session totals instead of hands, when the organiser allows it; they must sum to zero.

    ``expected_version`` is the totals' version the form was made from (0: none yet): a repeated post
    or a second person saving at once is refused rather than stored as one more version."""
    table = _lock_table(table)
    _seats_ready(table)
    if expected_version is not None:
        current = table.totals_versions.current().first()
        if (current.version if current else 0) != expected_version:
            raise ServiceError(
                gettext(
                    "These totals were saved meanwhile (perhaps the form was sent twice); nothing "
                    "was saved. Check them and save again if they need changing."
                ),
                code="stale_totals",
            )
    if not table.totals_only:
        raise ServiceError(
            gettext("The organiser has not allowed totals only for this table."), code="totals_not_allowed"
        )
    if current_hands(table):
        raise ServiceError(
            gettext("This table already has hands entered; delete them before reporting totals."),
            code="has_hands",
        )
    try:
        check_totals(scores)
    except HandInputError as error:
        raise _service_error(error) from None
    totals = TableTotals.supersede(
        table=table, scores={seat: int(scores[seat]) for seat in WINDS}, acting_user=acting_user
    )
    _after_write(
        table, acting_user, AuditAction.RECORD_TOTALS, f"totals {totals.scores}", version=totals.version
    )
    return totals


@transaction.atomic
def set_table_finished(table: Table, finished: bool, *, acting_user: User) -> None:
    """Mark the table complete or reopen it (reopening withdraws its confirmation, logged); asking for
    the state the table is already in changes nothing, so a repeated post is harmless."""
    from django.utils import timezone

    table = _lock_table(table)
    if (table.finished_at is not None) == finished:
        return  # already so: a repeated post (or a second referee's click) changes nothing
    if finished and not current_hands(table) and not table.totals_versions.current().exists():
        raise ServiceError(
            gettext("Enter at least one hand before marking the table complete."), code="nothing_entered"
        )
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now() if finished else None)
    _after_write(
        table,
        acting_user,
        AuditAction.FINISH_TABLE if finished else AuditAction.REOPEN_TABLE,
        "complete" if finished else "reopened",
    )


MAX_PENALTY = 10_000


def check_penalty(points: Any, paid_to: Any, *, warning: bool = True) -> None:
    """What every penalty must be, entered on the page or imported: 0 points records a warning under any
    rule (rules 77a and 85b); ``paid_to`` says who receives the points."""
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_PENALTY:
        raise ServiceError(
            gettext("Penalty points must be a whole number from 0 (a warning) to %(max_penalty)s.")
            % {"max_penalty": MAX_PENALTY},
            code="bad_penalty",
        )
    if points == 0 and not warning:
        raise ServiceError(gettext("Penalty points must be positive."), code="bad_penalty")
    if paid_to not in PaidTo.values:
        raise ServiceError(gettext("Choose how the penalty is paid."), code="bad_penalty")


def store_penalty(
    table: Table,
    registration: Registration,
    points: int,
    *,
    paid_to: str,
    rule: str,
    reason: str,
    acting_user: User,
    paid_to_player: Registration | None = None,
    outcome: str | None = None,
    kind: str = "",
    hand_number: int | None = None,
) -> Penalty:
    """Append a checked penalty to the table's list (the table's lock is held); ``outcome``, ``kind`` and
    ``hand_number`` (a ruling that bars a win in that hand) come from an imported ruling. A text longer
    than its column is refused, not cut short."""
    check_length(Penalty, "rule", rule, label=gettext("The rule"))
    check_length(Penalty, "reason", reason, label=gettext("The reason"))
    check_length(Penalty, "kind", kind, label=gettext("The ruling's kind"))
    position = table.penalties.current().count()
    return Penalty.supersede(
        table=table,
        position=position,
        registration=registration,
        points=points,
        paid_to=paid_to,
        paid_to_player=paid_to_player if paid_to == PaidTo.PLAYER else None,
        rule=rule,
        reason=reason,
        outcome=outcome or ("points" if points else "warning"),
        kind=kind,
        bars_win=hand_number is not None,
        hand_number=hand_number,
        acting_user=acting_user,
    )


def wind_at_table(table: Table, registration: Registration, *, hand_number: int | None = None) -> str:
    """The seat ``registration`` plays at ``table``: their own seat, or the seat they took over as a
    substitute (issue 16; who is ranked with a substitute's penalty: ``scoring.substitutions``). With
    ``hand_number``, the person must have been playing that seat in that hand: a substitute from the hand
    they took over, the seat's player before it. Refused with a message naming who played it."""
    own = Seat.objects.filter(table=table, registration=registration).first()
    if own is not None:
        took = (
            Substitution.objects.filter(seat=own).select_related("substitute__player").order_by("from_hand")
        )
        first = took.first()
        if hand_number is not None and first is not None and hand_number >= first.from_hand:
            raise ServiceError(
                gettext(
                    "%(substitute)s played %(registration)s's seat from hand %(from_hand)s: name "
                    "%(substitute)s for hand %(hand_number)s."
                )
                % {
                    "substitute": first.substitute,
                    "registration": registration,
                    "from_hand": first.from_hand,
                    "hand_number": hand_number,
                },
                code="not_playing",
            )
        return own.wind
    stood_in = (
        Substitution.objects.filter(seat__table=table, substitute=registration)
        .select_related("seat__registration__player")
        .first()
    )
    if stood_in is None:
        raise ServiceError(
            gettext("%(registration)s does not sit at this table.") % {"registration": registration},
            code="not_at_table",
        )
    if hand_number is not None and hand_number < stood_in.from_hand:
        raise ServiceError(
            gettext(
                "%(registration)s took over %(registration2)s's seat from hand %(from_hand)s; "
                "hand %(hand_number)s was played by %(registration2)s."
            )
            % {
                "registration": registration,
                "registration2": stood_in.seat.registration,
                "from_hand": stood_in.from_hand,
                "hand_number": hand_number,
            },
            code="not_playing",
        )
    return stood_in.seat.wind


def check_receiver(
    table: Table, payer_wind: str, receiver: Registration | None, citation: str | None
) -> None:
    """A penalty paid to one player (MCR rule 85e) names someone playing another seat at this table;
    the refusal cites ``citation`` (the ruling's or the rule set's own rule), or nothing when it is empty."""
    try:
        wind = wind_at_table(table, receiver) if receiver is not None else None
    except ServiceError:
        wind = None
    if wind is None or wind == payer_wind:
        message = (
            gettext("Name the opponent at this table who receives the points (%(citation)s).")
            % {"citation": citation}
            if citation
            else gettext("Name the opponent at this table who receives the points.")
        )
        raise ServiceError(message, code="bad_receiver")


@transaction.atomic
def add_penalty(
    table: Table,
    registration: Registration,
    points: int,
    *,
    paid_to: str,
    rule: str = "",
    reason: str = "",
    warning: bool = True,
    paid_to_player: Registration | None = None,
    acting_user: User,
    expected_position: int | None = None,
) -> Penalty:
    """Record a penalty: 0 points is a warning under any rule (77a, 85b), kept because it counts towards
    the next one; ``paid_to`` "player" pays one named opponent at the table (85e). ``expected_position``
    (the number of penalties the page showed) refuses a repeated post instead of adding it twice."""
    table = _lock_table(table)
    wind = wind_at_table(table, registration)  # the seat's player or the substitute playing it
    if expected_position is not None and expected_position != table.penalties.current().count():
        raise ServiceError(
            gettext(
                "Another penalty was recorded at this table since the page was shown (or this "
                "one was sent twice); nothing was added. Check the list and record it again if "
                "it is still needed."
            ),
            code="already_recorded",
        )
    check_penalty(points, paid_to, warning=warning)
    if paid_to == PaidTo.PLAYER:
        citation = table.round.tournament.rule_set.rule_reference("paid_to_player", get_language())
        check_receiver(table, wind, paid_to_player, citation)
    penalty = store_penalty(
        table,
        registration,
        points,
        paid_to=paid_to,
        rule=rule,
        reason=reason,
        acting_user=acting_user,
        paid_to_player=paid_to_player,
    )
    _after_write(
        table,
        acting_user,
        AuditAction.PENALTY,
        f"{registration}: {points} ({paid_to}) {rule}",
        penalty=penalty.pk,
    )
    return penalty


def store_late(table: Table, registration: Registration, minutes: int, *, acting_user: User) -> LateArrival:
    return LateArrival.supersede(
        table=table, registration=registration, minutes=minutes, acting_user=acting_user
    )


@transaction.atomic
def record_late(table: Table, registration: Registration, minutes: int, *, acting_user: User) -> LateArrival:
    """Record (or correct, as a new version) how late a player was at this table's session."""
    table = _lock_table(table)
    if not table.seats.filter(registration=registration).exists():
        raise ServiceError(
            gettext("%(registration)s does not sit at this table.") % {"registration": registration},
            code="not_at_table",
        )
    current = LateArrival.objects.current().filter(table=table, registration=registration).first()
    if current is not None and not current.voided and current.minutes == minutes:
        return current  # the same record posted again (a retry, or two referees at once)
    late = store_late(table, registration, minutes, acting_user=acting_user)
    _after_write(table, acting_user, AuditAction.LATE, f"{registration} late {minutes} min", minutes=minutes)
    return late


def add_catalogue_penalty(
    table: Table, registration: Registration, key: str, *, reason: str = "", acting_user: User, **details: Any
) -> Penalty:
    """A ruling from the rule set's catalogue (``scoring.rulings.add_ruling``, which works out its points
    under the table's lock)."""
    from scoring import rulings

    return rulings.add_ruling(table, registration, key, reason=reason, acting_user=acting_user, **details)


def check_appeal_deadline(minutes_after: int, rule_set: RuleSet | None) -> None:
    """MCR rule 94a: an appeal must be submitted within 30 minutes of the judgment; the refusal cites
    ``rule_set``'s own rule, or none when its book has none (or the rules are not known)."""
    if minutes_after > APPEAL_DEADLINE_MINUTES:
        raise ServiceError(
            cite(
                rule_set,
                "appeal_deadline",
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the "
                    "judgment (%(rule)s)."
                ),
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the judgment."
                ),
                appeal_deadline_minutes=APPEAL_DEADLINE_MINUTES,
            ),
            code="appeal_too_late",
        )


def store_decision(appeal: Appeal, status: str, *, reasons: str = "", acting_user: User) -> AppealDecision:
    if status not in (AppealStatus.UPHELD, AppealStatus.DENIED):
        raise ServiceError(gettext("An appeal is decided as granted or rejected."), code="bad_status")
    return AppealDecision.supersede(appeal=appeal, status=status, reasons=reasons, acting_user=acting_user)


ENTRY_ACTIONS = frozenset(
    {
        AuditAction.RECORD_HAND,
        AuditAction.CORRECT_HAND,
        AuditAction.VOID_HAND,
        AuditAction.RECORD_TOTALS,
        AuditAction.FINISH_TABLE,
        AuditAction.REOPEN_TABLE,
        AuditAction.PENALTY,
        AuditAction.LATE,
        AuditAction.APPEAL,
        AuditAction.DECIDE_APPEAL,
    }
)
"""Entry at a table: until the table is confirmed it shows only on its session's live results page (and in
the provisional standings), so the event's other cached public pages are kept (``bump_standings``)."""


def _after_write(
    table: Table,
    acting_user: User,
    action: AuditAction,
    summary: str,
    *,
    signed: bool | None = None,
    confirmed: bool | None = None,
    **data: Any,
) -> None:
    """Every change to a table's results: withdraw its confirmation (the result is provisional again
    until a second person confirms it), bump the standings, and log it. Entry at an unconfirmed table
    renews its session's results page only (``Round.entry_version``): the standings, player, team and
    event pages count confirmed tables, so a hall of phones keeps them cached while hands pour in; the
    ``signed`` and
    ``confirmed``: whether signatures or a confirmation are in force, when the caller read it under the
    table's lock (a hand save: no query for what is not there); otherwise read here."""
    tournament = table.round.tournament
    bump_entry(table)
    was_confirmed = False
    signatures = [] if signed is False else list(Signature.objects.in_force().filter(table=table))
    for signature in signatures:
        # The result changed: every player's signature of it is withdrawn (kept as a voided version).
        Signature.supersede(
            table=table, registration=signature.registration, voided=True, acting_user=acting_user
        )
    if confirmed is None:
        confirmed = is_confirmed(table, fresh=True)
    if confirmed:
        was_confirmed = True
        Confirmation.supersede(table=table, voided=True, acting_user=acting_user)
        audit(
            tournament,
            acting_user,
            AuditAction.UNCONFIRM_TABLE,
            f"Session {table.round.number} table {table.number}: confirmation withdrawn ({action.label.lower()})",
        )
    public = was_confirmed or action not in ENTRY_ACTIONS
    bump_standings(tournament, public=public)
    audit(
        tournament,
        acting_user,
        action,
        f"Session {table.round.number} table {table.number}: {summary}",
        public_pages=public,
        **data,
    )


def is_confirmed(table: Table, *, fresh: bool = False) -> bool:
    """Whether the table's result is confirmed (prefetched ``confirmations`` unless ``fresh``)."""
    if fresh:
        return Confirmation.objects.in_force().filter(table=table).exists()
    return any(c.is_in_force for c in table.confirmations.all())


def confirmed_by(table: Table) -> Confirmation | None:
    return next((c for c in table.confirmations.all() if c.is_in_force), None)


def _entered_by(table: Table) -> set[int]:
    """Who entered the table's results now in force (their confirmation would be their own)."""
    # current(), not in_force(): whoever deleted a hand (a voided version) changed the result too.
    hands = table.hands.current().values_list("entered_by_id", flat=True)
    totals = table.totals_versions.current().values_list("entered_by_id", flat=True)
    return {user for user in (*hands, *totals) if user is not None}


@transaction.atomic
def confirm_table(table: Table, *, acting_user: User, how: str = ConfirmedBy.REFEREE) -> Confirmation:
    """Confirm a complete table's session result as a second person (rule 72; Tabbycat's confirmed
    ballots): from now on it counts in the public standings and every export. Confirming one's own
    entry is refused; confirming a confirmed table changes nothing (a repeated post is harmless)."""
    table = _lock_table(table)
    current = Confirmation.objects.in_force().filter(table=table).first()
    if current is not None:
        return current
    loaded = table_with_results(table)
    if table_state(loaded) != "complete":
        raise ServiceError(
            gettext("Only a complete table can be confirmed: enter its last hand or mark it complete first."),
            code="not_complete",
        )
    user = acting(acting_user)
    settings = table.round.tournament.settings
    if how == ConfirmedBy.REFEREE and lookup(settings, "confirmation.by", "either") == "players":
        raise ServiceError(
            gettext("In this event the table's players confirm its result, each with their PIN (rule 72)."),
            code="players_sign",
        )
    if (
        how == ConfirmedBy.REFEREE
        and lookup(settings, "confirmation.blind_entry", False)
        and not table.blind_entries.in_force().exists()
    ):
        raise ServiceError(
            gettext(
                "This event uses blind double entry: a second person enters the score sheet "
                "first; a referee confirms only to resolve a disagreement."
            ),
            code="blind_entry_first",
        )
    if how == ConfirmedBy.REFEREE and (user is None or user.pk in _entered_by(table)):
        raise ServiceError(
            gettext("You entered results at this table; another referee or the players must confirm them."),
            code="own_entry",
        )
    confirmation = Confirmation.supersede(table=table, how=how, acting_user=acting_user)
    bump_standings(table.round.tournament)
    audit(
        table.round.tournament,
        acting_user,
        AuditAction.CONFIRM_TABLE,
        f"Session {table.round.number} table {table.number}: confirmed ({ConfirmedBy(how).label.lower()})",
    )
    return confirmation


def table_state(table: Table) -> str:
    """ "not started", "in play" or "complete" (prefetch hands and totals for lists of tables)."""
    hands = [h for h in table.hands.all() if h.is_in_force]
    has_totals = any(t.is_current for t in table.totals_versions.all())
    tournament = table.round.tournament
    limit = tournament.rule_set.hands_allowed(tournament.hands_per_session)
    if has_totals or table.finished_at is not None or (limit is not None and len(hands) >= limit):
        return "complete"
    return "in play" if hands else "not started"


def hand_record(hand: Hand) -> HandRecord:
    return HandRecord(
        winner=hand.winner or None, discarder=hand.discarder or None, fan=hand.fan, data=hand.data
    )


def played_hands(table: Table) -> list[Hand]:
    """Current, not deleted hands in play order (uses the prefetched hands)."""
    return sorted((h for h in table.hands.all() if h.is_in_force), key=lambda h: h.number)


def seat_prefetches(*, substitutions: bool = True) -> list[Any]:
    """A table's seats with their players and who took a seat over mid-session (pages, penalties);
    ``substitutions=False``: the seats only (a hand's form names seats, never a substitute)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    return [seats, takeovers.seat_prefetch("seats__")] if substitutions else [seats]


def result_prefetches() -> list[Any]:
    return [
        *seat_prefetches(),
        Prefetch(
            "hands",
            queryset=Hand.objects.in_force().defer("created_at", "entered_by"),
        ),
        Prefetch("totals_versions", queryset=TableTotals.objects.current()),
        Prefetch(
            "penalties",
            queryset=Penalty.objects.in_force().prefetch_related("appeals__decisions"),
        ),
        Prefetch(
            "late_arrivals",
            queryset=LateArrival.objects.in_force().prefetch_related("appeals__decisions"),
        ),
        Prefetch("confirmations", queryset=Confirmation.objects.in_force()),
    ]


def tables_with_results(
    tournament: Tournament, round_: Round | None = None, *, only: Collection[int] | None = None
) -> list[Table]:
    """The event's tables (a session's; ``only`` these ids) with their results prefetched."""
    tables = Table.objects.filter(round__tournament=tournament).select_related("round__tournament")
    if round_ is not None:
        tables = tables.filter(round=round_)
    if only is not None:
        tables = tables.filter(pk__in=only)
    return list(tables.prefetch_related(*result_prefetches()).order_by("round__number", "number"))


def table_with_results(table: Table) -> Table:
    """One table with what its pages need prefetched (the referee page loads just its own table)."""
    return (
        Table.objects.select_related("round__tournament")
        .prefetch_related(*result_prefetches())
        .get(pk=table.pk)
    )


def session_result(table: Table) -> SessionTotals:
    """Scores (and, for MCR, table points) of a table's session (prefetch with result_prefetches)."""
    seats = table.seats.all()
    return score_table(
        event_rules(table.round.tournament),
        # A penalty naming a substitute counts at the seat they took over (scoring.substitutions).
        {**takeovers.substitute_winds(seats), **{seat.registration_id: seat.wind for seat in seats}},
        [hand_record(h) for h in played_hands(table)],
        totals=next((t.scores for t in table.totals_versions.all() if t.is_current), None),
        penalties=[
            (p.registration_id, p.points, p.paid_to, p.paid_to_player_id)
            for p in table.penalties.all()
            if not p.cancelled
        ],
        late={item.registration_id: item.minutes for item in table.late_arrivals.all() if not item.cancelled},
    )


def confirmed_tables(tournament: Tournament) -> set[int]:
    return set(
        Confirmation.objects.in_force()
        .filter(table__round__tournament=tournament)
        .values_list("table_id", flat=True)
    )


def event_standings(tournament: Tournament, *, include_provisional: bool = False) -> list[StandingRow]:
    """Standings over the confirmed tables of the sessions whose results are published, up to the
    session the standings are frozen at (MCR rules 71 and 73; ``tournaments.release``);
    ``include_provisional`` counts every table with results, for the organiser's preview. Substitutes fill seats but are not ranked, nor are
    withdrawn players (their results stay), and a player with no counted session is not ranked at all.
    A player out of the ranking by a ruling (loss of rank, disqualification: MCR 77e-f, 89) is listed at
    the bottom with the status, counted tables or not, withdrawn or not (a disqualification withdraws the
    player, ``scoring.rulings``).

    This runs on the public pages' hot path after every result, so it reads plain values (seven
    queries, whatever the size of the event) instead of building model objects.
    """
    rules = event_rules(tournament)
    in_event = {"table__round__tournament": tournament}
    tables = Table.objects.filter(round__tournament=tournament).values_list(
        "id", "round__number", "number", "round__results_published_at"
    )
    seats: dict[int, list[tuple[str, int, str, bool]]] = defaultdict(list)
    withdrawn: set[str] = set()
    substitutes: set[str] = set()
    substituted = False  # substitutions are read only when a seat has one (scoring.substitutions)
    for table_id, wind, registration_id, code, substitute, withdrawn_at, taken_over in (
        Seat.objects.filter(round__tournament=tournament)
        .annotate(taken_over=Exists(Substitution.objects.filter(seat=OuterRef("pk"))))
        .values_list(
            "table_id",
            "wind",
            "registration_id",
            "registration__code",
            "registration__is_substitute",
            "registration__withdrawn_at",
            "taken_over",
        )
    ):
        # Substitutes and withdrawn players (issue 13) fill seats but are not ranked; a player withdrawn
        # by a disqualification is listed unranked with the status instead (below).
        seats[table_id].append((wind, registration_id, code, substitute))
        if withdrawn_at is not None:
            withdrawn.add(code)
        if substitute:
            substitutes.add(code)
        substituted = substituted or taken_over
    hands: dict[int, list[HandRecord]] = defaultdict(list)
    for table_id, winner, discarder, fan, data in (
        Hand.objects.in_force()
        .filter(**in_event)
        .order_by("table_id", "number")
        .values_list("table_id", "winner", "discarder", "fan", "data")
    ):
        hands[table_id].append(
            HandRecord(winner=winner or None, discarder=discarder or None, fan=fan, data=data)
        )
    totals = dict(TableTotals.objects.current().filter(**in_event).values_list("table_id", "scores"))
    upheld: set[int] = set()
    upheld_late: set[int] = set()
    for penalty_id, late_id in (
        AppealDecision.objects.in_force()
        .filter(status=AppealStatus.UPHELD, appeal__table__round__tournament=tournament)
        .values_list("appeal__penalty_id", "appeal__late_arrival_id")
    ):
        if penalty_id is not None:
            upheld.add(penalty_id)
        else:
            upheld_late.add(late_id)
    penalties: dict[int, list[tuple[int, int, str, int | None]]] = defaultdict(list)
    unranked: dict[str, str] = {}  # loss of rank and disqualification (MCR 77e-f, 89): scoring.rulings
    for (
        penalty_id,
        table_id,
        registration_id,
        points,
        paid_to,
        receiver,
        outcome,
        code,
    ) in (
        Penalty.objects.in_force()
        .filter(**in_event)
        .values_list(
            "id",
            "table_id",
            "registration_id",
            "points",
            "paid_to",
            "paid_to_player_id",
            "outcome",
            "registration__code",
        )
    ):
        if penalty_id in upheld:
            continue
        penalties[table_id].append((registration_id, points, paid_to, receiver))
        if outcome in UNRANKED and unranked.get(code) != "disqualification":
            unranked[code] = outcome
    hidden = substitutes | (withdrawn - set(unranked))
    seats = defaultdict(
        list,
        {
            table_id: [(wind, pk, code, code in hidden) for wind, pk, code, _ in table_seats]
            for table_id, table_seats in seats.items()
        },
    )
    late: dict[int, dict[int, int]] = defaultdict(dict)
    for late_id, table_id, registration_id, minutes in (
        LateArrival.objects.in_force()
        .filter(**in_event)
        .values_list("id", "table_id", "registration_id", "minutes")
    ):
        if late_id not in upheld_late:
            late[table_id][registration_id] = minutes
    counted = None if include_provisional else confirmed_tables(tournament)
    taken = substitutions.takeovers(tournament) if substituted else {}
    # Substitutes by table: a penalty naming one counts at the seat they took over (scoring.substitutions).
    stand_ins: dict[int, dict[int, str]] = defaultdict(dict)
    stand_in_codes: dict[int, str] = {}
    if substituted:
        for table_id, wind, substitute_id, substitute_code in Substitution.objects.filter(
            seat__round__tournament=tournament
        ).values_list("seat__table_id", "seat__wind", "substitute_id", "substitute__code"):
            stand_ins[table_id][substitute_id] = wind
            stand_in_codes[substitute_id] = substitute_code
    substitution_rule = substitutions.policy(tournament.settings)
    lines: list[SessionLine] = []
    frozen_after = tournament.standings_frozen_after
    for table_id, round_number, table_number, results_published in tables:
        if not hands[table_id] and table_id not in totals:
            continue  # not started
        if counted is not None and table_id not in counted:
            continue  # provisional
        if not include_provisional and (
            results_published is None or (frozen_after is not None and round_number > frozen_after)
        ):
            continue  # a draft session, or after the session the standings are frozen at (issue 13)
        seat_of = {**stand_ins[table_id], **{pk: wind for wind, pk, _, _ in seats[table_id]}}
        result = score_table(
            rules,
            seat_of,
            hands[table_id],
            totals=totals.get(table_id),
            penalties=penalties[table_id],
            late=late[table_id],
        )
        charged = substitutions.charged_to_substitutes(
            substitution_rule,
            result,
            partial(
                score_table, rules, seat_of, hands[table_id], totals=totals.get(table_id), late=late[table_id]
            ),
            penalties[table_id],
            {pk: (wind, stand_in_codes[pk]) for pk, wind in stand_ins[table_id].items()},
        )
        wins = Counter(record.winner for record in hands[table_id] if record.winner)
        for wind, _, code, substitute in seats[table_id]:
            if (table_id, wind) in taken:
                lines.extend(
                    substitutions.seat_lines(
                        substitution_rule,
                        rules=rules,
                        wind=wind,
                        code=code,
                        substitute=substitute,
                        takeovers=taken[table_id, wind],
                        charged=charged.get(wind, {}),
                        hands=hands[table_id],
                        result=result,
                        round_number=round_number,
                        table_number=table_number,
                    )
                )
                continue
            if substitute:
                continue
            lines.append(
                SessionLine(
                    player=code,
                    round_number=round_number,
                    table_number=table_number,
                    score=result.scores[wind],
                    table_points=result.table_points[wind] if result.table_points is not None else None,
                    forfeit=wind in result.forfeits,
                    wins=wins[wind],
                )
            )
    return compute_standings(
        lines,
        # A player out of the ranking by a ruling is listed (at the bottom, with the status) even before
        # any table of theirs is counted (MCR 77e-f, 89).
        [code for code in unranked if code not in substitutes],
        use_table_points=rules.uses_table_points,
        tie_break=rules.tie_break,
        unranked=unranked,
    )


def running_scores(table: Table) -> list[dict[str, Any]]:
    """Per hand: its description, each starting seat's points and running total, for the pages."""
    rules = event_rules(table.round.tournament)
    totals = dict.fromkeys(WINDS, 0)
    rows = []
    for hand in played_hands(table):
        record = hand_record(hand)
        delta = rules.points(record)
        for seat in WINDS:
            totals[seat] += delta[seat]
        rows.append(
            {
                "hand": hand,
                "record": record,
                "delta": delta,
                "totals": dict(totals),
                "text": rules.describe_in(record, get_language()),  # the page's language
            }
        )
    return rows


def describe_hand(hand: Hand) -> str:
    return event_rules(hand.table.round.tournament).describe(hand_record(hand))


class ScoringResults:
    """What the event layer asks of results (registered in ``ScoringConfig.ready``)."""

    def round_has_results(self, round_: Round) -> bool:
        return (
            Hand.objects.filter(table__round=round_).exists()
            or TableTotals.objects.filter(table__round=round_).exists()
        )

    def swiss_scores(self, tournament: Tournament) -> dict[str, float]:
        """Swiss seating's order: table points first, then score (one number per player), over every
        entered result (the next session is seated before the last one is confirmed)."""
        return {
            row.player: float(row.sort_key()[0]) * 10_000 + row.score
            for row in event_standings(tournament, include_provisional=True)
        }

    def disqualification(self, registration: Registration) -> str:
        from scoring.rulings import disqualification

        return disqualification(registration)

    def table_progress(self, tables: Sequence[Table]) -> dict[int, TableProgress]:
        """Each table's state and hands as :func:`table_state` reads them, counted in the database
        (a few queries for any number of tables: the organiser's live pages poll this for every
        table of the event, 1,000 on a 400-player event)."""
        ids = [t.pk for t in tables]
        rows = list(Table.objects.filter(pk__in=ids).values_list("pk", "finished_at", "round__tournament_id"))
        limits = {
            tournament.pk: tournament.rule_set.hands_allowed(tournament.hands_per_session)
            for tournament in Tournament.objects.filter(pk__in={row[2] for row in rows})
        }
        hands = dict(
            Hand.objects.in_force()
            .filter(table__in=ids)
            .values("table")
            .annotate(n=Count("id"))
            .values_list("table", "n")
        )
        with_totals = set(TableTotals.objects.current().filter(table__in=ids).values_list("table", flat=True))
        last_entry = dict(
            Hand.objects.filter(table__in=ids)
            .values("table")
            .annotate(last=Max("created_at"))
            .values_list("table", "last")
        )
        progress = {}
        for pk, finished_at, tournament_id in rows:
            limit = limits[tournament_id]
            played = hands.get(pk, 0)
            if pk in with_totals or finished_at is not None or (limit is not None and played >= limit):
                state = "complete"
            else:
                state = "in play" if played else "not started"
            progress[pk] = TableProgress(
                state=state, hands=played, limit=limit, last_entry_at=last_entry.get(pk)
            )
        return progress
