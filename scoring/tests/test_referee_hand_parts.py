"""A hand saved with htmx (JavaScript on): the answer is only what changed on the referee's page (the new
hand's row, the running totals, the next hand's form), a refused hand comes back as its form with the
reasons, and the page's shape changing (first or last hand) loads the whole page. Without htmx the same
post is answered with the redirect to the whole page (scoring/views_referee_entry.py)."""

from __future__ import annotations

import re

from django.urls import reverse

from scoring.models import Hand
from scoring.services.entry import set_table_finished

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(table):
    return reverse("referee:table", args=[table.round.tournament.slug, table.round.number, table.number])


def hand(number: int, **changes: str) -> dict[str, str]:
    data = {"how": "discard", "winner": "E", "discarder": "W", "fan": "12", "expected_number": str(number)}
    return {**data, **changes}


def stored(table) -> list[int]:
    return sorted(Hand.objects.current().filter(table=table).values_list("number", flat=True))


def test_a_hand_saved_with_htmx_answers_its_row_the_totals_and_the_next_form(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    client.post(url + "hands/add/", hand(1))  # the hands' table is on the page from the first hand on
    response = client.post(url + "hands/add/", hand(2, winner="S", discarder="N", fan="8"), **HTMX)
    assert response.status_code == 200
    part = response.content.decode()
    assert "<html" not in part and "<nav" not in part  # a fragment, not the page
    assert 'id="hand-form"' in part
    assert re.search(r'name="expected_number" value="3"', part)  # the next hand's form
    assert "Hand 3" in part
    assert 'hx-swap-oob="beforeend:#hand-rows"' in part  # the new row, appended
    row = part[part.index('hx-swap-oob="beforeend:#hand-rows"') :]
    assert "<td>2</td>" in row and "hands/2/correct/" in row
    assert 'id="scoreboard" hx-swap-oob="true"' in part  # the running totals
    assert 'id="next-hand" hx-swap-oob="true"' in part
    assert 'id="void-form" hx-swap-oob="true"' in part and 'name="expected_last" value="2"' in part
    assert re.search(r'<input[^>]*name="hand_number"[^>]*hx-swap-oob="true"', part)
    assert re.search(r'<input[^>]*name="hand_number"[^>]*value="3"', part)
    assert 'id="messages" hx-swap-oob="true"' in part and "saved" in part
    # Said in the next hand's form, where the referee is (as the whole page says it after a redirect).
    assert part.index('id="hand-form"') < part.index("Hand saved (") < part.index("<h2>Hand 3</h2>")
    assert len(part) < 0.6 * len(client.get(url).content)  # the picker's words are most of the form
    assert stored(table) == [1, 2]
    # The message was said in the answer: the next whole page does not repeat it.
    assert "saved (" not in client.get(url).content.decode()


def test_the_same_post_without_javascript_still_goes_back_to_the_whole_page(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    client.post(url + "hands/add/", hand(1))
    response = client.post(url + "hands/add/", hand(2))
    assert response.status_code == 302
    assert response["Location"] == url + "#hand-form"
    assert stored(table) == [1, 2]


def test_the_first_and_the_last_hand_load_the_whole_page(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    first = client.post(url + "hands/add/", hand(1), **HTMX)
    assert first.status_code == 200
    assert first["HX-Redirect"] == url + "?after=1#hand-form"  # the hands' table appears: a new address
    assert "saved (" in client.get(url).content.decode()  # said on the page it loads
    for number in (2, 3):
        assert client.post(url + "hands/add/", hand(number), **HTMX).status_code == 200
    last = client.post(url + "hands/add/", hand(4), **HTMX)  # 4 hands a session: the form closes
    assert last["HX-Redirect"].startswith(url)
    assert stored(table) == [1, 2, 3, 4]


def test_a_refused_hand_comes_back_as_its_form_with_the_reasons_and_nothing_saved(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    client.post(url + "hands/add/", hand(1))
    response = client.post(url + "hands/add/", hand(2, fan="abc", discarder="E"), **HTMX)
    assert response.status_code == 422
    part = response.content.decode()
    assert "<html" not in part and 'id="hand-form"' in part
    assert "errorlist" in part  # the form's own messages
    assert 'value="abc"' in part  # what was typed is kept
    assert 'id="messages" hx-swap-oob="true"></div>' in part  # the earlier "saved" cleared
    assert "hand-rows" not in part and 'id="scoreboard"' not in part
    assert stored(table) == [1]


def test_a_repeated_post_is_refused_in_the_fragment_and_stored_once(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    client.post(url + "hands/add/", hand(1))
    assert client.post(url + "hands/add/", hand(2), **HTMX).status_code == 200
    again = client.post(url + "hands/add/", hand(2), **HTMX)  # the same form posted twice
    assert again.status_code == 422
    assert "Not saved:" in again.content.decode()
    assert stored(table) == [1, 2]


def test_a_hand_refused_after_the_table_was_completed_loads_the_page_that_says_why(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    client.post(url + "hands/add/", hand(1))
    set_table_finished(table, True, acting_user=referee)  # meanwhile, on another phone
    response = client.post(url + "hands/add/", hand(2), **HTMX)
    assert response.status_code == 422
    assert response["HX-Redirect"] == url
    assert "Not saved:" in client.get(url).content.decode()
    assert stored(table) == [1]
