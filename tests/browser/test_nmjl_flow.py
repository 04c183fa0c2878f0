"""A referee enters a round of four NMJL games in Chromium and the public standings follow."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def nmjl_event():
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Boca Open", slug="boca-open", rules="nmjl", num_sessions=1, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    # Public as it happens, seating and results included (the release controls, tournaments/release.py).
    release.publish_everything(tournament, acting_user=organiser)
    return tournament


def test_a_round_of_four_games_and_the_standings(page, live_server, nmjl_event):
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "rick")
    page.fill("input[name=password]", "pw-rick-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the login answered, its cookie set
    page.goto(f"{base}/referee/boca-open/sessions/1/tables/1/")
    names = [row.locator("td").nth(1).inner_text() for row in page.locator("table.scoreboard tbody tr").all()]

    # (won_by, winner, discarder, card hand, exposures, jokerless)
    games = [
        ("discard", "E", "S", "2468-1", "3", False),  # E 25; S discarded to 3 exposures: -25
        ("self_pick", "W", None, "2468-3", "0", True),  # W 35 + 10 self-pick + 20 jokerless = 65
        ("wall", None, None, None, None, False),  # wall game: 10 each
        ("discard", "N", "E", "2027-1", "2", False),  # N 25; E discarded to 2 exposures: -10
    ]
    for number, (won_by, winner, discarder, hand, exposures, jokerless) in enumerate(games, start=1):
        page.wait_for_selector(f"text=Game {number}")
        page.check(f"input[name=won_by][value={won_by}]")
        if winner:
            page.select_option("select[name=winner]", winner)
        if discarder:
            page.select_option("select[name=discarder]", discarder)
        if hand:
            page.select_option("select[name=card_hand]", hand)
            page.fill("input[name=winner_exposures]", exposures)
        if jokerless:
            page.check("input[name=jokerless]")
        page.click("text=Save game")
        page.wait_for_selector("text=Game saved")

    expected = {"E": 25 + 10 - 10, "S": -25 + 10, "W": 65 + 10, "N": 10 + 25}
    for seat, points in expected.items():
        assert page.locator(f'td[data-seat="{seat}"]').inner_text() == str(points)
    assert page.locator(".state.complete").first.is_visible()

    page.goto(f"{base}/e/boca-open/standings/?provisional=1")
    assert page.locator("text=Provisional:").is_visible()
    rows = page.locator("table.standings tbody tr")
    assert names[2] in rows.nth(0).inner_text() and "75" in rows.nth(0).inner_text()
    assert names[1] in rows.nth(3).inner_text() and "-15" in rows.nth(3).inner_text()
