from django.urls import path

from tournaments import views_organiser as views

urlpatterns = [
    path("", views.dashboard, name="manage_dashboard"),
    path("new/", views.create_event, name="manage_create_event"),
    path("<slug:slug>/", views.event_dashboard, name="manage_event"),
    path("<slug:slug>/settings/", views.event_settings, name="manage_settings"),
    path("<slug:slug>/players/", views.players, name="manage_players"),
    path("<slug:slug>/players/<str:code>/check-in/", views.check_in, name="manage_check_in"),
    path("<slug:slug>/sessions/<int:number>/", views.session, name="manage_session"),
    path("<slug:slug>/sessions/<int:number>/swap/", views.swap, name="manage_swap"),
    path("<slug:slug>/sessions/<int:number>/scoresheets.pdf", views.scoresheets, name="manage_scoresheets"),
    path("<slug:slug>/sessions/<int:number>/seating-job/", views.seating_job, name="manage_seating_job"),
    path("<slug:slug>/players/<str:code>/fixed-table/", views.fixed_table, name="manage_fixed_table"),
    path(
        "<slug:slug>/sessions/<int:number>/tables/<int:table>/totals-only/",
        views.totals_only,
        name="manage_totals_only",
    ),
]
