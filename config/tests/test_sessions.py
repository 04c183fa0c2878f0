"""The database's sessions read by a prepared statement (config/sessions.py): what Django's own store reads,
nothing once expired."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_session_reads_as_django_s_own_store_reads_it():
    store = SessionStore()
    store["player-of-event-1"] = 7
    store.save()
    assert (
        SessionStore(store.session_key).load()
        == DjangoStore(store.session_key).load()
        == {"player-of-event-1": 7}
    )


def test_an_expired_or_unknown_session_is_empty_and_loses_its_key():
    store = SessionStore()
    store["x"] = 1
    store.save()
    Session.objects.filter(pk=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(store.session_key)
    assert expired.load() == {} and expired.session_key is None
    unknown = SessionStore("a" * 32)
    assert unknown.load() == {} and unknown.session_key is None


def test_signing_in_keeps_working_through_the_store(client, django_user_model):
    django_user_model.objects.create_user("kim", password="a long enough password")
    assert client.login(username="kim", password="a long enough password")
    assert "_auth_user_id" in client.session.load()
