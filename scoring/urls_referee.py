from django.urls import path

from scoring import urls_tiles
from scoring import views_offline as offline
from scoring import views_referee_appeals as appeals
from scoring import views_referee_disputes as disputes
from scoring import views_referee_entry as entry
from scoring import views_referee_table as table_pages

table = "<slug:slug>/sessions/<int:number>/tables/<int:table>/"
urlpatterns = [
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("<slug:slug>/", table_pages.index, name="index"),
    *urls_tiles.urlpatterns,
    path(table, table_pages.table_page, name="table"),
    path(table + "hands/add/", entry.add_hand, name="add_hand"),
    path(table + "hands/void/", entry.void_hand, name="void_hand"),
    path(table + "totals/", entry.add_totals, name="add_totals"),
    path(table + "penalties/add/", entry.add_penalty, name="add_penalty"),
    path(table + "late/", entry.add_late, name="add_late"),
    path(table + "finish/", entry.finish_table, name="finish_table"),
    path(table + "reopen/", entry.reopen_table, name="reopen_table"),
    path(table + "confirm/", entry.confirm_table, name="confirm_table"),
    path(table + "sign/", entry.sign_table, name="sign_table"),
    path(table + "blind-entry/", entry.blind_entry, name="blind_entry"),
    path(table + "disputes/<int:dispute>/settle/", disputes.settle_dispute, name="settle_dispute"),
    path(table + "hands/<int:hand>/correct/", entry.correct_hand, name="correct_hand"),
    path(table + "penalties/<int:penalty>/appeal/", appeals.appeal, name="appeal"),
    path(table + "late/<int:penalty>/appeal/", appeals.appeal, {"subject": "late"}, name="appeal_late"),
    path(table + "hands/<int:penalty>/appeal/", appeals.appeal, {"subject": "hand"}, name="appeal_hand"),
    path(table + "appeals/<int:appeal>/decide/", appeals.decide_appeal, name="decide_appeal"),
    path("<slug:slug>/appeals/", appeals.appeals, name="appeals"),
    path("<slug:slug>/appeals/<int:appeal>/decide/", appeals.decide_appeal, name="decide"),
]
