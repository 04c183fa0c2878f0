"""URLs by audience: ``public:`` (anyone), ``manage:`` (organisers), ``referee:`` (referees).

Each namespace gathers the pages of both apps, so a page moves between layers without its name
changing."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache

from config import accounts
from scoring import urls_organiser as scoring_organiser
from scoring import urls_public as scoring_public
from scoring import urls_referee
from tournaments import urls_organiser as tournaments_organiser
from tournaments import urls_public as tournaments_public
from tournaments import urls_referee as tournaments_referee
from tournaments import views_landing


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """For the load balancer, the monitor and the benchmarks: the app answers, nothing else is touched."""
    return HttpResponse("ok", content_type="text/plain")


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
    path("accounts/", include("django.contrib.auth.urls")),
    path("start/", views_landing.landing, name="landing"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switch in every page's footer
    path("", include(public)),
    path("manage/", include(manage)),
    path("referee/", include(referee)),
]
