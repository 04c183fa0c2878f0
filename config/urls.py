from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """For the load balancer, the monitor and the benchmarks: the app answers, nothing else is touched."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls_public")),
    path("manage/", include("tournaments.urls_organiser")),
    path("referee/", include("scoring.urls_referee")),
]
