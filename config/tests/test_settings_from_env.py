"""The settings read from the environment: production values pass ``check --deploy``, SQLite is durable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from config.settings import cache_from_url

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "0",
    "SECRET_KEY": "k3y-for-the-deploy-check-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "mahjong.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://mahjong.example.org",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_PROXY_SSL_HEADER": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def _manage(*args: str, extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "CSP_", "CACHE_", "DJANGO_"))}
    env.pop("DEBUG", None)
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_check_deploy_is_clean_with_the_production_environment():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", extra_env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.slow
def test_check_deploy_warns_about_a_cache_of_one_process():
    env = {**PRODUCTION_ENV, "CACHE_URL": ""}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", extra_env=env)
    assert result.returncode != 0
    assert "site_config.W001" in result.stdout + result.stderr


def test_a_redis_url_gives_the_shared_redis_cache():
    cache = cache_from_url("redis://127.0.0.1:6379/1")
    assert cache["BACKEND"] == "config.cache.ResilientRedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/1"


def test_no_cache_url_gives_the_local_memory_cache():
    assert cache_from_url("")["BACKEND"].endswith("LocMemCache")


def test_an_unknown_cache_scheme_is_refused():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_from_url("memcached://127.0.0.1:11211")


@pytest.mark.django_db
def test_sqlite_syncs_every_commit_to_disk_in_wal_mode(settings):
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("PostgreSQL run")
    assert settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == 5000


@pytest.mark.slow
def test_connections_are_kept_open_and_checked_in_production():
    code = "from django.conf import settings as s; d = s.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    env = {k: v for k, v in os.environ.items() if k not in {"CONN_MAX_AGE", "CONN_HEALTH_CHECKS"}}
    env.update(PRODUCTION_ENV)
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["600", "True"], result.stderr


def test_a_session_lasts_a_tournament_day(settings):
    assert settings.SESSION_COOKIE_AGE == 12 * 60 * 60


def test_common_passwords_are_refused():
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        validate_password("password123")
