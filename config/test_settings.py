"""Settings for the test suite: the real settings with a throw-away key and fast password hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-not-secret")

from config.settings import *  # noqa: F403
from config.settings import SITE_CSP

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Each test clears the cache (conftest.py): a per-process cache, whatever CACHE_URL says.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# Requests in tests seat synchronously; tests/test_seating_jobs.py runs the background thread itself.
SEATING_IN_BACKGROUND = False

# A change shows on the next read of a public page (tests/test_public_read.py tests the one-second window).
PUBLIC_VERSION_SECONDS = 0.0
PUBLIC_PAGE_LOCAL_BYTES = 0  # no per-process copies between tests (tests/test_public_read.py turns them on)

# Login throttling would lock the test users out of client.login() (which passes no request):
# config/tests/test_login_throttling.py turns it on to prove the lockout.
AXES_ENABLED = False

# Some templates still have inline handlers (the browser tests use them): report, do not block, in tests.
# config/tests/test_security_headers.py checks the enforced policy of the real settings.
CONTENT_SECURITY_POLICY = None
CONTENT_SECURITY_POLICY_REPORT_ONLY = SITE_CSP
