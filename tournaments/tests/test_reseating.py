"""Re-seating never deletes anything entered: planned outside any transaction, stored in a
short locked one that checks again; sessions with anything entered are history."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from scoring.models import Appeal, Hand, LateArrival, Penalty
from scoring.services import appeals, entry, penalties
from tests.threads import patiently
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Seat, Table
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating
from tournaments.services import reseating as event_reseating


def make_event(players: int = 16, sessions: int = 3, name: str = "Reseat Open"):
    organiser = get_user_model().objects.create_user(f"org-{name}", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name=name, num_sessions=sessions, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for n in range(players):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=f"Player {n:02}"), acting_user=organiser
        )
    return tournament, organiser


def seats_of(tournament, number: int) -> list[tuple[int, str, str]]:
    return sorted(
        Seat.objects.filter(round__tournament=tournament, round__number=number).values_list(
            "table__number", "wind", "registration__code"
        )
    )


@pytest.mark.django_db
def test_a_session_with_only_a_penalty_and_an_appeal_is_never_reseated():
    tournament, organiser = make_event()
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    before = seats_of(tournament, 2)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    offender = table.seats.first().registration
    penalty = penalties.add_penalty(
        table, offender, 10, paid_to="each_other", rule="84", acting_user=organiser
    )
    appeals.file_appeal(
        penalty, statement="I did not", signed_by="The player", fee_received=True, acting_user=organiser
    )
    with pytest.raises(ServiceError) as refused:
        event_reseating.seat_remaining(tournament, 2, acting_user=organiser)
    assert refused.value.code == "round_has_results"
    assert "Session 2 already has penalties" in refused.value.message
    assert Penalty.objects.filter(pk=penalty.pk).exists()
    assert Appeal.objects.filter(penalty=penalty).count() == 1
    assert seats_of(tournament, 2) == before
    # The sessions after it can still be re-seated.
    event_reseating.seat_remaining(tournament, 3, acting_user=organiser)
    assert reseating.replaceable_from(tournament) == 3


@pytest.mark.django_db
def test_lateness_entered_between_planning_and_storing_refuses_the_plan_and_is_kept():
    tournament, organiser = make_event()
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    proposal = reseating.propose(tournament, 2)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    late = penalties.record_late(table, table.seats.first().registration, 7, acting_user=organiser)
    audit_rows = AuditEntry.objects.count()
    with pytest.raises(ServiceError) as refused:
        reseating.store(proposal, acting_user=organiser)
    assert refused.value.code == "round_has_results"
    assert "lateness" in refused.value.message.lower() or "late" in refused.value.message.lower()
    assert LateArrival.objects.filter(pk=late.pk).exists()
    assert AuditEntry.objects.count() == audit_rows


@pytest.mark.django_db
def test_a_previewed_plan_is_stored_as_previewed_and_an_altered_one_is_refused():
    tournament, organiser = make_event()
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    proposal = reseating.propose(tournament, 2, seed=5)
    token = proposal.token()
    again = reseating.from_token(tournament, token)
    assert again.rounds == proposal.rounds
    assert again.quality.repeated_pairs == proposal.quality.repeated_pairs
    reseating.store(again, acting_user=organiser)
    stored = seats_of(tournament, 2)
    planned = sorted(
        (table.number, wind, code)
        for table in proposal.rounds[0].tables
        for wind, code in zip("ESWN", table.seats, strict=True)
    )
    assert stored == planned
    with pytest.raises(ServiceError) as refused:
        reseating.from_token(tournament, token[:-3] + "abc")
    assert refused.value.code == "bad_plan"


@pytest.mark.django_db
def test_a_plan_made_before_a_late_arrival_checked_in_is_refused_as_stale():
    tournament, organiser = make_event(players=12)
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    proposal = reseating.propose(tournament, 2)
    for n in range(4):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=f"Late {n}"), acting_user=organiser
        )
    with pytest.raises(ServiceError) as refused:
        reseating.store(proposal, acting_user=organiser)
    assert refused.value.code == "stale"
    # Planned again, the rest of the event has one table more; session 1 is history.
    session_one = seats_of(tournament, 1)
    proposal = reseating.propose(tournament, 2)
    assert (proposal.tables_before, proposal.tables_after) == (3, 4)
    reseating.store(proposal, acting_user=organiser)
    assert Table.objects.filter(round__tournament=tournament, round__number=3).count() == 4
    assert seats_of(tournament, 1) == session_one


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_results_saved_while_the_event_is_reseated_are_never_lost():
    """Eight referees save lateness, penalties and hands at session 2's tables while the organiser
    re-seats from session 2, on whatever database the suite runs (CI reruns it on PostgreSQL): every
    write reported as saved is still there at the end, and the re-seat either happened before any of
    them (they were refused) or was refused."""
    tournament, organiser = make_event(players=16, name="Race Open")
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=2).order_by("number"))
    seats = {t.pk: list(t.seats.select_related("registration")) for t in tables}
    start = threading.Barrier(9)
    saved: list[tuple[str, int]] = []
    refused: list[str] = []
    reseat: list[str] = []
    lock = threading.Lock()

    def referee(index: int) -> None:
        table = tables[index % len(tables)]
        seat = seats[table.pk][index % 4]
        try:
            start.wait()
            if index % 3 == 0:
                row = patiently(
                    lambda: penalties.record_late(table, seat.registration, 3 + index, acting_user=organiser)
                )
                kind = "late"
            elif index % 3 == 1:
                row = patiently(
                    lambda: penalties.add_penalty(
                        table, seat.registration, 5, paid_to="none", acting_user=organiser
                    )
                )
                kind = "penalty"
            else:
                row = patiently(
                    lambda: entry.record_hand(table, entry.HandEntry(winner=None), acting_user=organiser)
                )
                kind = "hand"
            with lock:
                saved.append((kind, row.pk))
        except ServiceError as error:
            with lock:
                refused.append(error.code)
        finally:
            connection.close()

    def organiser_reseats() -> None:
        try:
            start.wait()
            patiently(lambda: event_reseating.seat_remaining(tournament, 2, acting_user=organiser, seed=3))
            reseat.append("stored")
        except ServiceError as error:
            reseat.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=referee, args=(i,)) for i in range(8)]
    threads.append(threading.Thread(target=organiser_reseats))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert reseat in (["stored"], ["round_has_results"])
    models = {"late": LateArrival, "penalty": Penalty, "hand": Hand}
    for kind, pk in saved:
        assert models[kind].objects.filter(pk=pk).exists(), f"{kind} {pk} was saved, then lost"
    assert len(saved) + len(refused) == 8
    assert set(refused) <= {"table_gone", "not_at_table"}
    if reseat == ["round_has_results"]:
        assert saved


@pytest.mark.django_db
def test_a_hand_posted_to_a_table_removed_by_a_reseat_is_refused_plainly():
    tournament, organiser = make_event()
    event_reseating.seat_remaining(tournament, 1, acting_user=organiser)
    stale = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    event_reseating.seat_remaining(tournament, 2, acting_user=organiser, seed=9)
    with pytest.raises(ServiceError) as refused:
        entry.record_hand(stale, entry.HandEntry(winner=None), acting_user=organiser)
    assert refused.value.code == "table_gone"
    assert "nothing was saved" in refused.value.message
    assert not Hand.objects.exists()
