"""Settings for the mahjong tournament manager: one file, driven by the environment.

Every variable is listed with its default in README.md ("Settings") and docs/deployment.md. The short of it:

- ``SECRET_KEY``: required when ``DEBUG`` is off (we fail loudly rather than run with a known key).
- ``DATABASE_URL``: any dj-database-url URL (PostgreSQL in production); SQLite in WAL mode by default.
- ``CACHE_URL``: ``redis://127.0.0.1:6379/1`` in production (shared by every worker); local memory otherwise.
- ``DEBUG``, ``ALLOWED_HOSTS`` and ``CSRF_TRUSTED_ORIGINS`` (comma separated), the ``SECURE_*`` switches for HTTPS.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, not {value!r}.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def cache_from_url(url: str) -> dict[str, Any]:
    """``redis://[:password@]host:port/db``, ``rediss://...`` or ``unix:///path?db=1``: Django's Redis cache,
    shared by every worker, answering as an empty cache while Redis is away (``config/cache.py``); ``locmem://`` (or empty): this process only; ``dummy://``: no caching."""
    scheme = urlsplit(url).scheme if url else "locmem"
    if scheme in {"redis", "rediss", "unix"}:
        return {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "mahjong"),
            # A Redis that stops answering costs a request one second, not a worker.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    if scheme == "locmem":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "mahjong"}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        f"CACHE_URL: unknown scheme {scheme!r} (use redis://, rediss://, unix://, locmem://)."
    )


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY in the environment (or DEBUG=1 for local development).")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "csp",
    "axes",
    "config.apps.SiteConfig",
    "players",
    "tournaments",
    "scoring",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # serves static files pre-compressed (gzip and brotli)
    # gunicorn: at most GUNICORN_WORKING_THREADS of a worker's threads work at once, the others wait; the open
    # standings and the projector in a lane of their own (config/working.py).
    "config.working.WorkingSlots",
    "django.middleware.gzip.GZipMiddleware",  # pages and JSON; Django 4.2+ pads it against BREACH
    # /api/: the anonymous rate limit and read-only CORS, on every answer (stored, rendered or 304: api/middleware.py).
    "api.middleware.ApiEdgeMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",  # ETag from the body; 304 to a poll that holds it
    "csp.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Anonymous reads of public pages, before sessions, locale, CSRF and authentication run
    # (tournaments/public_read.py, docs/public-pages.md); the headers above still apply to them.
    # Each request starts and ends in the site's zone; the access helpers set the event's (venue_time.py).
    "tournaments.venue_time.SiteZoneAfterRequest",
    "tournaments.public_read.PublicReadMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.RefuseNulCharacters",  # PostgreSQL cannot compare text holding NUL (config/middleware.py)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Whose copy a referee page is, for the phone's service worker (scoring/offline_copy.py).
    "scoring.offline_copy.MarkOfflineCopies",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.DatabaseAway",  # a database that went away: 503 "not saved, try again" (not a 500)
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# ---------------------------------------------------------------------------------------------------------------
# Database. Connections are kept open between requests (CONN_MAX_AGE seconds) and checked before reuse, so a
# restarted PostgreSQL costs one reconnect instead of an error page.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 0 if DEBUG else 600),  # runserver: a thread per request
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (public standings) run while a referee saves; IMMEDIATE takes the write lock at
    # BEGIN so two concurrent saves queue instead of failing with "database is locked"; synchronous=FULL
    # syncs the WAL at every commit, so a hand the referee saw saved survives a power cut.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=5000;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DATABASES["default"]["ATOMIC_REQUESTS"] = False

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------------------------------------------------------
# Cache: standings and their HTML are cached per standings version. With several gunicorn workers the cache
# must be shared (Redis), or every worker recomputes the standings on its own.
# Background work (seating plans) in a separate process, `manage.py run_worker` (deploy/serve, systemd, compose
# start it); off: a thread inside the web process (development and tests).
BACKGROUND_WORKER = env_bool("BACKGROUND_WORKER", False)
# Long prints made by that worker are stored in the database (scoring/export_jobs.py): the newest files kept per print.
EXPORT_JOBS_KEEP = env_int("EXPORT_JOBS_KEEP", 3)

# Public pages for anonymous readers, stored per event version (tournaments/public_read.py): each worker reads
# an event's versions at most every half second (a change shows on the public pages within it; the standings
# poll every second and skip nginx's copy: a confirmation is on an open page within 2 s, bench/entry_load.py).
PUBLIC_VERSION_SECONDS = float(env_str("PUBLIC_VERSION_SECONDS") or 0.25)
# ...and keeps the answers it served last in its own memory (the keys name the versions: never out of date).
PUBLIC_PAGE_LOCAL_BYTES = env_int("PUBLIC_PAGE_LOCAL_BYTES", 32 * 1024 * 1024)

# The public read API (/api/v1/, docs/api.md): requests per client address, DRF's rate syntax (n/s, n/min,
# n/hour); empty: no limit.
API_RATE = env_str("API_RATE", "120/min")
REST_FRAMEWORK = {
    # Read-only and public: no accounts, no sessions, no CSRF; JSON only; the rate limit is api/middleware.py's.
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": [],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.views.not_found_alike",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong tournaments: public read API",
    "DESCRIPTION": "What the public pages show, as JSON: published events, sessions, seating, confirmed "
    "results, standings and players. Versioning rules: docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
}

CACHE_URL = env_str("CACHE_URL")
CACHES = {"default": cache_from_url(CACHE_URL)}

# ---------------------------------------------------------------------------------------------------------------
# Email (registration by the players: the confirmation with the private link, tournaments/services/entries.py).
# By default the messages are printed on the console (or written as files with EMAIL_FILE_PATH); set
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST... to send them.
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.filebased.EmailBackend"
    if EMAIL_FILE_PATH
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# Registration by the players: at most this many entry attempts from one address per window (seconds).
ENTRY_ADDRESS_LIMIT = env_int("ENTRY_ADDRESS_LIMIT", 10)
ENTRY_ADDRESS_WINDOW = env_int("ENTRY_ADDRESS_WINDOW", 60 * 60)

# ---------------------------------------------------------------------------------------------------------------
# Logins, sessions, passwords.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out username+address before checking the password
    "django.contrib.auth.backends.ModelBackend",
]
# Referees share tablets: a login lasts one tournament day, not two weeks.
# Django's database sessions, read by a prepared statement (config/sessions.py).
SESSION_ENGINE = "config.sessions"
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 12 * 60 * 60)

# django-axes: after AXES_FAILURE_LIMIT failed logins for one username from one address, that pair is locked
# out for AXES_COOLOFF_MINUTES; a successful login resets the count.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
AXES_VERBOSE = False
# Behind a reverse proxy every request comes from 127.0.0.1: read the client's address from the last
# X-Forwarded-For entry (the one our own proxy wrote). Only set it when such a proxy is in front.
USE_X_FORWARDED_FOR = env_bool("USE_X_FORWARDED_FOR", False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "landing"  # organisers to their events, referees to their tables
LOGOUT_REDIRECT_URL = "public:home"

# ---------------------------------------------------------------------------------------------------------------
# HTTPS. Off in development (DEBUG=1); see docs/deployment.md for the production values.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer's / monitor's plain-HTTP health check
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    # Behind a TLS proxy that sets X-Forwarded-Proto (and strips the client's own): request.is_secure() is
    # true, so absolute URLs (the scoresheets' QR codes) say https.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)  # the language switch's choice
LANGUAGE_COOKIE_HTTPONLY = True
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy: scripts and styles from our own origin only (no inline script, no CDN).
# CSP_REPORT_ONLY=1 sends it as Content-Security-Policy-Report-Only instead (browsers report, nothing blocked).
SITE_CSP = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}
CONTENT_SECURITY_POLICY: dict[str, Any] | None = None
CONTENT_SECURITY_POLICY_REPORT_ONLY: dict[str, Any] | None = None
if env_bool("CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = SITE_CSP
else:
    CONTENT_SECURITY_POLICY = SITE_CSP

# ---------------------------------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language switch (Django's set_language view) remembers the choice in this cookie for a year; without it
# LocaleMiddleware follows the browser's Accept-Language, and anything but Chinese reads English.
LANGUAGE_COOKIE_NAME = "language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Seating plans are worked out in a background thread so the organiser's page can show progress.
SEATING_IN_BACKGROUND = env_bool("SEATING_IN_BACKGROUND", True)

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
