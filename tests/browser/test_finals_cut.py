"""The organiser's cut to the final in real Chromium: from the event page to the finals page, "Make the cut"
(asked once), the finalists seated by rank, the public standings saying the final has begun, then "Undo the
cut" (tournaments/services/finals.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organiser_makes_and_undoes_the_cut(page, live_server):
    from scoring.interchange import import_event
    from scoring.tests.test_finals import document
    from tournaments.models import EventRole, Role, Seat

    event = import_event(document())
    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    base = live_server.url
    log_in(page, base, "olga", "pw-olga-123")
    page.goto(f"{base}/manage/{event.slug}/")
    page.get_by_role("link", name="Finals", exact=True).click()
    page.get_by_role("button", name="Make the cut").click()
    page.get_by_text("4 players go through to the final").wait_for()
    finalists = page.locator("ol.finalists li").all_inner_texts()
    assert [text.split()[-1] for text in finalists] == ["p01", "p02", "p03", "p05"]
    assert Seat.objects.filter(round__tournament=event, round__number=4).count() == 4
    page.goto(f"{base}/e/{event.slug}/standings/")
    page.get_by_text("Final: the 4 finalists first").wait_for()
    page.goto(f"{base}/manage/{event.slug}/finals/")
    page.get_by_role("button", name="Undo the cut").click()
    page.get_by_text("The cut is undone").wait_for()
    assert not Seat.objects.filter(round__tournament=event, round__number=4).exists()
