from django.urls import include, path

from scoring import views_referee as views

table = "<slug:slug>/sessions/<int:number>/tables/<int:table>/"
urlpatterns = [
    path("<slug:slug>/", views.index, name="referee_index"),
    path("", include("scoring.urls_tiles")),
    path(table, views.table_page, name="referee_table"),
    path(table + "hands/<int:hand>/correct/", views.correct_hand, name="referee_correct_hand"),
    path(table + "penalties/<int:penalty>/appeal/", views.appeal, name="referee_appeal"),
    path(table + "appeals/<int:appeal>/decide/", views.decide_appeal, name="referee_decide_appeal"),
]
