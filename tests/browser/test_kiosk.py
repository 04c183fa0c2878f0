"""The check-in kiosk on a tablet (768 px) by the desk: the organiser opens self check-in and turns the
tablet into the kiosk (logged out on it); a player finds "garcia", picks "María García", types her PIN and
is checked in with her seat; the kiosk clears itself; the desk, open on the organiser's phone, shows her
checked in within a few seconds (its list is polled)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.sign_in import log_in
from tests.browser.test_desk_phone import WIDTH, _artifact, no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kiosk_event():
    from tournaments.release import publish_everything
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Kiosk Open", slug="kiosk-open", num_sessions=2, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in [
        "María García",
        "Bo Chen",
        "Cy Novak",
        "Di Rossi",
        "Ed Ward",
        "Flo Nagy",
        "Gus Berg",
        "Hu Lin",
    ]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return publish_everything(tournament, acting_user=organiser)


@pytest.fixture
def tablet(browser):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "make this device the kiosk?": yes
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def desk_phone(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def test_a_player_checks_in_at_the_kiosk_and_the_desk_sees_it(tablet, desk_phone, live_server, kiosk_event):
    from scoring.services.pins import pins_for
    from tournaments.models import Registration
    from tournaments.services import player_seats

    base = live_server.url
    maria = Registration.objects.get(player__name="María García")
    seat = player_seats.seat_now(maria).coming
    wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[seat.wind]

    # The desk on the organiser's phone: the list says nobody is checked in.
    log_in(desk_phone, base, "olga", "pw-olga-123")
    desk_phone.goto(f"{base}/manage/kiosk-open/players/")
    row = desk_phone.locator("#players tbody tr", has_text="María García")
    expect(row.get_by_role("button", name="Check in María García")).to_be_visible()

    # The tablet: the organiser opens self check-in, then makes the tablet the kiosk (logged out on it).
    log_in(tablet, base, "olga", "pw-olga-123")
    tablet.goto(f"{base}/manage/kiosk-open/players/")
    tablet.fill("#self-check-in input[name=minutes]", "30")
    tablet.click("#self-check-in button:has-text('Open')")
    tablet.wait_for_selector("text=Players can check themselves in until")
    tablet.click("text=Use this device as the check-in kiosk")
    tablet.wait_for_selector("h1:has-text('Check in')")
    assert tablet.url == f"{base}/e/kiosk-open/kiosk/"
    assert tablet.locator("header.top >> text=Log in").count() == 1  # no staff login left on the tablet

    # A player: "garcia" finds "María García", her PIN checks her in and names her seat.
    tablet.fill("input[name=q]", "garcia")
    tablet.click("button:has-text('Find')")
    tablet.screenshot(path=str(_artifact("kiosk-search-768.png")), full_page=True)
    tablet.click("a:has-text('María García')")
    tablet.fill("input[name=pin]", pins_for(kiosk_event)[maria.pk])
    tablet.click("button:has-text('Check in')")
    expect(tablet.get_by_text(f"Checked in: table {seat.table.number}, {wind}")).to_be_visible()
    tablet.screenshot(path=str(_artifact("kiosk-done-768.png")), full_page=True)
    maria.refresh_from_db()
    assert maria.checked_in

    # The kiosk clears itself for the next player.
    tablet.wait_for_url(f"{base}/e/kiosk-open/kiosk/", timeout=12000)
    expect(tablet.locator("input[name=q]")).to_have_value("")

    # The desk's list shows her checked in without a reload (polled every 5 s).
    expect(row.get_by_role("button", name="Checked in: undo")).to_be_visible(timeout=12000)
    expect(desk_phone.locator("#players-live")).to_contain_text(re.compile(r"1 of 8 checked in"))
    assert no_sideways_scroll(desk_phone)
    desk_phone.screenshot(path=str(_artifact("desk-self-check-in-360.png")))
