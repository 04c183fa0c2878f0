from django.urls import path

from config.working import quick_lane
from scoring import views_kiosk, views_notices, views_player, views_player_history, views_public
from tournaments.public_read import public_page

# Anonymous reads of the pages marked public_page are answered through tournaments/public_read.py
# (docs/public-pages.md). The projector is not: its slides carry the clock's remaining seconds.
urlpatterns = [
    path(
        "e/<slug:slug>/results/<int:number>/",
        public_page(views_public.results, part="results", live=True),
        name="results",
    ),
    # The open standings and the projector are answered from the worker's drawing: a lane of their own.
    path("e/<slug:slug>/standings/", quick_lane(public_page(views_public.standings)), name="standings"),
    path("e/<slug:slug>/players/<str:code>/", public_page(views_public.player), name="player"),
    path("e/<slug:slug>/teams/", public_page(views_public.teams), name="teams"),
    path("e/<slug:slug>/side-rankings/", public_page(views_public.side), name="side"),
    path("e/<slug:slug>/projector/", quick_lane(views_public.projector), name="projector"),
    # A player's own page (scoring/views_player.py): never a public_page, never stored.
    path("e/<slug:slug>/me/", views_player.me, name="me"),
    path("e/<slug:slug>/me/sign-in/", views_player.sign_in, name="me_sign_in"),
    path("e/<slug:slug>/me/sign-out/", views_player.sign_out, name="me_sign_out"),
    path("e/<slug:slug>/me/notices/", views_notices.me_notices, name="me_notices"),
    path("e/<slug:slug>/me/sessions/<int:number>/table/", views_player.my_table, name="me_table"),
    path("e/<slug:slug>/me/sessions/<int:number>/sign/", views_player.sign, name="me_sign"),
    path("e/<slug:slug>/me/sessions/<int:number>/disagree/", views_player.disagree, name="me_disagree"),
    path("e/<slug:slug>/kiosk/", views_kiosk.kiosk_search, name="kiosk"),
    path("e/<slug:slug>/kiosk-leave/", views_kiosk.kiosk_leave, name="kiosk_leave"),
    path("e/<slug:slug>/kiosk/<str:code>/", views_kiosk.kiosk_player, name="kiosk_player"),
    path(
        "e/<slug:slug>/standings.<str:fmt>",
        public_page(views_public.standings_download),
        name="standings_download",
    ),
    # A player across events: keyed on every published event the players played (public_read.players_stamp).
    path(
        "players/<int:player_id>/",
        public_page(views_player_history.player_history, players=True),
        name="player_history",
    ),
    path("players/<int:player_id>/vs/", views_player_history.versus_search, name="versus_search"),
    path(
        "players/<int:player_id>/vs/<int:other_id>/",
        public_page(views_player_history.versus, players=True),
        name="versus",
    ),
]
