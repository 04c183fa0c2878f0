from django.urls import path

from tournaments import views_landing

urlpatterns = [
    path("", views_landing.my_tables, name="my_tables"),
]
