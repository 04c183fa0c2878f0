"""What every response says to the browser: the enforced CSP, compression, the health check."""

from __future__ import annotations

import gzip

import pytest
from django.test import override_settings

from config.security import client_ip
from config.settings import SITE_CSP


@pytest.mark.django_db
@override_settings(CONTENT_SECURITY_POLICY=SITE_CSP, CONTENT_SECURITY_POLICY_REPORT_ONLY=None)
def test_pages_carry_a_content_security_policy_without_inline_script(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


@pytest.mark.django_db
def test_the_test_settings_only_report_the_policy(client):
    response = client.get("/")
    assert "Content-Security-Policy-Report-Only" in response
    assert "Content-Security-Policy" not in response


@pytest.mark.django_db
def test_pages_are_compressed_for_browsers_that_accept_gzip(client, demo_event):
    response = client.get(f"/e/{demo_event.slug}/standings/", headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(response.content)


@pytest.mark.django_db
def test_the_health_check_answers_ok_when_the_database_and_the_cache_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "status": "ok"}


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True)
def test_the_health_check_is_not_redirected_to_https(client):
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_requests_count_as_https(client, rf):
    request = rf.get("/", headers={"x-forwarded-proto": "https"})
    assert request.is_secure()
    assert request.build_absolute_uri("/").startswith("https://")
    assert client.get("/", headers={"x-forwarded-proto": "https"}).status_code == 200
    assert client.get("/").status_code == 301


def test_the_client_address_is_the_peer_unless_our_proxy_forwards_it(rf, settings):
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", headers={"x-forwarded-for": "6.6.6.6, 203.0.113.9"})
    settings.USE_X_FORWARDED_FOR = False
    assert client_ip(request) == "127.0.0.1"
    settings.USE_X_FORWARDED_FOR = True
    assert client_ip(request) == "203.0.113.9"
