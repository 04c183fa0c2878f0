from django.urls import path

from tournaments import views_clock, views_desk, views_release, views_reseat
from tournaments import views_organiser as views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.create_event, name="create_event"),
    path("<slug:slug>/", views.event_dashboard, name="event"),
    path("<slug:slug>/settings/", views.event_settings_page, name="settings"),
    path("<slug:slug>/settings/card/", views.load_card, name="load_card"),
    path("<slug:slug>/settings/lots/", views.draw_lots, name="draw_lots"),
    path("<slug:slug>/settings/<slug:group>/", views.save_settings, name="save_settings"),
    path("<slug:slug>/staff/", views.grant_role, name="grant_role"),
    path("<slug:slug>/staff/new-account/", views.create_staff_account, name="create_staff_account"),
    path("<slug:slug>/staff/<int:pk>/revoke/", views.revoke_role, name="revoke_role"),
    path("<slug:slug>/staff/<int:pk>/new-link/", views.new_staff_link, name="new_staff_link"),
    path("<slug:slug>/archive/", views.archive_event, name="archive_event"),
    path("<slug:slug>/publish/", views_release.publish_event, name="publish_event"),
    path("<slug:slug>/freeze/", views_release.freeze_standings, name="freeze_standings"),
    path(
        "<slug:slug>/sessions/<int:number>/publish/<slug:part>/",
        views_release.publish_session,
        name="publish_session",
    ),
    path("<slug:slug>/players/", views_desk.players, name="players"),
    path("<slug:slug>/players/add/", views_desk.add_player, name="add_player"),
    path("<slug:slug>/players/import/", views_desk.import_players, name="import_players"),
    path("<slug:slug>/players/check-in/", views_desk.desk_check_in, name="desk_check_in"),
    path("<slug:slug>/players/<str:code>/check-in/", views_desk.check_in, name="check_in"),
    path("<slug:slug>/players/<str:code>/edit/", views_desk.edit_player, name="edit_player"),
    path("<slug:slug>/players/<str:code>/withdraw/", views_desk.withdraw, name="withdraw"),
    path("<slug:slug>/sessions/<int:number>/", views.session, name="session"),
    path("<slug:slug>/live/", views_clock.event_live, name="live"),
    path("<slug:slug>/sessions/<int:number>/live/", views_clock.session_live, name="session_live"),
    path("<slug:slug>/sessions/<int:number>/clock/<slug:action>/", views_clock.clock_action, name="clock"),
    path("<slug:slug>/sessions/<int:number>/seat/", views.seat_session, name="seat_session"),
    path("<slug:slug>/sessions/<int:number>/swap/", views.swap, name="swap"),
    path("<slug:slug>/sessions/<int:number>/seating-job/", views.seating_job, name="seating_job"),
    path("<slug:slug>/players/<str:code>/fixed-table/", views_desk.fixed_table, name="fixed_table"),
    path(
        "<slug:slug>/sessions/<int:number>/tables/<int:table>/totals-only/",
        views.totals_only,
        name="totals_only",
    ),
    path("<slug:slug>/reseat/", views_reseat.reseat, name="reseat"),
    path("<slug:slug>/seating/upload/", views_reseat.upload_seating, name="upload_seating"),
]
