"""The session clock: reading it, running it through services (audited), and rule 74f (Sloper,
seeds/003_2541481d343502a5.txt line 2335: "the game ends when the time limit runs out or four rounds
are played, whichever happens first")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from scoring.services import entry
from scoring.services.entry import HandEntry
from tournaments import clock
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Role, SessionClock
from tournaments.release import publish_everything
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating

pytestmark = pytest.mark.django_db


def age_clock(round_, seconds: int) -> SessionClock:
    """Move the clock's start back, as if ``seconds`` had passed since it started."""
    SessionClock.objects.filter(round=round_).update(started_at=timezone.now() - timedelta(seconds=seconds))
    return SessionClock.objects.get(round=round_)


# --- reading ------------------------------------------------------------------------------------------


def test_a_running_clock_counts_down_from_its_minutes(event, organiser):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 120, acting_user=organiser)
    age_clock(round_, 30 * 60)
    reading = clock.read(round_)
    assert reading.state == clock.RUNNING
    assert 90 * 60 - 2 <= reading.remaining <= 90 * 60
    assert reading.shown.startswith("1:29:") or reading.shown == "1:30:00"


def test_it_signals_last_hand_when_the_events_minutes_are_left_then_time(event, organiser):
    round_ = event.rounds.get(number=1)
    event_services.update_settings(event, {"clock.last_hand_minutes": 10}, acting_user=organiser)
    clock.start_clock(round_, 60, acting_user=organiser)
    age_clock(round_, 51 * 60)
    assert clock.read(round_).state == clock.LAST_HAND
    age_clock(round_, 61 * 60)
    reading = clock.read(round_)
    assert reading.state == clock.TIME
    assert reading.shown == "0:00"
    assert reading.time_up_at is not None
    assert abs((timezone.now() - reading.time_up_at).total_seconds() - 60) < 3


def test_a_pause_stops_the_clock_and_resuming_keeps_the_time_left(event, organiser):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 60, acting_user=organiser)
    age_clock(round_, 10 * 60)
    clock.pause_clock(round_, acting_user=organiser)
    # Twenty minutes pass while paused: the time left does not move.
    SessionClock.objects.filter(round=round_).update(
        started_at=timezone.now() - timedelta(minutes=30), paused_at=timezone.now() - timedelta(minutes=20)
    )
    paused = clock.read(round_)
    assert paused.state == clock.PAUSED
    assert 50 * 60 - 2 <= paused.remaining <= 50 * 60
    clock.resume_clock(round_, acting_user=organiser)
    resumed = clock.read(round_)
    assert resumed.state == clock.RUNNING
    assert 50 * 60 - 2 <= resumed.remaining <= 50 * 60


def test_one_tables_extra_time_is_its_own(event, organiser):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 60, acting_user=organiser)
    clock.give_table_extra_time(round_.tables.get(number=2), 7, acting_user=organiser)
    age_clock(round_, 61 * 60)
    assert clock.read(round_).state == clock.TIME
    assert clock.read(round_, table_number=1).state == clock.TIME
    table_two = clock.read(round_, table_number=2)
    assert table_two.state == clock.RUNNING
    assert 5 * 60 < table_two.remaining <= 6 * 60


# --- services -----------------------------------------------------------------------------------------


def test_every_change_of_the_clock_is_logged_and_counted(event, organiser):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 90, acting_user=organiser)
    clock.pause_clock(round_, acting_user=organiser)
    clock.resume_clock(round_, acting_user=organiser)
    clock.extend_clock(round_, 5, acting_user=organiser)
    clock.give_table_extra_time(round_.tables.get(number=1), 3, acting_user=organiser)
    actions = list(
        AuditEntry.objects.filter(action__startswith="clock").order_by("id").values_list("action", "actor")
    )
    assert [a for a, _ in actions] == [
        "clock_start",
        "clock_pause",
        "clock_resume",
        "clock_extend",
        "clock_table_extra",
    ]
    assert {actor for _, actor in actions} == {organiser.pk}
    stored = SessionClock.objects.get(round=round_)
    assert (stored.version, stored.extra_seconds, stored.table_extra) == (5, 300, {"1": 180})


@pytest.mark.parametrize("minutes", [-5, 0])
def test_a_clock_extended_by_a_negative_amount_is_refused_and_nothing_changes(event, organiser, minutes):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 90, acting_user=organiser)
    logged = AuditEntry.objects.count()
    with pytest.raises(ServiceError) as error:
        clock.extend_clock(round_, minutes, acting_user=organiser)
    assert error.value.code == "not_positive"
    assert "nothing was changed" in error.value.message
    with pytest.raises(ServiceError):
        clock.give_table_extra_time(round_.tables.get(number=1), minutes, acting_user=organiser)
    stored = SessionClock.objects.get(round=round_)
    assert (stored.version, stored.extra_seconds, stored.table_extra) == (1, 0, {})
    assert AuditEntry.objects.count() == logged


def test_a_clock_starts_once_and_only_for_a_seated_session(event, organiser):
    with pytest.raises(ServiceError) as error:
        clock.start_clock(event.rounds.get(number=2), 90, acting_user=organiser)
    assert error.value.code == "not_seated"
    clock.start_clock(event.rounds.get(number=1), 90, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        clock.start_clock(event.rounds.get(number=1), 60, acting_user=organiser)
    assert error.value.code == "clock_started"
    assert SessionClock.objects.get().minutes == 90


def test_pausing_after_time_is_up_is_refused(event, organiser):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 30, acting_user=organiser)
    age_clock(round_, 31 * 60)
    with pytest.raises(ServiceError) as error:
        clock.pause_clock(round_, acting_user=organiser)
    assert error.value.code == "time_up"


# --- rule 74f -----------------------------------------------------------------------------------------


def enter(table, referee) -> Hand:
    return entry.record_hand(table, HandEntry(winner=None), acting_user=referee)


def test_after_time_the_hand_in_play_may_be_finished_and_then_no_more(event, organiser, referee, table):
    """Rule 74f (Sloper line 2335): the session ends when time runs out; the hand in play when time
    is called is finished (one hand first entered after the time is accepted), a further one is not."""
    round_ = table.round
    clock.start_clock(round_, 60, acting_user=organiser)
    enter(table, referee)
    Hand.objects.update(created_at=timezone.now() - timedelta(minutes=30))
    age_clock(round_, 61 * 60)
    enter(table, referee)  # the hand in play at time
    with pytest.raises(ServiceError) as error:
        enter(table, referee)
    assert error.value.code == "time_up"
    assert "rule 74f" in error.value.message
    assert Hand.objects.filter(table=table, is_current=True).count() == 2


def test_a_correction_after_time_does_not_count_as_a_new_hand(event, organiser, referee, table):
    round_ = table.round
    clock.start_clock(round_, 60, acting_user=organiser)
    first = enter(table, referee)
    Hand.objects.update(created_at=timezone.now() - timedelta(minutes=30))
    age_clock(round_, 61 * 60)
    entry.correct_hand(first, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    enter(table, referee)  # still the hand in play at time
    assert Hand.objects.filter(table=table, is_current=True, voided=False).count() == 2


def test_extra_time_for_the_table_lets_it_play_on(event, organiser, referee, table):
    round_ = table.round
    clock.start_clock(round_, 60, acting_user=organiser)
    age_clock(round_, 61 * 60)
    enter(table, referee)
    clock.give_table_extra_time(table, 10, acting_user=organiser)
    enter(table, referee)
    assert Hand.objects.filter(table=table, is_current=True).count() == 2


def test_an_mcr_session_still_ends_at_sixteen_hands_before_time(event, organiser, referee, table):
    """Rule 74f: "or four rounds are played, whichever happens first" (here the event's 4 hands)."""
    clock.start_clock(table.round, 120, acting_user=organiser)
    for _ in range(4):
        enter(table, referee)
    with pytest.raises(ServiceError) as error:
        enter(table, referee)
    assert error.value.code in {"too_many_hands", "table_finished"}


@pytest.fixture
def nmjl_table(organiser, referee):
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Boca Open", rules="nmjl", num_sessions=2, hands_per_session=4, session_minutes=60
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    publish_everything(tournament, acting_user=organiser)  # published, its public clock is shown
    return table


def test_nmjl_time_is_signalled_but_games_go_on_and_rounds_show_games_and_minutes(
    nmjl_table, organiser, referee, client
):
    """Only a rule set whose time ends the session refuses (MCR rule 74f); NMJL shows its round's
    games and minutes."""
    round_ = nmjl_table.round
    clock.start_clock(round_, 60, acting_user=organiser)
    age_clock(round_, 61 * 60)
    for _ in range(2):
        entry.record_hand(nmjl_table, HandEntry(winner=None, data={"won_by": "wall"}), acting_user=referee)
    page = client.get(reverse("public:clock", args=[round_.tournament.slug])).content.decode()
    assert "Round 1:" in page
    assert "4 games, 60 minutes" in page
    assert "Last game" in page


# --- pages --------------------------------------------------------------------------------------------


def test_the_organiser_starts_and_extends_the_clock_from_the_session_page(event, organiser, client):
    client.force_login(organiser)
    url = reverse("manage:clock", args=[event.slug, 1, "start"])
    response = client.post(url, {"minutes": "90"}, follow=True)
    assert "Clock started: 90 minutes." in response.content.decode()
    page = response.content.decode()
    assert 'data-clock data-remaining="' in page
    response = client.post(
        reverse("manage:clock", args=[event.slug, 1, "extend"]), {"minutes": "-5"}, follow=True
    )
    assert "Nothing was changed" in response.content.decode()
    assert SessionClock.objects.get().extra_seconds == 0
    client.post(reverse("manage:clock", args=[event.slug, 1, "table"]), {"table": "2", "minutes": "4"})
    assert SessionClock.objects.get().table_extra == {"2": 240}
    response = client.post(
        reverse("manage:clock", args=[event.slug, 1, "table"]), {"table": "9", "minutes": "4"}, follow=True
    )
    assert "has no table 9" in response.content.decode()


def test_only_organisers_run_the_clock(event, referee, client):
    client.force_login(referee)
    response = client.post(reverse("manage:clock", args=[event.slug, 1, "start"]), {"minutes": "90"})
    assert response.status_code == 403
    assert not SessionClock.objects.exists()


def test_the_clock_shows_on_the_referee_page_and_entry_stops_after_time(
    event, organiser, referee, client, table
):
    clock.start_clock(table.round, 60, acting_user=organiser)
    age_clock(table.round, 61 * 60)
    enter(table, referee)
    client.force_login(referee)
    page = client.get(reverse("referee:table", args=[event.slug, 1, table.number])).content.decode()
    assert "clock-time" in page
    assert "Time: finish the hand in play" in page
    assert "rule 74f" in page
    assert 'id="hand-form"' not in page


def test_the_public_clock_fragment_shows_the_session_in_play(event, organiser, client):
    assert client.get(reverse("public:clock", args=[event.slug])).content.strip() == b""
    clock.start_clock(event.rounds.get(number=1), 120, acting_user=organiser)
    page = client.get(reverse("public:clock", args=[event.slug])).content.decode()
    assert "Session 1: 4 hands or 120 minutes" in page
    assert 'role="timer"' in page


def test_the_clock_settings_are_a_group_of_the_settings_page_and_save(event, organiser, client):
    client.force_login(organiser)
    page = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    assert "Session clock" in page
    url = reverse("manage:save_settings", args=[event.slug, "session-clock"])
    data = {"session-clock-clock__last_hand_minutes": "8", "session-clock-clock__slow_minutes": "12"}
    response = client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert clock.clock_settings(event) == {"last_hand_minutes": 8, "slow_minutes": 12}
    refused = client.post(url, {**data, "session-clock-clock__last_hand_minutes": "-1"})
    assert refused.status_code == 422
    event.refresh_from_db()
    assert clock.clock_settings(event)["last_hand_minutes"] == 8


def test_a_draft_events_clock_is_for_its_staff_only(organiser, referee, stranger, client):
    """Nothing of a draft event is public (release controls), but its referees' pages poll the clock."""
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Draft Open", slug="draft-open", num_sessions=1, session_minutes=60),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    round_ = tournament.rounds.get(number=1)
    reseating.generate_seating(round_, acting_user=organiser)
    clock.start_clock(round_, 60, acting_user=organiser)
    url = reverse("public:clock", args=[tournament.slug]) + "?session=1&table=1"
    assert client.get(url).status_code == 404
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(referee)
    response = client.get(url)
    assert response.status_code == 200
    assert "Session 1, table 1" in response.content.decode()


def test_the_referees_list_of_tables_loads_the_clock(event, organiser, referee, client):
    clock.start_clock(event.rounds.get(number=1), 90, acting_user=organiser)
    client.force_login(referee)
    page = client.get(reverse("referee:index", args=[event.slug])).content.decode()
    assert f'hx-get="{reverse("public:clock", args=[event.slug])}"' in page
