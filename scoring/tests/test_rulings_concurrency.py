"""Eight people pressing at once: rulings, lateness and appeal decisions are recorded once, and
escalation counts (MCR rules 79, 80, 83: a warning, then 5, 10, 20 ...) are read under the table's lock.
Runs on whatever database the suite uses; CI reruns it on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from scoring.models import Appeal, AppealDecision, LateArrival, Penalty
from scoring.services import appeals, penalties, rulings
from tests.threads import THREADS, at_once
from tournaments.models import Role, Table
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating


def make_table() -> tuple[Table, Any, Any]:
    organiser = get_user_model().objects.create_user("olga-race", password="pw-olga-123")
    chief = get_user_model().objects.create_user("chief-race", password="pw-chief-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Race Rulings", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, chief, Role.CHIEF_REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for n in range(4):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=f"P{n}"), acting_user=organiser
        )
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return tournament.rounds.get(number=1).tables.get(), organiser, chief


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eight_referees_posting_the_same_ruling_record_it_once():
    table, organiser, _ = make_table()
    player = table.seats.get(wind="E").registration
    done, refused = at_once(
        lambda i: rulings.add_ruling(table, player, "late_pung", expected_position=0, acting_user=organiser)
    )
    assert len(done) == 1 and refused == Counter({"already_recorded": THREADS - 1})
    assert Penalty.objects.count() == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eight_escalating_penalties_at_once_each_get_their_own_step():
    # MCR rule 79 (line 2360): a warning first, then 5, 10, 20 and doubling for each repeat occurrence.
    table, organiser, _ = make_table()
    player = table.seats.get(wind="S").registration
    done, refused = at_once(lambda i: rulings.add_ruling(table, player, "empty_call", acting_user=organiser))
    assert not refused
    assert sorted(p.points for p in done) == [0, 5, 10, 20, 40, 80, 160, 320]
    assert sorted(Penalty.objects.values_list("position", flat=True)) == list(range(THREADS))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eight_posts_of_the_same_lateness_make_one_version():
    table, organiser, _ = make_table()
    player = table.seats.get(wind="W").registration
    done, refused = at_once(lambda i: penalties.record_late(table, player, 12, acting_user=organiser))
    assert not refused
    assert LateArrival.objects.count() == 1
    assert {late.pk for late in done} == {LateArrival.objects.get().pk}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eight_filings_and_eight_decisions_of_one_appeal_make_one_appeal_and_one_decision():
    table, organiser, chief = make_table()
    player = table.seats.get(wind="N").registration
    referee = get_user_model().objects.create_user("ref-race", password="pw-ref-1234")
    penalty = penalties.add_penalty(
        table, player, 10, paid_to="each_other", rule="MCR 84a", acting_user=referee
    )
    filed, refused = at_once(
        lambda i: appeals.file_appeal(
            penalty, statement="I was ready", signed_by="P3", fee_received=True, acting_user=organiser
        )
    )
    assert not refused and Appeal.objects.count() == 1
    appeal = Appeal.objects.get()
    assert {a.pk for a in filed} == {appeal.pk}
    deciders = [chief, organiser]
    decided, refused = at_once(
        lambda i: appeals.decide_appeal(appeal, "denied", reasons="Not ready", acting_user=deciders[i % 2])
    )
    assert not refused
    assert AppealDecision.objects.count() == 1
    assert {d.pk for d in decided} == {AppealDecision.objects.get().pk}
    # Eight different decisions at once: the first stands, the others are told it was decided.
    other = appeals.file_appeal(
        rulings.add_ruling(table, player, "late_pung", acting_user=referee),
        statement="On time",
        signed_by="P3",
        fee_received=True,
        acting_user=organiser,
    )
    statuses = ["upheld", "denied"]
    decided, refused = at_once(
        lambda i: appeals.decide_appeal(other, statuses[i % 2], reasons=f"Reason {i}", acting_user=chief)
    )
    assert AppealDecision.objects.filter(appeal=other).count() == 1
    winner = AppealDecision.objects.get(appeal=other).status
    assert len(decided) == THREADS // 2 and all(d.status == winner for d in decided)
    assert refused == Counter({"already_decided": THREADS // 2})
