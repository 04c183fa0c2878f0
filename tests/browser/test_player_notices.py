"""Notices while a player's own page is open, on a 360 px phone in real Chromium: with notifications
allowed ("Notify me"), the next session's seating published and the player's call for a referee taken each
show a notice in the page and a browser notification within a few seconds, without a reload
(scoring/views_notices.py, static/js/notices.js); the referee's "My tables", with the sound allowed, notifies
the new call the same way (static/js/referee-calls.js)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_public_live import retried

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "phone-notices"
WIDTH = 360

# The page's notifications are recorded instead of shown (headless Chromium shows none): a stand-in for the
# Notification API that says permission is granted, as the context's grant_permissions does.
RECORD_NOTIFICATIONS = """
window.__notified = [];
window.Notification = function (title, options) {
  window.__notified.push({ title: title, body: (options || {}).body || "" });
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


@pytest.fixture
def notices_event(settings):
    """An MCR event, session 1 seated and public, session 2 not seated and its seating not published;
    the players' pages poll every second."""
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    settings.PUBLIC_POLL_SECONDS = 1
    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    kim = users.create_user("kim", password="pw-kim-123", first_name="Kim")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Phone Notices", slug=SLUG, num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, kim, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    release.publish_everything(tournament, acting_user=organiser)
    release.publish_session(tournament.rounds.get(number=2), "seating", False, acting_user=organiser)
    return tournament, organiser, kim


def artifact(name: str) -> Path:
    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name


def test_seating_published_and_a_call_taken_reach_the_open_page_and_notify(
    browser, live_server, notices_event
):
    from scoring.services import pins
    from tournaments import release
    from tournaments.models import RefereeCall
    from tournaments.services import reseating

    tournament, organiser, kim = notices_event
    table = tournament.rounds.get(number=1).tables.get(number=1)
    me = table.seats.get(wind="E").registration
    pin = pins.issue_pins(tournament, acting_user=None)[me.pk]
    base = live_server.url

    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True)
    opened = [context]
    try:
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(RECORD_NOTIFICATIONS)
        phone = context.new_page()
        phone.set_default_timeout(15000)
        phone.goto(f"{base}/e/{SLUG}/me/?code={me.code}")
        phone.fill("input[name=pin]", pin)
        phone.click("#sign-in-form button[type=submit]")
        phone.wait_for_selector("#seat-now")

        # The player allows notifications; the choice is kept in this browser.
        phone.get_by_role("button", name="Notify me").click()
        phone.wait_for_selector("#notify-me[aria-pressed=true]")
        assert phone.evaluate("localStorage.getItem('notices-notify')") == "1"
        assert phone.locator("#notice-list li").count() == 0  # what the page was drawn with is no news

        # The organiser seats session 2 and publishes its seating: the open page says so by its poll.
        session_2 = tournament.rounds.get(number=2)
        retried(reseating.generate_seating, session_2, acting_user=organiser)
        retried(release.publish_session, session_2, "seating", True, acting_user=organiser)
        seat = session_2.seats.get(registration=me)
        phone.wait_for_selector("#notice-list >> text=Session 2: the seating is out.", timeout=25000)
        assert f"You play at table {seat.table.number}" in phone.inner_text("#notice-list")
        phone.wait_for_function("window.__notified.length === 1", timeout=15000)
        first = phone.evaluate("window.__notified[0]")
        assert first["title"] == "Phone Notices" and first["body"].startswith(
            "Session 2: the seating is out."
        )

        # Kim watches "My tables" with the sound allowed, which notifies a new call too (the same helper).
        referee = browser.new_context(
            viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True
        )
        opened.append(referee)
        referee.grant_permissions(["notifications"], origin=base)
        referee.add_init_script(RECORD_NOTIFICATIONS)
        walking = referee.new_page()
        walking.set_default_timeout(15000)
        walking.goto(f"{base}/accounts/login/")
        walking.fill("input[name=username]", "kim")
        walking.fill("input[name=password]", "pw-kim-123")
        walking.click("main button[type=submit]")
        walking.wait_for_selector("#call-sound")
        walking.check("#call-sound")

        # The player calls a referee from the page; Kim's page notifies it, and Kim takes the call there.
        phone.get_by_role("button", name="Call a referee to table 1").click()
        phone.wait_for_selector("text=Table 1 has called a referee.")
        walking.wait_for_function(
            "window.__notified.length === 1", timeout=25000
        )  # My tables polls every 3 s; CI runs two browsers at once
        assert walking.evaluate("window.__notified[0].body") == "Table 1 calls a referee"
        walking.get_by_role("button", name="I'm coming").click()
        walking.wait_for_selector("#referee-calls >> text=Kim is coming.")
        assert RefereeCall.objects.get(table=table).taken_by == kim
        phone.wait_for_selector("#notice-list >> text=Kim is coming to table 1.", timeout=25000)
        phone.wait_for_function("window.__notified.length === 2", timeout=15000)
        assert phone.evaluate("window.__notified[1].body") == "Kim is coming to table 1."
        assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH  # fits the phone
        phone.screenshot(path=str(artifact("player-notices-360.png")), full_page=True)

        # Each notice once: a reload shows neither again, in the page or as a notification.
        phone.reload()
        phone.wait_for_selector("#seat-now")
        phone.wait_for_timeout(2500)
        assert phone.locator("#notice-list li").count() == 0
        assert phone.evaluate("window.__notified.length") == 0
    finally:
        for each in opened:
            each.close()
