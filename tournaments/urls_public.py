from django.urls import path

from tournaments import views_calls, views_check_in, views_clock, views_entries, views_public
from tournaments.public_read import public_page

urlpatterns = [
    path("", views_public.home, name="home"),
    path("e/<slug:slug>/", public_page(views_public.event), name="event"),
    path(
        "e/<slug:slug>/seating/<int:number>/",
        public_page(views_public.seating, part="seating"),
        name="seating",
    ),
    path("e/<slug:slug>/find/", views_public.find, name="find"),
    path("e/<slug:slug>/clock/", views_clock.clock_fragment, name="clock"),
    # A player's own page (not a public_page: never cached publicly, tournaments/player_session.py).
    path("e/<slug:slug>/me/call/", views_calls.player_call, name="player_call"),
    # Registration by the players: never stored by the public page cache (a form, a private page).
    path("e/<slug:slug>/register/", views_entries.register, name="register"),
    path("e/<slug:slug>/register/<str:token>/", views_entries.entry_page, name="entry"),
    path("e/<slug:slug>/register/<str:token>/withdraw/", views_entries.withdraw_entry, name="withdraw_entry"),
    path("e/<slug:slug>/me/check-in/", views_check_in.me_check_in, name="me_check_in"),
]
