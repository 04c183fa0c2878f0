"""A "log out everywhere else" for a lost tablet; a login lasts a working day, not two weeks."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse


def _logged_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="pw-Example-42")
    return client


def test_logging_out_everywhere_else_ends_the_other_devices_and_keeps_this_one(db):
    users = get_user_model().objects
    users.create_user("ref", password="pw-Example-42")
    users.create_user("other", password="pw-Example-42")
    lost_tablet, phone, laptop = _logged_in("ref"), _logged_in("ref"), _logged_in("ref")
    someone_else = _logged_in("other")
    devices = laptop.get(reverse("devices"))
    assert b"<strong>3</strong> devices" in devices.content

    response = laptop.post(reverse("log_out_everywhere_else"), follow=True)
    assert "Logged out on 2 other devices." in response.content.decode()
    assert b"<strong>1</strong> device " in response.content

    dashboard = reverse("manage:dashboard")
    assert lost_tablet.get(dashboard).status_code == 302  # to the login page
    assert phone.get(dashboard).status_code == 302
    assert laptop.get(dashboard).status_code == 200
    assert someone_else.get(dashboard).status_code == 200  # other users are untouched


def test_the_devices_page_needs_a_login_and_the_action_a_post(client, db):
    assert client.get(reverse("devices")).status_code == 302
    get_user_model().objects.create_user("ref", password="pw-Example-42")
    client.login(username="ref", password="pw-Example-42")
    assert client.get(reverse("log_out_everywhere_else")).status_code == 405


def test_a_login_lasts_twelve_hours():
    assert settings.SESSION_COOKIE_AGE == 12 * 60 * 60
