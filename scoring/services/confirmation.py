"""Who confirms a table's result, as the event's settings say (``confirmation.by``): a second referee,
or the table's players signing with the PIN printed on their seat slip (Sloper rule 72: "each player
signs his score", shared/seeds/003_2541481d343502a5.txt line 2320; the PINs and signing are
``services.pins``), optionally after a blind second entry of the score sheet that must agree with the
first.

A confirmation does not change the result, so it is not a :func:`services.kernel.table_write`: each
write here is a transaction holding the table's lock (``services.kernel.lock_table``) and writes its own
audit entry; a confirmation makes the table count in the public standings (``bump_standings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import BlindEntry, Confirmation, ConfirmedBy, EntryToken, Hand, TableDispute, TableTotals
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import check_totals
from scoring.rules.settings import lookup
from scoring.services.entry_tokens import check_token, keep_token
from scoring.services.kernel import lock_table
from scoring.services.queries import is_confirmed, running_scores, table_with_results
from tournaments.access import has_role
from tournaments.audit import AuditAction, User, acting, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.messages import rule_message
from tournaments.models import WINDS, Role, Table, Tournament


def confirmation_by(tournament: Tournament) -> str:
    """ "referee", "players" or "either" (the event setting ``confirmation.by``)."""
    return str(lookup(tournament.settings, "confirmation.by", "either"))


def blind_entry_on(tournament: Tournament) -> bool:
    return bool(lookup(tournament.settings, "confirmation.blind_entry", False))


def referees_confirm(tournament: Tournament) -> bool:
    return confirmation_by(tournament) in ("referee", "either")


def players_sign(tournament: Tournament) -> bool:
    return confirmation_by(tournament) in ("players", "either")


def confirmed_by(table: Table) -> Confirmation | None:
    return next((c for c in table.confirmations.all() if c.is_in_force), None)


def entered_by(table: Table) -> set[int]:
    """Who entered the table's results now in force (their confirmation would be their own)."""
    # current(), not in_force(): whoever deleted a hand (a voided version) changed the result too.
    hands = table.hands.current().values_list("entered_by_id", flat=True)
    totals = table.totals_versions.current().values_list("entered_by_id", flat=True)
    return {user for user in (*hands, *totals) if user is not None}


def disputed(table: Table) -> bool:
    """Whether a player of the table said "I do not agree" and no referee has settled it yet
    (``services.disputes``): while so, nothing confirms the table."""
    return TableDispute.objects.filter(table=table, settled_at=None).exists()


def refuse_if_disputed(table: Table) -> None:
    """Refuse a confirmation or a signature while a disagreement is open."""
    if disputed(table):
        raise ServiceError(
            gettext("A player disagrees with this result: a referee settles it before it is confirmed."),
            code="disputed",
        )


@transaction.atomic
def confirm_table(table: Table, *, acting_user: User, how: str = ConfirmedBy.REFEREE) -> Confirmation:
    """Confirm a complete table's session result as a second person (rule 72; Tabbycat's confirmed
    ballots): from now on it counts in the public standings and every export. Confirming one's own
    entry is refused; confirming a confirmed table changes nothing (a repeated post is harmless)."""
    table = lock_table(table)
    current = Confirmation.objects.in_force().filter(table=table).first()
    if current is not None:
        return current
    refuse_if_disputed(table)
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
    if how == ConfirmedBy.REFEREE and (user is None or user.pk in entered_by(table)):
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


@dataclass(frozen=True)
class Difference:
    hand: int | None
    """The hand's number, or None for the session's totals."""
    first: dict[str, int] | None
    second: dict[str, int] | None


def first_entry(table: Table) -> tuple[list[dict[str, int]], dict[str, int]]:
    """The first entry as the score sheet has it: each hand's points per starting seat and the totals
    (hands and totals before penalties and lateness, which are the referee's). Prefetched table."""
    rows = [{seat: int(row["delta"][seat]) for seat in WINDS} for row in running_scores(table)]
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
    return BlindEntry.objects.in_force().filter(table=table).first()


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
    decided.

    Always, except under blind double entry while the table is unconfirmed (in play or complete):
    then the public sees nothing, and of the staff only those who entered results at the table and the
    organisers, who preview unconfirmed figures (docs/confirmation.md). Once a second entry is stored,
    the two entries are compared and every referee sees the first entry, to resolve the differences;
    once they agree the table is confirmed and everyone sees it. Prefetched ``confirmations``."""
    tournament = table.round.tournament
    if not blind_entry_on(tournament) or is_confirmed(table):
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
    token: UUID | None = None,
) -> tuple[BlindEntry, list[Difference]]:
    """The second, blind entry of a complete table's score sheet (``rows`` hand by hand, optional, and
    the ``totals``). When it agrees with the first entry the table is confirmed
    (``ConfirmedBy.BLIND``); when not, nothing is confirmed and the differences are returned (and shown
    to the referees on the table's page). The person who entered the results cannot make it.
    ``expected_version`` is the blind entry's version the form was made from (0: none): a repeated post
    is refused instead of stored twice; ``token`` makes a replay from a phone's queue a success, stored once
    (services.entry_tokens)."""
    rows = rows or []
    checked_rows = [_check_scores(row, f"Hand {number}") for number, row in enumerate(rows, start=1)]
    checked_totals = _check_scores(totals, "Totals")
    if checked_rows and {seat: sum(row[seat] for row in checked_rows) for seat in WINDS} != checked_totals:
        raise ServiceError(
            gettext("The hands entered do not add up to the totals entered."), code="bad_totals"
        )
    with transaction.atomic():
        table = lock_table(table)
        check_token(table, token)  # a replay of this entry: stored once, before it confirmed the table
        tournament = table.round.tournament
        if not blind_entry_on(tournament):
            raise ServiceError(gettext("This event does not use blind double entry."), code="not_allowed")
        loaded = table_with_results(table)
        if table_state(loaded) != "complete":
            raise ServiceError(
                gettext(
                    "The first entry is not complete yet: the second entry is made once the table is "
                    "complete."
                ),
                code="not_complete",
            )
        if is_confirmed(loaded):
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
        if user is None or user.pk in entered_by(table):
            raise ServiceError(
                gettext(
                    "You entered results at this table; the blind second entry must be made by someone else."
                ),
                code="own_entry",
            )
        entry = BlindEntry.supersede(
            table=table, rows=checked_rows, totals=checked_totals, acting_user=acting_user
        )
        keep_token(table, token, EntryToken.Kind.BLIND, entry.version)
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
            confirm_table(table, acting_user=acting_user, how=ConfirmedBy.BLIND)
        return entry, found


def confirm(table: Table, *, acting_user: User) -> Confirmation:
    """The table page's "confirm" button: under blind double entry, when the second entry agrees with
    the results now in force (a referee corrected the first entry after a disagreement), the table is
    confirmed as agreed, provided the second entry's author entered none of those results; otherwise
    a second referee confirms (:func:`confirm_table`, which refuses one's own entry)."""
    with transaction.atomic():
        table = lock_table(table)
        entry = current_blind_entry(table) if blind_entry_on(table.round.tournament) else None
        loaded = table_with_results(table)
        if entry is not None and not is_confirmed(loaded) and not differences(loaded, entry):
            if entry.entered_by_id in entered_by(table):
                raise ServiceError(
                    gettext(
                        "The second entry and the results now in force were both made by the same "
                        "person; another referee must confirm them."
                    ),
                    code="own_entry",
                )
            return confirm_table(table, acting_user=acting_user, how=ConfirmedBy.BLIND)
        return confirm_table(table, acting_user=acting_user)
