"""Release controls: an event, each session's seating and each session's results are drafts
until the organiser publishes them; the standings can be frozen after session N until the
prize-giving; nothing of a draft event is public (a friendly 404)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import confirmation
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from scoring.standings_cache import standings_rows
from tournaments import release
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Role
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(organiser, referee):
    """A new event as an organiser makes it: 8 players, session 1 seated, nothing published."""
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Draft Cup", slug="draft-cup", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return tournament


def public_urls(slug: str) -> list[str]:
    return [
        reverse("public:event", args=[slug]),
        reverse("public:seating", args=[slug, 1]),
        reverse("public:results", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
        reverse("public:projector", args=[slug]),
        reverse("public:player", args=[slug, "p1"]),
        reverse("public:standings_download", args=[slug, "csv"]),
        reverse("public:standings_download", args=[slug, "pdf"]),
        reverse("public:clock", args=[slug]),
    ]


def play_and_confirm(table, referee, organiser, hands: int = 4) -> None:
    for _ in range(hands):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=8), acting_user=referee)
    confirmation.confirm_table(table, acting_user=organiser)


def test_a_new_event_is_a_draft_and_nothing_of_it_is_public(client, draft, organiser):
    assert draft.published_at is None
    assert "Draft Cup" not in client.get(reverse("public:home")).content.decode()
    for url in public_urls(draft.slug):
        response = client.get(url)
        assert response.status_code == 404, url
    page = client.get(reverse("public:event", args=[draft.slug])).content.decode()
    assert "There is no such page" in page  # the site's friendly 404
    client.force_login(organiser)  # staff use their own pages; no public page ever shows a draft
    assert client.get(reverse("public:standings", args=[draft.slug])).status_code == 404


def test_publishing_the_event_shows_it_but_not_its_draft_sessions(client, draft, organiser):
    client.force_login(organiser)
    client.post(reverse("manage:publish_event", args=[draft.slug]), {"published": "true"})
    client.logout()
    assert "Draft Cup" in client.get(reverse("public:home")).content.decode()
    assert client.get(reverse("public:event", args=[draft.slug])).status_code == 200
    assert client.get(reverse("public:standings", args=[draft.slug])).status_code == 200
    assert client.get(reverse("public:seating", args=[draft.slug, 1])).status_code == 404
    assert client.get(reverse("public:results", args=[draft.slug, 1])).status_code == 404
    assert AuditEntry.objects.filter(tournament=draft, action="publish_event", actor=organiser).exists()


def test_publishing_a_session_seating_makes_it_public_and_is_logged(client, draft, organiser):
    release.publish_event(draft, True, acting_user=organiser)
    name = draft.rounds.get(number=1).seats.first().registration.player.name
    client.force_login(organiser)
    response = client.post(
        reverse("manage:publish_session", args=[draft.slug, 1, "seating"]), {"published": "true"}
    )
    assert response.status_code == 302
    client.logout()
    page = client.get(reverse("public:seating", args=[draft.slug, 1]))
    assert page.status_code == 200 and name in page.content.decode()
    entry = AuditEntry.objects.get(action="publish_session")
    assert entry.data == {"session": 1, "part": "seating"}


def test_publishing_an_unseated_session_is_refused_and_nothing_changes(client, draft, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("manage:publish_session", args=[draft.slug, 2, "seating"]), {"published": "true"}, follow=True
    )
    assert "Session 2 is not seated yet" in response.content.decode()
    assert draft.rounds.get(number=2).seating_published_at is None
    with pytest.raises(ServiceError) as error:
        release.publish_session(draft.rounds.get(number=2), "results", True, acting_user=organiser)
    assert error.value.code == "not_seated"
    assert not AuditEntry.objects.filter(action="publish_session").exists()


def test_draft_results_do_not_count_in_the_public_standings(draft, organiser, referee):
    release.publish_event(draft, True, acting_user=organiser)
    table = draft.rounds.get(number=1).tables.get(number=1)
    play_and_confirm(table, referee, organiser)
    assert standings_rows(draft) == []
    assert standings_rows(draft, include_provisional=True)  # the organiser's preview sees them
    release.publish_session(draft.rounds.get(number=1), "results", True, acting_user=organiser)
    draft.refresh_from_db()
    assert len(standings_rows(draft)) == 4


def test_frozen_standings_stay_after_session_n_until_unfrozen(draft, organiser, referee):
    release.publish_event(draft, True, acting_user=organiser)
    for table in draft.rounds.get(number=1).tables.all():
        play_and_confirm(table, referee, organiser)
    reseating.generate_seating(draft.rounds.get(number=2), acting_user=organiser)
    for number in (1, 2):
        release.publish_session(draft.rounds.get(number=number), "results", True, acting_user=organiser)
    release.freeze_standings(draft, 1, acting_user=organiser)
    play_and_confirm(draft.rounds.get(number=2).tables.get(number=1), referee, organiser)
    draft.refresh_from_db()
    frozen = standings_rows(draft)
    assert {len(row["sessions"]) for row in frozen} == {1}
    release.freeze_standings(draft, None, acting_user=organiser)
    draft.refresh_from_db()
    assert max(len(row["sessions"]) for row in standings_rows(draft)) == 2
    assert AuditEntry.objects.filter(action="freeze_standings").count() == 2


def test_freezing_after_a_session_that_does_not_exist_is_refused(draft, organiser):
    with pytest.raises(ServiceError) as error:
        release.freeze_standings(draft, 9, acting_user=organiser)
    assert error.value.code == "bad_session"


def test_the_player_page_hides_draft_seating(client, draft, organiser):
    release.publish_event(draft, True, acting_user=organiser)
    registration = draft.registrations.get(code="p1")
    seat = registration.seats.get(round__number=1)
    opponent = seat.table.seats.exclude(pk=seat.pk).first().registration.player.name
    url = reverse("public:player", args=[draft.slug, "p1"])
    assert opponent not in client.get(url).content.decode()
    release.publish_session(draft.rounds.get(number=1), "seating", True, acting_user=organiser)
    assert opponent in client.get(url).content.decode()


def test_only_the_organiser_may_publish(client, draft, referee):
    client.force_login(referee)
    assert (
        client.post(reverse("manage:publish_event", args=[draft.slug]), {"published": "true"}).status_code
        == 403
    )
    draft.refresh_from_db()
    assert draft.published_at is None


def test_imported_and_demo_events_stay_published(demo_event, client):
    assert demo_event.published_at is not None
    assert all(r.seating_published_at and r.results_published_at for r in demo_event.rounds.all())
    assert client.get(reverse("public:results", args=[demo_event.slug, 1])).status_code == 200


def test_the_projector_shows_the_next_seating_only_once_published(client, draft, organiser):
    release.publish_event(draft, True, acting_user=organiser)
    name = draft.rounds.get(number=1).seats.first().registration.player.name
    url = reverse("public:projector", args=[draft.slug])
    assert name not in client.get(url).content.decode()
    release.publish_session(draft.rounds.get(number=1), "seating", True, acting_user=organiser)
    assert name in client.get(url).content.decode()


def test_the_seat_finder_shows_no_draft_seat(client, draft, organiser):
    release.publish_event(draft, True, acting_user=organiser)
    url = reverse("public:find", args=[draft.slug]) + "?q=Ana"
    assert "Session 1" not in client.get(url).content.decode()
    release.publish_session(draft.rounds.get(number=1), "seating", True, acting_user=organiser)
    assert "Session 1" in client.get(url).content.decode()


def test_the_session_page_publishes_its_seating_and_comes_back(client, draft, organiser):
    client.force_login(organiser)
    url = reverse("manage:session", args=[draft.slug, 1])
    assert "Publish session 1 seating" in client.get(url).content.decode()
    response = client.post(
        reverse("manage:publish_session", args=[draft.slug, 1, "seating"]),
        {"published": "true", "back": "session"},
    )
    assert response["Location"] == url
    assert draft.rounds.get(number=1).seating_published_at is not None


def test_the_standings_never_say_after_a_session_they_leave_out(client, draft, organiser, referee):
    release.publish_event(draft, True, acting_user=organiser)
    for table in draft.rounds.get(number=1).tables.all():
        play_and_confirm(table, referee, organiser)
    url = reverse("public:standings", args=[draft.slug])
    assert "After session 1" not in client.get(url).content.decode()  # its results are a draft
    release.publish_session(draft.rounds.get(number=1), "results", True, acting_user=organiser)
    assert "After session 1 (final)" in client.get(url).content.decode()


def test_side_rankings_count_only_published_sessions(draft, organiser, referee):
    from scoring.side_rankings import counted_hands

    release.publish_event(draft, True, acting_user=organiser)
    play_and_confirm(draft.rounds.get(number=1).tables.get(number=1), referee, organiser)
    assert counted_hands(draft) == []
    release.publish_session(draft.rounds.get(number=1), "results", True, acting_user=organiser)
    assert len(counted_hands(draft)) == 4


def test_my_events_marks_drafts(client, draft, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:dashboard")).content.decode()
    assert 'Draft Cup</a> <span class="state draft">draft</span>' in page
    release.publish_event(draft, True, acting_user=organiser)
    page = client.get(reverse("manage:dashboard")).content.decode()
    assert 'Draft Cup</a> <span class="state complete">public</span>' in page


def test_the_public_standings_say_they_are_frozen(client, draft, organiser):
    release.publish_event(draft, True, acting_user=organiser)
    url = reverse("public:standings", args=[draft.slug])
    assert "frozen until the prize-giving" not in client.get(url).content.decode()
    release.freeze_standings(draft, 1, acting_user=organiser)
    assert "Standings after session 1, frozen until the prize-giving." in client.get(url).content.decode()


def test_the_ema_file_waits_for_published_results_and_leaves_withdrawn_players_out(draft, organiser, referee):
    from scoring.exports.ema import ema_check
    from tournaments import desk

    release.publish_event(draft, True, acting_user=organiser)
    for table in draft.rounds.get(number=1).tables.all():
        play_and_confirm(table, referee, organiser)
    check = ema_check(draft)
    assert any("Session 1 is not in the public standings" in p for p in check.problems)
    release.publish_session(draft.rounds.get(number=1), "results", True, acting_user=organiser)
    draft.refresh_from_db()
    assert ema_check(draft).ok, ema_check(draft).problems
    desk.set_withdrawn(draft.registrations.get(code="p1"), True, acting_user=organiser)
    draft.refresh_from_db()
    check = ema_check(draft)
    assert check.ok, check.problems
    assert len(check.rows) == 7
