"""Players' PINs cannot be collected: every PIN that does not sign is refused in the same
words and counted per table, user, client address and event, past a limit nothing is taken; a signature
does not say whose PIN it was; the organiser reissues a whole session's PINs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from scoring.models import PinAttempt, Signature
from scoring.services import pins as pin_service
from scoring.services import pins as pins_service
from scoring.services.pins import PIN_TRIES, issue_pins, sign_with_pin
from scoring.tests.test_pins import complete, players_only, seated_pins
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Role
from tournaments.services import events as event_services
from tournaments.services import registrations

THROTTLED = "Too many wrong PINs: ask the organiser."


def wrong_pin(event) -> str:
    issued = set(pins_service.pins_for(event).values())
    return next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in issued)


def refusal(table, pin, user, address="") -> ServiceError:
    with pytest.raises(ServiceError) as error:
        sign_with_pin(table, pin, acting_user=user, address=address)
    return error.value


def other_table(event):
    return event.rounds.get(number=1).tables.get(number=2)


def another_referee(event, organiser, name):
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-123")
    event_services.grant_role(event, user, Role.REFEREE, acting_user=organiser)
    return user


def test_wrong_pins_at_a_confirmed_table_are_counted_and_lead_to_a_logged_lockout(event, table, referee):
    complete(table, referee)
    pins = seated_pins(table)
    for wind in "ESWN":
        sign_with_pin(table, pins[wind], acting_user=referee)
    wrong = wrong_pin(event)
    for _ in range(PIN_TRIES):
        assert refusal(table, wrong, referee).code == "wrong_pin"
    assert PinAttempt.objects.filter(table=table, tournament=event, user=referee).count() == PIN_TRIES
    error = refusal(table, pins["E"], referee)  # a right PIN now changes nothing either
    assert error.code == "pin_throttled" and error.message == THROTTLED
    assert PinAttempt.objects.count() == PIN_TRIES  # a try during the lockout is not stored
    entry = AuditEntry.objects.get(action="pin_lockout")
    assert entry.actor == referee and f"{PIN_TRIES} at this table" in entry.summary


def test_every_pin_that_does_not_sign_is_refused_in_the_same_words(event, table, referee):
    complete(table, referee)
    pins = seated_pins(table)
    elsewhere = next(iter(seated_pins(other_table(event)).values()))
    sign_with_pin(table, pins["E"], acting_user=referee)
    refusals = [
        refusal(table, wrong_pin(event), referee),  # wrong
        refusal(table, elsewhere, referee),  # a player's at another table
        refusal(table, pins["E"], referee),  # already signed
    ]
    for wind in "SWN":
        sign_with_pin(table, pins[wind], acting_user=referee)
    refusals.append(refusal(table, pins["S"], referee))  # the table already confirmed
    assert {(error.code, error.message) for error in refusals} == {
        ("wrong_pin", "That PIN does not sign this table. Check the PIN on your seat slip.")
    }
    assert PinAttempt.objects.count() == 4


def test_the_same_refusal_on_the_table_page_for_wrong_other_and_signed_pins(
    client, event, table, referee, organiser
):
    players_only(event, organiser)
    complete(table, referee)
    pins = seated_pins(table)
    elsewhere = next(iter(seated_pins(other_table(event)).values()))
    client.force_login(referee)
    url = reverse("referee:sign_table", args=[event.slug, 1, 1])
    client.post(url, {"pin": pins["E"]})
    said = set()
    for pin in (wrong_pin(event), elsewhere, pins["E"], "not a pin"):
        response = client.post(url, {"pin": pin})
        assert response.status_code == 422
        said.add(re.search(r"Not saved: [^<]*", response.content.decode()).group(0))
    assert said == {"Not saved: That PIN does not sign this table. Check the PIN on your seat slip."}
    attempt = PinAttempt.objects.first()
    assert attempt.user == referee and attempt.address == "127.0.0.1"


def test_a_signature_does_not_say_whose_pin_it_was_until_all_four_have_signed(
    client, event, table, referee, organiser
):
    players_only(event, organiser)
    complete(table, referee)
    pins = seated_pins(table)
    names = [seat.registration.player.name for seat in table.seats.all()]
    client.force_login(referee)
    url = reverse("referee:table", args=[event.slug, 1, 1])
    for count, wind in enumerate("ESW", start=1):
        response = client.post(url + "sign/", {"pin": pins[wind]})
        [message] = [str(m) for m in get_messages(response.wsgi_request)]
        assert message == f"PIN accepted: {count} of 4 signed."
        page = client.get(url).content.decode()
        progress = re.search(r'<p id="sign-progress">.*?</p>', page, re.S).group(0)
        assert f"Signed: {count} of 4." in progress
        assert not any(name in progress for name in names)
        assert "Signed by" not in page and "Still to sign" not in page
    result = sign_with_pin(table, pins["N"], acting_user=referee)
    assert result.confirmed and (result.signed, result.seats) == (4, 4)
    assert not hasattr(result, "name")


def test_one_user_is_locked_out_across_tables(monkeypatch, event, table, referee, organiser):
    monkeypatch.setattr(pin_service, "PIN_TRIES_PERSON", 4)
    second = other_table(event)
    complete(table, referee)
    complete(second, referee)
    wrong = wrong_pin(event)
    for _ in range(3):
        refusal(table, wrong, referee, "10.0.0.1")
    refusal(second, wrong, referee, "10.0.0.2")
    pins = seated_pins(second)
    assert (
        refusal(second, pins["E"], referee, "10.0.0.3").code == "pin_throttled"
    )  # elsewhere, another address
    colleague = another_referee(event, organiser, "rita")
    assert sign_with_pin(second, pins["E"], acting_user=colleague, address="10.0.0.4").signed == 1
    assert "4 by rick" in AuditEntry.objects.get(action="pin_lockout").summary


def test_one_address_is_locked_out_across_users(monkeypatch, event, table, referee, organiser):
    monkeypatch.setattr(pin_service, "PIN_TRIES_ADDRESS", 3)
    complete(table, referee)
    users = [referee, *(another_referee(event, organiser, name) for name in ("rita", "rob", "ray"))]
    for user in users[:3]:
        refusal(table, wrong_pin(event), user, "192.0.2.7")
    pins = seated_pins(table)
    assert refusal(table, pins["E"], users[3], "192.0.2.7").code == "pin_throttled"
    assert sign_with_pin(table, pins["E"], acting_user=users[3], address="192.0.2.8").signed == 1


def test_the_event_is_locked_out_across_tables_and_people(monkeypatch, event, table, referee, organiser):
    monkeypatch.setattr(pin_service, "PIN_TRIES_EVENT", 6)
    second = other_table(event)
    complete(table, referee)
    complete(second, referee)
    colleague = another_referee(event, organiser, "rita")
    wrong = wrong_pin(event)
    for index in range(3):
        refusal(table, wrong, referee, f"10.0.1.{index}")
        refusal(second, wrong, colleague, f"10.0.2.{index}")
    newcomer = another_referee(event, organiser, "rob")
    for target in (table, second):
        error = refusal(target, seated_pins(target)["E"], newcomer, "10.0.3.1")
        assert error.code == "pin_throttled" and error.message == THROTTLED
    assert not Signature.objects.exists()
    assert "6 in the event" in AuditEntry.objects.get(action="pin_lockout").summary


def test_reissuing_a_sessions_pins_stops_the_old_ones_and_is_logged(event, table, referee, organiser):
    spare = registrations.register_player(
        event, registrations.PlayerRow(name="Spare"), acting_user=organiser
    )  # not seated in session 1: keeps their PIN
    complete(table, referee)
    old = issue_pins(event, acting_user=None)
    seated = {seat.registration_id for t in event.rounds.get(number=1).tables.all() for seat in t.seats.all()}
    new = pins_service.reissue_session_pins(event.rounds.get(number=1), acting_user=organiser)
    assert set(new) == seated and len(new) == 8
    assert all(new[r] != old[r] and len(new[r]) == 6 for r in new)
    assert pins_service.pins_for(event)[spare.pk] == old[spare.pk]
    east = table.seats.get(wind="E").registration_id
    assert refusal(table, old[east], referee).code == "wrong_pin"
    assert sign_with_pin(table, new[east], acting_user=referee).signed == 1
    entry = AuditEntry.objects.get(action="reissue_session_pins")
    assert entry.actor == organiser and entry.data["count"] == 8
    assert not any(pin in entry.summary for pin in new.values())


def test_an_archived_event_or_an_unseated_session_gets_no_new_pins(event, organiser):
    from tournaments.archive import set_archived

    with pytest.raises(ServiceError) as error:
        pins_service.reissue_session_pins(event.rounds.get(number=2), acting_user=organiser)
    assert error.value.code == "not_seated"
    set_archived(event, True, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        pins_service.reissue_session_pins(event.rounds.get(number=1), acting_user=organiser)
    assert error.value.code == "archived"


def test_the_organiser_reissues_a_sessions_pins_with_the_session_pages_button(
    client, event, table, organiser, referee
):
    old = issue_pins(event, acting_user=None)
    session_url = reverse("manage:session", args=[event.slug, 1])
    action = reverse("manage:reissue_session_pins", args=[event.slug, 1])
    client.force_login(referee)
    assert client.post(action).status_code == 403
    assert pins_service.pins_for(event) == old
    client.force_login(organiser)
    assert f'action="{action}"' in client.get(session_url).content.decode()
    assert client.get(action).status_code == 405
    response = client.post(action, follow=True)
    assert response.redirect_chain[-1][0] == reverse("manage:pins", args=[event.slug]) + "?session=1"
    page = response.content.decode()
    new = pins_service.pins_for(event)
    assert all(new[r] != old[r] and new[r] in page for r in new)
    assert "New PINs for the 8 players seated in Session 1" in page
    assert reverse("manage:session_print", args=[event.slug, 1, "seat-slips"]) in page
    assert AuditEntry.objects.filter(action="reissue_session_pins", actor=organiser).count() == 1


def test_bad_input_on_the_pin_pages_is_never_a_server_error(client, event, organiser):
    from tournaments.archive import set_archived

    client.force_login(organiser)
    pins_url = reverse("manage:pins", args=[event.slug])
    assert client.get(pins_url + "?session=abc").status_code == 200
    assert client.get(pins_url + "?session=99999999999999999999999").status_code == 404
    assert client.get(pins_url + "?session=7").status_code == 404
    assert client.post(reverse("manage:reissue_session_pins", args=[event.slug, 2])).status_code == 302
    assert client.post(reverse("manage:reissue_session_pins", args=[event.slug, 9])).status_code == 404
    set_archived(event, True, acting_user=organiser)
    registration = event.registrations.first()
    for url in (
        reverse("manage:reissue_session_pins", args=[event.slug, 1]),
        reverse("manage:reissue_pin", args=[event.slug, registration.code]),
    ):
        assert client.post(url).status_code == 403  # read-only: refused before the service is asked
