"""The tournament day in real Chromium.

The hall (64 players): the organiser registers and checks in players on a phone, seats a session and
starts the clock; a referee logs in, lands on their tables, reaches their table and enters a hand; the
organiser's page shows it without reloading; the projector pages through the standings and shows the clock.

The whole day of a new 20-player MCR event, through the pages only: the organiser creates it, imports the
players (family and given names), gives a volunteer a login by a set-password link, seats session 1 and
starts the clock; the referee, on a 360 px phone, enters sixteen hands (each save lands on the next hand's
form) and a penalty (the form shows the fields its ruling needs); a second person confirms; the ruling is
appealed and the appeal granted; the organiser publishes; the public standings, the standings PDF and the
pages in Chinese show the result."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

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


# --- The 20-player walk: a new organiser's and a new referee's whole day, through the pages only ---------

WALK_SLUG = "walk-open-2026"
WALK_PLAYERS = [  # name, family name, given name, country: names from every list an organiser receives
    ("Jan de Vries", "de Vries", "Jan", "NL"),
    ("María José García López", "García López", "María José", "ES"),
    ("陈波", "陈", "波", "CN"),
    ("Élodie Martin", "Martin", "Élodie", "FR"),
    ("Łukasz Nowak", "Nowak", "Łukasz", "PL"),
    ("Zoë Smith", "Smith", "Zoë", "GB"),
    ("李小龙", "李", "小龙", "CN"),
    ("Ana Silva", "Silva", "Ana", "PT"),
    ("Bo Lindqvist", "Lindqvist", "Bo", "SE"),
    ("Chiara Rossi", "Rossi", "Chiara", "IT"),
    ("Dmitri Ivanov", "Ivanov", "Dmitri", "UA"),
    ("Eva Horváth", "Horváth", "Eva", "HU"),
    ("Finn Müller", "Müller", "Finn", "DE"),
    ("Greta Olsen", "Olsen", "Greta", "DK"),
    ("Hana Tanaka", "Tanaka", "Hana", "JP"),
    ("Iker Etxeberria", "Etxeberria", "Iker", "ES"),
    ("Jonas Petrauskas", "Petrauskas", "Jonas", "LT"),
    ("Kaja Novak", "Novak", "Kaja", "SI"),
    ("Liam Byrne", "Byrne", "Liam", "IE"),
    ("Mei Wong", "Wong", "Mei", "HK"),
]

# Table 1's sixteen hands (Sloper rule 74e): how, winner, discarder, fan. Hand 9 is entered after the
# penalty that bars South from winning it (MCR 84a).
WALK_HANDS = [
    ("discard", "E", "W", "16"),
    ("self", "S", None, "8"),
    ("draw", None, None, None),
    ("discard", "N", "E", "12"),
    ("self", "W", None, "10"),
    ("discard", "E", "S", "8"),
    ("draw", None, None, None),
    ("discard", "S", "N", "24"),
    ("discard", "W", "E", "8"),
    ("draw", None, None, None),
    ("self", "E", None, "9"),
    ("discard", "N", "S", "8"),
    ("draw", None, None, None),
    ("discard", "E", "N", "32"),
    ("self", "S", None, "8"),
    ("draw", None, None, None),
]


@pytest.fixture
def walk_accounts():
    """What the site's administrator gives before the day: the organiser's login with the right to create
    events, and a chief referee's own login. Everything else the walk does through the pages."""
    from django.contrib.auth.models import Permission

    users = get_user_model().objects
    organiser = users.create_user("oona", password="pw-oona-123")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    users.create_user("chiara", password="pw-chiara-123")
    return organiser


def phone_context(browser, width: int = 360):
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    context.set_default_timeout(15000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the pages ask before final actions: say yes
    return context, page


def hand_form_in_view(page) -> bool:
    """After a save the referee sees the next hand's form without scrolling: its top is in the window's
    upper part (the page scrolled to #hand-form, not reloaded at the top ~1,000 px above it), and what was
    saved is said there, once (not in the page's messages at the top, out of sight)."""
    top = page.evaluate("document.getElementById('hand-form').getBoundingClientRect().top")
    saved = page.locator("#hand-form [role=status]")
    return (
        -2 <= top <= 120  # a fraction of a pixel above 0 is the anchor scrolled exactly there
        and page.evaluate("window.scrollY") > 0
        and saved.inner_text().startswith("Hand saved (")
        and page.locator("text=Hand saved (").count() == 1
    )


def test_a_20_player_tournament_day_through_the_pages(browser, page, live_server, walk_accounts):
    base = live_server.url
    slug = WALK_SLUG

    # The organiser creates the event (MCR, the default rules) on a laptop.
    log_in(page, base, "oona", "pw-oona-123")
    page.goto(f"{base}/manage/new/")
    page.fill("input[name=name]", "Walk Open 2026")
    assert page.locator("select[name=rules]").input_value() == "mcr"
    page.fill("input[name=num_sessions]", "2")
    page.fill("input[name=hands_per_session]", "16")
    page.fill("input[name=session_minutes]", "120")
    page.click("button:has-text('Create event')")
    page.wait_for_selector("text=Created Walk Open 2026.")
    assert page.url == f"{base}/manage/{slug}/"

    # The desk imports the federation's list: family and given names, every script.
    page.goto(f"{base}/manage/{slug}/players/")
    csv = "name,family name,given name,country\n" + "".join(
        f"{name},{family},{given},{country}\n" for name, family, given, country in WALK_PLAYERS
    )
    page.set_input_files(
        "input[type=file]", files=[{"name": "list.csv", "mimeType": "text/csv", "buffer": csv.encode()}]
    )
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_selector("text=Imported 20 players.")
    desk = page.locator("main").inner_text()
    assert all(name in desk for name, *_ in WALK_PLAYERS)
    from players.models import Player

    assert Player.objects.get(name="Jan de Vries").family_name == "de Vries"  # not "Vries"
    assert Player.objects.get(name="陈波").given_name == "波"
    page.goto(f"{base}/manage/{slug}/")
    page.wait_for_selector("text=20 players registered, 0 checked in.")

    # Staff: the chief referee has a login; the referee, a volunteer, gets one from this page.
    page.fill("form[action$='/staff/'] input[name=username]", "chiara")
    page.select_option("form[action$='/staff/'] select[name=role]", "chief_referee")
    page.click("button:has-text('Grant role')")
    page.wait_for_selector("text=Role granted.")
    page.fill("#new-account input[name=new_username]", "rick")
    page.select_option("#new-account select[name=new_role]", "referee")
    page.click("#new-account button[type=submit]")
    page.wait_for_selector("h1:has-text('Account rick created')")
    link = page.input_value("input.invitation-link")
    assert link.startswith(f"{base}/accounts/invitation/")

    # Session 1: seated from its page (5 tables of 4), the clock started.
    page.goto(f"{base}/manage/{slug}/sessions/1/")
    page.click("button[name=scope][value=one]")
    page.wait_for_selector("text=Session 1 seated at 5 tables", timeout=40000)
    page.fill("#clock input[name=minutes]", "120")
    page.click("text=Start the clock")
    page.wait_for_selector("text=Clock started: 120 minutes.")
    assert "Session 1: 16 hands or 120 minutes" in page.inner_text("#clock")

    # The referee opens the link on a 360 px phone, chooses a password and lands on My tables.
    referee_context, phone = phone_context(browser)
    phone.goto(link)
    phone.wait_for_selector("text=Your username is rick.")
    phone.fill("input[name=new_password1]", "a-long-walk-2026")
    phone.fill("input[name=new_password2]", "a-long-walk-2026")
    phone.click("button:has-text('Set my password')")
    phone.wait_for_selector("text=Your password is set: you are logged in.")
    phone.wait_for_selector("h1:has-text('My tables')")
    assert "Your role: Referee" in phone.inner_text("main")
    assert phone.get_by_role("link", name="Enter results at table 5", exact=True).is_visible()
    phone.get_by_role("link", name="Enter results at table 1", exact=True).click()
    phone.wait_for_selector("h1:has-text('table 1')")
    assert phone.locator(".clock[role=timer]").is_visible()
    assert no_sideways_scroll(phone)
    seat_names = {
        wind: phone.locator("table.scoreboard tbody tr").nth(index).locator("td").nth(1).inner_text()
        for index, wind in enumerate("ESWN")
    }
    table_url = phone.url
    assert phone.locator("text=Decide appeals").count() == 0  # a plain referee does not decide appeals

    # A win below MCR's minimum of 8 (rule 24) is refused, said once, and nothing is saved.
    phone.check("input[name=how][value=discard]")
    phone.select_option("select[name=winner]", "E")
    phone.select_option("select[name=discarder]", "W")
    phone.fill("input[name=fan]", "6")
    phone.click("#hand-form button[type=submit]")
    phone.wait_for_selector("#hand-form .errorlist")  # the refused form comes back in place (htmx, a 422)
    error = phone.locator("#hand-form .errorlist")
    assert error.count() == 1, error.all_inner_texts()
    assert phone.locator("main").inner_text().count(error.inner_text()) == 1
    assert phone.locator("#hand-form h2").inner_text() == "Hand 1"

    def enter(how: str, winner: str | None, discarder: str | None, fan: str | None) -> None:
        phone.check(f"input[name=how][value={how}]")
        if winner:
            phone.select_option("select[name=winner]", winner)
        if discarder:
            phone.select_option("select[name=discarder]", discarder)
        if fan:
            phone.fill("input[name=fan]", fan)
        phone.click("#hand-form button[type=submit]")
        phone.wait_for_selector("text=Hand saved (")

    for number, hand in enumerate(WALK_HANDS[:8], start=1):
        enter(*hand)
        # After each save the phone shows the next hand's form, not the page's top.
        assert phone.url.endswith("#hand-form"), phone.url
        assert phone.locator("#hand-form h2").inner_text() == f"Hand {number + 1}"
        assert hand_form_in_view(phone), number

    # A ruling before hand 9: the penalty form shows only the fields the chosen ruling needs.
    penalty = phone.locator("#penalty-form")
    penalty.scroll_into_view_if_needed()

    def shown(name: str) -> bool:
        return penalty.locator(f"[name={name}]").is_visible()

    assert penalty.locator("select[name=kind]").input_value() == ""  # no ruling chosen for the referee
    assert not any(shown(name) for name in ("hand_number", "points", "paid_to", "rule", "tiles"))
    penalty.locator("select[name=kind]").select_option("other")
    assert shown("points") and shown("paid_to") and shown("rule") and not shown("hand_number")
    penalty.locator("select[name=kind]").select_option("reveal_opponent_tiles")
    assert shown("tiles") and shown("paid_to_player") and not shown("points")
    penalty.locator("select[name=kind]").select_option("false_hu_ready")
    assert shown("hand_number") and not any(shown(name) for name in ("points", "tiles", "paid_to"))
    players = penalty.locator("select[name=player] option").all_inner_texts()
    seat_words = {"E": "East", "S": "South", "W": "West", "N": "North"}
    assert players == [f"{seat_names[wind]} ({seat_words[wind]} seat)" for wind in "ESWN"]  # seat order
    penalty.locator("select[name=player]").select_option(index=1)  # South
    penalty.locator("input[name=hand_number]").fill("9")
    penalty.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Ruling recorded")
    rulings = phone.locator("#rulings").inner_text()
    assert (
        f"{seat_names['S']}: 10 (Paid to each other player (rule 84)), may not win hand 9 · MCR 84a False hu"
        in rulings
    )
    assert phone.locator(f"[data-barred]:has-text('{seat_names['S']}')").is_visible()

    for number, hand in enumerate(WALK_HANDS[8:], start=9):
        enter(*hand)
        if number < 16:
            # Saved with htmx the address stays (here #penalty-form); the page shows the next hand's form.
            assert hand_form_in_view(phone), number
    assert phone.locator(".state.complete").first.is_visible()
    assert phone.locator("input[name=fan]").count() == 0  # no 17th hand (rule 74e)
    assert no_sideways_scroll(phone)
    with_penalty = {wind: int(phone.locator(f'td[data-seat="{wind}"]').inner_text()) for wind in "ESWN"}
    assert sum(with_penalty.values()) == 0

    # The referee who entered cannot confirm; the chief referee, a second person, does (rule 72).
    phone.click("text=Confirm these results")
    phone.wait_for_selector("text=another referee or the players must confirm them")
    chief_context = browser.new_context(viewport={"width": 1100, "height": 900})
    chief_context.set_default_timeout(15000)
    chief = chief_context.new_page()
    chief.on("dialog", lambda dialog: dialog.accept())
    log_in(chief, base, "chiara", "pw-chiara-123")
    chief.goto(table_url)
    chief.click("text=Confirm these results")
    chief.wait_for_selector("text=Results confirmed")
    assert chief.locator(".state.confirmed").first.is_visible()

    # South appeals the ruling in writing; the chief referee grants it and the table is provisional again
    # until confirmed anew (the points changed).
    phone.goto(table_url)
    phone.locator("#rulings a", has_text="appeal").first.click()
    phone.wait_for_selector("text=30 minutes")
    appellants = phone.locator("select[name=appellant] option").all_inner_texts()
    assert appellants[:4] == players, appellants  # seat order, with the wind, as in the penalty form
    phone.fill("input[name=signed_by]", seat_names["S"])
    phone.fill("textarea[name=statement]", "I said hu with a ready hand: my tile was the winning one.")
    phone.check("input[name=fee_received]")
    phone.click("button:has-text('File appeal')")
    phone.wait_for_selector("text=Appeal filed")
    chief.goto(f"{base}/referee/{slug}/appeals/")
    chief.fill("textarea[name=reasons]", "The tile completed the hand; the claim was valid.")
    chief.click("button:has-text('Appeal granted')")
    chief.wait_for_selector("text=Appeal granted: ruling withdrawn. The decision is recorded.")
    assert "Appeal granted: ruling withdrawn; decided by chiara (chief referee)" in chief.content()
    chief.goto(table_url)
    assert "appeal granted: ruling withdrawn" in chief.locator("#rulings").inner_text()
    assert chief.locator(".state.confirmed").count() == 0
    after_appeal = {wind: int(chief.locator(f'td[data-seat="{wind}"]').inner_text()) for wind in "ESWN"}
    assert after_appeal["S"] == with_penalty["S"] + 30 and after_appeal["E"] == with_penalty["E"] - 10
    chief.click("text=Confirm these results")
    chief.wait_for_selector("text=Results confirmed")

    # The organiser publishes the event and session 1; the public standings rank table 1's players.
    page.goto(f"{base}/manage/{slug}/")
    assert page.get_by_role("button", name="Publish session 2 seating").count() == 0  # not seated yet
    page.click("text=Publish the event")
    page.wait_for_selector("text=The event is public")
    page.get_by_role("button", name="Publish session 1 seating").click()
    page.wait_for_selector("text=Session 1 seating: published.")
    page.get_by_role("button", name="Publish session 1 results").click()
    page.wait_for_selector("text=Session 1 results: published.")
    public_context, public = phone_context(browser)
    public.goto(f"{base}/e/{slug}/standings/")
    public.wait_for_selector("text=Session 1 in play: 1 of 5 tables confirmed.")
    ranked = public.locator("table.standings tbody").inner_text()
    assert all(name in ranked for name in seat_names.values())
    leader = max(after_appeal, key=lambda wind: after_appeal[wind])
    assert seat_names[leader] in public.locator("table.standings tbody tr").first.inner_text()
    assert no_sideways_scroll(public)

    # The prints: the standings PDF (shown inline by the browser, as prints are) reads back.
    page.goto(f"{base}/manage/{slug}/prints/")
    link = page.locator("a[data-print=standings]").first
    href = link.get_attribute("href")
    with page.expect_response(lambda response: href in response.url) as printed:
        link.click()
    response = printed.value
    assert response.ok and response.headers["content-type"] == "application/pdf"
    from pypdf import PdfReader

    # The bytes as "Save" gets them (the viewer's page is not the file), with the organiser's login.
    pdf = page.request.get(response.url).body()
    text = "".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages)
    assert "Walk Open 2026" in text, text[:500]
    assert all(name in text for name in seat_names.values() if name.isascii()), text[:2000]

    # Chinese: the public pages and the referee's page switch, winds in characters, no English left.
    public.goto(f"{base}/e/{slug}/seating/1/")
    public.click("button[name=language][value=zh-hans]")
    public.wait_for_selector("html[lang=zh-hans]")
    seating = public.locator("main").inner_text()
    assert "东" in seating and "座位" in seating
    short_winds = public.locator("ol.seats .wind").all_inner_texts()
    assert len(short_winds) == 20 and set(short_winds) == {"东", "南", "西", "北"}, short_winds
    seats = public.locator("#by-player tbody tr td:nth-child(3)").all_inner_texts()
    assert len(seats) == 20 and not any(re.search("[A-Za-z]", seat) for seat in seats), seats
    public.goto(f"{base}/e/{slug}/standings/")
    assert "排名" in public.locator("main").inner_text()
    phone.goto(f"{base}/referee/{slug}/sessions/1/tables/2/")
    phone.click("button[name=language][value=zh-hans]")
    phone.wait_for_selector("html[lang=zh-hans]")
    phone.click("#tp-toggle")  # the tile picker, in the referee's language
    phone.wait_for_selector("#fan-breakdown:has-text('选择牌张以查看番种。')")
    assert "Pick tiles" not in phone.content()
    starts = phone.locator("table.scoreboard tbody tr td:first-child").all_inner_texts()
    assert starts == ["东", "南", "西", "北"], starts
    for context in (referee_context, chief_context, public_context):
        context.close()
