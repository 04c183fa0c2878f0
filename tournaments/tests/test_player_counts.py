"""The public event page and the organiser's dashboard count the players still in the event."""

from __future__ import annotations

from django.urls import reverse

from tournaments.desk import set_withdrawn
from tournaments.release import publish_event


def test_a_withdrawn_player_is_not_counted_on_the_public_page_nor_the_dashboard(client, event, organiser):
    registration = event.registrations.first()
    registration.checked_in = True
    registration.save(update_fields=["checked_in"])
    set_withdrawn(registration, True, acting_user=organiser)
    publish_event(event, True, acting_user=organiser)

    public = client.get(reverse("public:event", args=[event.slug])).content.decode()
    assert "7 players" in public and "8 players" not in public

    client.force_login(organiser)
    dashboard = client.get(reverse("manage:event", args=[event.slug])).content.decode()
    assert "7 players registered, 0 checked in." in dashboard
