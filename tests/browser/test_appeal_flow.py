"""A ruling, its appeal and the decision, in real Chromium (rules 81 and 94 of Sloper's chapter 4): the referee
rules, the player appeals in writing, the chief referee decides after being asked, the organiser's register
shows who did what."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seated_event():
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    chief = users.create_user("chiara", password="pw-chiara-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Appeal Open", slug="appeal-open", num_sessions=1, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.grant_role(tournament, chief, Role.CHIEF_REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    release.publish_everything(tournament, acting_user=organiser)
    return tournament


def log_in(page, base: str, username: str, password: str) -> None:
    """A fresh login: the last user's cookies go first."""
    page.context.clear_cookies()
    sign_in.log_in(page, base, username, password)


def test_a_ruling_is_appealed_in_writing_and_decided_by_the_chief_referee(page, live_server, seated_event):
    base = live_server.url
    table = seated_event.rounds.get(number=1).tables.get()
    east = table.seats.get(wind="E").registration
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.message))

    log_in(page, base, "rick", "pw-rick-123")
    page.goto(f"{base}/referee/appeal-open/sessions/1/tables/1/")
    ruling = page.locator("form[action*='/penalties/add/']")
    ruling.locator("select[name=player]").select_option(east.code)
    ruling.locator("select[name=kind]").select_option("see_wall_tile")
    ruling.locator("input[name=hand_number]").fill("1")
    ruling.locator("button[type=submit]").click()
    page.wait_for_selector("text=Ruling recorded")
    assert "may not win hand 1" in page.locator("#rulings").inner_text()

    page.locator("#rulings a", has_text="appeal").first.click()
    page.wait_for_selector("text=30 minutes")
    page.fill("input[name=signed_by]", "Ana and her team leader")
    page.fill("textarea[name=statement]", "The wall tile fell over by itself.")
    page.check("input[name=fee_received]")  # rule 94d: the book's US$200, the MCR default
    page.click("button:has-text('File appeal')")
    page.wait_for_selector("text=Appeal filed")

    log_in(page, base, "chiara", "pw-chiara-123")
    page.goto(f"{base}/referee/appeal-open/appeals/")
    page.fill("textarea[name=reasons]", "The table was knocked by a passer-by.")
    page.click("button:has-text('Appeal granted')")
    page.wait_for_selector("text=Appeal granted: ruling withdrawn. The decision is recorded.")
    assert any("final" in message for message in asked), asked  # it asked before deciding
    assert "Appeal granted: ruling withdrawn; decided by chiara (chief referee)" in page.content()

    log_in(page, base, "olga", "pw-olga-123")
    page.goto(f"{base}/manage/appeal-open/appeals/")
    register = page.locator("#register").inner_text()
    for expected in [
        "MCR 81",
        "rick",
        "Ana and her team leader",
        "ruling withdrawn; decided by chiara",
        "passer-by",
    ]:
        assert expected in register, expected
