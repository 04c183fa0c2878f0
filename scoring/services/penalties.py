"""Penalties and lateness at a table: a penalty typed in by the referee (points, warning, paid to whom:
Sloper rules 77a and 85e, shared/seeds/003_2541481d343502a5.txt lines 2354 and 2387), the seat a
person plays at a table (a substitute's included), and how late a player was. The rule set's catalogue
of rulings is ``services.rulings``. Writes go through the write kernel (``services.kernel.table_write``);
the ``store_*`` functions append to a table whose lock the caller holds (``import_event``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import get_language, gettext

from scoring.models import EntryToken, LateArrival, PaidTo, Penalty
from scoring.services.entry_tokens import check_token, keep_token
from scoring.services.kernel import table_write
from tournaments.audit import AuditAction, User
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import Registration, Seat, Substitution, Table

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
    substitute (``services.seat_changes``; who is ranked with a substitute's penalty: ``scoring.substitutions``). With
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
    token: UUID | None = None,
) -> Penalty:
    """Record a penalty: 0 points is a warning under any rule (77a, 85b), kept because it counts towards
    the next one; ``paid_to`` "player" pays one named opponent at the table (85e). ``expected_position``
    (the number of penalties the page showed) refuses a repeated post instead of adding it twice."""
    with table_write(table, acting_user=acting_user, action=AuditAction.PENALTY) as write:
        table = write.table
        check_token(table, token)  # a replay: stored once (services.entry_tokens)
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
        keep_token(table, token, EntryToken.Kind.PENALTY, penalty.pk)
        write.done(f"{registration}: {points} ({paid_to}) {rule}", penalty=penalty.pk)
    return penalty


def store_late(table: Table, registration: Registration, minutes: int, *, acting_user: User) -> LateArrival:
    return LateArrival.supersede(
        table=table, registration=registration, minutes=minutes, acting_user=acting_user
    )


def record_late(
    table: Table, registration: Registration, minutes: int, *, acting_user: User, token: UUID | None = None
) -> LateArrival:
    """Record (or correct, as a new version) how late a player was at this table's session; ``token``: a
    replay of the same post stores nothing again (services.entry_tokens)."""
    with table_write(table, acting_user=acting_user, action=AuditAction.LATE) as write:
        table = write.table
        check_token(table, token)
        if not table.seats.filter(registration=registration).exists():
            raise ServiceError(
                gettext("%(registration)s does not sit at this table.") % {"registration": registration},
                code="not_at_table",
            )
        current = LateArrival.objects.current().filter(table=table, registration=registration).first()
        if current is not None and not current.voided and current.minutes == minutes:
            write.unchanged()
            return current  # the same record posted again (a retry, or two referees at once)
        late = store_late(table, registration, minutes, acting_user=acting_user)
        keep_token(table, token, EntryToken.Kind.LATE, late.pk)
        write.done(f"{registration} late {minutes} min", minutes=minutes)
    return late
