from django.urls import path

from tournaments import views_calls, views_landing

urlpatterns = [
    path("", views_landing.my_tables, name="my_tables"),
    path("my-tables/calls/", views_calls.open_calls, name="open_calls"),
    path(
        "<slug:slug>/sessions/<int:number>/tables/<int:table>/call/",
        views_calls.table_call,
        name="call_referee",
    ),
    path("<slug:slug>/calls/<int:pk>/take/", views_calls.take_call, name="take_call"),
    path("<slug:slug>/calls/<int:pk>/close/", views_calls.close_call, name="close_call"),
]
