from django.urls import path

from tournaments import views_clock, views_entries, views_public
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
    # Registration by the players: never stored by the public page cache (a form, a private page).
    path("e/<slug:slug>/register/", views_entries.register, name="register"),
    path("e/<slug:slug>/register/<str:token>/", views_entries.entry_page, name="entry"),
    path("e/<slug:slug>/register/<str:token>/withdraw/", views_entries.withdraw_entry, name="withdraw_entry"),
]
