"""Every column heading, tab and landmark has a name a screen reader reads (WCAG 1.3.1, 2.4.6, 4.1.2), as
tests/browser/test_accessibility.py checks with axe in Chromium: blank headings over columns of buttons
and of the standings' status and country hold words out of sight (``.visually-hidden``, static/css/site.css),
the session tabs "S1" read "S1 (Session 1)" (the visible words first in the name: WCAG 2.5.3, so a voice
command "click S1" finds the tab), the result cards are headed one level under the page's title, and
the projector's slides are its main landmark."""

from __future__ import annotations

import re

from django.urls import reverse

from scoring.services.confirmation import record_blind_entry
from scoring.tests.test_blind_entry import complete, sheet

HIDDEN = '<span class="visually-hidden">{}</span>'


def get(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_no_public_page_leaves_a_heading_blank(client, demo_event):
    slug = demo_event.slug
    standings = get(client, "public:standings", slug)
    assert HIDDEN.format("Status") in standings and HIDDEN.format("Country") in standings
    assert not re.search(r"<th[^>]*>\s*</th>", standings)
    results = get(client, "public:results", slug, 1)
    assert '<div class="card" id="table-1"><h2>Table 1 ' in results and "<h3" not in results
    tab = r'<a href="[^"]+/results/1/" aria-current="page">S1<span class="visually-hidden"> \(Session 1\)</span></a>'
    assert re.search(tab, results)
    projector = get(client, "public:projector", slug)
    assert projector.count("<main") == 1 and '<main id="slides" class="slides"' in projector


def test_the_staff_pages_name_their_columns_of_buttons(client, demo_event, organiser):
    from tournaments.models import Role
    from tournaments.services.events import grant_role

    grant_role(demo_event, organiser, Role.ORGANISER, acting_user=organiser)
    client.force_login(organiser)
    slug = demo_event.slug
    actions = HIDDEN.format("Actions")
    for page in (
        get(client, "manage:pins", slug),
        get(client, "manage:event", slug),
        get(client, "manage:players", slug),
        get(client, "manage:entries", slug),
        get(client, "referee:table", slug, 1, 1),
    ):
        assert actions in page
        assert not re.search(r"<th[^>]*>\s*</th>", page)


def test_the_differences_of_a_blind_entry_name_their_row_headings(
    client, blind_event, table, referee, second
):
    """The first column of the two entries' differences holds each hand's number: headed "Hand"."""
    complete(table, referee)
    rows, _ = sheet(table)
    rows[0] = {"E": 34, "S": -18, "W": -8, "N": -8}
    record_blind_entry(table, {s: sum(r[s] for r in rows) for s in "ESWN"}, rows, acting_user=second)
    client.force_login(second)
    page = get(client, "referee:table", blind_event.slug, 1, 1)
    assert "The two entries differ" in page and HIDDEN.format("Hand") in page
    assert not re.search(r"<th[^>]*>\s*</th>", page)
