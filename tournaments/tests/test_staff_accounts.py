"""An organiser creates a volunteer's login from the staff page, with a link to set its password."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import staff_accounts
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Role

NEW_PASSWORD = "tile-garden-4821"


def _create(client, event, username="newref", role="referee"):
    return client.post(
        reverse("manage:create_staff_account", args=[event.slug]),
        {"new_username": username, "new_role": role},
    )


def _link(response) -> str:
    match = re.search(r'value="(http://testserver(/accounts/invitation/[^"]+))"', response.content.decode())
    assert match, response.content.decode()
    return match.group(2)


def test_an_organiser_creates_a_referee_account_holding_only_that_role(client, event, organiser):
    client.force_login(organiser)
    response = _create(client, event)
    assert response.status_code == 200
    assert "newref" in response.content.decode()
    user = get_user_model().objects.get(username="newref")
    assert not user.has_usable_password()
    assert not user.is_staff and not user.is_superuser
    assert not user.user_permissions.exists() and not user.groups.exists()
    assert list(EventRole.objects.filter(user=user).values_list("tournament", "role")) == [
        (event.pk, Role.REFEREE)
    ]
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.CREATE_STAFF_ACCOUNT)
    assert entry.actor == organiser and entry.data == {"user": "newref", "role": "referee"}
    assert "invitation" not in entry.summary


def test_the_link_lets_the_volunteer_set_a_password_then_log_in_and_open_my_tables(client, event, organiser):
    client.force_login(organiser)
    path = _link(_create(client, event))
    volunteer = Client()
    form_page = volunteer.get(path, follow=True)
    assert form_page.status_code == 200 and "new_password1" in form_page.content.decode()
    set_password = volunteer.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert set_password.status_code == 302
    assert volunteer.get(reverse("referee:my_tables")).status_code == 200
    phone = Client()
    assert phone.login(username="newref", password=NEW_PASSWORD)
    tables = phone.get(reverse("referee:my_tables"))
    assert tables.status_code == 200 and event.name in tables.content.decode()
    # Used once: the same link no longer opens the form.
    again = Client().get(path, follow=True)
    assert "new_password1" not in again.content.decode()
    assert "expired or has been used" in again.content.decode()


def test_the_link_expires_after_a_day(event, organiser):
    invitation = staff_accounts.create_staff_account(event, "newref", Role.REFEREE, acting_user=organiser)
    token = invitation.path.rstrip("/").rsplit("/", 1)[1]
    generator = staff_accounts.invitation_tokens
    assert generator.check_token(invitation.user, token)
    later = generator._now() + timedelta(hours=staff_accounts.INVITATION_HOURS, minutes=1)
    with mock.patch.object(generator, "_now", return_value=later):
        assert not generator.check_token(invitation.user, token)
    assert timezone.now()  # the clock itself is untouched


def test_a_referee_cannot_create_accounts(client, event, referee):
    client.force_login(referee)
    assert _create(client, event, username="friend").status_code == 403
    assert not get_user_model().objects.filter(username="friend").exists()


def test_a_taken_username_is_refused_with_a_message(client, event, organiser, referee):
    client.force_login(organiser)
    response = _create(client, event, username="RICK")
    assert response.status_code == 422
    assert "is taken" in response.content.decode()
    assert get_user_model().objects.filter(username__iexact="rick").count() == 1
    with pytest.raises(ServiceError) as error:
        staff_accounts.create_staff_account(event, "rick", Role.REFEREE, acting_user=organiser)
    assert error.value.code == "username_taken"


def test_a_username_with_spaces_is_refused(event, organiser):
    with pytest.raises(ServiceError) as error:
        staff_accounts.create_staff_account(event, "new ref", Role.REFEREE, acting_user=organiser)
    assert error.value.code == "bad_username"


def test_granting_a_role_to_a_missing_account_points_to_the_new_account_form(client, event, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("manage:grant_role", args=[event.slug]), {"username": "newref", "role": "referee"}
    )
    assert response.status_code == 422
    assert "New volunteer account" in response.content.decode()


def _new_link(client, event, username):
    role = EventRole.objects.get(tournament=event, user__username=username)
    return client.post(reverse("manage:new_staff_link", args=[event.slug, role.pk]))


def test_a_lost_link_is_replaced_by_a_new_one_that_works_once(client, event, organiser):
    client.force_login(organiser)
    _create(client, event)
    assert "New link" in client.get(reverse("manage:event", args=[event.slug])).content.decode()
    path = _link(_new_link(client, event, "newref"))
    volunteer = Client()
    form_page = volunteer.get(path, follow=True)
    volunteer.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert get_user_model().objects.get(username="newref").check_password(NEW_PASSWORD)
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.NEW_STAFF_LINK)
    assert entry.actor == organiser and entry.data == {"user": "newref"}
    # Once a password is chosen: no new link, the button is gone.
    refused = _new_link(client, event, "newref")
    assert refused.status_code == 302
    page = client.get(refused["Location"]).content.decode()
    assert "has chosen a password already" in page and "New link" not in page


def test_no_new_link_for_an_account_that_serves_another_event_too(client, event, organiser):
    from tournaments.services import events

    client.force_login(organiser)
    _create(client, event)
    other = events.create_tournament(
        events.EventDetails(name="Other Open", slug="other-open"), acting_user=organiser
    )
    volunteer = get_user_model().objects.get(username="newref")
    events.grant_role(other, volunteer, Role.REFEREE, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        staff_accounts.reissue_invitation(
            EventRole.objects.get(tournament=event, user=volunteer), acting_user=organiser
        )
    assert error.value.code == "not_this_events"
    assert not AuditEntry.objects.filter(action=AuditAction.NEW_STAFF_LINK).exists()
