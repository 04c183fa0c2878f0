from django.urls import path

from tournaments import views_clock, views_public

urlpatterns = [
    path("", views_public.home, name="home"),
    path("e/<slug:slug>/", views_public.event, name="event"),
    path("e/<slug:slug>/seating/<int:number>/", views_public.seating, name="seating"),
    path("e/<slug:slug>/clock/", views_clock.clock_fragment, name="clock"),
]
