"""A substitute who took over mid-session, in real Chromium: the referee names them in a
penalty, and the public seating and the substitute's own page say which seat and hands they played."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def substituted_event():
    from scoring.services import seat_changes
    from scoring.services.entry import HandEntry, record_hand
    from tournaments.release import publish_everything
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Sub Open", slug="sub-open", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    tournament = publish_everything(tournament, acting_user=organiser)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    absent = table.seats.get(wind="E").registration
    substitution = seat_changes.substitute_new_player(
        table, absent.code, "Reserve Rita", acting_user=organiser, reason="ill"
    )
    return tournament, absent, substitution.substitute


def test_the_referee_penalises_the_substitute_and_everyone_sees_who_played(
    page, live_server, substituted_event
):
    from scoring.models import Penalty

    _, absent, rita = substituted_event
    base = live_server.url
    line = f"from hand 2: Reserve Rita for {absent.player.name}"
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "pw-olga-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the login answered, its cookie set

    page.goto(f"{base}/referee/sub-open/sessions/1/tables/1/")
    assert page.locator(f"text={line}").count() == 1  # on the table's seats
    form = page.locator("form[action*='/penalties/add/']")
    form.locator("select[name=player]").select_option(rita.code)
    form.locator("select[name=kind]").select_option("other")
    form.locator("input[name=points]").fill("10")
    form.locator("select[name=paid_to]").select_option("none")
    form.locator("input[name=rule]").fill("MCR 80")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Penalty recorded.")
    assert Penalty.objects.get().registration == rita

    page.goto(f"{base}/e/sub-open/seating/1/")
    page.fill("#find", "rita")
    row = page.locator("#by-player tr[data-name='reserve rita']")
    assert row.is_visible() and line in row.inner_text()  # the substitute finds the seat they played
    assert page.locator("#by-player tbody tr:visible").count() == 1
    row.locator("a").click()
    page.wait_for_url(f"{base}/e/sub-open/players/{rita.code}/")
    assert line in page.inner_text("tr[data-session='1']")
