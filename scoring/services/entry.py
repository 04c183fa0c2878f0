"""Entering a table's results: hands (record, correct, delete the last), session totals instead of hands,
and marking the table complete. Each is checked by the event's rule set and written as a new version
(never an edit in place) through the write kernel (``services.kernel.table_write``): locked, audited,
the confirmation withdrawn, the versions bumped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

from django.db.models import Exists, Func, IntegerField, Max, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Confirmation, EntryToken, Hand, Penalty, Signature, TableTotals
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord, RuleSet, check_totals
from scoring.services.entry_tokens import check_token, keep_token
from scoring.services.kernel import service_error, table_write
from scoring.services.queries import current_hands, event_rules, hands_first_entered
from scoring.services.rulings import check_win_allowed
from tournaments import clock as session_clock
from tournaments.audit import AuditAction, User, acting
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Seat, SessionClock, Table, Tournament


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


@dataclass(frozen=True)
class _HandState:
    """What adding a hand needs to know of a table besides its locked row (each query of a
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
        raise service_error(error) from None


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


def _check_expected(expected_number: int | None, played: int) -> None:
    if expected_number is None or expected_number == played + 1:
        return
    if expected_number > played + 1:
        # A hand kept on a phone while another referee deleted a hand meanwhile: its number is gone.
        raise ServiceError(
            gettext(
                "The table changed while this hand waited: hand %(next)s is next, not %(expected_number)s; "
                "nothing was added. Check the table and enter the hand again."
            )
            % {"next": played + 1, "expected_number": expected_number},
            code="table_changed",
        )
    raise ServiceError(
        gettext(
            "Hand %(expected_number)s was already entered; the page was out of date and nothing was added."
        )
        % {"expected_number": expected_number},
        code="already_entered",
    )


def record_hand(
    table: Table,
    entry: HandEntry,
    *,
    acting_user: User,
    expected_number: int | None = None,
    token: UUID | None = None,
) -> Hand:
    """Add the next hand at a table, checked by the event's rule set.

    ``expected_number`` makes entry idempotent: a form posted twice (double click, retry on a bad
    connection) is refused the second time instead of adding the hand again. ``token`` (the page's, one
    per hand) makes a replay a success: the same token again raises ``entry_tokens.AlreadyStored``,
    whatever was entered since.
    """
    with table_write(table, acting_user=acting_user, action=AuditAction.RECORD_HAND) as write:
        table = write.table
        check_token(table, token)
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
        # Checked before the session's limit: a repeated post of the last hand says what happened.
        _check_expected(expected_number, played)
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
            check_win_allowed(table, played + 1, record)
        hand = store_hand(table, record, entry.tiles, acting_user=acting_user, last=state.last_number)
        keep_token(table, token, EntryToken.Kind.HAND, hand.number)
        summary = event_rules(tournament).describe(record)
        write.done(
            f"hand {played + 1}: {summary}", signed=state.signed, confirmed=state.confirmed, hand=hand.number
        )
    return hand


def correct_hand(
    hand: Hand, entry: HandEntry, *, acting_user: User, expected_version: int | None = None
) -> Hand:
    """Replace a hand's result by a new version; the old version stays, marked superseded. Allowed at
    any time, after the last hand and on a complete or confirmed table too (the confirmation is
    withdrawn). ``expected_version`` is the version the referee's page showed: if someone corrected the
    hand meanwhile, the correction is refused rather than silently overwriting theirs."""
    with table_write(hand.table, acting_user=acting_user, action=AuditAction.CORRECT_HAND) as write:
        table = write.table
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
        check_win_allowed(table, current.number, record)
        new = Hand.supersede(
            table=table, number=current.number, acting_user=acting_user, **_hand_fields(record, entry.tiles)
        )
        summary = event_rules(table.round.tournament).describe(record)
        write.done(f"hand corrected: {summary}", hand=new.number, version=new.version)
    return new


def void_last_hand(table: Table, *, acting_user: User, expected_last: int | None = None) -> Hand:
    """Delete the last hand entered, as a new voided version (later hands' winds would shift otherwise).

    ``expected_last`` is the number of the last hand the referee's page showed: a repeated post (or a
    second referee pressing at once) is refused instead of deleting the hand before it too."""
    with table_write(table, acting_user=acting_user, action=AuditAction.VOID_HAND) as write:
        table = write.table
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
            raise ServiceError(
                gettext("This table is marked complete; reopen it first."), code="table_finished"
            )
        last = hands[-1]
        new = Hand.supersede(table=table, number=last.number, voided=True, acting_user=acting_user)
        write.done(f"hand {last.number} deleted", hand=last.number)
    return new


def record_totals(
    table: Table,
    scores: dict[str, int],
    *,
    acting_user: User,
    expected_version: int | None = None,
    token: UUID | None = None,
) -> TableTotals:
    """Session totals instead of hands, when the organiser allows it; they must sum to zero.

    ``expected_version`` is the totals' version the form was made from (0: none yet): a repeated post
    or a second person saving at once is refused rather than stored as one more version."""
    with table_write(table, acting_user=acting_user, action=AuditAction.RECORD_TOTALS) as write:
        table = write.table
        check_token(table, token)  # a replay of these totals: stored once (services.entry_tokens)
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
                gettext("The organiser has not allowed totals only for this table."),
                code="totals_not_allowed",
            )
        if current_hands(table):
            raise ServiceError(
                gettext("This table already has hands entered; delete them before reporting totals."),
                code="has_hands",
            )
        try:
            check_totals(scores)
        except HandInputError as error:
            raise service_error(error) from None
        totals = TableTotals.supersede(
            table=table, scores={seat: int(scores[seat]) for seat in WINDS}, acting_user=acting_user
        )
        keep_token(table, token, EntryToken.Kind.TOTALS, totals.version)
        write.done(f"totals {totals.scores}", version=totals.version)
    return totals


def set_table_finished(table: Table, finished: bool, *, acting_user: User) -> None:
    """Mark the table complete or reopen it (reopening withdraws its confirmation, logged); asking for
    the state the table is already in changes nothing, so a repeated post is harmless."""
    action = AuditAction.FINISH_TABLE if finished else AuditAction.REOPEN_TABLE
    with table_write(table, acting_user=acting_user, action=action) as write:
        table = write.table
        if (table.finished_at is not None) == finished:
            write.unchanged()  # already so: a repeated post (or a second referee's click) changes nothing
            return
        if finished and not current_hands(table) and not table.totals_versions.current().exists():
            raise ServiceError(
                gettext("Enter at least one hand before marking the table complete."), code="nothing_entered"
            )
        Table.objects.filter(pk=table.pk).update(finished_at=timezone.now() if finished else None)
        write.done("complete" if finished else "reopened")
