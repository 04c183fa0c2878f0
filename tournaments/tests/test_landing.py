"""Role-aware landing and navigation: after login each role lands where its work is, the
navigation offers only what the roles may use, and an organiser can take a role back (logged)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Role
from tournaments.services import events as event_services
from tournaments.services import reseating

pytestmark = pytest.mark.django_db


def login(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password}, follow=True)


def test_a_referee_lands_on_my_tables_after_login(client, event, referee):
    response = login(client, "rick", "pw-rick-123")
    assert response.redirect_chain[-1][0] == reverse("referee:my_tables")
    assert "Test Open" in response.content.decode()


def test_an_organiser_lands_on_their_events_after_login(client, event, organiser):
    response = login(client, "olga", "pw-olga-123")
    assert response.redirect_chain[-1][0] == reverse("manage:dashboard")
    assert reverse("manage:event", args=[event.slug]) in response.content.decode()


def test_my_tables_shows_the_session_in_play_with_progress_and_one_tap_to_each_table(client, event, referee):
    table = event.rounds.get(number=1).tables.get(number=1)
    for _ in range(3):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=8), acting_user=referee)
    client.force_login(referee)
    page = client.get(reverse("referee:my_tables")).content.decode()
    assert "Session 1" in page
    assert "3/4" in page  # three hands of the session's four
    assert "in play" in page
    for number in (1, 2):
        assert reverse("referee:table", args=[event.slug, 1, number]) in page


def test_my_tables_moves_on_to_the_next_session_once_every_table_is_complete(
    client, event, referee, organiser
):
    for table in event.rounds.get(number=1).tables.all():
        for _ in range(4):
            entry_service.record_hand(table, HandEntry(winner=None), acting_user=referee)
    reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    client.force_login(referee)
    page = client.get(reverse("referee:my_tables")).content.decode()
    assert reverse("referee:table", args=[event.slug, 2, 1]) in page
    assert reverse("referee:table", args=[event.slug, 1, 1]) not in page


def test_an_account_without_roles_is_told_what_to_do(client, stranger):
    client.force_login(stranger)
    response = client.get(reverse("landing"), follow=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert "do not organise any event" in page
    assert "New event" not in page


def test_the_navigation_shows_only_what_the_roles_may_use(client, event, referee, organiser, stranger):
    home = reverse("public:event", args=[event.slug])
    client.force_login(stranger)
    page = client.get(home).content.decode()
    assert reverse("manage:dashboard") not in page and reverse("referee:my_tables") not in page
    assert reverse("manage:players", args=[event.slug]) not in page
    client.force_login(referee)
    page = client.get(home).content.decode()
    assert reverse("referee:my_tables") in page and reverse("referee:index", args=[event.slug]) in page
    assert reverse("manage:players", args=[event.slug]) not in page
    assert reverse("manage:dashboard") not in page
    client.force_login(organiser)
    page = client.get(home).content.decode()
    assert reverse("manage:players", args=[event.slug]) in page
    assert reverse("referee:index", args=[event.slug]) in page


def test_new_event_is_offered_only_with_the_permission(client, event, organiser, referee):
    event_services.grant_role(event, referee, Role.ORGANISER, acting_user=organiser)
    client.force_login(referee)
    assert "New event" not in client.get(reverse("manage:dashboard")).content.decode()
    client.force_login(organiser)
    assert "New event" in client.get(reverse("manage:dashboard")).content.decode()


def test_an_organiser_revokes_a_referee_role_and_it_is_logged(client, event, organiser, referee):
    role = EventRole.objects.get(tournament=event, user=referee, role=Role.REFEREE)
    client.force_login(organiser)
    response = client.post(reverse("manage:revoke_role", args=[event.slug, role.pk]), follow=True)
    assert "no longer referee" in response.content.decode()
    assert not EventRole.objects.filter(pk=role.pk).exists()
    entry = AuditEntry.objects.filter(tournament=event, action="revoke_role").get()
    assert entry.actor == organiser and entry.data == {"user": "rick", "role": "referee"}
    client.force_login(referee)
    assert client.get(reverse("referee:index", args=[event.slug])).status_code == 403


def test_the_last_organiser_cannot_be_revoked(event, organiser):
    role = EventRole.objects.get(tournament=event, user=organiser, role=Role.ORGANISER)
    with pytest.raises(ServiceError) as error:
        event_services.revoke_role(role, acting_user=organiser)
    assert error.value.code == "last_organiser"
    assert EventRole.objects.filter(pk=role.pk).exists()


def test_a_referee_cannot_revoke_roles(client, event, organiser, referee):
    role = EventRole.objects.get(tournament=event, user=organiser, role=Role.ORGANISER)
    client.force_login(referee)
    assert client.post(reverse("manage:revoke_role", args=[event.slug, role.pk])).status_code == 403
    assert EventRole.objects.filter(pk=role.pk).exists()


@pytest.mark.parametrize("role", [Role.CHIEF_REFEREE, Role.SCORER])
def test_a_chief_referee_or_scorer_lands_on_my_tables_with_their_role_named(
    client, event, organiser, stranger, role
):
    event_services.grant_role(event, stranger, role, acting_user=organiser)
    response = login(client, "sam", "pw-sam-123")
    assert response.redirect_chain[-1][0] == reverse("referee:my_tables")
    page = response.content.decode()
    assert reverse("referee:table", args=[event.slug, 1, 1]) in page
    assert reverse("manage:dashboard") not in page  # no organiser menu
    assert f"Your role: {role.label}" in page
