"""URLs by audience: ``public:`` (anyone), ``manage:`` (organisers), ``referee:`` (referees).

Each namespace gathers the pages of both apps, so a page moves between layers without its name
changing."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
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
    path("", include(public)),
    path("manage/", include(manage)),
    path("referee/", include(referee)),
]
