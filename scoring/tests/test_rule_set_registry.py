"""A rule set's differences live in its class: a new one is a class and a registry line."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.rules import registry
from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.ruleset import Vocabulary
from tournaments import errors
from tournaments.models import Role
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating


class DealsRuleSet(MCRRuleSet):
    """MCR scoring, but the event calls a hand a "deal" and the lateness note is its own."""

    code = "mcr-deals"
    label = "MCR, in deals"
    words = Vocabulary(hand="deal", hands="deals")

    def late_note(self) -> str:
        return "Late players sit out the deal."


@pytest.fixture
def deals_rule_set(monkeypatch):
    monkeypatch.setitem(registry.RULE_SETS, DealsRuleSet.code, DealsRuleSet)
    return DealsRuleSet


def test_every_rule_set_is_in_the_registry_with_its_own_code():
    assert set(registry.codes()) == {"mcr", "nmjl", "babcock", "chinese-1920s", "foster"}
    assert all(registry.rule_set_class(code).code == code for code in registry.codes())


def test_a_new_rule_set_is_one_class_and_one_registry_line(deals_rule_set, client, organiser, referee):
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Deal Night", rules="mcr-deals", num_sessions=1, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    client.force_login(referee)
    page = client.get(reverse("referee:table", args=[tournament.slug, 1, 1])).content.decode()
    assert "Deal 1" in page
    assert "Late players sit out the deal." in page
    assert tournament.rule_set.uses_table_points


def test_an_unknown_rule_set_is_refused_when_an_event_is_created(organiser):
    with pytest.raises(errors.ServiceError) as error:
        event_services.create_tournament(
            event_services.EventDetails(name="X", rules="mahjong-solitaire"), acting_user=organiser
        )
    assert error.value.code == "bad_rules"


def test_settings_the_code_does_not_know_are_refused_when_saved(event, organiser):
    with pytest.raises(errors.ServiceError) as error:
        event_services.update_settings(event, {"seating.time_limit": "abc"}, acting_user=organiser)
    assert error.value.code == "bad_settings"
    with pytest.raises(errors.ServiceError) as error:
        event_services.update_settings(event, {"seating.colour": "red"}, acting_user=organiser)
    assert error.value.code == "not_a_setting"
    event_services.update_settings(event, {"seating.time_limit": 8}, acting_user=organiser)
    event.refresh_from_db()
    assert event.settings["seating"]["time_limit"] == 8
    assert event.audit_entries.filter(action="settings").exists()
