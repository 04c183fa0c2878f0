"""Blind double entry stays blind on every staff page: a referee who may still make the
second entry sees none of the first entry's figures (winner, discarder, fan, points) on the table page,
the hand correction page (form and versions), the hand appeal page, until a second entry is stored
(then the differences are shown to resolve, docs/confirmation.md) and the entries agree. The first
entrant and the organiser (who previews unconfirmed figures) see them. One decision:
``confirmation.figures_visible``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import entry as entry_service
from scoring.services import queries
from scoring.services.confirmation import figures_visible, record_blind_entry
from scoring.services.entry import HandEntry
from scoring.tests.test_blind_entry import HANDS, complete, sheet

HIDDEN = "Hidden until the blind second entry agrees."


def hand_text(table, number=1):
    """Hand ``number``'s line as the referee's pages write it (winner's name, how, fan)."""
    hand = table.hands.get(number=number, is_current=True)
    return queries.event_rules(table.round.tournament).describe_in(queries.hand_record(hand), "en")


def winner_option(table, wind="E"):
    """The correction form's winner, selected: ``<option value="E" selected>Name (East seat)``."""
    name = table.seats.get(wind=wind).registration.player.name
    return f'<option value="{wind}" selected>{name}'


def page(client, name, event, *args):
    response = client.get(reverse(f"referee:{name}", args=[event.slug, 1, 1, *args]))
    assert response.status_code == 200
    return response.content.decode()


def agree(table, second):
    """The second entry, the same as the first: the table is confirmed."""
    _, found = record_blind_entry(table, sheet(table)[1], sheet(table)[0], acting_user=second)
    assert found == []


def test_the_correction_page_is_not_prefilled_for_the_second_referee_until_the_entries_agree(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    text = hand_text(table)
    client.force_login(second)
    before = page(client, "correct_hand", blind_event, 1)
    assert HIDDEN in before
    assert text not in before  # the versions' lines
    assert 'name="fan" value="8"' not in before  # hand 1: 8 fan
    assert winner_option(table) not in before and 'value="S" selected' not in before
    agree(table, second)
    after = page(client, "correct_hand", blind_event, 1)
    assert HIDDEN not in after
    assert text in after and 'name="fan" value="8"' in after and winner_option(table) in after


def test_the_hand_appeal_page_withholds_the_hand_from_the_second_referee_until_the_entries_agree(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    text = hand_text(table, 4)
    client.force_login(second)
    before = page(client, "appeal_hand", blind_event, 4)
    assert HIDDEN in before and text not in before
    agree(table, second)
    after = page(client, "appeal_hand", blind_event, 4)
    assert HIDDEN not in after and text in after


def test_the_versions_of_a_corrected_hand_are_not_listed_to_the_second_referee(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    first = hand_text(table)
    entry_service.correct_hand(
        table.hands.get(number=1, is_current=True),
        HandEntry(winner="E", discarder="S", fan=10),
        acting_user=referee,
    )
    corrected = hand_text(table)
    client.force_login(second)
    before = page(client, "correct_hand", blind_event, 1)
    assert "v1:" in before and "v2:" in before  # the versions are there, without their figures
    assert first not in before and corrected not in before and 'name="fan" value="10"' not in before
    agree(table, second)
    after = page(client, "correct_hand", blind_event, 1)
    assert first in after and corrected in after


def test_the_table_page_hides_the_hands_from_another_referee_while_the_table_is_in_play(
    client, blind_event, table, referee, second
):
    entry_service.record_hand(table, HANDS[0], acting_user=referee)
    text = hand_text(table)
    client.force_login(second)
    during = page(client, "table", blind_event)
    assert HIDDEN in during and text not in during and "hands-table" not in during
    assert ">32<" not in during  # East's points for hand 1
    client.force_login(referee)
    assert text in page(client, "table", blind_event)  # the first entrant sees what they entered
    for entry in HANDS[1:]:
        entry_service.record_hand(table, entry, acting_user=referee)
    agree(table, second)
    client.force_login(second)
    after = page(client, "table", blind_event)
    assert HIDDEN not in after and text in after and "hands-table" in after


def test_the_first_entrant_and_the_organiser_see_the_figures_on_every_page(
    client, blind_event, table, referee, second, organiser
):
    complete(table, referee)
    text = hand_text(table)
    for user in (referee, organiser):
        client.force_login(user)
        correction = page(client, "correct_hand", blind_event, 1)
        assert HIDDEN not in correction and text in correction and 'name="fan" value="8"' in correction
        assert text in page(client, "appeal_hand", blind_event, 1)
        assert "hands-table" in page(client, "table", blind_event)


def test_a_stored_second_entry_that_differs_shows_the_first_entry_to_resolve_it(
    client, blind_event, table, referee, second
):
    """The documented resolution (docs/confirmation.md): the table page shows each differing hand, first
    entry against second, and a referee corrects a hand; so the correction page is prefilled then."""
    complete(table, referee)
    rows, _ = sheet(table)
    rows[0] = {"E": 34, "S": -18, "W": -8, "N": -8}
    record_blind_entry(table, {s: sum(r[s] for r in rows) for s in "ESWN"}, rows, acting_user=second)
    client.force_login(second)
    assert "The two entries differ" in page(client, "table", blind_event)
    assert 'name="fan" value="8"' in page(client, "correct_hand", blind_event, 1)


def test_the_second_referee_may_still_correct_a_hidden_hand_from_an_empty_form(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    client.force_login(second)
    url = reverse("referee:correct_hand", args=[blind_event.slug, 1, 1, 1])
    data = {"expected_version": "1", "how": "discard", "winner": "E", "discarder": "S", "fan": "10"}
    assert client.post(url, data).status_code == 302
    assert table.hands.get(number=1, is_current=True).fan == 10


def test_figures_are_visible_to_the_public_only_once_the_table_is_confirmed(
    blind_event, table, referee, second, organiser
):
    complete(table, referee)
    loaded = queries.table_with_results(table)
    assert not figures_visible(loaded) and not figures_visible(loaded, second)
    assert figures_visible(loaded, referee) and figures_visible(loaded, organiser)
    agree(table, second)
    loaded = queries.table_with_results(table)
    assert figures_visible(loaded) and figures_visible(loaded, second)


def test_without_blind_entry_every_referee_sees_the_figures(
    client, event, table, referee, stranger, organiser
):
    from tournaments.services import events as event_services

    event_services.grant_role(event, stranger, "referee", acting_user=organiser)
    complete(table, referee)
    client.force_login(stranger)
    assert 'name="fan" value="8"' in page(client, "correct_hand", event, 1)
    assert hand_text(table) in page(client, "appeal_hand", event, 1)


@pytest.mark.parametrize(
    "name, args",
    [
        ("manage:session_print", ["scoresheets"]),
        ("manage:event_print", ["workbook"]),
        ("manage:event_print", ["ema-csv"]),
        ("manage:session", []),
    ],
)
def test_the_second_referee_cannot_open_the_organisers_prints_and_pages(
    client, blind_event, table, referee, second, name, args
):
    """The prints and exports that list a table's hands are the organiser's (who previews them)."""
    complete(table, referee)
    client.force_login(second)
    slug_args = [blind_event.slug, 1, *args] if name != "manage:event_print" else [blind_event.slug, *args]
    assert client.get(reverse(name, args=slug_args)).status_code == 403
