"""Appeal refusals cite the event's own book (``RuleSet.rule_reference``): MCR's rule 94 under MCR, no
number at all under NMJL, whose book has no such rule; and they say "granted"/"rejected", never
"upheld"/"denied" (the stored values)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.utils import translation

from scoring.rules import registry
from scoring.services import appeals, penalties, rulings
from tournaments import access, event_settings
from tournaments.errors import ServiceError
from tournaments.models import Role
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating


@pytest.fixture
def nmjl_table(organiser, referee):
    event = event_services.create_tournament(
        event_services.EventDetails(name="Card Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(event, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        event, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(event, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(event.rounds.get(number=1), acting_user=organiser)
    return event.rounds.get(number=1).tables.get()


def ruling_at(table, referee):
    east = table.seats.get(wind="E").registration
    key = "picking_ahead" if table.round.tournament.rules == "nmjl" else "late_pung"
    return rulings.add_ruling(table, east, key, hand_number=1, acting_user=referee)


def refusal(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call(*args, **kwargs)
    return error.value


def late_appeal(table, referee) -> ServiceError:
    ruling = ruling_at(table, referee)
    return refusal(
        appeals.file_appeal,
        ruling,
        statement="Too late",
        signed_by="Bo",
        fee_received=True,
        acting_user=referee,
        now=ruling.created_at + timedelta(minutes=31),
    )


def test_a_late_appeal_at_an_nmjl_event_cites_no_mcr_rule(nmjl_table, referee):
    error = late_appeal(nmjl_table, referee)
    assert error.code == "appeal_too_late"
    assert "rule" not in error.message and "within 30 minutes of the ruling;" in error.message


def test_a_late_appeal_at_an_mcr_event_still_cites_rule_94a(table, referee):
    error = late_appeal(table, referee)
    assert error.code == "appeal_too_late" and "(rule 94a)" in error.message


def test_a_late_appeal_at_an_mcr_event_cites_the_rule_in_chinese(table, referee):
    with translation.override("zh-hans"):
        error = late_appeal(table, referee)
    assert "规则94a" in error.message and "rule" not in error.message


def test_an_incomplete_nmjl_appeal_is_refused_without_a_rule_number(nmjl_table, organiser, referee):
    event = nmjl_table.round.tournament
    event_services.update_settings(event, {"appeals.fee": 50}, acting_user=organiser)
    ruling = ruling_at(nmjl_table, referee)
    for kwargs, code in [
        ({"statement": " ", "signed_by": "Bo"}, "no_statement"),
        ({"statement": "Unfair", "signed_by": ""}, "not_signed"),
        ({"statement": "Unfair", "signed_by": "Bo"}, "fee_not_paid"),
    ]:
        error = refusal(appeals.file_appeal, ruling, acting_user=referee, **kwargs)
        assert error.code == code and "rule" not in error.message and "(" not in error.message


def test_an_incomplete_mcr_appeal_cites_rules_94b_to_94d(event, table, organiser, referee):
    event_services.update_settings(event, {"appeals.fee": 200}, acting_user=organiser)
    ruling = ruling_at(table, referee)
    for kwargs, rule in [
        ({"statement": " ", "signed_by": "Bo"}, "(rule 94b)"),
        ({"statement": "Unfair", "signed_by": ""}, "(rule 94c)"),
        ({"statement": "Unfair", "signed_by": "Bo"}, "(rule 94d)"),
    ]:
        assert rule in refusal(appeals.file_appeal, ruling, acting_user=referee, **kwargs).message


def filed(table, referee):
    return appeals.file_appeal(
        ruling_at(table, referee), statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )


def test_a_plain_referee_deciding_an_nmjl_appeal_is_refused_without_rule_94(nmjl_table, referee):
    error = refusal(
        appeals.decide_appeal, filed(nmjl_table, referee), "denied", reasons="Seen", acting_user=referee
    )
    assert error.code == "not_allowed"
    assert error.message == "Only the chief referee or the appeals committee decides an appeal."


def test_a_plain_referee_deciding_an_mcr_appeal_is_refused_citing_rule_94(table, referee):
    error = refusal(
        appeals.decide_appeal, filed(table, referee), "denied", reasons="Seen", acting_user=referee
    )
    assert error.code == "not_allowed" and "(rule 94)" in error.message


def appeals_page_refusal(tournament, user) -> str:
    request = RequestFactory().get("/")
    request.user = user
    with pytest.raises(PermissionDenied) as error:
        access.appeals_event_for(request, tournament.slug)
    return str(error.value)


def test_the_appeals_page_refuses_a_referee_citing_the_events_own_book(event, nmjl_table, referee):
    assert "rule 94" not in appeals_page_refusal(nmjl_table.round.tournament, referee)
    assert "(rule 94)" in appeals_page_refusal(event, referee)


def test_the_import_check_cites_the_deadline_only_under_a_book_that_has_it():
    nmjl, mcr = registry.rule_set("nmjl"), registry.rule_set("mcr")
    for rule_set, cited in [(nmjl, False), (None, False), (mcr, True)]:
        error = refusal(appeals.check_appeal_deadline, 31, rule_set)
        assert error.code == "appeal_too_late" and ("(rule 94a)" in error.message) is cited
    appeals.check_appeal_deadline(30, nmjl)


def test_the_words_shown_say_granted_or_rejected(table, referee):
    error = refusal(appeals.decide_appeal, filed(table, referee), "pending", reasons="", acting_user=referee)
    assert error.code == "bad_status" and error.message == "An appeal is decided as granted or rejected."
    error = refusal(appeals.store_decision, filed(table, referee), "maybe", acting_user=referee)
    assert "granted or rejected" in error.message
    label = event_settings.APPEAL_FEE.label
    assert "granted" in label and "rejected" in label and "upheld" not in label and "denied" not in label


def penalty_to_oneself(table, referee) -> ServiceError:
    offender = table.seats.get(wind="S").registration
    return refusal(
        penalties.add_penalty,
        table,
        offender,
        5,
        paid_to="player",
        paid_to_player=offender,
        acting_user=referee,
    )


def test_a_penalty_paid_to_no_opponent_cites_rule_85e_only_under_mcr(table, nmjl_table, referee):
    assert "(rule 85e)" in penalty_to_oneself(table, referee).message
    error = penalty_to_oneself(nmjl_table, referee)
    assert error.code == "bad_receiver"
    assert error.message == "Name the opponent at this table who receives the points."


def register_page(client, organiser, tournament, language: str = "en") -> str:
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/manage/{tournament.slug}/appeals/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_rulings_register_cites_rules_76_to_93_only_under_mcr(client, event, nmjl_table, organiser):
    # MCR: Sloper's chapter 4, rules 76-93 (seeds/003_2541481d343502a5.txt, lines 2350-2400), and rule 94.
    assert "Every ruling (rules 76-93), the appeals against them and their decisions (rule 94)" in (
        register_page(client, organiser, event)
    )
    assert "规则76-93" in register_page(client, organiser, event, "zh-hans")
    nmjl_page = register_page(client, organiser, nmjl_table.round.tournament)
    assert "Every ruling, the appeals against them and their decisions, with who made each." in nmjl_page
    assert "76-93" not in nmjl_page and "rule 94" not in nmjl_page


def test_the_choice_labels_cite_no_book_and_say_granted_or_rejected():
    from scoring.models import AppealStatus, PaidTo

    for label in PaidTo.labels:
        assert "rule" not in label and "(" not in label, label
    assert AppealStatus.UPHELD.label == "Appeal granted: ruling withdrawn"
    assert AppealStatus.DENIED.label == "Appeal rejected: ruling stands"
    for label in AppealStatus.labels:
        assert "upheld" not in label.lower() and "denied" not in label.lower(), label
    with translation.override("zh-hans"):
        assert str(PaidTo.EACH_OTHER.label) == "付给其他每位选手"
        assert str(AppealStatus.UPHELD.label) == "申诉获准：撤销判罚"
