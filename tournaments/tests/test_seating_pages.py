"""The seating engine in the event: whole plans, substitutes, sit-outs, fixed tables, swaps, the report."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.urls import reverse

from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Registration, Seat
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating, seating


@pytest.fixture
def sixteen(organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Sixteen Open", num_sessions=5, hands_per_session=4),
        acting_user=organiser,
    )
    for n in range(16):
        registrations.register_player(
            tournament,
            registrations.PlayerRow(name=f"Player {n:02d}", team=f"Club {n % 4}" if n < 8 else ""),
            acting_user=organiser,
        )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    return tournament


def pairs_met(tournament):
    met = []
    for round_ in tournament.rounds.all():
        for table in round_.tables.all():
            codes = sorted(table.seats.values_list("registration__code", flat=True))
            met.extend(combinations(codes, 2))
    return met


def test_a_whole_plan_of_five_sessions_for_sixteen_players_never_repeats_a_pair(sixteen, organiser):
    # 16 players over 5 rounds: the affine plane of order 4 lets every pair meet exactly once
    # (without teams: keeping teammates apart would forbid some of those meetings).
    sixteen.registrations.update(team="")
    assert reseating.seat_remaining(sixteen, 1, acting_user=organiser) == 5
    met = pairs_met(sixteen)
    assert len(met) == 5 * 4 * 6
    assert len(set(met)) == len(met)


def test_reseating_from_a_later_session_keeps_the_earlier_ones(sixteen, organiser, referee):
    from scoring.services.entry import HandEntry, record_hand

    reseating.seat_remaining(sixteen, 1, acting_user=organiser)
    first = list(Seat.objects.filter(round__number=1).values_list("registration_id", "table__number", "wind"))
    record_hand(sixteen.rounds.get(number=1).tables.first(), HandEntry(winner=None), acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        reseating.seat_remaining(sixteen, 1, acting_user=organiser)
    assert error.value.code == "round_has_results"
    reseating.seat_remaining(sixteen, 2, acting_user=organiser, seed=7)
    after = list(Seat.objects.filter(round__number=1).values_list("registration_id", "table__number", "wind"))
    assert after == first


def test_a_late_arrival_is_seated_from_the_next_session_with_a_substitute_policy(sixteen, organiser):
    reseating.generate_seating(sixteen.rounds.get(number=1), acting_user=organiser)
    registrations.register_player(sixteen, registrations.PlayerRow(name="Late Lou"), acting_user=organiser)
    event_services.set_seating_options(
        sixteen, substitute_policy="substitutes", swiss=False, time_limit=0.5, acting_user=organiser
    )
    reseating.seat_remaining(sixteen, 2, acting_user=organiser)
    round_two = sixteen.rounds.get(number=2)
    assert round_two.tables.count() == 5
    assert Seat.objects.filter(round=round_two, registration__player__name="Late Lou").exists()
    substitutes = Registration.objects.filter(tournament=sixteen, is_substitute=True)
    assert substitutes.count() == 3
    assert Seat.objects.filter(round=round_two, registration__in=substitutes).count() == 3
    from scoring.standings_cache import standings_rows

    assert not any(row["player"].startswith("sub-") for row in standings_rows(sixteen))


def test_sit_outs_leave_players_out_in_turn(sixteen, organiser):
    registrations.register_player(sixteen, registrations.PlayerRow(name="Extra Eve"), acting_user=organiser)
    event_services.set_seating_options(
        sixteen, substitute_policy="sit_out", swiss=False, time_limit=0.5, acting_user=organiser
    )
    reseating.seat_remaining(sixteen, 1, acting_user=organiser)
    for round_ in sixteen.rounds.all():
        assert Seat.objects.filter(round=round_).count() == 16


def test_a_player_with_a_fixed_table_always_sits_there(sixteen, organiser):
    registration = sixteen.registrations.get(player__name="Player 05")
    seating.set_fixed_table(registration, 2, acting_user=organiser)
    reseating.seat_remaining(sixteen, 1, acting_user=organiser)
    assert set(Seat.objects.filter(registration=registration).values_list("table__number", flat=True)) == {2}


def test_teammates_do_not_meet(sixteen, organiser):
    reseating.seat_remaining(sixteen, 1, acting_user=organiser)
    teams = dict(sixteen.registrations.values_list("code", "team"))
    for a, b in pairs_met(sixteen):
        assert not (teams[a] and teams[a] == teams[b]), (a, b)


def test_a_swap_exchanges_two_seats_and_is_logged(sixteen, organiser):
    reseating.generate_seating(sixteen.rounds.get(number=1), acting_user=organiser)
    round_ = sixteen.rounds.get(number=1)
    seats = list(
        Seat.objects.filter(round=round_).select_related("registration").order_by("table__number", "wind")
    )
    free = [s for s in seats if not s.registration.team]
    a = free[0]
    b = next(s for s in free if s.table_id != a.table_id)
    seating.swap_seats(round_, a.registration.code, b.registration.code, acting_user=organiser)
    assert Seat.objects.get(round=round_, registration=a.registration).table_id == b.table_id
    assert Seat.objects.get(round=round_, registration=b.registration).wind == a.wind
    assert AuditEntry.objects.filter(action="swap_seats", actor=organiser).exists()
    with pytest.raises(ServiceError) as error:
        seating.swap_seats(round_, a.registration.code, a.registration.code, acting_user=organiser)
    assert error.value.code == "same_player"


def test_the_session_page_shows_the_quality_report_and_a_swap_rescores_it(client, sixteen, organiser):
    reseating.generate_seating(sixteen.rounds.get(number=1), acting_user=organiser)
    reseating.generate_seating(sixteen.rounds.get(number=2), acting_user=organiser)
    client.force_login(organiser)
    url = reverse("manage:session", args=[sixteen.slug, 2])
    page = client.get(url).content.decode()
    assert 'data-measure="repeated_pairs">0<' in page
    round_two = sixteen.rounds.get(number=2)
    first_table = list(round_two.tables.get(number=1).seats.values_list("registration__code", flat=True))
    # Put a round-1 tablemate of the first player at the same table: a repeated pair appears.
    round_one_table = Seat.objects.get(round__number=1, registration__code=first_table[0]).table
    mate = next(
        c for c in round_one_table.seats.values_list("registration__code", flat=True) if c != first_table[0]
    )
    if mate not in first_table:
        response = client.post(
            reverse("manage:swap", args=[sixteen.slug, 2]), {"a": first_table[1], "b": mate}, follow=True
        )
        page = response.content.decode()
        assert "Players swapped" in page
        assert 'data-measure="repeated_pairs">0<' not in page


def test_seating_options_are_validated(sixteen, organiser):
    with pytest.raises(ServiceError):
        event_services.set_seating_options(
            sixteen, substitute_policy="magic", swiss=False, time_limit=0.5, acting_user=organiser
        )
    with pytest.raises(ServiceError):
        event_services.set_seating_options(
            sixteen, substitute_policy="none", swiss=False, time_limit=0, acting_user=organiser
        )


def test_a_swap_that_breaks_a_fixed_table_or_seats_teammates_together_is_refused(sixteen, organiser):
    reseating.generate_seating(sixteen.rounds.get(number=1), acting_user=organiser)
    round_ = sixteen.rounds.get(number=1)
    seats = list(Seat.objects.filter(round=round_).select_related("registration", "table"))
    # Fixed table: a player pinned to their current table cannot move to another.
    pinned = seats[0]
    other = next(s for s in seats if s.table_id != pinned.table_id and not s.registration.team)
    seating.set_fixed_table(pinned.registration, pinned.table.number, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        seating.swap_seats(round_, pinned.registration.code, other.registration.code, acting_user=organiser)
    assert error.value.code == "breaks_fixed_table"
    # Teammates: move someone to the table of their teammate.
    member = next(s for s in seats if s.registration.team and s.pk != pinned.pk)
    mate = next(s for s in seats if s.registration.team == member.registration.team and s.pk != member.pk)
    swap_with = next(
        s
        for s in seats
        if s.table_id == mate.table_id and s.pk != mate.pk and not s.registration.team and s.pk != pinned.pk
    )
    before = list(Seat.objects.filter(round=round_).values_list("registration_id", "table_id", "wind"))
    with pytest.raises(ServiceError) as error:
        seating.swap_seats(
            round_, member.registration.code, swap_with.registration.code, acting_user=organiser
        )
    assert error.value.code == "breaks_apart"
    assert (
        list(Seat.objects.filter(round=round_).values_list("registration_id", "table_id", "wind")) == before
    )
