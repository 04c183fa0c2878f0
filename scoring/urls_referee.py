from django.urls import path

from scoring import urls_tiles
from scoring import views_referee as views

table = "<slug:slug>/sessions/<int:number>/tables/<int:table>/"
urlpatterns = [
    path("<slug:slug>/", views.index, name="index"),
    *urls_tiles.urlpatterns,
    path(table, views.table_page, name="table"),
    path(table + "hands/add/", views.add_hand, name="add_hand"),
    path(table + "hands/void/", views.void_hand, name="void_hand"),
    path(table + "totals/", views.add_totals, name="add_totals"),
    path(table + "penalties/add/", views.add_penalty, name="add_penalty"),
    path(table + "late/", views.add_late, name="add_late"),
    path(table + "finish/", views.finish_table, name="finish_table"),
    path(table + "reopen/", views.reopen_table, name="reopen_table"),
    path(table + "confirm/", views.confirm_table, name="confirm_table"),
    path(table + "sign/", views.sign_table, name="sign_table"),
    path(table + "blind-entry/", views.blind_entry, name="blind_entry"),
    path(table + "hands/<int:hand>/correct/", views.correct_hand, name="correct_hand"),
    path(table + "penalties/<int:penalty>/appeal/", views.appeal, name="appeal"),
    path(table + "late/<int:penalty>/appeal/", views.appeal, {"subject": "late"}, name="appeal_late"),
    path(table + "hands/<int:penalty>/appeal/", views.appeal, {"subject": "hand"}, name="appeal_hand"),
    path(table + "appeals/<int:appeal>/decide/", views.decide_appeal, name="decide_appeal"),
    path("<slug:slug>/appeals/", views.appeals, name="appeals"),
    path("<slug:slug>/appeals/<int:appeal>/decide/", views.decide_appeal, name="decide"),
]
