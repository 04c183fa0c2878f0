"""Whose copy a referee page is: the referee pages' service worker (``static/js/referee-sw.js``) keeps each
page in a cache named after the user who saw it, and answers with no network only from the cache of the user
last seen on that phone, until that login ends. So on a shared phone one referee's kept pages (and their
queued entries, ``static/js/offline-entry.js``, keyed the same way) are never shown to the next.

The id is an HMAC of the user's primary key under the site's secret: stable for one user, the same on each of
their phones, telling nothing about the account, and never the session cookie (which the worker cannot read
and must not keep)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.crypto import salted_hmac

HEADER = "X-Offline-Copy"


def owner_id(user: AbstractBaseUser | AnonymousUser) -> str:
    """The opaque per-user id of the phone's kept pages and queued entries ("" for nobody)."""
    if not user.is_authenticated:
        return ""
    return salted_hmac("scoring.offline_copy.owner", str(user.pk)).hexdigest()[:24]


def header_value(request: HttpRequest) -> str:
    """``owner=<id>; until=<unix time>``: whose page this is and when their login ends (a copy is not shown
    after that, not even to the phone's last user)."""
    until = int(request.session.get_expiry_date().timestamp())
    return f"owner={owner_id(request.user)}; until={until}"


class MarkOfflineCopies:
    """Says on each referee page answered to a logged-in user whose copy it is (the worker keeps only pages
    that say so, in that user's cache); after authentication in ``MIDDLEWARE``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.scope = ""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not self.scope:
            self.scope = reverse("referee:my_tables")
        user = getattr(request, "user", None)
        if (
            request.method == "GET"
            and request.path.startswith(self.scope)
            and user is not None
            and user.is_authenticated
            and response.status_code == 200
            and response.get("Content-Type", "").startswith("text/html")
        ):
            response[HEADER] = header_value(request)
        return response
