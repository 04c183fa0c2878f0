"""The organiser's cut to the final (``scoring.rules.finals``): one action, refused until the qualifying
sessions are confirmed and published, that seats the top 4, 8 or 16 by rank at the final sessions
(``tournaments.seating.finals``) and records who went through in the event's settings (``finals.made``),
audited; undone while nothing is entered at a final table. With ``finals.seating`` "reseat" the cut seats
the first final session only, and each later one is seated here by the final standings so far
(:func:`seat_next_session`), undone while nothing is entered at it (:func:`undo_next_session`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.rules.finals import Cut, cut_of, planned, reseats
from scoring.rules.settings import with_value
from tournaments import results
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import Round, Tournament
from tournaments.seating.finals import final_round, reseeded
from tournaments.services.seating import check_replaceable, entered_at, store_round

MADE = "finals.made"


def final_rounds(tournament: Tournament, after: int) -> list[Round]:
    """The sessions after the last qualifying one: the final."""
    return list(tournament.rounds.filter(number__gt=after).order_by("number"))


def check_not_final(tournament: Tournament, rounds: Sequence[Round]) -> None:
    """Refuse to seat a final session by the engine once the cut seated it (undo the cut first)."""
    cut = cut_of(tournament.settings)
    final = [round_.number for round_ in rounds if cut is not None and round_.number > cut.after]
    if final:
        raise ServiceError(
            gettext(
                "Session %(number)s is a final session, seated by the cut; undo the cut to seat it otherwise."
            )
            % {"number": final[0]},
            code="final_session",
        )


def _check_qualifying(tournament: Tournament, after: int) -> None:
    """Every qualifying session seated, every table confirmed, the results published; else refused."""
    rounds = {round_.number: round_ for round_ in tournament.rounds.filter(number__lte=after)}
    for number in range(1, after + 1):
        round_ = rounds.get(number)
        if round_ is None or round_.seated_at is None or not round_.tables.exists():
            raise ServiceError(
                gettext("Session %(number)s is not seated yet: the cut follows the qualifying sessions.")
                % {"number": number},
                code="not_played",
            )
        unconfirmed = results.source().unconfirmed_tables(round_)
        if unconfirmed:
            raise ServiceError(
                gettext(
                    "Session %(number)s has %(count)s tables without a confirmed result; confirm them first."
                )
                % {"number": number, "count": unconfirmed},
                code="not_confirmed",
            )
        if round_.results_published_at is None:
            raise ServiceError(
                gettext("The results of session %(number)s are not published yet; publish them first.")
                % {"number": number},
                code="not_published",
            )


def _finalists(tournament: Tournament, size: int, after: int) -> list[str]:
    """The top ``size`` of the qualifying order; refused when there are too few or a tie straddles the cut."""
    order = results.source().qualifying_order(tournament, after)
    if len(order) < size:
        raise ServiceError(
            gettext("Only %(count)s players are ranked after session %(after)s; the cut needs %(size)s.")
            % {"count": len(order), "after": after, "size": size},
            code="too_few",
        )
    if len(order) > size and order[size - 1][1] == order[size][1]:
        raise ServiceError(
            gettext(
                "%(first)s and %(second)s share place %(rank)s at the cut; add a tie-break in the event "
                "settings (the draw of lots decides any tie) before the cut."
            )
            % {"first": order[size - 1][0], "second": order[size][0], "rank": order[size][1]},
            code="tied_at_cut",
        )
    return [code for code, _ in order[:size]]


@transaction.atomic
def make_cut(tournament: Tournament, *, acting_user: User) -> list[str]:
    """Cut to the top N after the qualifying sessions and seat them by rank at every final session (the
    event's settings ``finals.size`` and ``finals.after``); returns the finalists best first."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    size, after = planned(locked.settings)
    if not size:
        raise ServiceError(
            gettext(
                "Set the finals in the event settings first: how many go through, and after which session."
            ),
            code="no_finals",
        )
    if cut_of(locked.settings) is not None:
        raise ServiceError(gettext("The cut has been made already."), code="made")
    rounds = final_rounds(locked, after)
    if not rounds:
        raise ServiceError(
            gettext("The event has no session after session %(after)s to play the final in.")
            % {"after": after},
            code="no_final_session",
        )
    check_replaceable(rounds)
    _check_qualifying(locked, after)
    finalists = _finalists(locked, size, after)
    by_code = {r.code: r for r in locked.registrations.filter(code__in=finalists)}
    seated = rounds[:1] if reseats(locked.settings) else rounds
    for index, round_ in enumerate(seated):
        store_round(round_, final_round(finalists, index), by_code)
    for round_ in rounds[len(seated) :]:
        _unseat(round_)  # seated later by the final standings so far (seat_next_session)
    _store_cut(locked, tournament, {"after": after, "finalists": finalists})
    audit(
        locked,
        acting_user,
        AuditAction.FINALS_CUT,
        f"Cut to the top {size} after session {after}: {', '.join(finalists)}",
        after=after,
        finalists=finalists,
    )
    return finalists


def _store_cut(locked: Tournament, tournament: Tournament, made: dict[str, Any] | None) -> None:
    """The cut made (or taken back, ``None``) in the locked event's settings, the caller's copy kept in step;
    the standings change with it."""
    locked.settings = with_value(locked.settings, MADE, made)
    locked.save(update_fields=["settings"])
    tournament.settings = locked.settings
    bump_standings(locked)


@transaction.atomic
def undo_cut(tournament: Tournament, *, acting_user: User) -> None:
    """Take the cut back while nothing is entered at a final table: the final sessions lose their seating
    (and its publication), the event its finalists."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    cut = cut_of(locked.settings)
    if cut is None:
        raise ServiceError(gettext("No cut has been made."), code="no_cut")
    rounds = final_rounds(locked, cut.after)
    found = entered_at(rounds)
    if found is not None:
        raise ServiceError(
            gettext("The final has begun (%(found)s): the cut stays.") % {"found": found}, code="final_begun"
        )
    for round_ in rounds:
        _unseat(round_)
    _store_cut(locked, tournament, None)
    audit(
        locked,
        acting_user,
        AuditAction.FINALS_UNDONE,
        f"Cut after session {cut.after} undone",
        after=cut.after,
    )


def _unseat(round_: Round) -> None:
    """The session loses its tables and their publication (nothing entered: checked by the caller)."""
    round_.tables.all().delete()
    round_.seated_at = round_.seating_published_at = None
    round_.save(update_fields=["seated_at", "seating_published_at"])


def _reseating_cut(locked: Tournament) -> Cut:
    """The cut made, with the final re-seated each session; else refused."""
    cut = cut_of(locked.settings)
    if cut is None:
        raise ServiceError(gettext("No cut has been made."), code="no_cut")
    if not reseats(locked.settings):
        raise ServiceError(
            gettext("The final keeps its groups: the cut seated every final session."), code="fixed_groups"
        )
    return cut


def _check_played(round_: Round) -> None:
    """The final session before the one to seat: every table confirmed, the results published."""
    unconfirmed = results.source().unconfirmed_tables(round_)
    if unconfirmed:
        raise ServiceError(
            gettext(
                "Session %(number)s has %(count)s tables without a confirmed result; the next final "
                "session is seated by the standings after it."
            )
            % {"number": round_.number, "count": unconfirmed},
            code="not_confirmed",
        )
    if round_.results_published_at is None:
        raise ServiceError(
            gettext(
                "The results of session %(number)s are not published yet; the next final session is "
                "seated by the standings after it."
            )
            % {"number": round_.number},
            code="not_published",
        )


def next_final_session(tournament: Tournament) -> Round | None:
    """The first final session not seated yet, when the final is re-seated each session (else None)."""
    cut = cut_of(tournament.settings)
    if cut is None or not reseats(tournament.settings):
        return None
    return next((r for r in final_rounds(tournament, cut.after) if r.seated_at is None), None)


@transaction.atomic
def seat_next_session(tournament: Tournament, *, acting_user: User) -> tuple[int, list[str]]:
    """Seat the next final session by the final standings after the one before (what the finalists carry
    over plus the final sessions played, MCR rule 73, seeds/003_2541481d343502a5.txt line 2321) in the
    cut's rank pattern (``tournaments.seating.finals``); refused until that session's tables are all
    confirmed and its results published. Returns the session's number and the finalists best first."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    cut = _reseating_cut(locked)
    rounds = final_rounds(locked, cut.after)
    index = next((i for i, r in enumerate(rounds) if r.seated_at is None), None)
    if index is None:
        raise ServiceError(gettext("Every final session is seated."), code="all_seated")
    round_ = rounds[index]
    if index == 0:
        order = list(cut.finalists)
    else:
        _check_played(rounds[index - 1])
        order = reseeded(results.source().final_order(locked, rounds[index - 1].number), cut.finalists)
    check_replaceable([round_])
    by_code = {r.code: r for r in locked.registrations.filter(code__in=order)}
    store_round(round_, final_round(order, index), by_code)
    audit(
        locked,
        acting_user,
        AuditAction.FINALS_RESEATED,
        f"Final session {round_.number} seated by the final standings: {', '.join(order)}",
        round=round_.number,
        order=order,
    )
    return round_.number, order


@transaction.atomic
def undo_next_session(tournament: Tournament, *, acting_user: User) -> int:
    """Take back the last final session seated after the cut, while nothing is entered at it (the first
    final session goes with the cut); returns its number."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    cut = _reseating_cut(locked)
    later = [r for r in final_rounds(locked, cut.after)[1:] if r.seated_at is not None]
    if not later:
        raise ServiceError(
            gettext("No later final session is seated; the first one goes with the cut."), code="none_seated"
        )
    round_ = later[-1]
    found = entered_at([round_])
    if found is not None:
        raise ServiceError(
            gettext("Session %(number)s has begun (%(found)s): its seating stays.")
            % {"number": round_.number, "found": found},
            code="session_begun",
        )
    _unseat(round_)
    audit(
        locked,
        acting_user,
        AuditAction.FINALS_RESEAT_UNDONE,
        f"Seating of final session {round_.number} undone",
        round=round_.number,
    )
    return round_.number
