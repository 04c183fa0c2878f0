"""A final of 8 over two final sessions, re-seated by the final standings after the first or kept in fixed
groups (``finals.seating``; scoring/rules/finals.py, tournaments/services/finals.py).

The final standings so far rank the finalists by MCR rule 73 (seeds/003_2541481d343502a5.txt line 2321:
table points, then score) over what they carry over plus the final sessions played; table points by rule
71 (line 2313: 4-2-1-0); hands paid by rule 67 (line 2306: the discarder pays fan + 8, the others 8)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.interchange import import_event
from scoring.services import confirmation, entry
from scoring.services.entry import HandEntry
from scoring.standings_cache import standings_rows
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Role, Seat, Tournament
from tournaments.release import publish_session
from tournaments.seating.finals import final_groups, reseeded
from tournaments.services import events, finals

GROUPS = [
    [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)],
    [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)],
    [(1, 6, 11, 16), (2, 5, 12, 15), (3, 8, 9, 14), (4, 7, 10, 13)],
]


def code(number: int) -> str:
    return f"p{number:02}"


def document(seating: str, carry_over: str) -> dict[str, Any]:
    """16 players, 3 qualifying sessions reported as totals (in seat order 30+t, 10, -15, -25-t at table
    t), then two final sessions for the top 8."""
    rounds = []
    for number, groups in enumerate(GROUPS, start=1):
        tables = []
        for t, group in enumerate(groups, start=1):
            players = [code(n) for n in group]
            tables.append(
                {
                    "number": t,
                    "seats": dict(zip("ESWN", players, strict=True)),
                    "totals": dict(zip(players, [30 + t, 10, -15, -25 - t], strict=True)),
                }
            )
        rounds.append({"number": number, "tables": tables})
    settings = {
        "sessions": 5,
        "hands_per_session": 2,
        "finals": {"size": 8, "after": 3, "carry_over": carry_over, "seating": seating},
    }
    return {
        "format": "mahjong-event/1",
        "tournament": {"name": "Final Eight", "slug": "final-eight", "rules": "mcr", "settings": settings},
        "players": [{"id": code(n), "name": f"Player {n}", "country": "FR"} for n in range(1, 17)],
        "rounds": rounds,
    }


@pytest.fixture
def second(db):
    return get_user_model().objects.create_user("kim", password="pw-kim-123")


def final_event(organiser: Any, referee: Any, seating: str, carry_over: str = "zero") -> Tournament:
    event = import_event(document(seating, carry_over))
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    EventRole.objects.create(tournament=event, user=referee, role=Role.REFEREE)
    return event


# Table 1: N wins 10 fan off E (N +34, E -18, S and W -8), W wins 8 off E (W +32, E -16, S and N -8):
# N 4/26, W 2/24, S 1/-16, E 0/-34. Table 2: N wins 12 off E (N +36, E -20, S and W -8), W wins 9 off S
# (W +33, S -17, E and N -8): N 4/28, W 2/25, S 1/-25, E 0/-28.
HANDS = {
    1: [HandEntry(winner="N", discarder="E", fan=10), HandEntry(winner="W", discarder="E", fan=8)],
    2: [HandEntry(winner="N", discarder="E", fan=12), HandEntry(winner="W", discarder="S", fan=9)],
}


def play(
    event: Tournament, number: int, referee: Any, second: Any, *, tables: tuple[int, ...] = (1, 2)
) -> None:
    """The session's tables played through the referee's entry and confirmed by a second person."""
    for table in event.rounds.get(number=number).tables.filter(number__in=tables):
        for hand in HANDS[table.number]:
            entry.record_hand(table, hand, acting_user=referee)
        confirmation.confirm_table(table, acting_user=second)


def groups_of(event: Tournament, number: int) -> list[list[str]]:
    """The session's tables as seat lists in wind order E, S, W, N."""
    seats = Seat.objects.filter(round__tournament=event, round__number=number).select_related(
        "table", "registration"
    )
    tables: dict[int, dict[str, str]] = {}
    for seat in seats:
        tables.setdefault(seat.table.number, {})[seat.wind] = seat.registration.code
    return [[tables[t][w] for w in "ESWN"] for t in sorted(tables)]


@pytest.mark.django_db
def test_the_second_final_session_is_seated_by_the_standings_after_the_first(organiser, referee, second):
    event = final_event(organiser, referee, "reseat")
    q = finals.make_cut(event, acting_user=organiser)
    # The cut seats the first final session only: 1-4-5-8 / 2-3-6-7, the best seed of each table East.
    assert groups_of(event, 4) == [[q[0], q[3], q[4], q[7]], [q[1], q[2], q[5], q[6]]]
    assert groups_of(event, 5) == []
    assert event.rounds.get(number=5).seated_at is None
    assert finals.next_final_session(event).number == 5
    play(event, 4, referee, second)
    publish_session(event.rounds.get(number=4), "results", True, acting_user=organiser)
    # Zero carried over: the standings after session 4 are session 4 (rule 73): q8 4/26 is behind q7
    # 4/28 on score, q6 2/25 ahead of q5 2/24, q4 1/-16 ahead of q3 1/-25, q2 0/-28 ahead of q1 0/-34.
    order = [q[6], q[7], q[5], q[4], q[3], q[2], q[1], q[0]]
    assert [row["player"] for row in standings_rows(event)[:8]] == order
    number, seeded = finals.seat_next_session(event, acting_user=organiser)
    assert (number, seeded) == (5, order)
    # Ranks 1-4-5-8 and 2-3-6-7 of that order; the winds turn by one (the fourth seed starts East).
    assert groups_of(event, 5) == [[q[0], q[6], q[4], q[3]], [q[1], q[7], q[5], q[2]]]
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.FINALS_RESEATED).exists()
    assert finals.next_final_session(event) is None
    with pytest.raises(ServiceError) as every:
        finals.seat_next_session(event, acting_user=organiser)
    assert every.value.code == "all_seated"


@pytest.mark.django_db
def test_with_the_carry_over_kept_the_reseat_follows_the_combined_standings(organiser, referee, second):
    event = final_event(organiser, referee, "reseat", carry_over="keep")
    finals.make_cut(event, acting_user=organiser)
    play(event, 4, referee, second)
    publish_session(event.rounds.get(number=4), "results", True, acting_user=organiser)
    combined = [row["player"] for row in standings_rows(event)[:8]]
    assert finals.seat_next_session(event, acting_user=organiser)[1] == combined
    assert sorted(map(sorted, groups_of(event, 5))) == sorted(map(sorted, final_groups(combined)))


@pytest.mark.django_db
def test_fixed_groups_keep_the_cut_seating_every_final_session(organiser, referee, second):
    event = final_event(organiser, referee, "fixed")
    q = finals.make_cut(event, acting_user=organiser)
    assert groups_of(event, 4) == [[q[0], q[3], q[4], q[7]], [q[1], q[2], q[5], q[6]]]
    # Same groups, the winds turned by one.
    assert groups_of(event, 5) == [[q[7], q[0], q[3], q[4]], [q[6], q[1], q[2], q[5]]]
    assert finals.next_final_session(event) is None
    play(event, 4, referee, second)
    publish_session(event.rounds.get(number=4), "results", True, acting_user=organiser)
    with pytest.raises(ServiceError) as fixed:
        finals.seat_next_session(event, acting_user=organiser)
    assert fixed.value.code == "fixed_groups"
    with pytest.raises(ServiceError) as undo:
        finals.undo_next_session(event, acting_user=organiser)
    assert undo.value.code == "fixed_groups"
    assert groups_of(event, 5) == [[q[7], q[0], q[3], q[4]], [q[6], q[1], q[2], q[5]]]


@pytest.mark.django_db
def test_the_next_session_waits_for_every_table_confirmed_and_published(organiser, referee, second):
    event = final_event(organiser, referee, "reseat")
    with pytest.raises(ServiceError) as no_cut:
        finals.seat_next_session(event, acting_user=organiser)
    assert no_cut.value.code == "no_cut"
    finals.make_cut(event, acting_user=organiser)
    play(event, 4, referee, second, tables=(1,))
    with pytest.raises(ServiceError) as unconfirmed:
        finals.seat_next_session(event, acting_user=organiser)
    assert unconfirmed.value.code == "not_confirmed"
    assert "Session 4 has 1 tables without a confirmed result" in unconfirmed.value.message
    play(event, 4, referee, second, tables=(2,))
    publish_session(event.rounds.get(number=4), "results", False, acting_user=organiser)
    with pytest.raises(ServiceError) as unpublished:
        finals.seat_next_session(event, acting_user=organiser)
    assert unpublished.value.code == "not_published"
    assert groups_of(event, 5) == []
    assert not AuditEntry.objects.filter(tournament=event, action=AuditAction.FINALS_RESEATED).exists()


@pytest.mark.django_db
def test_the_reseat_is_undone_until_a_hand_is_entered_at_that_session(organiser, referee, second):
    event = final_event(organiser, referee, "reseat")
    finals.make_cut(event, acting_user=organiser)
    with pytest.raises(ServiceError) as none:
        finals.undo_next_session(event, acting_user=organiser)
    assert none.value.code == "none_seated"
    play(event, 4, referee, second)
    publish_session(event.rounds.get(number=4), "results", True, acting_user=organiser)
    finals.seat_next_session(event, acting_user=organiser)
    assert finals.undo_next_session(event, acting_user=organiser) == 5
    assert groups_of(event, 5) == [] and event.rounds.get(number=5).seated_at is None
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.FINALS_RESEAT_UNDONE).exists()
    finals.seat_next_session(event, acting_user=organiser)
    table = event.rounds.get(number=5).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=8), acting_user=referee)
    with pytest.raises(ServiceError) as begun:
        finals.undo_next_session(event, acting_user=organiser)
    assert begun.value.code == "session_begun"
    assert len(groups_of(event, 5)) == 2


def test_ties_and_players_out_of_the_ranking_keep_the_qualifying_seeding():
    cut = ["a", "b", "c", "d", "e", "f", "g", "h"]
    ranked = [("h", 1), ("c", 2), ("b", 2), ("g", 4), ("f", 5), ("e", 6), ("d", 7), ("a", None)]
    assert reseeded(ranked, cut) == ["h", "b", "c", "g", "f", "e", "d", "a"]


@pytest.mark.django_db
def test_the_organiser_seats_the_next_final_session_on_the_finals_page(client, organiser, referee, second):
    event = final_event(organiser, referee, "reseat")
    client.force_login(organiser)
    finals.make_cut(event, acting_user=organiser)
    page = client.get(reverse("manage:finals", args=[event.slug])).content.decode()
    assert "Re-seated each final session by the final standings so far" in page
    assert "Seat session 5 by the final standings" in page
    refused = client.post(reverse("manage:finals_seat_next", args=[event.slug]), follow=True).content.decode()
    assert "Session 4 has 2 tables without a confirmed result" in refused
    play(event, 4, referee, second)
    publish_session(event.rounds.get(number=4), "results", True, acting_user=organiser)
    seated = client.post(reverse("manage:finals_seat_next", args=[event.slug]), follow=True).content.decode()
    assert "Session 5 is seated by the final standings so far." in seated
    assert "Undo the last final session's seating" in seated
    assert len(groups_of(event, 5)) == 2
    undone = client.post(reverse("manage:finals_undo_next", args=[event.slug]), follow=True).content.decode()
    assert "Session 5 is no longer seated." in undone
    chinese = client.get(
        reverse("manage:finals", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "按目前决赛排名安排第 5 节座位" in chinese


@pytest.mark.django_db
def test_the_finals_settings_cannot_change_after_the_cut(client, organiser, referee):
    event = final_event(organiser, referee, "reseat")
    finals.make_cut(event, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        events.update_settings(event, {"finals.seating": "fixed"}, acting_user=organiser)
    assert refused.value.code == "cut_made"
    # Saving them unchanged is no change.
    events.update_settings(event, {"finals.seating": "reseat", "finals.size": 8}, acting_user=organiser)
    client.force_login(organiser)
    url = reverse("manage:save_settings", args=[event.slug, "finals"])
    fields = {
        "finals-finals__size": "4",
        "finals-finals__after": "3",
        "finals-finals__carry_over": "zero",
        "finals-finals__seating": "reseat",
    }
    page = client.post(url, fields).content.decode()
    assert "the finals settings can no longer change (the cut keeps its own finalists)" in page
    event.refresh_from_db()
    assert event.settings["finals"]["size"] == 8
    finals.undo_cut(event, acting_user=organiser)
    assert client.post(url, fields).status_code == 302
    event.refresh_from_db()
    assert event.settings["finals"]["size"] == 4
