"""Players sign their table's result with the PIN printed on their seat slip (Sloper rule 72, "each
player signs his score": shared/seeds/003_2541481d343502a5.txt line 2320; docs/confirmation.md)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scoring.exports import SESSION_PRINTS
from scoring.models import Confirmation, ConfirmedBy, PinAttempt, PlayerPin, Signature
from scoring.services import confirmation, queries
from scoring.services import entry as entry_service
from scoring.services import pins as pins_service
from scoring.services.entry import HandEntry
from scoring.services.pins import PIN_TRIES, issue_pins, reissue_pin, sign_with_pin
from scoring.standings_cache import standings_rows
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Tournament
from tournaments.services import events as event_services
from tournaments.services import registrations


def complete(table, referee):
    for _ in range(4):  # the fixture's sessions have 4 hands
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


def seated_pins(table) -> dict[str, str]:
    pins = issue_pins(table.round.tournament, acting_user=None)
    return {seat.wind: pins[seat.registration_id] for seat in table.seats.all()}


def players_only(event, organiser):
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)


def test_every_player_gets_a_six_digit_pin_unique_in_the_event_and_issuing_again_changes_none(event):
    registered = pins_service.pins_for(event)  # each got theirs when registered
    pins = issue_pins(event, acting_user=None)
    assert pins == registered
    assert len(pins) == 8 == len(set(pins.values()))
    assert all(len(pin) == 6 and pin.isdigit() for pin in pins.values())
    assert issue_pins(event, acting_user=None) == pins
    assert PlayerPin.objects.count() == 8


def test_the_seat_slip_prints_each_players_pin(event):
    round_ = event.rounds.get(number=1)
    content = SESSION_PRINTS["seat-slips"](round_).render()[2]
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages)
    for registration_id, pin in pins_service.pins_for(event).items():
        assert f"PIN {pin}" in text, registration_id
    assert "not issued" not in text


def test_the_table_is_confirmed_when_all_four_players_have_signed(event, table, referee, organiser):
    """Rule 72: each player signs his score, so all four signatures are needed."""
    players_only(event, organiser)
    complete(table, referee)
    pins = seated_pins(table)
    for wind in "ESW":
        result = sign_with_pin(table, pins[wind], acting_user=referee)
        assert not result.confirmed
    assert (result.signed, result.seats) == (3, 4)
    assert not queries.is_confirmed(table, fresh=True)
    assert standings_rows(Tournament.objects.get(pk=event.pk)) == []
    result = sign_with_pin(table, pins["N"], acting_user=referee)  # the referee's device, the players' PINs
    assert result.confirmed and result.signed == 4
    assert Confirmation.objects.get(table=table, is_current=True).how == ConfirmedBy.PLAYERS
    assert len(standings_rows(Tournament.objects.get(pk=event.pk))) == 4


def test_signing_twice_stores_one_signature_and_the_second_is_refused_as_a_wrong_pin(event, table, referee):
    """A PIN that already signed is refused in the words of a wrong one (else it would tell a guesser
    that the PIN is right), and counted as one."""
    complete(table, referee)
    pins = seated_pins(table)
    sign_with_pin(table, pins["E"], acting_user=referee)
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pins["E"], acting_user=referee)
    assert error.value.code == "wrong_pin"
    assert Signature.objects.filter(table=table).count() == 1
    assert PinAttempt.objects.count() == 1


def test_a_wrong_pin_and_the_pin_of_a_player_at_another_table_are_refused(event, table, referee):
    complete(table, referee)
    pins = issue_pins(event, acting_user=None)
    seated = {seat.registration_id for seat in table.seats.all()}
    elsewhere = next(pin for registration, pin in pins.items() if registration not in seated)
    wrong = next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in pins.values())
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, wrong, acting_user=referee)
    assert error.value.code == "wrong_pin"
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, elsewhere, acting_user=referee)
    assert error.value.code == "wrong_pin"
    assert not Signature.objects.exists()
    assert PinAttempt.objects.filter(table=table).count() == 2  # both count towards the limit


def test_after_a_few_wrong_pins_the_table_takes_no_pin_until_the_window_has_passed(event, table, referee):
    complete(table, referee)
    pins = seated_pins(table)
    for _ in range(PIN_TRIES):
        with pytest.raises(ServiceError):
            sign_with_pin(table, "", acting_user=referee)
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pins["E"], acting_user=referee)  # even the right PIN waits
    assert error.value.code == "pin_throttled"
    assert not Signature.objects.exists()
    PinAttempt.objects.update(created_at=timezone.now() - pins_service.PIN_WINDOW - timedelta(seconds=1))
    assert sign_with_pin(table, pins["E"], acting_user=referee).signed == 1


def test_a_reissued_pin_replaces_the_old_one_and_is_logged(event, table, referee, organiser):
    complete(table, referee)
    pins = seated_pins(table)
    east = table.seats.get(wind="E").registration
    new = reissue_pin(east, acting_user=organiser)
    assert new != pins["E"] and len(new) == 6
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pins["E"], acting_user=referee)
    assert error.value.code == "wrong_pin"
    assert sign_with_pin(table, new, acting_user=referee).signed == 1
    entry = AuditEntry.objects.get(action="reissue_pin")
    assert entry.actor == organiser and new not in entry.summary


def test_a_change_to_the_results_withdraws_the_signatures(event, table, referee, organiser):
    complete(table, referee)
    pins = seated_pins(table)
    for wind in "ESWN":
        sign_with_pin(table, pins[wind], acting_user=referee)
    assert queries.is_confirmed(table, fresh=True)
    first = table.hands.get(number=1, is_current=True)
    entry_service.correct_hand(first, HandEntry(winner="S", discarder="E", fan=8), acting_user=organiser)
    assert not queries.is_confirmed(table, fresh=True)
    assert pins_service.signatures(table) == set()
    result = sign_with_pin(table, pins["E"], acting_user=referee)  # the corrected result is signed anew
    assert (result.signed, result.seats) == (1, 4)


def test_a_hand_added_after_the_session_was_lengthened_withdraws_the_signatures_and_confirmation(
    event, table, referee
):
    """A hand save reads whether signatures and a confirmation are in force with the table's state
    and withdraws them as every other change does."""
    complete(table, referee)
    pins = seated_pins(table)
    for wind in "ESWN":
        sign_with_pin(table, pins[wind], acting_user=referee)
    assert queries.is_confirmed(table, fresh=True)
    Tournament.objects.filter(pk=event.pk).update(hands_per_session=8)  # the organiser lengthened it
    entry_service.record_hand(
        table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee, expected_number=5
    )
    assert not queries.is_confirmed(table, fresh=True)
    assert pins_service.signatures(table) == set()
    assert Signature.objects.filter(table=table, voided=True).count() == 4
    assert AuditEntry.objects.filter(action="unconfirm_table").count() == 1


def test_the_event_setting_says_who_confirms(event, table, referee, organiser, stranger):
    complete(table, referee)
    pins = seated_pins(table)
    event_services.update_settings(event, {"confirmation.by": "referee"}, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pins["E"], acting_user=referee)
    assert error.value.code == "not_allowed"
    players_only(event, organiser)
    with pytest.raises(ServiceError) as error:
        confirmation.confirm_table(table, acting_user=organiser)
    assert error.value.code == "players_sign"
    with pytest.raises(ServiceError) as error:
        event_services.update_settings(event, {"confirmation.by": "anyone"}, acting_user=organiser)
    assert error.value.code == "bad_settings"


def test_an_incomplete_table_cannot_be_signed(event, table, referee):
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, seated_pins(table)["E"], acting_user=referee)
    assert error.value.code == "not_complete"


def test_players_sign_on_the_table_page_and_a_wrong_pin_says_nothing_was_saved(
    client, event, table, referee, organiser
):
    players_only(event, organiser)
    complete(table, referee)
    pins = seated_pins(table)
    client.force_login(referee)
    url = reverse("referee:table", args=[event.slug, 1, 1])
    page = client.get(url).content.decode()
    assert "Players sign with their PIN" in page
    assert "Confirm these results" not in page
    refused = client.post(url + "sign/", {"pin": "abc"})
    assert refused.status_code == 422
    assert "Not saved: That PIN does not sign this table." in refused.content.decode()
    for wind in "ESW":
        client.post(url + "sign/", {"pin": pins[wind]})
    page = client.get(url).content.decode()
    assert "Signed: 3 of 4." in page
    done = client.post(url + "sign/", {"pin": pins["N"]}, follow=True).content.decode()
    assert "Every player has signed" in done
    assert "confirmed</span> the table&#x27;s players" in done


def test_the_organiser_reissues_a_pin_on_the_pins_page(client, event, organiser, referee):
    registration = event.registrations.first()
    old = issue_pins(event, acting_user=None)[registration.pk]
    url = reverse("manage:pins", args=[event.slug])
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert old in client.get(url).content.decode()
    response = client.post(url + f"{registration.code}/reissue/", follow=True)
    new = pins_service.pins_for(event)[registration.pk]
    assert new != old and f"New PIN for {registration.player.name}: {new}" in response.content.decode()


def test_the_referees_list_of_tables_marks_those_waiting_for_confirmation(
    client, event, table, referee, organiser
):
    complete(table, referee)
    client.force_login(referee)
    url = reverse("referee:index", args=[event.slug])
    assert "to confirm" in client.get(url).content.decode()
    confirmation.confirm_table(table, acting_user=organiser)
    page = client.get(url).content.decode()
    assert "to confirm" not in page and "confirmed" in page


def test_an_archived_event_takes_no_signature_and_no_new_pin(event, table, referee, organiser):
    from tournaments.archive import set_archived

    complete(table, referee)
    pins = seated_pins(table)
    set_archived(event, True, acting_user=organiser)
    event.refresh_from_db()
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pins["E"], acting_user=referee)
    assert error.value.code == "archived"
    with pytest.raises(ServiceError) as error:
        reissue_pin(table.seats.get(wind="E").registration, acting_user=organiser)
    assert error.value.code == "archived"
    assert issue_pins(event, acting_user=None) == pins_service.pins_for(event)
    assert not Signature.objects.exists()


def test_a_substitute_signs_for_the_seat_of_a_player_who_left(event, table, referee, organiser):
    """Rule 72: each player signs his score; a player who left ill cannot, so the seat's substitute
    signs it, and the seat needs no second signature."""
    from scoring.services.seat_changes import substitute_seat

    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    north = table.seats.get(wind="N").registration
    spare = registrations.register_player(event, registrations.PlayerRow(name="Spare"), acting_user=organiser)
    substitute_seat(table, north.code, spare, acting_user=organiser)
    for _ in range(3):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    pins = issue_pins(event, acting_user=None)
    for wind in "ESW":
        sign_with_pin(table, pins[table.seats.get(wind=wind).registration_id], acting_user=referee)
    result = sign_with_pin(table, pins[spare.pk], acting_user=referee)
    assert result.confirmed and result.signed == 4
    assert Signature.objects.get(table=table, registration=spare).is_current
    with pytest.raises(ServiceError) as error:  # confirmed: the absent player's PIN changes nothing
        sign_with_pin(table, pins[north.pk], acting_user=referee)
    assert error.value.code == "wrong_pin"
