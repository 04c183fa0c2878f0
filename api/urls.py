"""``/api/v1/``: the public read API (``docs/api.md``). The views taking an event are public pages
(``tournaments/public_read.py``): anonymous reads are answered once per public version."""

from django.urls import path

from api import docs, views
from tournaments.public_read import public_page

app_name = "api"

urlpatterns = [
    path("", views.IndexView.as_view(), name="index"),
    path("schema/", views.SchemaView.as_view(), name="schema"),
    path("docs/", docs.schema_page, name="docs"),
    path("events/", views.EventsView.as_view(), name="events"),
    path("events/<slug:slug>/", public_page(views.EventView.as_view()), name="event"),
    path("events/<slug:slug>/sessions/", public_page(views.SessionsView.as_view()), name="sessions"),
    path("events/<slug:slug>/players/", public_page(views.PlayersView.as_view()), name="players"),
    path("events/<slug:slug>/standings/", public_page(views.StandingsView.as_view()), name="standings"),
    path(
        "events/<slug:slug>/sessions/<int:number>/seating/",
        public_page(views.SeatingView.as_view(), part="seating"),
        name="seating",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/results/",
        public_page(views.ResultsView.as_view(), part="results"),
        name="results",
    ),
]
