"""A player signed in on their own phone: the code and PIN checked with the signing's throttling, the
player's signature of their table (one per seat, the fourth confirms: Sloper rule 72,
shared/seeds/003_2541481d343502a5.txt line 2320), and "I do not agree", which holds every confirmation
until a referee settles it (scoring/services/pins.py, scoring/services/disputes.py)."""

from __future__ import annotations

import pytest

from scoring.models import Confirmation, ConfirmedBy, PinAttempt, Signature, TableDispute
from scoring.services import confirmation, disputes, queries
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from scoring.services.pins import PIN_TRIES_EVENT, issue_pins, sign_as_player, sign_in_with_pin, sign_with_pin
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def complete(table, referee):
    for _ in range(4):  # the fixture's sessions have 4 hands
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


def players_only(event, organiser):
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)


def seated(table):
    return {seat.wind: seat.registration for seat in table.seats.select_related("registration__player")}


def test_a_right_code_and_pin_sign_in_and_a_wrong_one_is_refused_and_counted(event):
    registration = event.registrations.order_by("code").first()
    pin = issue_pins(event, acting_user=None)[registration.pk]
    assert sign_in_with_pin(event, registration.code.lower(), pin, address="10.0.0.1") == registration
    with pytest.raises(ServiceError) as refused:
        sign_in_with_pin(
            event, registration.code, "000000" if pin != "000000" else "111111", address="10.0.0.1"
        )
    assert refused.value.code == "wrong_pin"
    with pytest.raises(ServiceError) as unknown:
        sign_in_with_pin(event, "no-such-code", pin, address="10.0.0.1")
    assert unknown.value.message == refused.value.message  # which of the two was wrong is not said
    attempts = PinAttempt.objects.filter(tournament=event)
    assert attempts.count() == 2 and set(attempts.values_list("table", flat=True)) == {None}


def test_past_the_events_limit_even_the_right_pin_is_refused_and_the_lockout_logged(event):
    registration = event.registrations.order_by("code").first()
    pin = issue_pins(event, acting_user=None)[registration.pk]
    for _ in range(PIN_TRIES_EVENT):
        with pytest.raises(ServiceError):
            sign_in_with_pin(event, registration.code, "x", address="10.0.0.2")
    with pytest.raises(ServiceError) as throttled:
        sign_in_with_pin(event, registration.code, pin, address="10.0.0.3")
    assert throttled.value.code == "pin_throttled"
    lockout = AuditEntry.objects.get(tournament=event, action=AuditAction.PIN_LOCKOUT)
    assert lockout.summary.startswith("Players signing in: too many wrong PINs")


def test_a_withdrawn_player_cannot_sign_in(event, organiser):
    from tournaments.desk import set_withdrawn

    registration = event.registrations.order_by("code").first()
    pin = issue_pins(event, acting_user=None)[registration.pk]
    set_withdrawn(registration, True, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        sign_in_with_pin(event, registration.code, pin)
    assert refused.value.code == "wrong_pin"


def test_four_players_sign_on_their_phones_and_the_fourth_confirms(event, table, referee, organiser):
    players_only(event, organiser)
    complete(table, referee)
    players = seated(table)
    for wind in "ESW":
        result = sign_as_player(table, players[wind])
        assert not result.confirmed
    assert (result.signed, result.seats) == (3, 4)
    with pytest.raises(ServiceError) as twice:
        sign_as_player(table, players["E"])
    assert twice.value.code == "already_signed"
    result = sign_as_player(table, players["N"])
    assert result.confirmed and result.signed == 4
    assert Confirmation.objects.get(table=table, is_current=True).how == ConfirmedBy.PLAYERS
    assert Signature.objects.filter(table=table).count() == 4
    entries = AuditEntry.objects.filter(tournament=event, action=AuditAction.SIGN_TABLE)
    assert {e.data["code"] for e in entries} == {r.code for r in players.values()}
    assert all(e.actor is None and "on their own phone" in e.summary for e in entries)


def test_pins_and_phones_sign_the_same_way(event, table, referee, organiser):
    """The referee's device with PINs and the players' own phones share one signing: a seat signed one
    way is signed."""
    players_only(event, organiser)
    complete(table, referee)
    players = seated(table)
    pins = issue_pins(event, acting_user=None)
    for wind in "ESW":
        sign_with_pin(table, pins[players[wind].pk], acting_user=referee)
    with pytest.raises(ServiceError):
        sign_as_player(table, players["S"])
    assert sign_as_player(table, players["N"]).confirmed


def test_only_the_tables_players_sign_a_complete_result_when_players_sign(event, table, referee, organiser):
    players = seated(table)
    other = event.rounds.get(number=1).tables.get(number=2).seats.first().registration
    with pytest.raises(ServiceError) as early:
        sign_as_player(table, players["E"])
    assert early.value.code in {"not_complete"}
    complete(table, referee)
    with pytest.raises(ServiceError) as stranger:
        sign_as_player(table, other)
    assert stranger.value.code == "not_at_table"
    event_services.update_settings(event, {"confirmation.by": "referee"}, acting_user=organiser)
    with pytest.raises(ServiceError) as referees:
        sign_as_player(table, players["E"])
    assert referees.value.code == "not_allowed"


def test_a_disagreement_blocks_every_confirmation_until_a_referee_settles_it(
    event, table, referee, organiser
):
    second = event.rounds.get(number=1).tables.get(number=2)
    complete(table, referee)
    players = seated(table)
    pins = issue_pins(event, acting_user=None)
    for wind in "ES":
        sign_as_player(table, players[wind])
    dispute = disputes.disagree(table, players["W"])
    assert disputes.disagree(table, players["W"]) == dispute  # a repeated post
    assert confirmation.disputed(table)
    for attempt in (
        lambda: sign_as_player(table, players["N"]),
        lambda: sign_with_pin(table, pins[players["N"].pk], acting_user=referee),
        lambda: confirmation.confirm_table(table, acting_user=organiser),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.code == "disputed"
    assert not queries.is_confirmed(table, fresh=True)
    assert not PinAttempt.objects.exists()  # not a wrong PIN
    assert not confirmation.disputed(second)
    disputes.settle(dispute, acting_user=referee)
    assert TableDispute.objects.get().settled_by == referee
    sign_as_player(table, players["W"])
    assert sign_as_player(table, players["N"]).confirmed
    actions = list(
        AuditEntry.objects.filter(
            tournament=event, action__in=[AuditAction.DISPUTE_TABLE, AuditAction.SETTLE_DISPUTE]
        )
        .order_by("pk")
        .values_list("action", "actor", "data")
    )
    code = players["W"].code
    assert [(a, actor, data["code"]) for a, actor, data in actions] == [
        (AuditAction.DISPUTE_TABLE, None, code),
        (AuditAction.SETTLE_DISPUTE, referee.pk, code),
    ]


def test_only_a_tables_player_disagrees_and_only_with_a_complete_unconfirmed_result(
    event, table, referee, organiser
):
    players = seated(table)
    other = event.rounds.get(number=1).tables.get(number=2).seats.first().registration
    with pytest.raises(ServiceError) as early:
        disputes.disagree(table, players["E"])
    assert early.value.code == "not_complete"
    complete(table, referee)
    with pytest.raises(ServiceError) as stranger:
        disputes.disagree(table, other)
    assert stranger.value.code == "not_at_table"
    confirmation.confirm_table(table, acting_user=organiser)
    with pytest.raises(ServiceError) as late:
        disputes.disagree(table, players["E"])
    assert late.value.code == "already_confirmed"
    assert not TableDispute.objects.exists()
