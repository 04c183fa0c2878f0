from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls_public")),
    path("manage/", include("tournaments.urls_organiser")),
    path("referee/", include("scoring.urls_referee")),
]
