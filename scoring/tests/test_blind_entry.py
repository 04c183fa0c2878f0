"""Blind double entry (docs/confirmation.md): a second person enters the score sheet without seeing
the first entry; agreement confirms the table, disagreement confirms nothing and shows the
differences hand by hand to a referee."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import BlindEntry, Confirmation, ConfirmedBy
from scoring.services import confirmation, queries
from scoring.services import entry as entry_service
from scoring.services.confirmation import confirm, first_entry, record_blind_entry
from scoring.services.entry import HandEntry
from tournaments.errors import ServiceError
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating

HANDS = [
    HandEntry(winner="E", discarder="S", fan=8),  # E +32, S -16, W -8, N -8 (rule 67)
    HandEntry(winner="S", discarder=None, fan=10),  # self-drawn: S +54, others -18
    HandEntry(winner=None),
    HandEntry(winner="N", discarder="E", fan=12),  # N +36, E -20, S -8, W -8
]


def complete(table, referee):
    for entry in HANDS:
        entry_service.record_hand(table, entry, acting_user=referee)


def sheet(table):
    rows, totals = first_entry(queries.table_with_results(table))
    return rows, totals


def test_a_second_entry_that_agrees_hand_by_hand_confirms_the_table(blind_event, table, referee, second):
    complete(table, referee)
    rows, totals = sheet(table)
    assert rows[0] == {"E": 32, "S": -16, "W": -8, "N": -8}
    assert totals == {"E": -6, "S": 30, "W": -34, "N": 10}
    _entry, found = record_blind_entry(table, totals, rows, acting_user=second)
    assert found == []
    assert Confirmation.objects.get(table=table, is_current=True).how == ConfirmedBy.BLIND


def test_totals_alone_are_enough_when_they_agree(blind_event, table, referee, second):
    complete(table, referee)
    record_blind_entry(table, sheet(table)[1], acting_user=second)
    assert queries.is_confirmed(table, fresh=True)


def test_a_disagreement_confirms_nothing_and_names_each_hand_that_differs(
    blind_event, table, referee, second
):
    complete(table, referee)
    rows, _totals = sheet(table)
    rows[1] = {"E": -16, "S": 48, "W": -16, "N": -16}  # hand 2 misread from the sheet
    blind_totals = {seat: sum(row[seat] for row in rows) for seat in "ESWN"}
    _, found = record_blind_entry(table, blind_totals, rows, acting_user=second)
    assert not queries.is_confirmed(table, fresh=True)
    assert [d.hand for d in found] == [2, None]
    assert found[0].first == {"E": -18, "S": 54, "W": -18, "N": -18}
    assert found[0].second == rows[1]


def test_the_referee_resolves_a_disagreement_by_correcting_the_first_entry(
    blind_event, table, referee, second, organiser
):
    complete(table, referee)
    rows, _totals = sheet(table)
    rows[0] = {"E": 34, "S": -18, "W": -8, "N": -8}  # the sheet says hand 1 had 10 fan, not 8
    blind_totals = {seat: sum(row[seat] for row in rows) for seat in "ESWN"}
    _, found = record_blind_entry(table, blind_totals, rows, acting_user=second)
    assert [d.hand for d in found] == [1, None]
    hand_one = table.hands.get(number=1, is_current=True)
    entry_service.correct_hand(hand_one, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    assert confirm(table, acting_user=organiser).how == ConfirmedBy.BLIND  # the two entries agree now
    assert queries.is_confirmed(table, fresh=True)


def test_the_person_who_entered_the_results_cannot_make_the_second_entry(blind_event, table, referee):
    complete(table, referee)
    with pytest.raises(ServiceError) as error:
        record_blind_entry(table, sheet(table)[1], acting_user=referee)
    assert error.value.code == "own_entry"
    assert not BlindEntry.objects.exists()


def test_a_referee_cannot_confirm_before_the_blind_entry(blind_event, table, referee, organiser):
    complete(table, referee)
    with pytest.raises(ServiceError) as error:
        confirmation.confirm_table(table, acting_user=organiser)
    assert error.value.code == "blind_entry_first"


def test_a_repeated_post_of_the_second_entry_is_refused(blind_event, table, referee, second):
    complete(table, referee)
    wrong = {"E": 0, "S": 0, "W": 0, "N": 0}
    record_blind_entry(table, wrong, acting_user=second, expected_version=0)
    with pytest.raises(ServiceError) as error:
        record_blind_entry(table, wrong, acting_user=second, expected_version=0)
    assert error.value.code == "stale_entry"
    assert BlindEntry.objects.filter(table=table).count() == 1


def test_hands_that_do_not_add_up_to_the_totals_or_to_zero_are_refused(blind_event, table, referee, second):
    complete(table, referee)
    rows, totals = sheet(table)
    with pytest.raises(ServiceError) as error:
        record_blind_entry(table, {"E": 1, "S": 0, "W": 0, "N": 0}, acting_user=second)
    assert "Totals" in error.value.message
    with pytest.raises(ServiceError) as error:
        record_blind_entry(
            table, {**totals, "E": totals["E"] + 4, "S": totals["S"] - 4}, rows, acting_user=second
        )
    assert error.value.code == "bad_totals"


def test_the_second_person_does_not_see_the_first_entry_and_then_sees_the_differences(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    url = reverse("referee:table", args=[blind_event.slug, 1, 1])
    client.force_login(second)
    page = client.get(url).content.decode()
    assert "Second entry (blind)" in page
    assert "Confirm these results" not in page
    assert "hands-table" not in page and ">-6<" not in page  # no hand and no total of the first entry
    data = {"expected_version": "0", **{f"total_{seat}": "0" for seat in "ESWN"}}
    data.update({"h1_E": "32", "h1_S": "-16", "h1_W": "-8", "h1_N": "-8"})
    data.update({"total_E": "32", "total_S": "-16", "total_W": "-8", "total_N": "-8"})
    page = client.post(url + "blind-entry/", data, follow=True).content.decode()
    assert "differs from the first in 4 places" in page  # hands 2-4 missing, and the totals
    assert "The two entries differ" in page
    client.force_login(referee)
    assert "The two entries differ" in client.get(url).content.decode()
    gap = client.post(
        url + "blind-entry/", {**data, "h1_E": "", "h1_S": "", "h1_W": "", "h1_N": "", "h2_E": "1"}
    )
    assert gap.status_code == 422


def test_the_second_person_cannot_correct_the_first_entry_into_agreement_and_confirm_it(
    blind_event, table, referee, second
):
    complete(table, referee)
    rows, _totals = sheet(table)
    rows[0] = {"E": 34, "S": -18, "W": -8, "N": -8}
    record_blind_entry(table, {s: sum(r[s] for r in rows) for s in "ESWN"}, rows, acting_user=second)
    hand_one = table.hands.get(number=1, is_current=True)
    entry_service.correct_hand(hand_one, HandEntry(winner="E", discarder="S", fan=10), acting_user=second)
    with pytest.raises(ServiceError) as error:
        confirm(table, acting_user=second)
    assert error.value.code == "own_entry"


def test_the_public_results_withhold_a_blind_tables_figures_until_it_is_confirmed(
    client, blind_event, table, referee, second
):
    complete(table, referee)
    results = reverse("public:results", args=[blind_event.slug, 1])
    page = client.get(results).content.decode()
    assert "Figures shown once the blind second entry confirms them." in page
    assert "4 hands" not in page
    provisional = client.get(reverse("public:standings", args=[blind_event.slug]) + "?provisional=1")
    assert "Provisional:" not in provisional.content.decode()  # only the organiser previews them
    record_blind_entry(table, sheet(table)[1], acting_user=second)
    page = client.get(results).content.decode()
    assert "Figures shown once" not in page and "4 hands" in page


def test_the_organiser_chooses_who_confirms_on_the_settings_page(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    assert "A table&#x27;s result is confirmed by" in page and "Blind double entry" in page
    response = client.post(
        reverse("manage:save_settings", args=[event.slug, "confirmation"]),
        {"confirmation-confirmation__by": "players", "confirmation-confirmation__blind_entry": "on"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.settings["confirmation"] == {"by": "players", "blind_entry": True}


@pytest.mark.parametrize(
    "data",
    [
        {"total_E": "x", "total_S": "0", "total_W": "0", "total_N": "0"},
        {"total_E": "9" * 40, "total_S": "0", "total_W": "0", "total_N": "0"},
        {"total_E": "1", "total_S": "0", "total_W": "0", "total_N": "0"},
        {"h1_E": "5", "total_E": "0", "total_S": "0", "total_W": "0", "total_N": "0"},
        {"expected_version": "-1"},
        {},
    ],
)
def test_bad_second_entries_are_refused_with_a_message_and_nothing_stored(
    client, blind_event, table, referee, second, data
):
    complete(table, referee)
    client.force_login(second)
    url = reverse("referee:blind_entry", args=[blind_event.slug, 1, 1])
    response = client.post(url, data)
    assert response.status_code == 422
    assert "errorlist" in response.content.decode()
    assert not BlindEntry.objects.exists()
    assert not queries.is_confirmed(table, fresh=True)


def test_a_pin_too_long_or_a_reissue_for_an_unknown_player_is_refused(
    client, event, table, referee, organiser
):
    complete(table, referee)
    client.force_login(referee)
    response = client.post(reverse("referee:sign_table", args=[event.slug, 1, 1]), {"pin": "1" * 5000})
    assert response.status_code == 422
    client.force_login(organiser)
    assert client.post(reverse("manage:reissue_pin", args=[event.slug, "nobody"])).status_code == 404


def test_blind_entry_works_the_same_for_another_rule_set(organiser, referee, second):
    """Nothing here asks which rules the event plays: a classical (Babcock) table is entered, the
    blind second entry agrees with its settlement and confirms it."""
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Red Book Night", rules="babcock", num_sessions=1, hands_per_session=8
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, second, "referee", acting_user=organiser)
    event_services.update_settings(tournament, {"confirmation.blind_entry": True}, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    entry_service.record_hand(
        table,
        HandEntry(winner="E", data={"east": "E", "scores": {"E": 48, "S": 16, "W": 4, "N": 0}}),
        acting_user=referee,
    )
    entry_service.set_table_finished(table, True, acting_user=referee)
    rows, totals = sheet(table)
    assert totals == {"E": 288, "S": -68, "W": -104, "N": -116}  # the settlement, as the rule set scores it
    _, found = record_blind_entry(table, totals, rows, acting_user=second)
    assert found == [] and queries.is_confirmed(table, fresh=True)


def test_entries_agreeing_after_a_correction_may_be_confirmed_where_players_otherwise_sign(
    client, blind_event, table, referee, second, organiser
):
    event_services.update_settings(blind_event, {"confirmation.by": "players"}, acting_user=organiser)
    complete(table, referee)
    rows, _ = sheet(table)
    rows[0] = {"E": 34, "S": -18, "W": -8, "N": -8}
    record_blind_entry(table, {s: sum(r[s] for r in rows) for s in "ESWN"}, rows, acting_user=second)
    entry_service.correct_hand(
        table.hands.get(number=1, is_current=True),
        HandEntry(winner="E", discarder="S", fan=10),
        acting_user=organiser,
    )
    client.force_login(referee)
    url = reverse("referee:table", args=[blind_event.slug, 1, 1])
    assert "now agrees with these results" in client.get(url).content.decode()
    client.post(url + "confirm/")
    assert Confirmation.objects.get(table=table, is_current=True).how == ConfirmedBy.BLIND


def test_a_second_entry_replayed_from_a_phones_queue_is_stored_once(blind_event, table, referee, second):
    """Kept on the phone while the Wi-Fi was down (static/js/offline-entry.js) and sent again after a lost
    answer: the replay, with the same token, is a success and changes nothing (services.entry_tokens)."""
    import uuid

    from scoring.models import EntryToken
    from scoring.services.entry_tokens import AlreadyStored

    complete(table, referee)
    token = uuid.uuid4()
    record_blind_entry(table, sheet(table)[1], acting_user=second, expected_version=0, token=token)
    assert queries.is_confirmed(table, fresh=True)  # it agreed: the table is confirmed
    with pytest.raises(AlreadyStored) as replay:
        record_blind_entry(table, sheet(table)[1], acting_user=second, expected_version=0, token=token)
    assert replay.value.kind == "blind"
    assert BlindEntry.objects.filter(table=table).count() == 1
    assert EntryToken.objects.filter(table=table, kind="blind").count() == 1


def test_the_second_entry_is_kept_offline_with_its_token(client, blind_event, table, referee, second):
    """The blind form is one the phone keeps while the Wi-Fi is down (data-offline, with its token:
    static/js/offline-entry.js)."""
    complete(table, referee)
    client.force_login(second)
    page = client.get(reverse("referee:table", args=[blind_event.slug, 1, 1])).content.decode()
    blind = page.split('id="blind-form"')[1].split("</form>")[0]
    assert blind.startswith(" data-offline>") and 'name="entry_token"' in blind
