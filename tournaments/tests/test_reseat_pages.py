"""The organiser's mid-event pages: re-seat with a preview, substitute, fix seats after play."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from scoring.services.entry import HandEntry, record_hand
from tournaments.models import AuditEntry, Seat, Substitution, Table
from tournaments.services import registrations


@pytest.mark.django_db
def test_the_preview_stores_nothing_and_storing_it_seats_the_rest_with_more_tables(client, event, organiser):
    client.force_login(organiser)
    for name in ("Ivy", "Jo", "Kai", "Lu"):
        registrations.register_player(event, registrations.PlayerRow(name=name), acting_user=organiser)
    url = reverse("manage:reseat", args=[event.slug])
    record_hand(
        event.rounds.get(number=1).tables.get(number=1), HandEntry(winner=None), acting_user=organiser
    )
    page = client.get(url).content.decode()
    assert 'value="2"' in page  # the first session with nothing entered
    preview = client.post(url, {"action": "preview", "first": "2", "seed": "1"}).content.decode()
    assert "not stored yet" in preview
    assert re.search(r'data-measure="tables_after">3<', preview)
    assert not Table.objects.filter(round__tournament=event, round__number=2).exists()
    token = re.search(r'name="plan" value="([^"]+)"', preview).group(1)
    response = client.post(url, {"action": "store", "plan": token})
    assert response.status_code == 302
    assert Table.objects.filter(round__tournament=event, round__number=2).count() == 3
    assert Hand.objects.filter(table__round__number=1).count() == 1
    refused = client.post(url, {"action": "preview", "first": "1"}).content.decode()
    assert "Session 1 already has hands" in refused


@pytest.mark.django_db
def test_the_organiser_substitutes_and_fixes_seats_from_the_page(client, event, table, organiser):
    client.force_login(organiser)
    east = table.seats.get(wind="E").registration
    south = table.seats.get(wind="S").registration
    record_hand(table, HandEntry(winner="E", discarder="S", fan=9), acting_user=organiser)
    page = client.get(reverse("manage:seat_changes", args=[event.slug, 1]))
    assert page.status_code == 200
    client.post(
        reverse("manage:fix_seats", args=[event.slug, 1]), {"a": east.code, "b": south.code}, follow=True
    )
    assert table.seats.get(wind="S").registration == east
    assert Hand.objects.get(table=table, is_current=True).winner == "S"
    done = client.post(
        reverse("manage:substitute", args=[event.slug, 1]),
        {"absent": south.code, "new_name": "Reserve Rita", "reason": "ill"},
        follow=True,
    ).content.decode()
    assert "Reserve Rita plays E at table 1 from hand 2" in done
    substitution = Substitution.objects.get()
    assert substitution.seat.registration == south and substitution.from_hand == 2
    assert substitution.substitute.is_substitute  # a reserve: not ranked, not seated in later sessions
    refused = client.post(
        reverse("manage:substitute", args=[event.slug, 1]),
        {"absent": east.code, "substitute": south.code},
        follow=True,
    ).content.decode()
    assert "already has a seat" in refused
    assert Seat.objects.filter(round__number=1).count() == 8
    assert AuditEntry.objects.filter(action__in=["fix_seats", "substitution"]).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "args"),
    [("manage:reseat", ()), ("manage:upload_seating", ()), ("manage:seat_changes", (1,))],
)
def test_the_pages_open_for_the_organiser_and_nobody_else(client, event, organiser, referee, name, args):
    url = reverse(name, args=[event.slug, *args])
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    client.logout()
    assert client.get(url).status_code == 302  # to the login page
