"""The three mid-event changes in real Chromium: seats fixed after hands were played, a
substitute taking over a seat mid-session, and the rest of the event re-seated with a preview."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running_event():
    from scoring.services.entry import HandEntry, record_hand
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Change Open", slug="change-open", num_sessions=3, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    first, second = tournament.rounds.get(number=1).tables.order_by("number")
    record_hand(first, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    record_hand(first, HandEntry(winner="S", fan=8), acting_user=organiser)
    record_hand(second, HandEntry(winner=None), acting_user=organiser)
    for name in ["Ivy", "Jo", "Kai", "Lu"]:  # late arrivals: one table more from session 2
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    return tournament


def log_in(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "pw-olga-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the login answered, its cookie set


def test_an_organiser_fixes_seats_substitutes_and_reseats_with_a_preview(page, live_server, running_event):
    from scoring.models import Hand
    from tournaments.models import Seat, Substitution, Table

    base = live_server.url
    first, second = running_event.rounds.get(number=1).tables.order_by("number")
    east = first.seats.get(wind="E").registration
    south = first.seats.get(wind="S").registration
    leaving = second.seats.get(wind="W").registration
    log_in(page, base)

    # 1. A swap discovered after two hands: East and South of table 1 exchange seats, hands follow.
    page.goto(f"{base}/manage/change-open/sessions/1/")
    page.click("text=Seat changes during play")
    page.select_option("#fix-a", east.code)
    page.select_option("#fix-b", south.code)
    page.click("#fix-form button[type=submit]")
    page.wait_for_selector("text=Seats exchanged; 2 hands moved with the players")
    assert first.seats.get(wind="S").registration == east
    assert list(
        Hand.objects.filter(table=first, is_current=True).order_by("number").values_list("winner", flat=True)
    ) == ["S", "E"]

    # 2. A player falls ill after one hand at table 2: a new player takes over from hand 2.
    page.select_option("#sub-absent", leaving.code)
    page.fill("#sub-new", "Reserve Rita")
    page.fill("#sub-reason", "ill")
    page.click("#substitute-form button[type=submit]")
    page.wait_for_selector("text=Reserve Rita plays W at table 2 from hand 2")
    assert page.locator("text=→ Reserve Rita from hand 2").count() == 1
    assert Substitution.objects.get().seat.registration == leaving

    # 3. Twelve players now (Rita is a reserve, not seated later): re-seat sessions 2 and 3 at three tables, looking at the plan first.
    page.goto(f"{base}/manage/change-open/reseat/")
    assert page.input_value("#reseat-first") == "2"
    page.click("button[value=preview]")
    page.wait_for_selector("#preview")
    assert page.inner_text("[data-measure=tables_after]") == "3"
    assert "not stored yet" in page.inner_text("#preview")
    assert not Table.objects.filter(round__number=2).exists()
    page.click("button[value=store]")
    page.wait_for_selector("text=Sessions 2 to 3 seated at 3 tables")
    assert Seat.objects.filter(round__number=2).count() == 12
    assert Seat.objects.filter(round__number=3).count() == 12
    assert Hand.objects.filter(table__round__number=1, is_current=True).count() == 3  # history kept
