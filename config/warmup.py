"""Load in a new worker what its first requests would otherwise load while a phone waits.

A gunicorn worker imports the views, compiles the templates and reads the translation catalogues on first
use: measured on the demo event, a cold worker answered its first /healthz in 116 ms and its first standings
in 313 ms, against 10 and 69 ms once warmed (1 ms each after). The hall meets every new worker (a start, a
restart after a crash): ``config/gunicorn_config.py`` calls :func:`warm` from ``post_worker_init``, before
the worker takes a connection. Nothing here touches the database or the cache.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import cast

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation


def warm() -> float:
    """Import every view, compile every project template, load every language's catalogue; returns seconds."""
    started = time.perf_counter()
    get_resolver().reverse_dict  # noqa: B018  (populating the resolver imports every URLconf and view)
    directories = cast("list[Path]", settings.TEMPLATES[0]["DIRS"])
    for directory in directories:
        root = Path(directory)
        for path in sorted(root.rglob("*.html")) + sorted(root.rglob("*.txt")):
            try:
                get_template(path.relative_to(root).as_posix())  # the cached loader keeps it compiled
            except (TemplateDoesNotExist, TemplateSyntaxError):  # a fragment only an include can load
                continue
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Standings")
    return time.perf_counter() - started
