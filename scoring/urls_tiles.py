from django.urls import path

from scoring import views_tiles

urlpatterns = [
    path("<slug:slug>/fans/", views_tiles.fan_breakdown, name="fan_breakdown"),
]
