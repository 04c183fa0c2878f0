"""The referee pages installable: the web app manifest and the service worker (``static/js/referee-sw.js``),
served under /referee/ so the worker's scope is the referee pages (a script under /static/ could only
control /static/). Neither says anything about an event: the same for everyone, and cacheable."""

from __future__ import annotations

from functools import cache

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

WORKER = "js/referee-sw.js"


@cache
def _worker_source() -> bytes:
    """The worker's text: the source file (development, tests) or the collected copy (deployment)."""
    found = finders.find(WORKER)
    if isinstance(found, str):
        with open(found, "rb") as source:
            return source.read()
    with staticfiles_storage.open(WORKER) as collected:
        return bytes(collected.read())


def scope() -> str:
    """What the worker controls: every referee page (and nothing else of the site)."""
    return reverse("referee:my_tables")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = scope()
    # Browsers check a worker for updates at most daily whatever it says; a short life lets a fix in soon.
    response["Cache-Control"] = "max-age=300"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: "My tables" opened as an app from the phone's home screen."""
    icon = static("img/referee-icon.svg")
    data = {
        "name": gettext("Mahjong tournaments: referee"),
        "short_name": gettext("Referee"),
        "start_url": scope(),
        "scope": scope(),
        "display": "standalone",
        "background_color": "#fdfbf5",
        "theme_color": "#1d4d3a",
        "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    return JsonResponse(data, content_type="application/manifest+json")
