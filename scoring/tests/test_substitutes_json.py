"""A substitution in the event JSON: the format (shared/specs/event-json.md) has no place for
it, so the export writes the seat's results under the seat's player and says what it leaves out; the
document then round-trips exactly (docs/seating.md)."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command

from players.models import Player
from scoring.interchange import export_event, export_warnings, import_event
from scoring.services import confirmation, entry, penalties, seat_changes
from scoring.services import standings as standings_service
from scoring.services.entry import HandEntry
from tournaments.models import Tournament
from tournaments.services import events as event_services


def standings(tournament) -> list[tuple[str, int, object]]:
    return [
        (row.player, row.score, row.table_points)
        for row in standings_service.event_standings(tournament, include_provisional=True)
    ]


@pytest.fixture
def substituted(event, table, organiser, referee):
    """East plays hand 1, a reserve takes over from hand 2 and is penalised (MCR 80), the table is
    played out and confirmed."""
    absent = table.seats.get(wind="E").registration
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    substitution = seat_changes.substitute_new_player(
        table, absent.code, "Zed Newcomer", acting_user=organiser
    )
    penalties.add_penalty(
        table, substitution.substitute, 10, paid_to="none", rule="MCR 80", acting_user=organiser
    )
    entry.record_hand(table, HandEntry(winner="E", discarder="W", fan=20), acting_user=organiser)
    entry.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=8), acting_user=organiser)
    confirmation.confirm_table(table, acting_user=referee)
    return absent, substitution.substitute


@pytest.mark.django_db
def test_an_event_with_a_substitution_round_trips_with_the_same_json_and_standings(event, substituted):
    absent, _ = substituted
    first = export_event(event)
    penalty = first["rounds"][0]["tables"][0]["penalties"][0]
    assert penalty["player"] == absent.code  # written under the seat's player: the format has no substitutes
    assert not any("substitut" in key for key in json.dumps(first["rounds"]).split('"'))  # no new keys
    before = standings(event)
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    copied = import_event(copy.deepcopy(first))
    assert json.dumps(export_event(copied), sort_keys=True) == json.dumps(first, sort_keys=True)
    assert standings(copied) == before  # the default policy: the seat's result is the absent player's


@pytest.mark.django_db
def test_the_export_warns_about_what_the_format_cannot_say(event, substituted, organiser):
    absent, newcomer = substituted
    warnings = export_warnings(event)
    assert len(warnings) == 1
    assert f"from hand 2 Zed Newcomer ({newcomer.code}) played E for {absent}" in warnings[0]
    err = io.StringIO()
    call_command("export_event", event.slug, stdout=io.StringIO(), stderr=err)
    assert "Warning: Session 1 table 1: from hand 2 Zed Newcomer" in err.getvalue()
    event_services.update_settings(event, {"seating.substitution_standings": "hands"}, acting_user=organiser)
    assert "its standings differ" in export_warnings(event)[-1]


@pytest.mark.django_db
def test_an_event_without_substitutions_exports_without_warnings(event):
    assert export_warnings(event) == []
