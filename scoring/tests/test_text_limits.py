"""Every text the event JSON, the forms and the player import accept is checked against the
``max_length`` of the model field it is stored in, with a message naming the field; nothing is cut short and
nothing reaches the database (PostgreSQL would refuse it with an error)."""

from __future__ import annotations

import copy
import html
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from players.models import Player
from scoring.forms import AppealForm, PenaltyForm
from scoring.models import Appeal, Penalty
from scoring.services import penalties
from tournaments.errors import ServiceError
from tournaments.field_limits import max_length
from tournaments.forms import EventForm, PlayerForm
from tournaments.models import Registration, Tournament
from tournaments.services import events as event_services

LONG = "x" * 20_000


def _set_event_name(doc):
    doc["tournament"]["name"] = LONG


def _set_team(doc):
    doc["players"][0]["team"] = LONG


def _set_player_name(doc):
    doc["players"][1]["name"] = LONG


def _set_penalty_reason(doc):
    doc["rounds"][0]["tables"][0]["penalties"][0]["reason"] = LONG


def _set_penalty_rule(doc):
    doc["rounds"][0]["tables"][0]["penalties"][0]["rule"] = LONG


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (_set_event_name, "tournament.name: must be at most 200 characters (it has 20000)"),
        (_set_team, "players[0]: team is longer than 120 characters (it has 20000)"),
        (_set_player_name, "players[1]: name is longer than 120 characters (it has 20000)"),
        (
            _set_penalty_reason,
            "rounds[0].tables[0].penalties[0].reason: must be at most 300 characters (it has 20000)",
        ),
        (
            _set_penalty_rule,
            "rounds[0].tables[0].penalties[0].rule: must be at most 40 characters (it has 20000)",
        ),
    ],
    ids=["event name", "team", "player name", "penalty reason", "penalty rule"],
)
def test_an_event_document_with_a_text_longer_than_its_column_is_refused_naming_the_field(
    spec_example, tmp_path, capsys, change, problem
):
    doc = copy.deepcopy(spec_example)
    change(doc)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_event", str(path))
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert "Nothing was imported; 1 problem(s):" in err
    assert problem in err
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_the_limits_are_read_from_the_model_fields():
    assert max_length(Tournament, "name") == Tournament._meta.get_field("name").max_length == 200
    assert max_length(Registration, "team") == 120
    with pytest.raises(ValueError, match="no max_length"):
        max_length(Appeal, "statement")  # a text column


def test_each_organiser_and_referee_form_limits_a_text_to_its_column():
    pairs = [
        (EventForm().fields["name"], Tournament, "name"),
        (EventForm().fields["slug"], Tournament, "slug"),
        (PlayerForm().fields["name"], Player, "name"),
        (PlayerForm().fields["team"], Registration, "team"),
        (PenaltyForm(players=[]).fields["rule"], Penalty, "rule"),
        (PenaltyForm(players=[]).fields["reason"], Penalty, "reason"),
        (AppealForm(players=[]).fields["signed_by"], Appeal, "signed_by"),
    ]
    for field, model, name in pairs:
        assert field.max_length == model._meta.get_field(name).max_length, (model, name)


def test_the_appeal_statement_has_a_limit_on_the_page_too():
    assert AppealForm(players=[]).fields["statement"].max_length == 5000


def test_a_player_import_lists_too_long_names_and_teams_as_bad_rows(client, event, organiser):
    rows = ["name,team", "Zoe Lima,Porto", "y" * 500 + ",Porto", "Yan Wu," + "t" * 121]
    client.force_login(organiser)
    response = client.post(
        reverse("manage:import_players", args=[event.slug]),
        {"file": SimpleUploadedFile("players.csv", "\n".join(rows).encode())},
    )
    page = html.unescape(response.content.decode())
    assert "Row 3: name is longer than 120 characters (it has 500)." in page
    assert "Row 4: team is longer than 120 characters (it has 121)." in page
    assert not Player.objects.filter(name="Zoe Lima").exists()  # nothing imported
    assert event.registrations.count() == 8


def test_a_long_event_name_is_refused_by_the_service_too(organiser):
    with pytest.raises(ServiceError) as error:
        event_services.create_tournament(event_services.EventDetails(name="N" * 201), acting_user=organiser)
    assert error.value.code == "too_long"
    assert "The event's name is longer than 200 characters" in error.value.message
    assert not Tournament.objects.exists()


def test_a_penalty_reason_past_its_column_is_refused_not_cut_short(table, referee):
    seat = table.seats.get(wind="E")
    with pytest.raises(ServiceError) as error:
        penalties.add_penalty(
            table, seat.registration, 5, paid_to="none", reason="r" * 301, acting_user=referee
        )
    assert error.value.code == "too_long"
    assert "The reason is longer than 300 characters (it has 301)" in error.value.message
    assert not table.penalties.exists()


def test_a_new_substitute_with_a_reason_past_its_column_is_refused_and_not_registered(table, organiser):
    from scoring.services import seat_changes

    absent = table.seats.get(wind="E").registration
    with pytest.raises(ServiceError) as error:
        seat_changes.substitute_new_player(
            table, absent.code, "Quinn Rao", reason="q" * 201, acting_user=organiser
        )
    assert error.value.code == "too_long"
    assert "The reason is longer than 200 characters (it has 201)" in error.value.message
    assert not Player.objects.filter(name="Quinn Rao").exists()
