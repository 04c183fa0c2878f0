"""Seats and the rows behind them: who is seated, the substitutes the engine asks for, a session's tables
stored from a plan, what was entered at a session's tables (which keeps it as history), and the
organiser's hand edits of a seating (a swap, a fixed table).

Planning and storing a whole plan is ``tournaments.services.reseating``; a prepared seating uploaded is
``seating_upload``; the background jobs are ``seating_jobs``; who played a seat after a substitute came
in is ``substitutions``. Moving entered hands with a seat after play is ``scoring/services/seat_changes.py``
(only ``scoring`` may touch results)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from players.models import Player
from tournaments import results
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Registration, Round, Seat, Table, Tournament
from tournaments.seating import RoundSeating, SeatingError
from tournaments.services.kept_apart import code_pairs


def round_has_results(round_: Round) -> bool:
    """Whether anything was scored in the session (asked of ``scoring`` through ``results.source()``)."""
    return results.source().round_has_results(round_)


def seating_players(tournament: Tournament) -> list[Registration]:
    """Who is seated: the checked-in players, or everyone when nobody has been checked in yet
    (substitutes are added by the engine when the event's policy asks for them); never a withdrawn
    player."""
    registrations = list(
        tournament.registrations.filter(is_substitute=False, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )
    checked_in = [r for r in registrations if r.checked_in]
    return checked_in or registrations


def substitute(tournament: Tournament, code: str) -> Registration:
    """The substitute registration for an engine id such as ``sub-1`` (made on first use)."""
    existing = tournament.registrations.filter(code=code).first()
    if existing is not None:
        return existing
    number = code.removeprefix("sub-").rstrip("'")
    player = Player.objects.create(name=f"Substitute {number}")
    return Registration.objects.create(tournament=tournament, player=player, code=code, is_substitute=True)


def store_round(round_: Round, seating: RoundSeating, by_code: dict[str, Registration]) -> list[Table]:
    """Replace the session's tables with the plan's (``by_code``: engine id -> registration). Call it
    inside the caller's locked transaction, after ``check_replaceable``: deleting a table deletes what
    was entered there."""
    round_.tables.all().delete()
    tables = []
    for table_plan in seating.tables:
        table = Table.objects.create(round=round_, number=table_plan.number)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, registration=by_code[code], wind=wind)
            for wind, code in zip(WINDS, table_plan.seats, strict=True)
        )
        tables.append(table)
    round_.seated_at = timezone.now()
    round_.save(update_fields=["seated_at"])
    return tables


def engine_error(error: SeatingError) -> ServiceError:
    """The engine's refusal as the organiser reads it, with what to do when the players do not make
    whole tables."""
    message = error.message if hasattr(error, "message") else str(error)
    if error.code == "not_multiple_of_four":
        message += " Register or check in substitutes, or choose a substitute policy in the event settings."
    return ServiceError(message, code=error.code)


@transaction.atomic
def swap_seats(round_: Round, code_a: str, code_b: str, *, acting_user: User) -> None:
    """Exchange two players' seats in an unplayed session (each takes the other's table and wind)."""
    found = entered_at([round_])
    if found is not None:
        raise ServiceError(
            gettext(
                "Session %(number)s already has %(split)s; fix seats after play with the seat "
                "correction, which moves the hands too."
            )
            % {"number": round_.number, "split": found.split(" in session")[0]},
            code="round_has_results",
        )
    if code_a == code_b:
        raise ServiceError(gettext("Choose two different players."), code="same_player")
    seats = {
        s.registration.code: s
        for s in Seat.objects.filter(round=round_).select_related("registration__player", "table")
    }
    missing = [code for code in (code_a, code_b) if code not in seats]
    if missing:
        raise ServiceError(
            gettext("Player %(missing)s has no seat in session %(number)s.")
            % {"missing": missing[0], "number": round_.number},
            code="not_seated",
        )
    first, second = seats[code_a], seats[code_b]
    _check_swap(first, second, seats.values(), code_pairs(round_.tournament))
    # Each takes the other's seat; delete then re-create, as one player may hold one seat per session.
    Seat.objects.filter(pk__in=[first.pk, second.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=second.table_id, round=round_, registration=first.registration, wind=second.wind),
            Seat(table_id=first.table_id, round=round_, registration=second.registration, wind=first.wind),
        ]
    )
    bump_standings(round_.tournament)
    audit(
        round_.tournament,
        acting_user,
        AuditAction.SWAP_SEATS,
        f"Session {round_.number}: swapped {code_a} and {code_b}",
        round=round_.number,
        players=[code_a, code_b],
    )


def _check_swap(
    first: Seat, second: Seat, seats: Iterable[Seat], pairs: frozenset[frozenset[str]] = frozenset()
) -> None:
    """A swap may not move a player off their fixed table nor put teammates, or a kept-apart pair
    (``tournaments.services.kept_apart``), at one table."""
    tables = {first.table_id: first.table, second.table_id: second.table}
    for moving, target in ((first, second), (second, first)):
        fixed = moving.registration.fixed_table
        if fixed is not None and tables[target.table_id].number != fixed:
            raise ServiceError(
                gettext("%(registration)s must stay at table %(fixed)s (fixed table).")
                % {"registration": moving.registration, "fixed": fixed},
                code="breaks_fixed_table",
            )
    if first.table_id == second.table_id:
        return
    for moving, target in ((first, second), (second, first)):
        team = moving.registration.team
        if not team:
            continue
        mates = [
            s.registration
            for s in seats
            if s.table_id == target.table_id and s.pk != target.pk and s.registration.team == team
        ]
        if mates:
            raise ServiceError(
                gettext("%(registration)s would sit with teammate %(mates)s (%(team)s).")
                % {"registration": moving.registration, "mates": mates[0], "team": team},
                code="breaks_apart",
            )
    for moving, target in ((first, second), (second, first)):
        others = [s.registration for s in seats if s.table_id == target.table_id and s.pk != target.pk]
        kept = [r for r in others if frozenset((moving.registration.code, r.code)) in pairs]
        if kept:
            raise ServiceError(
                gettext(
                    "%(registration)s and %(other)s are kept apart: the swap would seat them at one table."
                )
                % {"registration": moving.registration, "other": kept[0]},
                code="breaks_apart",
            )


@transaction.atomic
def set_fixed_table(registration: Registration, table: int | None, *, acting_user: User) -> None:
    """Keep a player at one table in every later plan (a player who cannot move; ``None`` frees them)."""
    Registration.objects.filter(pk=registration.pk).update(fixed_table=table)
    registration.fixed_table = table
    audit(
        registration.tournament,
        acting_user,
        AuditAction.FIXED_TABLE,
        f"{registration} fixed to table {table}",
    )


def round_results_exist(tournament: Tournament) -> bool:
    """Whether any session of the event has results (settings that rescore them are then locked)."""
    return any(round_has_results(round_) for round_ in tournament.rounds.all())


# --- what was entered ------------------------------------------------------------------------------


def entered_at(rounds: Sequence[Round]) -> str | None:
    """What was entered at the tables of these sessions, in words ("penalties in session 2"), or None.

    Every model with a foreign key to ``Table`` or ``Seat`` is asked, except the seats themselves:
    results, penalties, lateness, appeals (through their penalty), confirmations, substitutions and
    whatever is added later. Anything there would be deleted with the tables, so its session cannot be
    re-seated."""
    if not rounds or not Table.objects.filter(round__in=rounds).exists():
        return None  # a session without tables has nothing entered (one query instead of one per model)
    relations = [(r, "round") for r in Table._meta.related_objects]
    relations += [(r, "round") for r in Seat._meta.related_objects]
    for relation, to_round in relations:
        model = relation.related_model
        if model is Seat or not hasattr(model, "_default_manager"):
            continue
        path = f"{relation.field.name}__{to_round}"
        found = (
            model._default_manager.filter(**{f"{path}__in": list(rounds)})  # type: ignore[union-attr]
            .order_by()
            .values_list(f"{path}__number", flat=True)
            .first()
        )
        if found is not None:
            label = model._meta.verbose_name_plural  # type: ignore[union-attr]
            return f"{label} in session {found}"
    if any(results.source().round_has_results(r) for r in rounds):
        return f"results in session {rounds[0].number}"
    return None


def check_replaceable(rounds: Sequence[Round]) -> None:
    """Refuse to replace the seating of a session with anything entered: it is history, only followed."""
    for round_ in rounds:
        found = entered_at([round_])
        if found is not None:
            raise ServiceError(
                gettext(
                    "Session %(number)s already has %(split)s; sessions with anything entered are "
                    "kept as they are. Re-seat from a later session."
                )
                % {"number": round_.number, "split": found.split(" in session")[0]},
                code="round_has_results",
            )
