"""The tournament day in real Chromium : the organiser registers and checks in
players on a phone, seats a session and starts the clock; a referee logs in, lands on their tables,
reaches their table and enters a hand; the organiser's page shows it without reloading; the projector
pages through the standings and shows the clock."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IMPORTED = 60
"""Players arriving in the organiser's list (a CSV imported at the desk); four more register there."""


@pytest.fixture
def day_event():
    from tournaments.models import Role
    from tournaments.services import events as event_services

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    users.create_user("rita", password="pw-rita-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Day Open", slug="day-open", num_sessions=2, session_minutes=90),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    # A small seating time limit: the search would otherwise run to its full default limit.
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    return tournament


def log_in(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/**")


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_tournament_day(browser, phone, page, live_server, day_event):
    from scoring.services import confirmation, entry
    from tournaments.models import Registration
    from tournaments.services import registrations

    base = live_server.url
    slug = day_event.slug

    # The registration desk, on a phone: import the list, register four more, check two in.
    log_in(phone, base, "olga", "pw-olga-123")
    phone.goto(f"{base}/manage/{slug}/players/")
    csv = "name,country,ema_id,team\n" + "".join(f"Guest {n:02d},PT,,\n" for n in range(1, IMPORTED + 1))
    phone.set_input_files(
        "input[type=file]", files=[{"name": "list.csv", "mimeType": "text/csv", "buffer": csv.encode()}]
    )
    phone.get_by_role("button", name="Import", exact=True).click()
    phone.wait_for_selector(f"text=Imported {IMPORTED} players.")
    for name, country in (
        ("Ana García", "Portugal"),
        ("Bo Chen", "CN"),
        ("Cy Novak", "CZ"),
        ("Di Rossi", "IT"),
    ):
        phone.fill("#register input[name=name]", name)
        phone.fill("#register input[name=country]", country)
        phone.click("#register button[type=submit]")
        phone.wait_for_selector(f"text=Registered {name}")
    assert no_sideways_scroll(phone)
    phone.fill("input[name=q]", "garcia")  # accents and case ignored
    phone.click("text=Check in / find")
    phone.get_by_role("button", name="Check in Ana García").click()
    phone.wait_for_selector("button[aria-label='Checked in: undo']")
    phone.fill("input[name=q]", "bo chen")
    phone.click("text=Check in / find")
    phone.get_by_role("button", name="Check in Bo Chen").click()
    phone.wait_for_selector("button[aria-label='Checked in: undo']")
    assert set(Registration.objects.filter(checked_in=True).values_list("player__name", flat=True)) == {
        "Ana García",
        "Bo Chen",
    }
    # The other desks check the rest in meanwhile.
    organiser = get_user_model().objects.get(username="olga")
    for registration in Registration.objects.filter(checked_in=False):
        registrations.set_checked_in(registration, True, acting_user=organiser)

    # Seat session 1 and start its clock, still on the phone.
    phone.goto(f"{base}/manage/{slug}/sessions/1/")
    phone.click("button[name=scope][value=one]")
    phone.wait_for_selector("text=Session 1 seated at 16 tables", timeout=30000)
    phone.fill("#clock input[name=minutes]", "90")
    phone.click("text=Start the clock")
    phone.wait_for_selector("text=Clock started: 90 minutes.")
    assert phone.locator("#clock .clock-face").inner_text().startswith(("1:29:", "1:30:"))
    assert "Session 1: 16 hands or 90 minutes" in phone.inner_text("#clock")
    assert no_sideways_scroll(phone)

    # Publish the event, session 1's seating and (live) its results: all drafts until now.
    assert phone.goto(f"{base}/e/{slug}/").status == 404
    phone.goto(f"{base}/manage/{slug}/")
    phone.click("text=Publish the event")
    phone.wait_for_selector("text=The event is public")
    phone.get_by_role("button", name="Publish session 1 seating").click()
    phone.wait_for_selector("text=Session 1 seating: published.")
    phone.get_by_role("button", name="Publish session 1 results").click()
    phone.wait_for_selector("text=Session 1 results: published.")
    assert no_sideways_scroll(phone)
    assert phone.goto(f"{base}/e/{slug}/seating/1/").status == 200
    phone.goto(f"{base}/manage/{slug}/sessions/1/")

    # A referee logs in on a laptop, lands on their tables and enters a hand at table 1.
    log_in(page, base, "rick", "pw-rick-123")
    page.get_by_role("link", name="Enter results at table 1", exact=True).click()
    page.wait_for_selector("h1:has-text('table 1')")
    assert page.locator(".clock[role=timer]").is_visible()
    page.check("input[name=how][value=draw]")
    page.click("text=Save hand")
    page.wait_for_selector("text=Hand saved")

    # The organiser's session page shows it by itself (htmx polling, no reload).
    phone.wait_for_selector("#tables-live [data-table='1'] .hands:has-text('1/16')", timeout=25000)
    phone.screenshot(path=str(_artifact("day-session-phone.png")), full_page=False)

    # The hall: every table finishes its first hand and is confirmed; the projector pages through all.
    rita = get_user_model().objects.get(username="rita")
    round_ = day_event.rounds.get(number=1)
    for table in round_.tables.order_by("number"):
        if table.number != 1:
            entry.record_hand(table, entry.HandEntry(winner=None), acting_user=rita)
        entry.set_table_finished(table, True, acting_user=rita)
        confirmation.confirm_table(table, acting_user=organiser)
    hall = browser.new_context(viewport={"width": 1280, "height": 720})
    projector = hall.new_page()
    projector.set_default_timeout(15000)
    projector.goto(f"{base}/e/{slug}/projector/?seconds=60")
    projector.wait_for_selector("body[data-view]")
    assert "After session 1 (final)" in projector.inner_text(".projector-status")
    views: list[str] = []
    ranked: set[str] = set()
    while (view := projector.get_attribute("body", "data-view")) not in views:
        views.append(view)
        assert projector.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        if view.startswith("standings"):
            ranked.update(
                projector.eval_on_selector_all(
                    ".slide[data-slide=standings] tbody tr:not([hidden]) .name",
                    "cells => cells.map(c => c.innerText)",
                )
            )
        projector.keyboard.press("ArrowRight")
        projector.wait_for_function("v => document.body.dataset.view !== v", arg=view)
    assert len([v for v in views if v.startswith("standings")]) >= 2, views
    assert len(ranked) == IMPORTED + 4
    assert "clock 1/1" in views
    # Back at the first view after the round: step on to the clock.
    for _ in range(views.index("clock 1/1")):
        current = projector.get_attribute("body", "data-view")
        projector.keyboard.press("ArrowRight")
        projector.wait_for_function("v => document.body.dataset.view !== v", arg=current)
    assert (
        projector.locator(".slide[data-slide=clock] .clock-face")
        .inner_text()
        .startswith(("1:29:", "1:30:", "1:28:"))
    )
    hall.close()


def _artifact(name: str):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name
