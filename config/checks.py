"""Deployment checks (``manage.py check --deploy``) for what Django's own checks do not know about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.caches, deploy=True)
def check_shared_cache(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[Warning]:
    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith(("LocMemCache", "DummyCache")):
        return [
            Warning(
                "The cache is local to each process: with several gunicorn workers each one recomputes the "
                "standings on its own.",
                hint="Set CACHE_URL=redis://127.0.0.1:6379/1 (Debian package redis-server).",
                id="site_config.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_content_security_policy(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[Warning]:
    if getattr(settings, "CONTENT_SECURITY_POLICY", None):
        return []
    return [
        Warning(
            "The Content-Security-Policy is sent in report-only mode: inline scripts are not blocked.",
            hint="Unset CSP_REPORT_ONLY once no template has an inline script or on* handler.",
            id="site_config.W002",
        )
    ]
