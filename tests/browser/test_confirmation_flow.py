"""The confirmation walk (docs/confirmation.md) in real Chromium: a referee enters a table's sixteen hands, a
second person confirms them (a second referee, or the four players signing with their PINs, rule 72), the
public standings change from "in play" to final, and a correction after hand 16 withdraws the confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "confirm-open"


@pytest.fixture
def full_session_event():
    """An MCR event of 16-hand sessions (rule 74e), 8 players at two tables; table 2 is entered and
    confirmed already, so table 1 decides whether session 1 is final."""
    from scoring.services import confirmation, entry
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    second = users.create_user("sue", password="pw-sue-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Confirm Open", slug=SLUG, num_sessions=2, hands_per_session=16),
        acting_user=organiser,
    )
    for user in (referee, second):
        event_services.grant_role(tournament, user, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    other = tournament.rounds.get(number=1).tables.get(number=2)
    for _ in range(16):
        entry.record_hand(other, entry.HandEntry(winner=None), acting_user=referee)
    confirmation.confirm_table(other, acting_user=organiser)
    # Public as it happens, seating and results included (the release controls, tournaments/release.py).
    release.publish_everything(tournament, acting_user=organiser)
    return tournament


def enter_hand(
    page, how: str, winner: str | None = None, discarder: str | None = None, fan: str = ""
) -> None:
    page.check(f"input[name=how][value={how}]")
    if winner:
        page.select_option("select[name=winner]", winner)
    if discarder:
        page.select_option("select[name=discarder]", discarder)
    if fan:
        page.fill("input[name=fan]", fan)


@pytest.mark.parametrize("confirmed_by", ["referee", "players"])
def test_entry_confirmation_final_standings_and_a_correction_after_hand_16(
    browser, page, phone, live_server, full_session_event, confirmed_by
):
    from scoring.services import entry
    from scoring.services import pins as pins_service
    from tournaments.services import events as event_services

    tournament = full_session_event
    if confirmed_by == "players":
        event_services.update_settings(tournament, {"confirmation.by": "players"}, acting_user=None)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    pins = pins_service.issue_pins(tournament, acting_user=None)  # what the seat slips print
    seated_pins = [pins[seat.registration_id] for seat in table.seats.order_by("wind")]
    east = table.seats.get(wind="E").registration.player.name
    base = live_server.url
    table_url = f"{base}/referee/{SLUG}/sessions/1/tables/1/"

    first = 1
    if confirmed_by == "players":  # the referee run enters all sixteen in the browser; this one the last
        from scoring.services import entry
        from scoring.services import pins as pins_service
        from tournaments.services import events as event_services

        rick = get_user_model().objects.get(username="rick")
        entry.record_hand(table, entry.HandEntry(winner="E", discarder="W", fan=16), acting_user=rick)
        for _ in range(14):
            entry.record_hand(table, entry.HandEntry(winner=None), acting_user=rick)
        first = 16
    log_in(page, base, "rick", "pw-rick-123")
    page.goto(table_url)
    for number in range(first, 17):  # hand 1: East wins 16 from West (+40); the others are draws
        if number == 1:
            enter_hand(page, "discard", "E", "W", "16")
        else:
            enter_hand(page, "draw")
        page.click("text=Save hand")
        page.wait_for_selector("text=Hand saved (")
    assert page.locator(".state.complete").first.is_visible()
    assert page.locator("input[name=fan]").count() == 0  # no 17th hand (rule 74e)

    standings = f"{base}/e/{SLUG}/standings/"
    phone.goto(standings)
    phone.wait_for_selector("text=Session 1 in play: 1 of 2 tables confirmed.")
    assert east not in phone.locator("main").inner_text()  # table 1 is provisional: not counted

    if confirmed_by == "referee":
        page.click("text=Confirm these results")  # rick entered them: refused
        page.wait_for_selector("text=another referee or the players must confirm them")
        context = browser.new_context()
        second = context.new_page()
        second.on("dialog", lambda dialog: dialog.accept())
        log_in(second, base, "sue", "pw-sue-123")
        second.goto(table_url)
        second.click("text=Confirm these results")
        second.wait_for_selector("text=Results confirmed")
        context.close()
    else:
        assert page.locator("text=Confirm these results").count() == 0
        page.fill("input[name=pin]", "12345x")
        page.click("#sign-form button")
        page.wait_for_selector("text=Not saved: That PIN does not sign this table.")
        for index, pin in enumerate(seated_pins):  # each player types their PIN on the table's device
            page.fill("input[name=pin]", pin)
            page.click("#sign-form button")
            page.wait_for_selector(
                "text=Every player has signed"
                if index == 3
                else f"text=PIN accepted: {index + 1} of 4 signed."
            )
    page.goto(table_url)
    assert page.locator(".state.confirmed").first.is_visible()

    phone.reload()
    phone.wait_for_selector("text=After session 1 (final).")
    first_row = phone.locator("table.standings tbody tr").first
    assert east in first_row.inner_text() and "40" in first_row.inner_text()

    # A correction after hand 16: hand 16 becomes East's win of 8 from North; the confirmation goes.
    page.locator("table.hands-table tbody tr").nth(15).locator("text=correct").click()
    page.wait_for_selector("text=This table's results are confirmed")
    enter_hand(page, "discard", "E", "N", "8")
    page.click("text=Save correction")
    page.wait_for_selector("text=Hand corrected")
    assert page.locator('td[data-seat="E"]').inner_text() == "72"  # 40 + (8 + 8) + 8 + 8
    assert page.locator(".state.confirmed").count() == 0
    assert page.locator("#confirmation").is_visible()
    phone.reload()
    phone.wait_for_selector("text=Session 1 in play: 1 of 2 tables confirmed.")
    assert east not in phone.locator("main").inner_text()
