"""The project's own app entry: only to register the deployment checks of ``config/checks.py``."""

from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site_config"
    verbose_name = "Site configuration"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the checks)
