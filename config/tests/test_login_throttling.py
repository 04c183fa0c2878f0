"""django-axes: five wrong passwords for one username from one address lock that pair out for 15 minutes."""

from __future__ import annotations

import pytest
from django.test import override_settings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_axes_on")]


@pytest.fixture
def _axes_on():
    with override_settings(AXES_ENABLED=True):
        yield


def _log_in(client, username: str, password: str, address: str = "192.0.2.10"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_it_locks_out_a_username_after_five_wrong_passwords_and_says_when_to_retry(client, referee):
    for _ in range(4):
        assert _log_in(client, "rick", "wrong").status_code == 200  # the form again, with its error
    response = _log_in(client, "rick", "wrong")
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text
    assert "Try again in 15 minutes" in text


def test_the_right_password_is_refused_during_the_lockout(client, referee):
    for _ in range(5):
        _log_in(client, "rick", "wrong")
    assert _log_in(client, "rick", "pw-rick-123").status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_holds_only_for_that_username_and_address(client, referee, stranger):
    for _ in range(5):
        _log_in(client, "rick", "wrong")
    assert _log_in(client, "sam", "pw-sam-123").status_code == 302
    client.logout()
    assert _log_in(client, "rick", "pw-rick-123", address="192.0.2.77").status_code == 302


def test_a_successful_login_resets_the_count(client, referee):
    for _ in range(4):
        _log_in(client, "rick", "wrong")
    assert _log_in(client, "rick", "pw-rick-123").status_code == 302
    client.logout()
    for _ in range(4):
        assert _log_in(client, "rick", "wrong").status_code == 200
