"""Calling a referee (tournaments/services/calls.py, tournaments/views_calls.py): one open call per table,
taken ("Kim is coming") and closed by referees, shown on "My tables" and the organiser's live view, audited."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments import player_session
from tournaments.archive import set_archived
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, RefereeCall, Registration, Role, Table
from tournaments.services import calls, player_seats
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def kim(event, organiser):
    user = get_user_model().objects.create_user("kim", password="pw-kim-123", first_name="Kim")
    event_services.grant_role(event, user, Role.REFEREE, acting_user=organiser)
    return user


@pytest.fixture
def chief(event, organiser):
    user = get_user_model().objects.create_user("chen", password="pw-chen-123", first_name="Chen")
    event_services.grant_role(event, user, Role.CHIEF_REFEREE, acting_user=organiser)
    return user


def player_at(table: Table) -> Registration:
    return table.seats.select_related("registration__player").order_by("wind")[0].registration


def player_elsewhere(table: Table) -> Registration:
    return Registration.objects.exclude(seats__table=table).filter(tournament=table.round.tournament)[0]


def sign_in(client, registration: Registration) -> None:
    session = client.session
    session[f"{player_session.SESSION_PREFIX}{registration.tournament_id}"] = registration.pk
    session.save()


def actions(event) -> list[str]:
    return list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))


# --- services ---------------------------------------------------------------------------------------


def test_a_table_has_one_open_call_at_a_time_and_may_call_again_once_it_is_closed(table, referee):
    call = calls.call_referee(table, reason="claim", acting_user=referee)
    assert call.closed_at is None and call.called_by_user == referee and call.reason == "claim"
    with pytest.raises(ServiceError) as refused:
        calls.call_referee(table, reason="timing", acting_user=referee)
    assert refused.value.code == "already_called"
    assert f"Table {table.number} has already called a referee" in refused.value.message
    calls.close_call(call, acting_user=referee)
    again = calls.call_referee(table, acting_user=referee)
    assert again.pk != call.pk and again.reason == ""
    assert RefereeCall.objects.filter(table=table, closed_at=None).count() == 1


def test_a_players_call_names_the_registration_in_the_audit_log(event, table):
    ana = player_at(table)
    call = calls.call_referee(table, reason="wrong_tiles", registration=ana)
    assert call.called_by_registration == ana and call.called_by_user is None
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.REFEREE_CALL)
    assert entry.actor is None
    assert entry.data["code"] == ana.code and entry.data["table"] == table.number
    assert "wrong tiles" in entry.summary and ana.player.name in entry.summary


def test_only_a_player_of_the_table_calls_to_it_and_only_with_a_listed_reason(table, referee):
    with pytest.raises(ServiceError) as elsewhere:
        calls.call_referee(table, registration=player_elsewhere(table))
    assert elsewhere.value.code == "not_at_table"
    with pytest.raises(ServiceError) as reason:
        calls.call_referee(table, reason="boredom", acting_user=referee)
    assert reason.value.code == "bad_reason"
    with pytest.raises(ServiceError) as nobody:
        calls.call_referee(table)
    assert nobody.value.code == "no_caller"
    assert not RefereeCall.objects.exists()


def test_a_referee_takes_a_call_and_another_is_told_who_is_coming(event, table, referee, kim):
    call = calls.call_referee(table, acting_user=referee)
    RefereeCall.objects.filter(pk=call.pk).update(created_at=timezone.now() - timedelta(seconds=80))
    taken = calls.take_call(call, acting_user=kim)
    assert taken.taken_by == kim and taken.taken_at is not None
    assert calls.take_call(call, acting_user=kim).taken_by == kim  # a second tap changes nothing
    with pytest.raises(ServiceError) as refused:
        calls.take_call(call, acting_user=referee)
    assert refused.value.code == "taken" and "Kim is already going" in refused.value.message
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.TAKE_CALL)
    assert entry.actor == kim and entry.data["waited_seconds"] >= 80


def test_a_call_taken_by_another_is_closed_by_the_taker_or_a_chief_referee(event, table, referee, kim, chief):
    call = calls.call_referee(table, acting_user=referee)
    calls.take_call(call, acting_user=kim)
    with pytest.raises(ServiceError) as refused:
        calls.close_call(call, acting_user=referee)
    assert refused.value.code == "not_yours"
    closed = calls.close_call(call, acting_user=chief)
    assert closed.closed_by == chief and closed.closed_at is not None
    calls.close_call(call, acting_user=kim)  # closed already: nothing changes
    assert actions(event).count(AuditAction.CLOSE_CALL) == 1

    second = calls.call_referee(table, acting_user=referee)
    calls.take_call(second, acting_user=kim)
    assert calls.close_call(second, acting_user=kim).closed_by == kim


def test_a_call_nobody_took_is_closed_by_any_referee(table, referee, kim):
    call = calls.call_referee(table, acting_user=referee)
    closed = calls.close_call(call, acting_user=kim)
    assert closed.closed_by == kim and closed.taken_by is None
    with pytest.raises(ServiceError) as late:
        calls.take_call(call, acting_user=referee)
    assert late.value.code == "closed"


def test_an_archived_event_takes_no_call(event, table, organiser, referee):
    set_archived(event, True, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        calls.call_referee(table, acting_user=referee)
    assert refused.value.code == "archived"


def test_a_players_table_is_their_table_in_the_session_in_play(event, table):
    ana = player_at(table)
    assert player_seats.seat_now(ana).table == table
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    assert player_seats.seat_now(ana).table == table  # the last one, when every table of theirs is complete
    event.rounds.update(seating_published_at=None)
    assert player_seats.seat_now(ana).table is None  # seating not out: no table to call to


# --- pages ------------------------------------------------------------------------------------------


def test_a_signed_in_player_calls_from_their_page_and_a_second_press_says_it_is_called(client, event, table):
    ana = player_at(table)
    url = reverse("public:player_call", args=[event.slug])
    assert client.post(url, {"reason": "claim"}).status_code == 403  # not signed in
    assert not RefereeCall.objects.exists()
    sign_in(client, ana)
    response = client.post(url, {"reason": "claim", "next": "/e/test-open/me/"})
    assert response.status_code == 302 and response["Location"] == "/e/test-open/me/"
    call = RefereeCall.objects.get()
    assert call.table == table and call.called_by_registration == ana and call.reason == "claim"
    again = client.post(url, {"next": "https://elsewhere.example/"}, HTTP_HX_REQUEST="true")
    html = again.content.decode()
    assert again.status_code == 200 and "private" in again["Cache-Control"]
    assert f"Table {table.number} has already called a referee" in html
    assert 'hx-trigger="every 5s"' in html  # the open call keeps the button's fragment polling
    assert "elsewhere.example" not in html
    assert RefereeCall.objects.count() == 1


def test_the_players_button_shows_who_is_coming(client, event, table, kim):
    ana = player_at(table)
    sign_in(client, ana)
    url = reverse("public:player_call", args=[event.slug])
    before = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert f"Call a referee to table {table.number}" in before and "every 5s" not in before
    call = calls.call_referee(table, registration=ana)
    calls.take_call(call, acting_user=kim)
    assert "Kim is coming." in client.get(url, HTTP_HX_REQUEST="true").content.decode()


def test_the_referees_table_page_calls_a_referee(client, event, table, referee):
    client.force_login(referee)
    page_url = reverse("referee:table", args=[event.slug, 1, table.number])
    page = client.get(page_url).content.decode()
    assert "Call a referee" in page
    assert reverse("referee:call_referee", args=[event.slug, 1, table.number]) in page
    response = client.post(
        reverse("referee:call_referee", args=[event.slug, 1, table.number]), {"reason": "timing"}, follow=True
    )
    html = response.content.decode()
    assert f"A referee is called to table {table.number}." in html
    assert "A referee was called at" in html and "Waiting" in html
    assert RefereeCall.objects.get().called_by_user == referee
    again = client.post(reverse("referee:call_referee", args=[event.slug, 1, table.number]), follow=True)
    assert "has already called a referee" in again.content.decode()


def test_the_table_page_refuses_a_stranger(client, event, table, stranger):
    client.force_login(stranger)
    response = client.post(reverse("referee:call_referee", args=[event.slug, 1, table.number]))
    assert response.status_code == 403
    assert not RefereeCall.objects.exists()


def test_my_tables_shows_the_call_on_top_then_who_is_coming_then_nothing_once_closed(
    client, event, table, referee, kim
):
    call = calls.call_referee(table, reason="claim", registration=player_at(table))
    RefereeCall.objects.filter(pk=call.pk).update(created_at=timezone.now() - timedelta(seconds=80))
    client.force_login(kim)
    page = client.get(reverse("referee:my_tables")).content.decode()
    assert f"Table {table.number} calls a referee" in page and "claim, waiting 1 min 2" in page
    assert page.index("calls a referee") < page.index("Your role")
    assert reverse("referee:open_calls") in page and 'hx-trigger="every 3s"' in page
    assert "js/referee-calls.js" in page and 'id="call-sound"' in page

    response = client.post(reverse("referee:take_call", args=[event.slug, call.pk]), follow=True)
    assert "Kim is coming." in response.content.decode()
    client.force_login(referee)
    fragment = client.get(reverse("referee:open_calls"), HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert "Kim is coming." in html and "taken after 1 min 2" in html
    assert "private" in fragment["Cache-Control"]
    refused = client.post(reverse("referee:close_call", args=[event.slug, call.pk]), follow=True)
    assert "only they or a chief referee may close it" in refused.content.decode()
    client.force_login(kim)
    client.post(reverse("referee:close_call", args=[event.slug, call.pk]))
    assert "calls a referee" not in client.get(reverse("referee:open_calls")).content.decode()
    assert RefereeCall.objects.get().closed_by == kim


def test_calls_of_another_event_are_not_shown_nor_taken(client, event, table, referee, stranger):
    call = calls.call_referee(table, acting_user=referee)
    client.force_login(stranger)
    assert "calls a referee" not in client.get(reverse("referee:open_calls")).content.decode()
    assert client.post(reverse("referee:take_call", args=[event.slug, call.pk])).status_code == 403
    assert RefereeCall.objects.get().taken_by is None


def test_the_organisers_live_view_shows_open_calls_and_how_long_each_waited(
    client, event, table, organiser, referee, kim
):
    first = calls.call_referee(table, reason="claim", acting_user=referee)
    other = event.rounds.get(number=1).tables.exclude(pk=table.pk).first()
    second = calls.call_referee(other, acting_user=referee)
    RefereeCall.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=3))
    RefereeCall.objects.filter(pk=second.pk).update(created_at=timezone.now() - timedelta(seconds=30))
    calls.take_call(second, acting_user=kim)
    client.force_login(organiser)
    html = client.get(reverse("manage:live", args=[event.slug]), HTTP_HX_REQUEST="true").content.decode()
    assert "Referee calls" in html
    assert f'Session 1, table {table.number}</a> (claim): <strong class="flag">waiting 3 min' in html
    assert f"table {other.number}</a>: Kim is coming, taken after 3" in html


def test_calls_are_shown_in_chinese(client, event, table, referee):
    calls.call_referee(table, reason="wrong_tiles", acting_user=referee)
    client.force_login(referee)
    html = client.get(reverse("referee:open_calls"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f"第{table.number}桌呼叫裁判" in html and "牌张有误" in html and "我来了" in html
