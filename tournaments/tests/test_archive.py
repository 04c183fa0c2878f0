"""An event with results is archived, not deleted; archived, nothing in it can change."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from scoring.services import entry, queries
from scoring.services.entry import HandEntry
from tournaments.archive import set_archived
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Tournament


@pytest.fixture
def played_table(table, referee):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    return table


def test_an_event_with_results_cannot_be_deleted_in_the_admin_but_can_be_archived(
    played_table, organiser, rf
):
    tournament = played_table.round.tournament
    request = rf.post("/admin/")
    request.user = organiser
    model_admin = admin.site._registry[Tournament]
    assert not model_admin.has_delete_permission(request, tournament)
    request._messages = type("M", (), {"add": lambda *a, **k: None})()
    model_admin.archive(request, Tournament.objects.filter(pk=tournament.pk))
    assert Tournament.objects.get(pk=tournament.pk).archived_at is not None


def test_an_archived_event_refuses_results_and_keeps_them(played_table, organiser, referee):
    tournament = set_archived(played_table.round.tournament, True, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        entry.record_hand(played_table, HandEntry(winner="S", discarder="E", fan=9), acting_user=referee)
    assert error.value.code == "archived"
    with pytest.raises(ServiceError):
        entry.void_last_hand(played_table, acting_user=referee)
    assert [hand.fan for hand in queries.current_hands(played_table)] == [8]
    actions = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert AuditAction.ARCHIVE_EVENT in actions


def test_posts_to_an_archived_event_are_refused_with_a_message_and_pages_still_open(
    client, played_table, organiser
):
    tournament = set_archived(played_table.round.tournament, True, acting_user=organiser)
    client.force_login(organiser)
    response = client.post(
        reverse("manage:grant_role", args=[tournament.slug]), {"username": "x", "role": "referee"}
    )
    assert response.status_code == 403
    assert "is archived" in response.content.decode()
    assert client.get(reverse("manage:event", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("public:standings", args=[tournament.slug])).status_code == 200


def test_the_organiser_archives_and_unarchives_from_the_event_page_and_repeats_change_nothing(
    client, event, organiser
):
    client.force_login(organiser)
    url = reverse("manage:archive_event", args=[event.slug])
    client.post(url, {"archived": "1"})
    client.post(url, {"archived": "1"})
    assert Tournament.objects.get(pk=event.pk).archived_at is not None
    client.post(url, {"archived": "0"})
    assert Tournament.objects.get(pk=event.pk).archived_at is None
    actions = list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert actions.count(AuditAction.ARCHIVE_EVENT) == 1
    assert actions.count(AuditAction.UNARCHIVE_EVENT) == 1


def test_a_referee_cannot_archive(client, event, referee):
    client.force_login(referee)
    response = client.post(reverse("manage:archive_event", args=[event.slug]), {"archived": "1"})
    assert response.status_code == 403
    assert Tournament.objects.get(pk=event.pk).archived_at is None


@pytest.fixture
def rf():
    return RequestFactory()
