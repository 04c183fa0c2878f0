"""Django in this process, for the benchmarks that call the app directly rather than over HTTP: the test
settings (unless DJANGO_SETTINGS_MODULE names others) and a throw-away SQLite file (unless DATABASE_URL names
a database). Imported first, for its effect: ``import in_process``, then ``# isort: split``."""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# whitenoise warns of the static folder that collectstatic has not made: not what is measured here
warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
django.setup()
