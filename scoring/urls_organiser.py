from django.urls import path

from scoring import views_erasure, views_exports, views_rehearsal, views_seat_changes
from scoring import views_organiser as views

urlpatterns = [
    path("people/<int:pk>/erase/", views_erasure.erase_player, name="erase_player"),
    path("<slug:slug>/prints/", views.event_prints, name="event_prints"),
    path("<slug:slug>/rehearsal/play/", views_rehearsal.play_next_session, name="play_rehearsal"),
    path("<slug:slug>/pins/", views.pins, name="pins"),
    path("<slug:slug>/pins/issue/", views.issue_pins, name="issue_pins"),
    path("<slug:slug>/pins/<str:code>/reissue/", views.reissue_pin, name="reissue_pin"),
    path("<slug:slug>/appeals/", views.appeals_register, name="appeals_register"),
    path("<slug:slug>/prints/<slug:kind>/", views.event_print, name="event_print"),
    path("<slug:slug>/exports/<int:job_id>/", views_exports.export_job, name="export_job"),
    path("<slug:slug>/exports/<int:job_id>/download/", views_exports.export_download, name="export_download"),
    path("<slug:slug>/sessions/<int:number>/prints/", views.prints, name="prints"),
    path("<slug:slug>/sessions/<int:number>/prints/<slug:kind>/", views.session_print, name="session_print"),
    path(
        "<slug:slug>/sessions/<int:number>/pins/reissue/",
        views.reissue_session_pins,
        name="reissue_session_pins",
    ),
    path("<slug:slug>/sessions/<int:number>/scoresheets.pdf", views.scoresheets, name="scoresheets"),
    path(
        "<slug:slug>/sessions/<int:number>/seat-changes/",
        views_seat_changes.seat_changes_page,
        name="seat_changes",
    ),
    path(
        "<slug:slug>/sessions/<int:number>/seat-changes/substitute/",
        views_seat_changes.substitute,
        name="substitute",
    ),
    path(
        "<slug:slug>/sessions/<int:number>/seat-changes/fix/", views_seat_changes.fix_seats, name="fix_seats"
    ),
]
