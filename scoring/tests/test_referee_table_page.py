"""The referee's table page at a real table (issue 24): where a save lands, what each rule set cites,
the players in seat order, the appeals link, errors said once, and the Chinese page."""

from __future__ import annotations

from django.urls import reverse


def table_url(table):
    return reverse("referee:table", args=[table.round.tournament.slug, table.round.number, table.number])


def test_a_saved_hand_lands_on_the_next_hands_form(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    data = {"how": "discard", "winner": "E", "discarder": "W", "fan": "12", "expected_number": "1"}
    response = client.post(url + "hands/add/", data)
    assert response.status_code == 302
    assert response["Location"] == url + "#hand-form"
    page = client.get(url).content.decode()
    assert page.count('id="hand-form"') == 1
