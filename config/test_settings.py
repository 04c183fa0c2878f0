"""Settings for the test suite: the real settings with a throw-away key and fast password hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-not-secret")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Requests in tests seat synchronously; tests/test_seating_jobs.py runs the background thread itself.
SEATING_IN_BACKGROUND = False
