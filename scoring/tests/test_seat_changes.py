"""Seats fixed after hands were played, and substitutes taking over a seat mid-session."""

from __future__ import annotations

import pytest

from scoring.models import Hand, LateArrival, Penalty
from scoring.services import appeals, penalties, queries, seat_changes, standings
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Seat
from tournaments.services import events as event_services
from tournaments.services import registrations


def seat_of(table, wind: str):
    return table.seats.select_related("registration").get(wind=wind).registration


def scores(tournament) -> dict[str, int]:
    return {row.player: row.score for row in standings.event_standings(tournament, include_provisional=True)}


def points(tournament, code: str) -> tuple[int, object]:
    row = next(r for r in standings.event_standings(tournament, include_provisional=True) if r.player == code)
    return row.score, row.table_points


@pytest.mark.django_db
def test_two_players_of_one_table_exchange_seats_and_their_hands_move_with_them(event, table, organiser):
    east, south = seat_of(table, "E"), seat_of(table, "S")
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    entry_service.record_hand(table, HandEntry(winner="S", fan=8), acting_user=organiser)
    entry_service.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    before = scores(event)
    moved = seat_changes.fix_seats_after_play(table.round, east.code, south.code, acting_user=organiser)
    assert moved == 3
    assert seat_of(table, "S") == east and seat_of(table, "E") == south
    current = {h.number: (h.winner, h.discarder) for h in Hand.objects.filter(table=table, is_current=True)}
    assert current == {1: ("S", "E"), 2: ("E", ""), 3: ("", "")}
    assert Hand.objects.filter(table=table, is_current=False).count() == 3  # earlier versions kept
    assert scores(event) == before  # every point stays with the player who won or paid it
    entry = AuditEntry.objects.filter(action=AuditAction.FIX_SEATS).get()
    assert entry.data["players"] == [east.code, south.code]


@pytest.mark.django_db
def test_players_of_two_tables_exchange_places_and_the_hands_stay_with_who_sat_there(event, table, organiser):
    other = event.rounds.get(number=1).tables.get(number=2)
    east, north = seat_of(table, "E"), seat_of(other, "N")
    entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=12), acting_user=organiser)
    east_points = scores(event)[east.code]
    seat_changes.fix_seats_after_play(table.round, east.code, north.code, acting_user=organiser)
    assert seat_of(table, "E") == north and seat_of(other, "N") == east
    assert Hand.objects.filter(table=table).count() == 1  # not moved: played by whoever sat at East
    after = scores(event)
    assert after[north.code] == east_points
    assert east.code not in after  # their table has no result yet


@pytest.mark.django_db
def test_a_fix_between_tables_moves_penalties_and_lateness_with_the_players(event, table, organiser):
    """They follow the person: each is withdrawn at the old table (a voided version) and recorded at
    the table the player really sat at, in the one logged action (MCR 84 and 88 keep their effect)."""
    other = event.rounds.get(number=1).tables.get(number=2)
    east, north = seat_of(table, "E"), seat_of(other, "N")
    bystander = seat_of(table, "S")
    entry_service.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    entry_service.record_hand(other, HandEntry(winner=None), acting_user=organiser)
    penalties.add_penalty(table, bystander, 5, paid_to="none", rule="80", acting_user=organiser)
    penalties.add_penalty(table, east, 10, paid_to="each_other", rule="84", acting_user=organiser)
    penalties.record_late(other, north, 7, acting_user=organiser)
    seat_changes.fix_seats_after_play(table.round, east.code, north.code, acting_user=organiser)
    current = Penalty.objects.filter(is_current=True, voided=False)
    assert {(p.table_id, p.registration_id, p.position) for p in current} == {
        (table.pk, bystander.pk, 0),  # someone else's penalty stays
        (other.pk, east.pk, 0),  # the first of the table east really sat at
    }
    withdrawn = Penalty.objects.get(table=table, position=1, is_current=True)
    assert withdrawn.voided and withdrawn.version == 2  # the old table's history keeps it
    late = LateArrival.objects.filter(is_current=True, voided=False).get()
    assert (late.table_id, late.registration_id, late.minutes) == (table.pk, north.pk, 7)
    assert LateArrival.objects.filter(table=other, registration=north, is_current=True, voided=True).exists()
    entry = AuditEntry.objects.filter(action=AuditAction.FIX_SEATS).first()
    assert "2 penalties or lateness moved with them" in entry.summary
    result = standings.session_result(queries.table_with_results(other))
    assert result.scores["N"] == -30 and result.scores["E"] == 10  # east now sits at N there (rule 84)


@pytest.mark.django_db
def test_a_penalty_of_a_substitute_follows_the_seat_they_took_over(event, table, organiser):
    other = event.rounds.get(number=1).tables.get(number=2)
    east, north = seat_of(table, "E"), seat_of(other, "N")
    newcomer = registrations.register_player(
        event, registrations.PlayerRow(name="Zed Newcomer"), acting_user=organiser
    )
    entry_service.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    seat_changes.substitute_seat(table, east.code, newcomer, acting_user=organiser)
    penalties.add_penalty(table, newcomer, 10, paid_to="none", rule="80", acting_user=organiser)
    seat_changes.fix_seats_after_play(table.round, east.code, north.code, acting_user=organiser)
    assert Penalty.objects.filter(is_current=True, voided=False).get().table == other


@pytest.mark.django_db
def test_a_fix_between_tables_is_refused_where_moving_a_penalty_is_ambiguous(event, table, organiser):
    """A penalty paid to one player (rule 85e) between someone who moves and someone who stays cannot
    follow both; nor is a ruling with an appeal moved. Nothing changes, and the message says which."""
    other = event.rounds.get(number=1).tables.get(number=2)
    east, north = seat_of(table, "E"), seat_of(other, "N")
    entry_service.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    penalties.add_penalty(
        table,
        east,
        10,
        paid_to="player",
        paid_to_player=seat_of(table, "W"),
        rule="85e",
        acting_user=organiser,
    )
    with pytest.raises(ServiceError) as refused:
        seat_changes.fix_seats_after_play(table.round, east.code, north.code, acting_user=organiser)
    assert refused.value.code == "ambiguous_penalty"
    assert "is paid to" in refused.value.message and seat_of(table, "W").player.name in refused.value.message
    assert seat_of(table, "E") == east
    assert Penalty.objects.count() == 1


@pytest.mark.django_db
def test_a_fix_between_tables_is_refused_while_an_appeal_is_filed_against_what_would_move(
    event, table, organiser, referee
):
    other = event.rounds.get(number=1).tables.get(number=2)
    east, north = seat_of(table, "E"), seat_of(other, "N")
    penalties.add_penalty(table, east, 10, paid_to="none", rule="80", acting_user=organiser)
    late = penalties.record_late(other, north, 12, acting_user=organiser)
    appeals.file_appeal(
        late, statement="The clock was wrong", signed_by="Hu", fee_received=True, acting_user=referee
    )
    with pytest.raises(ServiceError) as refused:
        seat_changes.fix_seats_after_play(table.round, east.code, north.code, acting_user=organiser)
    assert refused.value.code == "appealed_penalty" and "appeal" in refused.value.message
    assert Penalty.objects.count() == 1 and LateArrival.objects.count() == 1


def play_with_substitute(event, table, organiser, policy: str):
    event_services.update_settings(event, {"seating.substitution_standings": policy}, acting_user=organiser)
    absent = seat_of(table, "E")
    newcomer = registrations.register_player(
        event, registrations.PlayerRow(name="Zed Newcomer"), acting_user=organiser
    )
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    substitution = seat_changes.substitute_seat(table, absent.code, newcomer, acting_user=organiser)
    assert substitution.from_hand == 2
    entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=20), acting_user=organiser)
    entry_service.record_hand(table, HandEntry(winner="N", discarder="E", fan=8), acting_user=organiser)
    rules = event.rule_set
    first = rules.points(queries.hand_record(Hand.objects.get(table=table, number=1)))["E"]
    rest = sum(
        rules.points(queries.hand_record(Hand.objects.get(table=table, number=n)))["E"] for n in (2, 3)
    )
    return absent, newcomer, first, rest


@pytest.mark.django_db
def test_by_default_the_absent_player_keeps_the_seats_whole_result(event, table, organiser):
    absent, newcomer, first, rest = play_with_substitute(event, table, organiser, "seat")
    assert points(event, absent.code)[0] == first + rest
    assert newcomer.code not in scores(event)
    assert Seat.objects.get(table=table, wind="E").registration == absent  # history stays with the seat


@pytest.mark.django_db
def test_each_keeps_the_hands_they_played_when_the_event_says_so(event, table, organiser):
    absent, newcomer, first, rest = play_with_substitute(event, table, organiser, "hands")
    absent_score, absent_tp = points(event, absent.code)
    newcomer_score, newcomer_tp = points(event, newcomer.code)
    assert (absent_score, newcomer_score) == (first, rest)
    assert absent_tp == 0  # table points go to who played more hands: the newcomer (2 of 3)
    assert newcomer_tp > 0


@pytest.mark.django_db
def test_a_substitutes_hands_can_count_for_nobody(event, table, organiser):
    absent, newcomer, first, _ = play_with_substitute(event, table, organiser, "absent_hands")
    assert points(event, absent.code)[0] == first
    assert newcomer.code not in scores(event)


@pytest.mark.django_db
def test_a_player_seated_in_the_session_cannot_substitute(event, table, organiser):
    other = event.rounds.get(number=1).tables.get(number=2)
    with pytest.raises(ServiceError) as refused:
        seat_changes.substitute_seat(
            table, seat_of(table, "E").code, seat_of(other, "S"), acting_user=organiser
        )
    assert refused.value.code == "already_seated"
    with pytest.raises(ServiceError) as refused:
        seat_changes.substitute_seat(table, "nobody", seat_of(other, "S"), acting_user=organiser)
    assert refused.value.code == "not_at_table"
