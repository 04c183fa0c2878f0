"""What every ``/api/`` answer gets, stored or not (``docs/api.md``): read-only CORS and a rate limit for
anonymous clients. Placed above the conditional-GET middleware, so a 304 carries the header too and counts
against the limit, and above the public read path (``tournaments/public_read.py``), so an answer served from
the cache is limited like a rendered one."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from config.security import client_ip

log = logging.getLogger(__name__)

API_PREFIX = "/api/"
READS = frozenset({"GET", "HEAD"})


class ApiClientThrottle(AnonRateThrottle):
    """DRF's anonymous throttle (a history of request times per client in the shared cache), keyed by the
    client's address as the login throttle reads it (``config.security.client_ip``: behind our proxy, the
    address it appended). The API has no accounts: every client is anonymous. The rate is
    ``API_RATE`` (``120/min`` unless set; ``docs/api.md``)."""

    def get_rate(self) -> str | None:
        rate: str | None = getattr(settings, "API_RATE", "120/min") or None
        return rate

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request._request)}


def too_many(wait: float | None) -> JsonResponse:
    """429 with a clear JSON body and ``Retry-After`` in whole seconds."""
    seconds = max(1, math.ceil(wait or 1))
    response = JsonResponse(
        {"detail": f"Too many requests: try again in {seconds} seconds.", "retry_after": seconds},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


class ApiEdgeMiddleware:
    """Rate limit and CORS headers for ``/api/``; every other address passes untouched."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        throttle = ApiClientThrottle()
        try:
            allowed = throttle.rate is None or throttle.allow_request(Request(request), APIView())
        except Exception:  # the shared cache is away: serve rather than refuse everyone
            log.warning("API rate limit unavailable; request let through", exc_info=True)
            allowed = True
        response = self.get_response(request) if allowed else too_many(throttle.wait())
        if request.method in READS:
            # Read-only CORS: any site's script may read the answers; no credentials are ever honoured
            # (no Access-Control-Allow-Credentials), and nothing but GET and HEAD is offered.
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
        return response
