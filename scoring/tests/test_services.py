"""Result entry through the services: validation by the MCR rules, versions, audit, idempotence."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from scoring.services import appeals, penalties, queries, rulings, standings
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry


def test_it_records_a_hand_and_settles_it_by_rule_67(table, referee):
    entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=12), acting_user=referee)
    result = standings.session_result(queries.tables_with_results(table.round.tournament, table.round)[0])
    assert result.scores == {"E": 36, "S": -8, "W": -20, "N": -8}


def test_it_refuses_fan_points_below_eight(table, referee):
    # MCR rule 24 (seeds/003_2541481d343502a5.txt, line ~2206).
    with pytest.raises(ServiceError) as error:
        entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=7), acting_user=referee)
    assert error.value.code == "below_minimum"
    assert not Hand.objects.exists()


def test_it_refuses_a_winner_who_discarded(table, referee):
    with pytest.raises(ServiceError) as error:
        entry_service.record_hand(table, HandEntry(winner="S", discarder="S", fan=8), acting_user=referee)
    assert error.value.code == "winner_is_discarder"


def test_it_refuses_more_hands_than_the_session_allows(table, referee):
    for _ in range(4):
        entry_service.record_hand(table, HandEntry(winner=None), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        entry_service.record_hand(table, HandEntry(winner=None), acting_user=referee)
    assert error.value.code in {"too_many_hands", "table_finished"}
    assert Hand.objects.count() == 4


def test_a_form_posted_twice_adds_the_hand_once(table, referee):
    entry_service.record_hand(table, HandEntry(winner="N", fan=8), acting_user=referee, expected_number=1)
    with pytest.raises(ServiceError) as error:
        entry_service.record_hand(table, HandEntry(winner="N", fan=8), acting_user=referee, expected_number=1)
    assert error.value.code == "already_entered"
    assert Hand.objects.count() == 1


def test_a_correction_is_a_new_version_and_the_old_one_is_kept(table, referee, organiser):
    hand = entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    new = entry_service.correct_hand(
        hand, HandEntry(winner="E", discarder="S", fan=24), acting_user=organiser
    )
    versions = list(Hand.objects.filter(table=table, number=hand.number).order_by("version"))
    assert [(h.version, h.fan, h.is_current) for h in versions] == [(1, 8, False), (2, 24, True)]
    assert new.entered_by == organiser
    assert AuditEntry.objects.filter(action="correct_hand", actor=organiser).exists()


def test_deleting_the_last_hand_keeps_it_in_the_history(table, referee):
    entry_service.record_hand(table, HandEntry(winner="E", fan=8), acting_user=referee)
    entry_service.void_last_hand(table, acting_user=referee)
    assert queries.current_hands(table) == []
    assert Hand.objects.filter(table=table).count() == 2
    entry_service.record_hand(table, HandEntry(winner="S", fan=10), acting_user=referee, expected_number=1)
    assert [h.winner for h in queries.current_hands(table)] == ["S"]


def test_every_write_bumps_the_standings_version_and_is_audited(table, referee):
    tournament = table.round.tournament
    before = type(tournament).objects.get(pk=tournament.pk).standings_version
    entry_service.record_hand(table, HandEntry(winner=None), acting_user=referee)
    tournament.refresh_from_db()
    assert tournament.standings_version == before + 1
    entry = AuditEntry.objects.filter(action="record_hand").first()
    assert entry.actor == referee
    assert "draw" in entry.summary


def test_totals_only_needs_the_organisers_permission(table, referee, organiser):
    from tournaments.services.events import set_totals_only

    totals = {"E": 30, "S": -10, "W": -10, "N": -10}
    with pytest.raises(ServiceError) as error:
        entry_service.record_totals(table, totals, acting_user=referee)
    assert error.value.code == "totals_not_allowed"
    set_totals_only(table, True, acting_user=organiser)
    entry_service.record_totals(table, totals, acting_user=referee)
    with pytest.raises(ServiceError) as error:
        entry_service.record_totals(table, {"E": 30, "S": -10, "W": -10, "N": 0}, acting_user=referee)
    assert error.value.code == "totals_not_zero_sum"
    loaded = queries.tables_with_results(table.round.tournament, table.round)[0]
    assert standings.session_result(loaded).table_points == {"E": 4, "S": 1, "W": 1, "N": 1}


def test_an_upheld_appeal_cancels_the_penalty(table, referee, organiser):
    seat = table.seats.get(wind="N")
    penalty = penalties.add_penalty(
        table, seat.registration, 10, paid_to="each_other", rule="MCR 84a", acting_user=referee
    )
    loaded = queries.tables_with_results(table.round.tournament, table.round)[0]
    assert standings.session_result(loaded).scores["N"] == -30
    appeal = appeals.file_appeal(
        penalty, statement="I did not", signed_by="Di", fee_received=True, acting_user=referee
    )
    appeals.decide_appeal(appeal, "upheld", reasons="The wall was misbuilt", acting_user=organiser)
    loaded = queries.tables_with_results(table.round.tournament, table.round)[0]
    assert standings.session_result(loaded).scores["N"] == 0


def test_an_appeal_after_thirty_minutes_is_refused(table, referee):
    # MCR rule 94a (line ~2400): within 30 minutes of the judgment, on the server's clock.
    from datetime import timedelta

    seat = table.seats.get(wind="E")
    penalty = penalties.add_penalty(table, seat.registration, 5, paid_to="none", acting_user=referee)
    later = penalty.created_at + timedelta(minutes=30, seconds=1)
    with pytest.raises(ServiceError) as error:
        appeals.file_appeal(
            penalty, statement="Unfair", signed_by="Ana", fee_received=True, acting_user=referee, now=later
        )
    assert error.value.code == "appeal_too_late"


def test_a_penalty_for_someone_at_another_table_is_refused(event, table, referee):
    other = event.rounds.get(number=1).tables.get(number=2).seats.first().registration
    with pytest.raises(ServiceError) as error:
        penalties.add_penalty(table, other, 5, paid_to="none", acting_user=referee)
    assert error.value.code == "not_at_table"


def test_standings_rank_by_table_points_then_score(event, referee):
    round_ = event.rounds.get(number=1)
    first, second = round_.tables.order_by("number")
    entry_service.record_hand(first, HandEntry(winner="E", discarder="S", fan=40), acting_user=referee)
    entry_service.record_hand(second, HandEntry(winner="W", discarder=None, fan=8), acting_user=referee)
    assert standings.event_standings(event) == []  # nothing confirmed: nobody is ranked yet
    rows = standings.event_standings(event, include_provisional=True)
    winner_first = first.seats.get(wind="E").registration.code
    winner_second = second.seats.get(wind="W").registration.code
    assert [r.player for r in rows[:2]] == [winner_first, winner_second]
    assert rows[0].table_points == 4 and rows[1].table_points == 4
    assert rows[0].score == 64 and rows[1].score == 48


def test_empty_calling_is_a_warning_first_then_costs_5_then_10(event, table, referee):
    # MCR rule 79 (seeds/003_2541481d343502a5.txt line ~2370), counted over the event for the player.
    registration = table.seats.get(wind="W").registration
    first = rulings.add_catalogue_penalty(table, registration, "empty_call", acting_user=referee)
    second = rulings.add_catalogue_penalty(table, registration, "empty_call", acting_user=referee)
    later_table = None
    from tournaments.services.reseating import generate_seating

    for later in generate_seating(event.rounds.get(number=2), acting_user=referee):
        if later.seats.filter(registration=registration).exists():
            later_table = later
    third = rulings.add_catalogue_penalty(later_table, registration, "empty_call", acting_user=referee)
    assert [first.points, second.points, third.points] == [0, 5, 10]
    assert "warning" in first.reason
    loaded = queries.tables_with_results(event, table.round)[0]
    assert standings.session_result(loaded).scores["W"] == -5


def test_a_catalogue_false_hu_is_paid_to_each_other_player(table, referee):
    # MCR rule 84b: unready hand, 20 to each of the other players.
    registration = table.seats.get(wind="E").registration
    penalty = rulings.add_catalogue_penalty(table, registration, "false_hu_unready", acting_user=referee)
    assert (penalty.points, penalty.paid_to, penalty.rule) == (20, "each_other", "MCR 84b")
    loaded = queries.tables_with_results(table.round.tournament, table.round)[0]
    assert standings.session_result(loaded).scores == {"E": -60, "S": 20, "W": 20, "N": 20}
