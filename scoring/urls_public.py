from django.urls import path

from scoring import views_kiosk, views_public
from tournaments.public_read import public_page

# Anonymous reads of the pages marked public_page are answered through tournaments/public_read.py
# (docs/public-pages.md). The projector is not: its slides carry the clock's remaining seconds.
urlpatterns = [
    path(
        "e/<slug:slug>/results/<int:number>/",
        public_page(views_public.results, part="results", live=True),
        name="results",
    ),
    path("e/<slug:slug>/standings/", public_page(views_public.standings), name="standings"),
    path("e/<slug:slug>/players/<str:code>/", public_page(views_public.player), name="player"),
    path("e/<slug:slug>/teams/", public_page(views_public.teams), name="teams"),
    path("e/<slug:slug>/side-rankings/", public_page(views_public.side), name="side"),
    path("e/<slug:slug>/projector/", views_public.projector, name="projector"),
    path("e/<slug:slug>/kiosk/", views_kiosk.kiosk_search, name="kiosk"),
    path("e/<slug:slug>/kiosk/<str:code>/", views_kiosk.kiosk_player, name="kiosk_player"),
    path(
        "e/<slug:slug>/standings.<str:fmt>",
        public_page(views_public.standings_download),
        name="standings_download",
    ),
]
