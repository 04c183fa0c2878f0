"""Changing who sits where once hands have been played: seats fixed after play, and a
substitute taking over a seat in the middle of a session.

Both keep every result: hands are moved as new versions (``VersionedResult.supersede``), never edited,
and each change is one logged action in one transaction holding the tables' locks. How a substituted
seat counts in the standings is :mod:`scoring.substitutions`.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import Hand, LateArrival, Penalty, TableTotals
from scoring.services.kernel import table_write, tables_write
from tournaments.audit import AuditAction, User, acting
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import WINDS, Registration, Round, Seat, Substitution, Table
from tournaments.services import registrations


def _exchange(value: Any, a: str, b: str) -> Any:
    """``value`` with the seat winds ``a`` and ``b`` exchanged wherever a seat is named: a wind alone, or
    a dictionary keyed by winds (per-seat points in a rule set's hand details), at any depth."""
    swap = {a: b, b: a}
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, dict):
        keyed_by_seat = bool(value) and all(key in WINDS for key in value)
        return {(swap.get(k, k) if keyed_by_seat else k): _exchange(v, a, b) for k, v in value.items()}
    if isinstance(value, list):
        return [_exchange(item, a, b) for item in value]
    return value


def _seats(round_: Round, codes: tuple[str, str]) -> tuple[Seat, Seat]:
    seats = {
        s.registration.code: s
        for s in Seat.objects.filter(round=round_, registration__code__in=codes).select_related(
            "registration__player", "table"
        )
    }
    missing = [code for code in codes if code not in seats]
    if missing:
        raise ServiceError(
            gettext("Player %(missing)s has no seat in session %(number)s.")
            % {"missing": missing[0], "number": round_.number},
            code="not_seated",
        )
    return seats[codes[0]], seats[codes[1]]


@transaction.atomic
def fix_seats_after_play(round_: Round, code_a: str, code_b: str, *, acting_user: User) -> int:
    """Exchange two players' seats in a session that has hands, in one logged action; returns the number
    of hands moved.

    - **Same table** (they sat in each other's seats, and the referee entered the hands under their
      names): they exchange winds, and every hand moves with them as a new version, so each keeps what
      they won and paid: the winner and discarder references are exchanged, and so is any per-seat
      figure in the hand's details and in reported session totals. The fan total stays as entered.
    - **Different tables** (each sat at the other's table): they exchange tables and winds; the hands at
      each table stay with the seat, i.e. with the player who really sat there and played them.
      Penalties and lateness recorded for either of them (or for a substitute who took over their
      seat) follow the person to the table they really sat at (:func:`_follow_players`): withdrawn at
      the old table and recorded at the new one, both as new versions, in this same logged action.
      Refused, with nothing changed, where moving is ambiguous: a penalty paid to one player (rule 85e)
      between someone who moves and someone who stays, or a ruling with an appeal filed against it.

    Confirmations of the tables are withdrawn (their results changed); the standings are bumped.
    """
    if code_a == code_b:
        raise ServiceError(gettext("Choose two different players."), code="same_player")
    first, second = _seats(round_, (code_a, code_b))
    tables = [Table(pk=pk) for pk in {first.table_id, second.table_id}]
    with tables_write(tables, acting_user=acting_user, action=AuditAction.FIX_SEATS) as write:
        locked = {table.pk: table for table in write.tables}
        wind_a, wind_b = first.wind, second.wind
        moved = 0
        # The seat rows stay with their players (a substitution or anything else attached to a seat follows
        # its player); a placeholder wind keeps "one player per seat" true between the two updates.
        Seat.objects.filter(pk=first.pk).update(wind="-")
        Seat.objects.filter(pk=second.pk).update(table_id=first.table_id, wind=wind_a)
        Seat.objects.filter(pk=first.pk).update(table_id=second.table_id, wind=wind_b)
        if first.table_id == second.table_id:
            table = locked[first.table_id]
            for hand in Hand.objects.current().filter(table=table).order_by("number"):
                Hand.supersede(
                    table=table,
                    number=hand.number,
                    acting_user=acting_user,
                    voided=hand.voided,
                    winner=_exchange(hand.winner, wind_a, wind_b),
                    discarder=_exchange(hand.discarder, wind_a, wind_b),
                    fan=hand.fan,
                    tiles=hand.tiles,
                    data=_exchange(hand.data, wind_a, wind_b),
                )
                moved += 1
            totals = TableTotals.objects.current().filter(table=table).first()
            if totals is not None:
                TableTotals.supersede(
                    table=table,
                    acting_user=acting_user,
                    voided=totals.voided,
                    scores=_exchange(totals.scores, wind_a, wind_b),
                )
            where = f"table {table.number}: {wind_a} and {wind_b} exchanged"
        else:
            followed = _follow_players(
                [
                    (first, locked[first.table_id], locked[second.table_id]),
                    (second, locked[second.table_id], locked[first.table_id]),
                ],
                acting_user=acting_user,
            )
            where = f"tables {first.table.number} and {second.table.number} exchanged"
            if followed:
                where += f"; {followed} penalties or lateness moved with them"
        write.done(
            f"seats of {code_a} and {code_b} fixed after play ({where}; {moved} hands moved)",
            players=[code_a, code_b],
            hands=moved,
        )
    return moved


def _copy(record: Any) -> dict[str, Any]:
    """A versioned record's own fields (by column), to store again as a new version elsewhere."""
    skip = {"id", "version", "is_current", "voided", "entered_by", "created_at", "table"}
    return {
        f.attname: getattr(record, f.attname)
        for f in type(record)._meta.concrete_fields
        if f.name not in skip
    }


def _follow_players(moves: list[tuple[Seat, Table, Table]], *, acting_user: User) -> int:
    """Move the penalties and lateness of each moving person from the table the seating put them at to
    the table they really sat at (``moves``: their seat, old table, new table; the tables are locked).

    Who counts as the person: the seat's player, and a substitute who took over that seat (the
    substitution belongs to the seat row, which moves with its player). Each record is withdrawn at the
    old table (a voided version: the table's history keeps it) and stored at the new one (a penalty as
    the next in that table's list, a lateness as the next version for that player there). Refused before
    anything is written where it is ambiguous: which one is named in the message. Returns how many
    records moved."""
    people: dict[int, tuple[Table, Table]] = {}
    for seat, old, new in moves:
        people[seat.registration_id] = (old, new)
        for substitute_id in Substitution.objects.filter(seat=seat).values_list("substitute_id", flat=True):
            people[substitute_id] = (old, new)
    penalties = list(
        Penalty.objects.in_force()
        .filter(table_id__in=[old.pk for old, _ in people.values()])
        .select_related("registration__player", "paid_to_player__player", "table")
        .prefetch_related("appeals")
        .order_by("table__number", "position")
    )
    late = list(
        LateArrival.objects.in_force()
        .filter(table_id__in=[old.pk for old, _ in people.values()], registration_id__in=list(people))
        .select_related("registration__player", "table")
        .prefetch_related("appeals")
    )
    moving = []
    for penalty in penalties:
        payer = people.get(penalty.registration_id)
        receiver = people.get(penalty.paid_to_player_id) if penalty.paid_to_player_id else None
        if payer is not None and payer[0].pk != penalty.table_id:
            payer = None  # recorded at the other table of the exchange: not this person's old table
        if receiver is not None and receiver[0].pk != penalty.table_id:
            receiver = None
        if payer is None and receiver is None:
            continue  # another player's penalty: stays where it is
        if penalty.paid_to_player_id and (payer is None) != (receiver is None):
            stays = penalty.paid_to_player if payer is not None else penalty.registration
            raise ServiceError(
                gettext(
                    "%(registration)s's penalty at table %(number)s (%(value)s) is paid to "
                    "%(paid_to_player)s, and %(stays)s stays at that table: it cannot follow one of "
                    "them. Delete it, fix the seats, then record it again."
                )
                % {
                    "registration": penalty.registration,
                    "number": penalty.table.number,
                    "value": penalty.rule or penalty.reason,
                    "paid_to_player": penalty.paid_to_player,
                    "stays": stays,
                },
                code="ambiguous_penalty",
            )
        if penalty.appeals.all():
            raise ServiceError(
                gettext(
                    "%(registration)s's penalty at table %(number)s has an appeal filed against it: "
                    "decide the appeal and delete the penalty, fix the seats, then record it again."
                )
                % {"registration": penalty.registration, "number": penalty.table.number},
                code="appealed_penalty",
            )
        target = payer if payer is not None else receiver
        assert target is not None  # one of them moves (checked above)
        moving.append((penalty, target[1]))
    for item in late:
        if people[item.registration_id][0].pk != item.table_id:
            continue
        if item.appeals.all():
            raise ServiceError(
                gettext(
                    "%(registration)s's lateness at table %(number)s has an appeal filed against it: "
                    "decide the appeal and delete the lateness, fix the seats, then record it again."
                )
                % {"registration": item.registration, "number": item.table.number},
                code="appealed_penalty",
            )
    for penalty, new in moving:
        fields = _copy(penalty)
        Penalty.supersede(acting_user=acting_user, **{**fields, "table": penalty.table, "voided": True})
        position = Penalty.objects.current().filter(table=new).count()
        Penalty.supersede(acting_user=acting_user, **{**fields, "table": new, "position": position})
    moved_late = 0
    for item in late:
        old, new = people[item.registration_id]
        if old.pk != item.table_id:
            continue
        LateArrival.supersede(
            table=old,
            registration=item.registration,
            minutes=item.minutes,
            voided=True,
            acting_user=acting_user,
        )
        LateArrival.supersede(
            table=new, registration=item.registration, minutes=item.minutes, acting_user=acting_user
        )
        moved_late += 1
    return len(moving) + moved_late


def substitute_seat(
    table: Table,
    absent_code: str,
    substitute: Registration,
    *,
    acting_user: User,
    reason: str = "",
) -> Substitution:
    """A substitute takes over the absent player's seat from the table's next hand.

    The hands already played stay with the player who played them (the seat's ``registration`` is not
    changed; the substitution is a :class:`~tournaments.models.Substitution` from hand n + 1); the standings
    count the seat as the event's substitute policy says (``scoring.substitutions``). The substitute is a
    registered substitute or any registered player not seated in this session."""
    check_length(Substitution, "reason", reason.strip(), label=gettext("The reason"))
    with table_write(table, acting_user=acting_user, action=AuditAction.SUBSTITUTION) as write:
        table = write.table
        seat = (
            Seat.objects.filter(table=table, registration__code=absent_code)
            .select_related("registration__player")
            .first()
        )
        if seat is None:
            raise ServiceError(
                gettext("Player %(absent_code)s does not sit at this table.") % {"absent_code": absent_code},
                code="not_at_table",
            )
        if substitute.tournament_id != table.round.tournament_id:
            raise ServiceError(
                gettext("The substitute is not registered in this event."), code="not_registered"
            )
        if substitute.pk == seat.registration_id:
            raise ServiceError(gettext("A player cannot substitute for themselves."), code="same_player")
        if Seat.objects.filter(round=table.round, registration=substitute).exists():
            raise ServiceError(
                gettext("%(substitute)s already has a seat in session %(number)s.")
                % {"substitute": substitute, "number": table.round.number},
                code="already_seated",
            )
        playing = Substitution.objects.filter(seat__round=table.round, substitute=substitute)
        if playing.exists():
            raise ServiceError(
                gettext("%(substitute)s already substitutes in session %(number)s.")
                % {"substitute": substitute, "number": table.round.number},
                code="already_seated",
            )
        if table.finished_at is not None:
            raise ServiceError(
                gettext("This table is marked complete; reopen it first."), code="table_finished"
            )
        played = Hand.objects.in_force().filter(table=table).count()
        from_hand = played + 1
        limit = table.round.tournament.rule_set.hands_allowed(table.round.tournament.hands_per_session)
        if limit is not None and played >= limit:
            raise ServiceError(
                gettext("All %(limit)s hands of this session are played.") % {"limit": limit},
                code="session_over",
            )
        substitution = Substitution.objects.create(
            seat=seat,
            substitute=substitute,
            from_hand=from_hand,
            reason=reason.strip(),
            created_by=acting(acting_user),
        )
        write.done(
            f"{substitute} takes over {seat.registration}'s seat ({seat.wind}) from hand {from_hand}",
            seat=seat.wind,
            absent=absent_code,
            substitute=substitute.code,
            from_hand=from_hand,
        )
    return substitution


@transaction.atomic
def substitute_new_player(
    table: Table,
    absent_code: str,
    name: str,
    *,
    acting_user: User,
    reason: str = "",
    joins_event: bool = False,
) -> Substitution:
    """Register someone new and let them take over the seat, both or neither. By default they are
    registered as a substitute (a reserve: never ranked, not seated in later sessions); with
    ``joins_event`` as a player of the event from now on."""
    check_length(Substitution, "reason", reason.strip(), label=gettext("The reason"))
    incoming = registrations.register_player(
        table.round.tournament, registrations.PlayerRow(name=name), acting_user=acting_user
    )
    if not joins_event:
        Registration.objects.filter(pk=incoming.pk).update(is_substitute=True)
        incoming.is_substitute = True
    return substitute_seat(table, absent_code, incoming, acting_user=acting_user, reason=reason)
