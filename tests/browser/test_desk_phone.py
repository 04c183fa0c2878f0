"""Phone first: the check-in desk, the release controls and "my tables" at 360 px wide, with
no sideways scrolling of the page (wide tables become cards)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360


@pytest.fixture
def desk_event():
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Desk Open", slug="desk-open", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name, country in [
        ("José García", "ES"),
        ("Bo Chen", "CN"),
        ("Cy Novak", "CZ"),
        ("Di Rossi", "IT"),
        ("Ed Ward", "GB"),
        ("Flo Nagy", "HU"),
        ("Gus Berg", "SE"),
    ]:
        registrations.register_player(
            tournament, registrations.PlayerRow(name=name, country=country), acting_user=organiser
        )
    return tournament


@pytest.fixture
def narrow(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(15000)
    yield page
    context.close()


OVERFLOWING = """
(width) => [...document.querySelectorAll("body *")].filter((e) => {
  if (e.getBoundingClientRect().right <= width) return false;
  for (let p = e.parentElement; p; p = p.parentElement) {
    if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return false;  // scrolls in its box
  }
  return true;
}).slice(0, 5).map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))
"""


SPILLING = """
() => [...document.querySelectorAll("main *")]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible")
  .slice(0, 5).map((e) => e.tagName + "." + e.className + " " + e.scrollWidth)
"""


def no_sideways_scroll(page) -> bool:
    """Nothing sticks out of a 360 px page (a mobile browser would otherwise widen its layout to fit it);
    a wide table may scroll inside its own box."""
    offenders = page.evaluate(OVERFLOWING, WIDTH)
    assert not offenders, offenders
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, page.evaluate(SPILLING)
    return width <= WIDTH


def test_the_check_in_desk_on_a_360_px_phone(narrow, live_server, desk_event):
    from tournaments.models import Registration

    base = live_server.url
    page = narrow
    log_in(page, base, "olga", "pw-olga-123")
    assert page.url.endswith("/manage/")  # an organiser lands on their events
    assert no_sideways_scroll(page)
    page.click("text=Desk Open")
    page.click("nav.event-nav >> text=Players")
    page.wait_for_selector("h1:has-text('Players')")
    assert no_sideways_scroll(page)

    # Register with a typed country name: saved as its ISO code.
    page.fill("#register input[name=name]", "Hu Lin")
    page.fill("#register input[name=country]", "Portugal")
    page.click("#register button[type=submit]")
    page.wait_for_selector("text=Registered Hu Lin")
    assert Registration.objects.get(player__name="Hu Lin").player.country == "PT"

    # A probable duplicate is refused until "register anyway"; nothing is saved meanwhile.
    page.fill("#register input[name=name]", "jose garcia")
    page.click("#register button[type=submit]")
    page.wait_for_selector("text=Probably already registered")
    assert Registration.objects.filter(tournament=desk_event).count() == 8
    assert no_sideways_scroll(page)

    # Check-in by a name search without accents, then by a scanned slip's code.
    page.fill("input[name=q]", "garcia")
    page.click("text=Check in / find")
    page.wait_for_selector("text=Players matching")
    assert page.locator("#players tbody tr").count() == 1
    page.get_by_role("button", name="Check in José García").click()
    page.wait_for_selector("button[aria-label='Checked in: undo']")
    bo = Registration.objects.get(player__name="Bo Chen")
    page.fill("input[name=q]", f"{base}/e/desk-open/players/{bo.code}/")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("text=Bo Chen (")
    assert set(Registration.objects.filter(checked_in=True).values_list("player__name", flat=True)) == {
        "José García",
        "Bo Chen",
    }
    assert no_sideways_scroll(page)
    page.screenshot(path=str(_artifact("desk-360.png")), full_page=True)

    # Edit a player and withdraw another, on the phone.
    page.goto(f"{base}/manage/desk-open/players/")
    page.get_by_role("link", name="Edit Gus Berg").click()
    assert no_sideways_scroll(page)
    page.click("text=Withdraw Gus Berg")
    page.wait_for_selector("text=is withdrawn")
    assert Registration.objects.get(player__name="Gus Berg").withdrawn_at is not None

    # The release controls on the event page, still at 360 px.
    page.goto(f"{base}/manage/desk-open/")
    assert no_sideways_scroll(page)
    page.click("text=Publish the event")
    page.wait_for_selector("text=The event is public")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(_artifact("release-360.png")), full_page=True)


def test_my_tables_on_a_360_px_phone(narrow, live_server, desk_event):
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.get(username="olga")
    registrations.register_player(desk_event, registrations.PlayerRow(name="Hu Lin"), acting_user=organiser)
    reseating.generate_seating(desk_event.rounds.get(number=1), acting_user=organiser)
    base = live_server.url
    # The organiser's session page, with its release box, fits the phone too.
    log_in(narrow, base, "olga", "pw-olga-123")
    narrow.goto(f"{base}/manage/desk-open/sessions/1/")
    narrow.get_by_role("button", name="Publish session 1 seating").click()
    narrow.wait_for_selector("text=Session 1 seating: published.")
    assert no_sideways_scroll(narrow)
    narrow.context.clear_cookies()
    log_in(narrow, base, "rick", "pw-rick-123")
    assert narrow.url.endswith("/referee/")  # a referee lands on their tables
    assert "Session 1" in narrow.inner_text("main")
    assert no_sideways_scroll(narrow)
    narrow.get_by_role("link", name="Enter results at table 2").click()
    narrow.wait_for_url("**/sessions/1/tables/2/")


def _artifact(name: str):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name
