"""A player's own phone (360 px) in real Chromium: signed in from the seat slip's QR address with the PIN,
the player sees their seat and their table's hands arriving as the referee enters them, a table-mate's
"I do not agree" (on their own phone) holds the confirmation until a referee settles it, and the player's
signature, the fourth, confirms the table (Sloper rule 72, shared/seeds/003_2541481d343502a5.txt
line 2320; scoring/views_player.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_public_live import retried

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "phone-sign"


@pytest.fixture
def small_phone(browser):
    """A 360 px phone; a second one for a table-mate (``new_phone()``)."""
    contexts = []

    def new_phone():
        context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # "I do not agree" asks first: say yes
        page.set_default_timeout(15000)
        return page

    yield new_phone
    for context in contexts:
        context.close()


@pytest.fixture
def signing_event(settings):
    """An MCR event of 4-hand sessions whose players sign their results, session 1 seated and public;
    the players' pages poll every second."""
    from tournaments import release
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    settings.PUBLIC_POLL_SECONDS = 1
    users = get_user_model().objects
    organiser = users.create_user("olga", password="pw-olga-123")
    referee = users.create_user("rick", password="pw-rick-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Phone Sign", slug=SLUG, num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    event_services.update_settings(tournament, {"confirmation.by": "players"}, acting_user=organiser)
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    release.publish_everything(tournament, acting_user=organiser)
    return tournament, referee


def slip_addresses(round_, base: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The addresses the session's seat slips print as QR codes (scoring/exports/hall.py)."""
    from scoring.exports import SESSION_PRINTS
    from scoring.exports.base import qr_drawing

    drawn: list[str] = []

    def drawing(url: str, size: float) -> object:
        drawn.append(url)
        return qr_drawing(url, size)

    monkeypatch.setattr("scoring.exports.hall.qr_drawing", drawing)
    SESSION_PRINTS["seat-slips"](round_, base_url=base).render()
    return drawn


def test_a_player_signs_in_from_the_slip_watches_the_hands_and_signs_the_table(
    small_phone, live_server, signing_event, monkeypatch
):
    from scoring.models import Confirmation
    from scoring.services import disputes, entry, pins
    from scoring.services.entry import HandEntry
    from tournaments.errors import ServiceError

    tournament, referee = signing_event
    table = tournament.rounds.get(number=1).tables.get(number=1)
    players = {seat.wind: seat.registration for seat in table.seats.select_related("registration__player")}
    pin_of = pins.issue_pins(tournament, acting_user=None)
    me = players["N"]
    base = live_server.url

    # The QR code on North's seat slip: the player's own page with the code filled in; the PIN is typed.
    address = next(
        url for url in slip_addresses(table.round, base, monkeypatch) if url.endswith(f"code={me.code}")
    )
    phone = small_phone()
    phone.goto(address)
    assert phone.input_value("input[name=code]") == me.code
    phone.fill("input[name=pin]", pin_of[me.pk])
    phone.click("#sign-in-form button[type=submit]")
    phone.wait_for_selector("#seat-now")
    assert "Session 1: table 1, North" in phone.inner_text("#seat-now")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # fits the phone
    assert phone.locator("#no-hands").is_visible()

    # A hand entered by the referee while the page is open arrives within a few seconds.
    def record():
        retried(entry.record_hand, table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)

    record()
    phone.wait_for_selector("#my-hands .hand-row", timeout=6000)
    for _ in range(3):
        record()
    phone.wait_for_function("document.querySelectorAll('#my-hands .hand-row').length === 4", timeout=6000)
    phone.wait_for_selector("#sign-button", timeout=6000)

    # While nothing changes the page's one poll (the notices, which follow the table) sends the version it
    # holds and is answered 304: the table's fragment is not asked for, nothing is drawn.
    from scoring import views_player

    drawn: list[int] = []
    real_panel = views_player.table_panel
    monkeypatch.setattr(views_player, "table_panel", lambda *args: drawn.append(1) or real_panel(*args))
    polls: list[tuple[str, int, str | None]] = []

    def seen(response):
        if "/table/" in response.url or "/notices/" in response.url:
            held = response.request.all_headers().get("if-none-match")
            polls.append((response.url, response.status, held))

    phone.on("response", seen)
    phone.wait_for_timeout(3500)
    notices = [(status, held) for url, status, held in polls if "/notices/" in url]
    assert len(notices) >= 2 and all(status == 304 and held for status, held in notices), polls
    assert not [url for url, _, _ in polls if "/table/" in url] and not drawn
    assert phone.locator("#my-hands .hand-row").count() == 4 and phone.locator("#sign-button").is_visible()

    # South, on their own phone, does not agree: everyone's signing waits for a referee.
    mate = small_phone()
    mate.goto(f"{base}/e/{SLUG}/me/")
    mate.fill("input[name=code]", players["S"].code)
    mate.fill("input[name=pin]", pin_of[players["S"].pk])
    mate.click("#sign-in-form button[type=submit]")
    mate.wait_for_selector("#disagree-button")
    mate.click("#disagree-button")
    mate.wait_for_selector("#my-dispute")
    phone.wait_for_selector("#my-dispute", timeout=6000)
    assert phone.locator("#sign-button").count() == 0
    with pytest.raises(ServiceError) as held:
        retried(pins.sign_as_player, table, players["E"])
    assert held.value.code == "disputed"
    assert not Confirmation.objects.filter(table=table).exists()

    # A referee settles it; the three others sign, and North's signature, the fourth, confirms the table.
    retried(disputes.settle, disputes.open_disputes(table)[0], acting_user=referee)
    for wind in "ESW":
        retried(pins.sign_as_player, table, players[wind])
    phone.wait_for_selector("#sign-button", timeout=6000)
    assert "3 of 4" in phone.inner_text("#my-sign-progress")
    phone.click("#sign-button")
    phone.wait_for_selector("#my-confirmation")
    assert "Every player has signed" in phone.inner_text(".messages")
    assert Confirmation.objects.in_force().filter(table=table).exists()
