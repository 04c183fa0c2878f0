"""A player's seat now and next (tournaments/services/player_seats.py), the one rule the kiosk, the
call-a-referee button and the player's own page share: the latest published session whose table has begun,
until its result is confirmed; substitutes at the seat they took over; a fixed number of queries."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.services import confirmation, seat_changes
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from tournaments.models import Round, Seat, Table
from tournaments.services import player_seats, registrations, reseating

pytestmark = pytest.mark.django_db


def play(table, referee, hands: int = 4) -> None:
    for _ in range(hands):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


@pytest.fixture
def two_sessions(event, organiser):
    """The event with session 2 seated too (both published, as the fixture publishes everything)."""
    reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    return event


def east_of(table):
    return table.seats.get(wind="E").registration


def test_before_play_now_is_the_first_session_and_next_the_second(two_sessions, table):
    ana = east_of(table)
    seats = player_seats.seat_now(ana)
    assert seats.now.table == table and seats.coming == seats.now and seats.table == table
    assert seats.next.round.number == 2 and seats.next.registration_id == ana.pk


def test_a_complete_table_stays_now_until_confirmed_then_the_next_session(
    two_sessions, table, referee, organiser
):
    ana = east_of(table)
    play(table, referee)
    assert player_seats.seat_now(ana).now.table == table  # waiting for the signatures: still this table
    confirmation.confirm_table(table, acting_user=organiser)
    seats = player_seats.seat_now(ana)
    assert seats.now.round.number == 2 and seats.coming == seats.now and seats.next is None


def test_playing_the_next_session_is_now_even_before_the_last_is_confirmed(two_sessions, table, referee):
    ana = east_of(table)
    play(table, referee)
    later = ana.seats.get(round__number=2).table
    play(later, referee, hands=1)
    assert player_seats.seat_now(ana).table == later


def test_when_every_table_is_confirmed_the_last_stays_shown_with_no_seat_to_go_to(
    event, table, referee, organiser
):
    ana = east_of(table)
    play(table, referee)
    confirmation.confirm_table(table, acting_user=organiser)
    seats = player_seats.seat_now(ana)  # session 2 is published but not seated: no seat there
    assert seats.now.table == table and seats.now_confirmed and seats.coming is None and seats.next is None


def test_a_substitute_holds_the_seat_taken_over_and_the_player_replaced_keeps_it(
    event, table, referee, organiser
):
    absent = east_of(table)
    newcomer = registrations.register_player(
        event, registrations.PlayerRow(name="Zed Newcomer"), acting_user=organiser
    )
    play(table, referee, hands=1)
    seat_changes.substitute_seat(table, absent.code, newcomer, acting_user=organiser)
    assert player_seats.seat_now(newcomer).table == table
    assert player_seats.seat_now(absent).table == table


def test_a_draft_seating_is_no_seat(event, table):
    event.rounds.update(seating_published_at=None)
    seats = player_seats.seat_now(east_of(table))
    assert seats.now is None and seats.next is None and seats.table is None and seats.coming is None


def _more_sessions(event, count: int) -> None:
    """Copies of session 1's seating as sessions 3, 4, ... (published), made directly: only their number
    matters to the query count."""
    first = event.rounds.get(number=1)
    for number in range(3, 3 + count):
        round_ = Round.objects.create(tournament=event, number=number, seating_published_at=timezone.now())
        for table in first.tables.all():
            copy = Table.objects.create(round=round_, number=table.number)
            Seat.objects.bulk_create(
                Seat(table=copy, round=round_, registration=seat.registration, wind=seat.wind)
                for seat in table.seats.all()
            )


def test_the_seat_now_costs_the_same_few_queries_for_any_number_of_sessions(
    event, table, referee, django_assert_max_num_queries
):
    ana = east_of(table)
    play(table, referee, hands=2)
    _more_sessions(event, 12)
    ana.refresh_from_db()
    with django_assert_max_num_queries(5):
        seats = player_seats.seat_now(ana)
        opponents = [s.registration.player.name for s in seats.now.table.seats.all()]  # prefetched
    assert seats.now.table == table and seats.next.round.number == 3 and len(opponents) == 4
