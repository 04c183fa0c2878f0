"""URLs by audience: ``public:`` (anyone), ``manage:`` (organisers), ``referee:`` (referees).

Each namespace gathers the pages of both apps, so a page moves between layers without its name
changing."""

import logging

from django.contrib import admin
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from config import accounts
from scoring import urls_organiser as scoring_organiser
from scoring import urls_public as scoring_public
from scoring import urls_referee
from tournaments import urls_organiser as tournaments_organiser
from tournaments import urls_public as tournaments_public
from tournaments import urls_referee as tournaments_referee
from tournaments import views_landing

log = logging.getLogger(__name__)


def _database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any way the database fails to answer
        log.warning("health check: the database did not answer", exc_info=True)
        return "down"
    return "ok"


def _cache_state() -> str:
    """The shared cache's own answer (``ResilientRedisCache.answers``: a PING); a cache inside the process
    (local memory, tests) always answers."""
    answers = getattr(cache, "answers", None)
    return "ok" if answers is None or answers() else "down"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For the load balancer, the monitor and ``deploy/serve``: which part answers. 200 ``{"database": "ok",
    "cache": "ok", "status": "ok"}``; the cache down is 200 with ``"status": "degraded"`` (every page is still
    served, computed from the database: keep sending readers here); the database down is 503 ``"status":
    "down"`` (nothing can be saved)."""
    parts = {"database": _database_state(), "cache": _cache_state()}
    if parts["database"] != "ok":
        return JsonResponse({**parts, "status": "down"}, status=503)
    return JsonResponse({**parts, "status": "ok" if parts["cache"] == "ok" else "degraded"})


handler500 = "config.middleware.server_error"  # the database's errors outside a view: 503, not a 500

public = ([*tournaments_public.urlpatterns, *scoring_public.urlpatterns], "public")
manage = ([*tournaments_organiser.urlpatterns, *scoring_organiser.urlpatterns], "manage")
referee = ([*tournaments_referee.urlpatterns, *urls_referee.urlpatterns], "referee")

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/devices/", accounts.devices, name="devices"),
    path(
        "accounts/devices/log-out-others/", accounts.log_out_everywhere_else, name="log_out_everywhere_else"
    ),
    path(
        "accounts/invitation/<uidb64>/<token>/",
        accounts.StaffInvitationView.as_view(),
        name="staff_invitation",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("start/", views_landing.landing, name="landing"),
    # The switch in every page's footer. Exempt from CSRF: the worst a forged post does is change a
    # visitor's language, and without a token the public pages hold no secret and are stored whole.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("api/v1/", include("api.urls")),
    path("", include(public)),
    path("manage/", include(manage)),
    path("referee/", include(referee)),
]
