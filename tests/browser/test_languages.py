"""The Chinese public pages on a phone (390 px): a browser that asks for Chinese gets the
standings in Chinese, an English one gets English, and the switch at the foot of the page changes the
language and remembers it (a cookie) from page to page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PURE_STRAIGHT = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"],
    "melds": [],
    "win_tile": "9s",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 0,
}


@pytest.fixture
def published():
    """An MCR event of 4 players, session 1 seated and published, one hand entered with its tiles."""
    from scoring.services.entry import HandEntry, record_hand
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Shanghai Open", slug="shanghai-open", num_sessions=2, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ("Ana", "Bo", "Cy", "Di"):
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    release.publish_everything(tournament, acting_user=organiser)
    table = tournament.rounds.get(number=1).tables.get()
    record_hand(table, HandEntry(winner="E", discarder="S", fan=22, tiles=PURE_STRAIGHT), acting_user=referee)
    return tournament


@pytest.fixture
def chinese_phone(browser):
    """A phone whose browser asks for Simplified Chinese (Accept-Language: zh-CN)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="zh-CN"
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def test_a_phone_asking_for_chinese_gets_the_standings_in_chinese(chinese_phone, live_server, published):
    chinese_phone.goto(f"{live_server.url}/e/shanghai-open/standings/")
    assert chinese_phone.locator("html").get_attribute("lang") == "zh-hans"
    assert chinese_phone.locator("h1").inner_text() == "排名"
    assert "标准分" in chinese_phone.content() or "尚无排名" in chinese_phone.content()
    assert "Standings" not in chinese_phone.locator("main").inner_text()
    # Tiles are named in Chinese for screen readers.
    chinese_phone.goto(f"{live_server.url}/e/shanghai-open/results/1/")
    chinese_phone.locator("summary").first.click()
    assert chinese_phone.locator('.tiles-display img[alt="九条"]').count() == 2
    assert "清龙" in chinese_phone.locator(".fans").first.inner_text()  # Pure Straight, rule 95 no. 28


def test_an_english_phone_gets_english_and_the_switch_remembers_chinese(phone, live_server, published):
    base = live_server.url
    phone.goto(f"{base}/e/shanghai-open/standings/")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.locator("h1").inner_text() == "Standings"

    # The other language at the top of the page (templates/_language_toggle.html); the foot lists them all.
    phone.get_by_role("banner").get_by_role("button", name="简体中文").click()
    phone.wait_for_url(f"{base}/e/shanghai-open/standings/")
    phone.wait_for_selector("html[lang=zh-hans]")
    assert phone.locator("h1").inner_text() == "排名"
    # The choice is remembered on the next page.
    phone.goto(f"{base}/e/shanghai-open/seating/1/")
    assert phone.locator("h2").first.inner_text() == "查找您的座位"
    box = phone.get_by_role("banner").get_by_role("button", name="English").bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] >= 40  # reachable with a thumb
    assert box["y"] + box["height"] <= phone.viewport_size["height"]  # on the first screen

    phone.get_by_role("contentinfo").get_by_role("button", name="English").click()  # the foot's works too
    phone.wait_for_selector("html[lang=en]")
    assert phone.locator("h2").first.inner_text() == "Find your seat"
