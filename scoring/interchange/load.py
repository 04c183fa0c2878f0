"""Document -> event: ``import_event`` writes a checked event document (``shared/specs/event-json.md``)
through the same service functions as the referee's pages, all or nothing, in one transaction."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from scoring.interchange.documents import EventImportError, hand_record_from_doc, player_row
from scoring.interchange.validate import validate_event
from scoring.models import (
    Appeal,
    AppealStatus,
    AppealSubject,
    Confirmation,
    ConfirmedBy,
    Hand,
    LateArrival,
    PaidTo,
    TableTotals,
)
from scoring.services import appeals, entry, penalties
from scoring.services.rulings import withdraw_disqualified
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.models import WINDS, Registration, Round, Seat, Table, Tournament
from tournaments.release import publish_everything
from tournaments.services.registrations import add_registration, clean_player_row
from tournaments.venue_time import default_time_zone


@transaction.atomic
def import_event(doc: Any, *, replace: bool = False, acting_user: User = None) -> Tournament:
    """Create the event of ``doc`` (or replace the one with its slug), or raise EventImportError."""
    problems = validate_event(doc)
    if not problems:
        slug = doc["tournament"]["slug"]
        existing = Tournament.objects.filter(slug=slug).first()
        if existing is not None and not replace:
            problems.append(
                f"tournament.slug: an event {slug!r} already exists (use --replace to replace it)"
            )
    if problems:
        raise EventImportError(problems)
    if existing is not None:
        _delete_event(existing)
    rounds_doc = sorted(doc.get("rounds", []), key=lambda r: r["number"])
    tournament = _create_tournament(doc["tournament"], rounds_doc)
    registrations: dict[str, Registration] = {}
    for player in doc["players"]:
        row = clean_player_row(player_row(player))
        registrations[player["id"]] = add_registration(
            tournament, dataclasses.replace(row, code=player["id"])
        )
    rounds = {
        n: Round.objects.create(tournament=tournament, number=n)
        for n in range(1, tournament.num_sessions + 1)
    }
    table_index: dict[tuple[int, int], Table] = {}
    for round_doc in rounds_doc:
        round_ = rounds[round_doc["number"]]
        for table_doc in round_doc.get("tables", []):
            table = _import_table(round_, table_doc, registrations, acting_user)
            table_index[round_.number, table.number] = table
        if round_doc.get("tables"):
            from django.utils import timezone

            round_.seated_at = timezone.now()
            round_.save(update_fields=["seated_at"])
    for appeal_doc in doc.get("appeals", []):
        _import_appeal(
            table_index[appeal_doc["round"], appeal_doc["table"]], appeal_doc, registrations, acting_user
        )

    withdraw_disqualified(tournament, acting_user=acting_user)  # MCR 77f, 89: not seated again
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        AuditAction.IMPORT_EVENT,
        f"Imported {tournament.name}",
        replaced=existing is not None,
    )
    # The document has no release state: an imported event is public with every session.
    return publish_everything(tournament, acting_user=acting_user)


def _create_tournament(info: Mapping[str, Any], rounds_doc: list[Mapping[str, Any]]) -> Tournament:
    """The event itself; without a count of hands or a time, a session is sixteen hands (MCR rule 74)."""
    settings = dict(info.get("settings", {}))
    hands_per_session = settings.pop("hands_per_session", None)
    session_minutes = settings.pop("session_minutes", None)
    if hands_per_session is None and session_minutes is None:
        hands_per_session = 16
    sessions = settings.pop("sessions", max([r["number"] for r in rounds_doc], default=1))
    time_zone = settings.pop("time_zone", None) or default_time_zone()
    return Tournament.objects.create(
        time_zone=time_zone,
        name=info["name"].strip(),
        slug=info["slug"],
        rules=info["rules"],
        num_sessions=max(sessions, max([r["number"] for r in rounds_doc], default=1)),
        hands_per_session=hands_per_session,
        session_minutes=session_minutes,
        settings=settings,
    )


def _import_table(
    round_: Round, table_doc: Mapping[str, Any], registrations: Mapping[str, Registration], acting_user: User
) -> Table:
    """One table of the document, written by the same service functions as the referee's pages."""
    table = Table.objects.create(
        round=round_,
        number=table_doc["number"],
        totals_only=bool(table_doc.get("totals_only") or "totals" in table_doc),
    )
    wind_of = {}
    for wind in WINDS:
        pid = table_doc["seats"][wind]
        Seat.objects.create(table=table, round=round_, registration=registrations[pid], wind=wind)
        wind_of[pid] = wind
    if "totals" in table_doc:
        TableTotals.supersede(
            table=table,
            scores={wind_of[pid]: score for pid, score in table_doc["totals"].items()},
            acting_user=acting_user,
        )
    rules = round_.tournament.rule_set
    entry.store_new_table_hands(
        table,
        [
            (hand_record_from_doc(hand, wind_of, rules), hand.get("tiles"))
            for hand in table_doc.get("hands", [])
        ],
        acting_user=acting_user,
    )
    has_results = bool(table_doc.get("hands")) or "totals" in table_doc
    if has_results and table_doc.get("confirmed", True):
        Confirmation.supersede(table=table, how=ConfirmedBy.IMPORT, acting_user=acting_user)
    for penalty in table_doc.get("penalties", []):
        paid_to = penalty.get("paid_to", PaidTo.NONE)
        receiver = registrations[paid_to] if paid_to in wind_of else None
        penalties.store_penalty(
            table,
            registrations[penalty["player"]],
            penalty["points"],
            paid_to=PaidTo.PLAYER if receiver is not None else paid_to,
            paid_to_player=receiver,
            rule=str(penalty.get("rule", "")),
            reason=str(penalty.get("reason", "")),
            acting_user=acting_user,
            outcome=penalty.get("outcome"),
            kind=str(penalty.get("kind", "")),
            hand_number=penalty.get("hand"),
        )
    for late in table_doc.get("late", []):
        penalties.store_late(table, registrations[late["player"]], late["minutes"], acting_user=acting_user)
    return table


def _import_appeal(
    table: Table, appeal_doc: Mapping[str, Any], registrations: Mapping[str, Registration], acting_user: User
) -> None:
    """An appeal and, unless pending, its decision (``appeals.store_decision``)."""
    appeal = Appeal.objects.create(
        **_appeal_target(table, appeal_doc, registrations),
        filed_minutes_after=appeal_doc.get("filed_minutes_after", 0),
        statement=appeal_doc.get("statement", ""),
        signed_by=appeal_doc.get("signed_by", ""),
        fee=appeal_doc.get("fee", 0),
    )
    if appeal_doc["status"] != AppealStatus.PENDING:
        appeals.store_decision(
            appeal, appeal_doc["status"], reasons=appeal_doc.get("reasons", ""), acting_user=acting_user
        )


def _appeal_target(table: Table, doc: Mapping[str, Any], registrations: Mapping[str, Any]) -> dict[str, Any]:
    """What an imported appeal is against: a penalty (by index), a lateness (by player) or a hand."""
    if "late" in doc:
        late = LateArrival.objects.current().get(table=table, registration=registrations[doc["late"]])
        return {
            "table": table,
            "subject": AppealSubject.LATENESS,
            "late_arrival": late,
            "appellant": late.registration,
            "ruling_at": late.created_at,
        }
    if "hand" in doc:
        hand = Hand.objects.current().get(table=table, number=doc["hand"])
        return {
            "table": table,
            "subject": AppealSubject.HAND,
            "hand_number": hand.number,
            "ruling_at": hand.created_at,
        }
    penalty = table.penalties.order_by("position")[doc["penalty"]]
    return {
        "table": table,
        "penalty": penalty,
        "appellant": penalty.registration,
        "ruling_at": penalty.created_at,
    }


def _delete_event(tournament: Tournament) -> None:
    """Remove an event and everything under it (registrations are RESTRICTed, so they go with it)."""
    tournament.delete()
