"""The client's address, for login throttling (django-axes)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The peer's address; behind our reverse proxy (``USE_X_FORWARDED_FOR=1``) the last X-Forwarded-For
    entry, which the proxy appended itself (anything before it was written by the client and is not trusted)."""
    if settings.USE_X_FORWARDED_FOR:
        forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    remote: str = request.META.get("REMOTE_ADDR", "")
    return remote or "unknown"
