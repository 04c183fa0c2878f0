"""Organiser seats a session, a referee enters it, everyone sees the standings: in real Chromium."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def unseated_event():
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Browser Open", slug="browser-open", num_sessions=2, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    # Public as it happens, seating and results included (the release controls, tournaments/release.py).
    release.publish_everything(tournament, acting_user=organiser)
    return tournament


def test_organiser_seats_referee_enters_and_the_public_sees_standings(
    page, phone, live_server, unseated_event
):
    base = live_server.url
    log_in(page, base, "olga", "pw-olga-123")
    page.goto(f"{base}/manage/browser-open/sessions/1/")
    page.click("button[name=scope][value=one]")
    page.wait_for_selector("text=Session 1 seated at 2 tables")
    assert page.locator(".card h3").count() == 2

    page.click("text=Log out")
    log_in(page, base, "rick", "pw-rick-123")
    page.goto(f"{base}/referee/browser-open/")
    page.click("text=Table 1")
    names = {}
    for wind in "ESWN":
        names[wind] = (
            page.locator("table.scoreboard tbody tr")
            .nth("ESWN".index(wind))
            .locator("td")
            .nth(1)
            .inner_text()
        )

    # Hand 1: East wins 16 from West. Hand 2: South self-draws 8. Hand 3: draw. Hand 4: East wins 8 from North.
    hands = [
        ("discard", "E", "W", "16"),
        ("self", "S", None, "8"),
        ("draw", None, None, None),
        ("discard", "E", "N", "8"),
    ]
    for number, (how, winner, discarder, fan) in enumerate(hands, 1):
        page.evaluate("window.sameDocument = true")  # gone if the browser loads the page again
        page.check(f"input[name=how][value={how}]")
        if winner:
            page.select_option("select[name=winner]", winner)
        if discarder:
            page.select_option("select[name=discarder]", discarder)
        if fan:
            page.fill("input[name=fan]", fan)
        page.click("text=Save hand")
        page.wait_for_selector("text=Hand saved")
        if number in (2, 3):
            # With JavaScript on, a save between the first and the last hand is answered with its row, the
            # totals and the next form, swapped into the page (htmx): no reload.
            assert page.evaluate("window.sameDocument === true")
            assert page.locator("table.hands-table tbody tr").count() == number
            assert page.locator("#hand-form h2").inner_text() == f"Hand {number + 1}"
            assert page.locator('td[data-seat="S"]').inner_text() == "40"  # the totals: -8 +48

    # A fan below 8 would have been refused; the table is now complete after four hands.
    assert page.locator(".state.complete").first.is_visible()
    # E: +40 -16 +32 = 56; S: -8 +48 -8 = 32; W: -24 -16 -8 = -48; N: -8 -16 -16 = -40
    assert page.locator('td[data-seat="E"]').inner_text() == "56"
    assert page.locator('td[data-seat="W"]').inner_text() == "-48"

    # Provisional until a second person confirms (rule 72): the public page ranks nobody yet.
    phone.goto(f"{base}/e/browser-open/standings/")
    phone.wait_for_selector("text=Nobody is ranked yet")
    assert phone.locator("text=tables confirmed").count() == 0  # only what is confirmed is public
    page.click("text=Confirm these results")
    page.wait_for_selector("text=another referee or the players must confirm them")

    page.click("text=Log out")
    log_in(page, base, "olga", "pw-olga-123")
    page.goto(f"{base}/referee/browser-open/sessions/1/tables/1/")
    page.click("text=Confirm these results")
    page.wait_for_selector("text=Results confirmed")
    assert page.locator(".state.confirmed").first.is_visible()

    phone.reload()
    phone.wait_for_selector("text=Session 1 in play: 1 of 2 tables confirmed.")
    first_row = phone.locator("table.standings tbody tr").first
    assert names["E"] in first_row.inner_text()
    assert "4" in first_row.inner_text()
    phone.screenshot(path=str(_artifact("standings-phone.png")), full_page=True)

    # A correction after the last hand: allowed, and the table is provisional again until confirmed.
    page.locator("table.hands-table tbody tr").first.locator("text=correct").click()
    page.fill("input[name=fan]", "20")
    page.click("text=Save correction")
    page.wait_for_selector("text=Hand corrected")
    assert page.locator('td[data-seat="E"]').inner_text() == "60"  # W pays 20 + 8 instead of 16 + 8
    assert page.locator("text=Confirm these results").is_visible()
    phone.reload()
    phone.wait_for_selector("text=Nobody is ranked yet")

    phone.goto(f"{base}/e/browser-open/seating/1/")
    phone.fill("#find", names["S"][:3])
    visible = phone.locator("#by-player tbody tr:visible")
    assert names["S"] in visible.first.inner_text()


def _artifact(name: str):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name
