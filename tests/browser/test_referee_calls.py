"""A call for a referee at 360 px: made on the referee's table page in one phone, it reaches a second
phone's "My tables" by its poll within a few seconds (no reload), is taken ("Kim is coming") and closed there."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360


@pytest.fixture
def call_event():
    from tournaments.models import Role
    from tournaments.release import publish_everything
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    rick = users.create_user("rick", password="pw-rick-123")
    kim = users.create_user("kim", password="pw-kim-123", first_name="Kim")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Call Open", slug="call-open", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    for user in (rick, kim):
        event_services.grant_role(tournament, user, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return publish_everything(tournament, acting_user=organiser)


def phone_page(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(15000)
    return page


def artifact(name: str) -> Path:
    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name


def page_width(page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_a_call_from_a_table_reaches_another_phones_my_tables_and_is_taken_and_closed(
    browser, live_server, call_event
):
    from tournaments.models import RefereeCall

    base = live_server.url
    at_table = phone_page(browser)
    walking = phone_page(browser)
    try:
        # Kim watches "My tables", with the sound allowed (kept in this browser).
        log_in(walking, base, "kim", "pw-kim-123")
        assert walking.url.endswith("/referee/")
        walking.check("#call-sound")
        assert walking.evaluate("localStorage.getItem('referee-call-sound')") == "1"
        assert "calls a referee" not in walking.inner_text("main")

        # Rick, at table 1, calls a referee for a claim.
        log_in(at_table, base, "rick", "pw-rick-123")
        at_table.goto(f"{base}/referee/call-open/sessions/1/tables/1/")
        at_table.select_option("#call-referee select[name=reason]", "claim")
        at_table.get_by_role("button", name="Call a referee").click()
        at_table.wait_for_selector("text=A referee is called to table 1.")
        assert at_table.locator("#call-referee").inner_text().startswith("A referee was called at")
        assert page_width(at_table) <= WIDTH
        at_table.screenshot(path=str(artifact("call-table-360.png")), full_page=True)

        # Kim's page shows it by its poll (every 3 s), without a reload, as a new call.
        walking.wait_for_selector("#referee-calls >> text=Table 1 calls a referee", timeout=8000)
        assert "claim, waiting" in walking.inner_text("#referee-calls")
        assert walking.get_attribute("#referee-calls", "data-new-call") == "1"
        assert page_width(walking) <= WIDTH

        walking.get_by_role("button", name="I'm coming").click()
        walking.wait_for_selector("#referee-calls >> text=Kim is coming.")
        walking.screenshot(path=str(artifact("call-my-tables-360.png")), full_page=True)
        assert RefereeCall.objects.get().taken_by.username == "kim"
        at_table.reload()
        assert "Kim is coming." in at_table.inner_text("#call-referee")

        walking.get_by_role("button", name="Close").click()
        walking.wait_for_selector("text=Call closed.")
        assert "calls a referee" not in walking.inner_text("#referee-calls")
        call = RefereeCall.objects.get()
        assert call.closed_at is not None and call.closed_by.username == "kim"
        at_table.reload()
        assert at_table.get_by_role("button", name="Call a referee").is_visible()
    finally:
        at_table.context.close()
        walking.context.close()
