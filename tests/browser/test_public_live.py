"""Players on their phones (390 px): a player finds their seat by searching a name typed
without accents, and the standings, results and player pages change after a confirmation without a
reload (htmx polls, answered 304 until something changes)."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Marta García",
    "Paula Horváth",
    "Niamh O'Brien",
    "陈波 Chen Bo",
    "Ana Silva",
    "Bo Lind",
    "Cy Ray",
    "Di Fox",
]


def retried(write, *args, **kwargs):
    """A write from the test thread while the live server answers polls: the test database (SQLite in
    memory, shared cache) refuses a write at once while a read holds a table ("database table is
    locked"); the service's transaction rolled back, so trying again is safe."""
    from django.db import OperationalError

    for _ in range(20):
        try:
            return write(*args, **kwargs)
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            time.sleep(0.05)
    return write(*args, **kwargs)


@pytest.fixture
def seated(settings):
    """An MCR event of 8 players, session 1 seated; the public pages poll every second."""
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    settings.PUBLIC_POLL_SECONDS = 1
    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Phone Open", slug="phone-open", num_sessions=2, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for index, name in enumerate(NAMES):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=name, team=f"T{index % 2}"), acting_user=organiser
        )
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    # Public as it happens, seating and results included (the release controls, tournaments/release.py).
    release.publish_everything(tournament, acting_user=organiser)
    return tournament, organiser, referee


def test_a_player_finds_their_seat_on_a_phone_by_a_name_typed_without_accents(phone, live_server, seated):
    tournament, _, _ = seated
    seat = tournament.registrations.get(player__name="Marta García").seats.select_related("table").get()
    base = live_server.url
    phone.goto(f"{base}/e/phone-open/")
    phone.fill("#find-q", "garcia")
    phone.press("#find-q", "Enter")
    phone.wait_for_selector(".find-results")
    line = phone.locator(".find-results li").first
    assert "Marta García" in line.inner_text()
    assert f"table {seat.table.number}, {seat.get_wind_display()}" in line.inner_text()
    # Odd characters: a friendly answer, not an error.
    phone.goto(f"{base}/e/phone-open/find/?q=%25%00%3Cscript%3E")
    assert phone.locator("h1").inner_text() == "Find a player"
    phone.goto(f"{base}/e/phone-open/")
    phone.fill("#find-q", "o brien")
    phone.press("#find-q", "Enter")
    phone.click("text=Niamh O'Brien")
    phone.wait_for_selector(".player-sessions")
    mine = tournament.registrations.get(player__name="Niamh O'Brien").seats.select_related("table").get()
    assert phone.locator(".session-row").first.locator(".seat-table").inner_text() == str(mine.table.number)
    assert phone.locator(".session-row").first.locator(".seat-wind").inner_text() == mine.wind
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # nothing wider than the phone
    phone.goto("about:blank")  # stop polling before the test database goes away


def test_standings_results_and_the_player_page_change_after_a_confirmation_without_a_reload(
    browser, phone, live_server, seated
):
    from scoring.services.confirmation import confirm_table
    from scoring.services.entry import HandEntry, record_hand, set_table_finished

    tournament, organiser, referee = seated
    table = tournament.rounds.get(number=1).tables.get(number=1)
    south = table.seats.select_related("registration__player").get(wind="S").registration
    base = live_server.url

    phone.goto(f"{base}/e/phone-open/standings/")
    phone.wait_for_selector("text=Nobody is ranked yet")
    results = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    results.goto(f"{base}/e/phone-open/results/1/")
    player = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    try:
        player.goto(f"{base}/e/phone-open/players/{south.code}/")
        player.wait_for_selector("text=Not ranked yet")
        for page in (phone, results, player):
            page.evaluate("window.notReloaded = true")

        retried(record_hand, table, HandEntry(winner="S", fan=88), acting_user=referee)
        retried(set_table_finished, table, True, acting_user=referee)
        retried(confirm_table, table, acting_user=organiser)

        phone.wait_for_selector("table.standings tbody tr", timeout=10000)
        first = phone.locator("table.standings tbody tr").first.inner_text()
        assert south.player.name in first and "288" in first  # 3 x (88 + 8), MCR rule 67
        results.wait_for_selector("#table-1 .state.confirmed", timeout=10000)
        # A reader who opened a table's hands keeps them open while the page polls, unchanged or not.
        results.click("#hands-1 summary")
        results.wait_for_timeout(2500)  # two polls that bring nothing new
        assert results.locator("#hands-1").get_attribute("open") is not None
        other = tournament.rounds.get(number=1).tables.get(number=2)
        retried(record_hand, other, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
        results.wait_for_selector("#hands-2", timeout=10000)  # the news arrived without a reload
        assert results.locator("#hands-1").get_attribute("open") is not None
        player.wait_for_selector("text=Rank", timeout=10000)
        # The session's row fills in with the next poll after the rank (a loaded machine may need a moment).
        player.locator(".session-row").first.filter(has_text="288").wait_for(timeout=10000)
        assert player.locator("svg.chart").count() == 1
        for page in (phone, results, player):
            assert page.evaluate("window.notReloaded") is True  # changed in place, never reloaded

        # Sort cues: the header says how the table is sorted and shows an arrow.
        rank_header = phone.locator("table.standings th").first
        assert rank_header.get_attribute("aria-sort") == "ascending" and "▲" in rank_header.inner_text()
        phone.click("table.standings th >> text=Score")
        phone.wait_for_selector('table.standings th[aria-sort="ascending"] >> text=Score')
        # The search box ignores case and accents and keeps filtering as the table refreshes.
        import unicodedata

        last_word = south.player.name.split()[-1]
        typed = "".join(
            c for c in unicodedata.normalize("NFD", last_word) if not unicodedata.combining(c)
        ).upper()
        phone.fill("#standings-filter", typed)
        visible = phone.locator("table.standings tbody tr:visible")
        assert visible.count() == 1 and south.player.name in visible.first.inner_text()
    finally:
        for page in (phone, results, player):
            page.goto("about:blank")  # stop polling before the test database goes away
        results.context.close()
        player.context.close()
