from django.urls import path

from scoring import views_public
from tournaments.page_cache import cached_page

urlpatterns = [
    path(
        "e/<slug:slug>/results/<int:number>/", cached_page(views_public.results, session=True), name="results"
    ),
    path(
        "e/<slug:slug>/standings/",
        cached_page(views_public.standings, progress=True, live_params=("provisional",)),
        name="standings",
    ),
    path("e/<slug:slug>/players/<str:code>/", cached_page(views_public.player), name="player"),
    path("e/<slug:slug>/teams/", cached_page(views_public.teams), name="teams"),
    path("e/<slug:slug>/side-rankings/", cached_page(views_public.side), name="side"),
    path("e/<slug:slug>/projector/", views_public.projector, name="projector"),
    path("e/<slug:slug>/standings.<str:fmt>", views_public.standings_download, name="standings_download"),
]
