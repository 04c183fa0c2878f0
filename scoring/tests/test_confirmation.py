"""Results are provisional until a second person confirms them (Sloper rule 72: each player signs his score,
shared/seeds/003_2541481d343502a5.txt line 2320; shared/specs/event-json.md: only confirmed tables count),
corrections at any time, and MCR hands as the book states them (shared/seeds/003_2541481d343502a5.txt)."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from scoring.interchange import export_event, import_event
from scoring.models import Confirmation
from scoring.rules.mcr.tests.test_fans_support import hand
from scoring.services import confirmation, entry, penalties, queries
from scoring.services import standings as standings_service
from scoring.services.entry import HandEntry
from scoring.standings_cache import standings_rows
from tournaments.errors import ServiceError
from tournaments.models import Tournament

# Line 4012: 8 fan points and two flowers: "eighteen" from the discarder, 8 from the others.
BOOK_EXAMPLE = hand("67m55p", "8m", "chow 123m", "chow 234p", "chow 345s", flowers=2)


@pytest.fixture
def scorer(db):
    return get_user_model().objects.create_user("sue", password="pw-sue-123")


def finish(table, referee):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    entry.set_table_finished(table, True, acting_user=referee)


def test_a_result_counts_only_once_a_second_person_confirms_it(event, table, referee, organiser):
    finish(table, referee)
    assert standings_rows(event) == []  # provisional: nobody ranked
    assert len(standings_rows(event, include_provisional=True)) == 4
    with pytest.raises(ServiceError) as error:
        confirmation.confirm_table(table, acting_user=referee)
    assert error.value.code == "own_entry"
    confirmation.confirm_table(table, acting_user=organiser)
    rows = standings_rows(Tournament.objects.get(pk=event.pk))
    assert [row["score"] for row in rows] == [34, -8, -8, -18]  # rule 67: 10 + 8 from S, 8 from W and N
    assert {row["player"] for row in rows} == {s.registration.code for s in table.seats.all()}


def test_confirming_twice_is_harmless_and_an_incomplete_table_cannot_be_confirmed(table, referee, organiser):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        confirmation.confirm_table(table, acting_user=organiser)
    assert error.value.code == "not_complete"
    entry.set_table_finished(table, True, acting_user=referee)
    first = confirmation.confirm_table(table, acting_user=organiser)
    assert confirmation.confirm_table(table, acting_user=organiser) == first
    assert Confirmation.objects.filter(table=table).count() == 1


def test_a_correction_after_the_last_hand_withdraws_the_confirmation(table, referee, organiser, scorer):
    for _ in range(4):  # the fixture's sessions have 4 hands: the table is complete
        entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    confirmation.confirm_table(table, acting_user=organiser)
    hand_one = table.hands.get(number=1, is_current=True)
    entry.correct_hand(hand_one, HandEntry(winner="W", discarder="S", fan=9), acting_user=scorer)
    assert not queries.is_confirmed(table, fresh=True)
    assert table.round.tournament.audit_entries.filter(action="unconfirm_table").exists()
    confirmation.confirm_table(table, acting_user=organiser)
    assert queries.is_confirmed(table, fresh=True)


def test_a_correction_based_on_a_stale_page_is_refused(table, referee, organiser):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    first = table.hands.get(number=1)
    entry.correct_hand(first, HandEntry(winner="E", discarder="S", fan=9), acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        entry.correct_hand(
            first, HandEntry(winner="E", discarder="W", fan=12), acting_user=referee, expected_version=1
        )
    assert error.value.code == "stale_correction"
    assert table.hands.get(number=1, is_current=True).fan == 9


def test_the_page_walks_entry_completion_confirmation_and_the_public_standings(
    client, event, table, referee, organiser
):
    slug = event.slug
    table_url = reverse("referee:table", args=[slug, 1, 1])
    client.force_login(referee)
    for number in range(1, 5):
        data = {
            "how": "discard",
            "winner": "E",
            "discarder": "S",
            "fan": "10",
            "expected_number": str(number),
        }
        assert client.post(table_url + "hands/add/", data).status_code == 302
    page = client.get(table_url).content.decode()
    assert "Confirm these results" in page
    assert client.post(table_url + "confirm/", follow=True).content.decode().count("another referee") == 1
    standings = client.get(reverse("public:standings", args=[slug])).content.decode()
    assert "in play" not in standings  # nothing confirmed: nothing public about the session yet
    client.force_login(organiser)
    client.post(table_url + "confirm/")
    standings = client.get(reverse("public:standings", args=[slug])).content.decode()
    assert "Session 1 in play: 1 of 2 tables confirmed." in standings
    assert table.seats.get(wind="E").registration.player.name in standings
    provisional = client.get(reverse("public:standings", args=[slug]) + "?provisional=1").content.decode()
    assert "Provisional:" in provisional


def test_an_mcr_session_never_has_more_than_16_hands(organiser):
    from tournaments.services import events as event_services

    with pytest.raises(ServiceError) as error:
        event_services.create_tournament(
            event_services.EventDetails(name="Long", hands_per_session=20), acting_user=organiser
        )
    assert error.value.code == "bad_hands"  # rule 74e: four rounds of four hands


def test_a_17th_hand_is_refused_under_a_time_limit(organiser, referee):
    from scoring.services import entry
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Timed", hands_per_session=None, session_minutes=120),
        acting_user=organiser,
    )
    for name in "ABCD":
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    for _ in range(16):
        entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    with pytest.raises(ServiceError) as error:  # rule 74f: time or four rounds, whichever first
        entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    assert error.value.code == "too_many_hands"


def test_the_fan_includes_flowers_and_a_claim_may_be_lower_but_never_higher(table, referee):
    # Line 4012: 8 fan points + two flowers = 10; the discarder pays 18, the others 8 (rule 67).
    saved = entry.record_hand(
        table, HandEntry(winner="E", discarder="S", fan=10, tiles=BOOK_EXAMPLE), acting_user=referee
    )
    assert queries.event_rules(table.round.tournament).points(queries.hand_record(saved)) == {
        "E": 34,
        "S": -18,
        "W": -8,
        "N": -8,
    }
    with pytest.raises(ServiceError) as error:
        entry.record_hand(
            table, HandEntry(winner="E", discarder="S", fan=11, tiles=BOOK_EXAMPLE), acting_user=referee
        )
    assert error.value.code == "claim_above_tiles"
    lower = entry.record_hand(  # rule 65b: the winner may claim fewer points
        table, HandEntry(winner="E", discarder="S", fan=9, tiles=BOOK_EXAMPLE), acting_user=referee
    )
    assert lower.fan == 9


def test_a_claim_below_eight_on_tiles_worth_eight_or_more_is_saved_as_eight_rule_65c(table, referee):
    """Book 003 line 2304 (rule 65c): "If the winner cannot add the score but other players recognize that
    it is worth at least 8 points, the player scores only 8 points." The tiles (8 + two flowers) decide."""
    saved = entry.record_hand(
        table, HandEntry(winner="E", discarder="S", fan=5, tiles=BOOK_EXAMPLE), acting_user=referee
    )
    assert saved.fan == 8
    assert queries.event_rules(table.round.tournament).points(queries.hand_record(saved)) == {
        "E": 32,
        "S": -16,
        "W": -8,
        "N": -8,
    }
    # Without tiles nobody can recognise the hand's worth: a claim below 8 is refused (rule 24, line 2171).
    with pytest.raises(ServiceError) as error:
        entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=5), acting_user=referee)
    assert error.value.code == "below_minimum"


def test_unconfirmed_tables_export_as_confirmed_false_and_import_back(event, table, referee, organiser):
    finish(table, referee)
    doc = export_event(event)
    tables = doc["rounds"][0]["tables"]
    assert [t.get("confirmed", True) for t in tables] == [False, True]  # table 2 has nothing to confirm
    other = copy.deepcopy(doc)
    other["tournament"]["slug"] = "copy"
    imported = import_event(other)
    assert export_event(imported)["rounds"] == doc["rounds"]
    assert standings_rows(imported) == []


def test_the_standings_command_previews_provisional_results(event, table, referee):
    finish(table, referee)
    out = io.StringIO()
    call_command("standings", event.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue()) == []
    out = io.StringIO()
    call_command("standings", event.slug, "--format", "json", "--include-provisional", stdout=out)
    assert len(json.loads(out.getvalue())) == 4


def test_a_hand_posted_to_a_table_completed_meanwhile_says_plainly_it_was_not_saved(client, table, referee):
    client.force_login(referee)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    entry.set_table_finished(table, True, acting_user=referee)  # another referee, a moment earlier
    url = reverse("referee:add_hand", args=[table.round.tournament.slug, 1, 1])
    data = {"how": "self", "winner": "N", "fan": "8", "expected_number": "2"}
    response = client.post(url, data)
    assert response.status_code == 422
    assert "Not saved: This table is marked complete" in response.content.decode()
    assert table.hands.count() == 1


def test_a_penalty_paid_to_one_opponent_moves_the_points_to_that_player_alone(event, table, referee):
    # Rule 85e (line 2387): the offender pays the one opponent; the session stays zero-sum.
    offender = table.seats.get(wind="S").registration
    receiver = table.seats.get(wind="N").registration
    penalties.add_penalty(
        table, offender, 10, paid_to="player", paid_to_player=receiver, rule="MCR 85e", acting_user=referee
    )
    scores = standings_service.session_result(queries.table_with_results(table)).scores
    assert scores == {"E": 0, "S": -10, "W": 0, "N": 10}
    with pytest.raises(ServiceError) as error:
        penalties.add_penalty(
            table, offender, 5, paid_to="player", paid_to_player=offender, acting_user=referee
        )
    assert error.value.code == "bad_receiver"
    doc = export_event(event)
    penalty = doc["rounds"][0]["tables"][0]["penalties"][0]
    assert penalty["paid_to"] == receiver.code  # event-json.md: a player id at the table
    copy_doc = copy.deepcopy(doc)
    copy_doc["tournament"]["slug"] = "copy"
    assert export_event(import_event(copy_doc))["rounds"] == doc["rounds"]


def test_a_warning_under_any_rule_is_a_zero_point_entry(table, referee):
    # Rules 77a and 85b: a warning is recorded; it costs nothing.
    player = table.seats.get(wind="E").registration
    warning = penalties.add_penalty(
        table, player, 0, paid_to="each_other", rule="MCR 84f", acting_user=referee
    )
    assert warning.points == 0
    scores = standings_service.session_result(queries.table_with_results(table)).scores
    assert set(scores.values()) == {0}


def test_while_one_worker_computes_a_new_version_the_others_never_serve_the_previous_one(
    event, table, referee, organiser, monkeypatch
):
    from django.core.cache import cache

    from scoring.standings_cache import cached_standings_rows
    from tournaments import public_read

    finish(table, referee)
    confirmation.confirm_table(table, acting_user=organiser)
    before = cached_standings_rows(Tournament.objects.get(pk=event.pk))
    assert len(before) == 4
    penalties.add_penalty(
        table, table.seats.get(wind="E").registration, 5, paid_to="none", acting_user=referee
    )
    confirmation.confirm_table(table, acting_user=organiser)  # the penalty withdrew it
    fresh = Tournament.objects.get(pk=event.pk)
    monkeypatch.setattr(public_read, "WAIT_SECONDS", 0.05)
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)  # another worker is computing
    after = cached_standings_rows(fresh)  # waited for it, then computed the new version itself
    east = table.seats.get(wind="E").registration.code
    score = {row["player"]: row["score"] for row in before}
    assert {row["player"]: row["score"] for row in after} == {**score, east: score[east] - 5}
