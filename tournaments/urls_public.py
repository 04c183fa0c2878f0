from django.urls import path

from tournaments import views_check_in, views_clock, views_public
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
    path("e/<slug:slug>/me/check-in/", views_check_in.me_check_in, name="me_check_in"),
]
