"""Finals: a 16-player event cut to the top 4 after 3 sessions plays its final through the referee's entry
and ranks the stages by the carry-over rule set (scoring/rules/finals.py, tournaments/services/finals.py).

The qualifying stage is ranked by MCR rule 73 (seeds/003_2541481d343502a5.txt line 2321: table points,
then score) over table points of rule 71 (line 2313: 4-2-1-0); hands are paid by rule 67 (line 2306)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.interchange import import_event
from scoring.services import confirmation, entry
from scoring.services.entry import HandEntry
from scoring.standings_cache import public_standings_and_places, standings_rows
from tournaments import results
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Role, Seat, Tournament
from tournaments.release import freeze_standings, publish_session
from tournaments.seating.finals import final_groups
from tournaments.services import finals, reseating

GROUPS = [
    [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)],
    [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)],
    [(1, 6, 11, 16), (2, 5, 12, 15), (3, 8, 9, 14), (4, 7, 10, 13)],
]
QUALIFYING = [
    # (player, table points, score) after 3 sessions: rule 73 orders them so, p05 ahead of p04 on score.
    ("p01", 12, 93),
    ("p02", 10, 74),
    ("p03", 9, 51),
    ("p05", 8, 52),
    ("p04", 8, 42),
]
OTHERS = ["p04", "p06", "p09", "p07", "p08", "p10", "p13", "p11", "p14", "p12", "p15", "p16"]


def code(number: int) -> str:
    return f"p{number:02}"


def document(carry_over: str = "keep", *, unconfirmed: bool = False) -> dict[str, Any]:
    """16 players, 3 qualifying sessions reported as totals (in seat order the scores 30+t, 10, -15, -25-t
    at table t), a fourth session of 2 hands for the final."""
    rounds = []
    for number, groups in enumerate(GROUPS, start=1):
        tables = []
        for t, group in enumerate(groups, start=1):
            players = [code(n) for n in group]
            scores = dict(zip(players, [30 + t, 10, -15, -25 - t], strict=True))
            table: dict[str, Any] = {
                "number": t,
                "seats": dict(zip("ESWN", players, strict=True)),
                "totals": scores,
            }
            if unconfirmed and number == 3 and t == 2:
                table["confirmed"] = False
            tables.append(table)
        rounds.append({"number": number, "tables": tables})
    settings = {
        "sessions": 4,
        "hands_per_session": 2,
        "finals": {"size": 4, "after": 3, "carry_over": carry_over},
    }
    return {
        "format": "mahjong-event/1",
        "tournament": {"name": "Cut Open", "slug": "cut-open", "rules": "mcr", "settings": settings},
        "players": [{"id": code(n), "name": f"Player {n}", "country": "FR"} for n in range(1, 17)],
        "rounds": rounds,
    }


@pytest.fixture
def second(db):
    return get_user_model().objects.create_user("kim", password="pw-kim-123")


def play_final(event: Tournament, referee: Any, second: Any) -> None:
    """The final table's two hands through the referee's entry (winds are the starting seats): N wins 10
    fan off E (E pays 18, S and W 8: rule 67), then W wins 8 fan off E. Totals: N +26, W +24, S -16,
    E -34; table points N 4, W 2, S 1, E 0 (rule 71)."""
    table = event.rounds.get(number=4).tables.get()
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=10), acting_user=referee)
    entry.record_hand(table, HandEntry(winner="W", discarder="E", fan=8), acting_user=referee)
    confirmation.confirm_table(table, acting_user=second)


def cut_event(organiser: Any, referee: Any, carry_over: str = "keep") -> Tournament:
    event = import_event(document(carry_over))
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    EventRole.objects.create(tournament=event, user=referee, role=Role.REFEREE)
    return event


@pytest.mark.django_db
def test_the_cut_takes_the_top_four_and_seats_them_by_rank(organiser, referee):
    event = cut_event(organiser, referee)
    assert [(r["player"], r["table_points"], r["score"]) for r in standings_rows(event)[:5]] == QUALIFYING
    assert finals.make_cut(event, acting_user=organiser) == ["p01", "p02", "p03", "p05"]
    seats = {
        s.wind: s.registration.code for s in Seat.objects.filter(round__number=4, round__tournament=event)
    }
    assert seats == {"E": "p01", "S": "p02", "W": "p03", "N": "p05"}
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.FINALS_CUT).exists()
    # Made once; the engine may not re-seat the final session.
    with pytest.raises(ServiceError) as made:
        finals.make_cut(event, acting_user=organiser)
    assert made.value.code == "made"
    with pytest.raises(ServiceError) as engine:
        reseating.generate_seating(event.rounds.get(number=4), acting_user=organiser)
    assert engine.value.code == "final_session"


def test_the_snake_seats_eight_and_sixteen_by_rank():
    assert final_groups([str(n) for n in range(1, 9)]) == [["1", "4", "5", "8"], ["2", "3", "6", "7"]]
    assert final_groups([str(n) for n in range(1, 17)]) == [
        ["1", "8", "9", "16"],
        ["2", "7", "10", "15"],
        ["3", "6", "11", "14"],
        ["4", "5", "12", "13"],
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("carry_over", "expected"),
    [
        # keep: p01 12/59, p02 11/58, p03 11/75, p05 12/78
        ("keep", [("p05", 1, 12, 78), ("p01", 2, 12, 59), ("p03", 3, 11, 75), ("p02", 4, 11, 58)]),
        # half: p01 6+0 / 46-34, p02 5+1 / 37-16, p03 4.5+2 / 25+24, p05 4+4 / 26+26 (halves toward zero)
        ("half", [("p05", 1, 8, 52), ("p03", 2, 6.5, 49), ("p02", 3, 6, 21), ("p01", 4, 6, 12)]),
        # zero: the final alone
        ("zero", [("p05", 1, 4, 26), ("p03", 2, 2, 24), ("p02", 3, 1, -16), ("p01", 4, 0, -34)]),
    ],
)
def test_a_final_ranks_the_stages_by_the_carry_over(organiser, referee, second, carry_over, expected):
    event = cut_event(organiser, referee, carry_over)
    finals.make_cut(event, acting_user=organiser)
    play_final(event, referee, second)
    rows = standings_rows(event)
    assert [(r["player"], r["rank"], r["table_points"], r["score"]) for r in rows[:4]] == expected
    # Everyone else follows in their qualifying order, ranked from 5.
    assert [r["player"] for r in rows[4:]] == OTHERS
    assert [r["rank"] for r in rows[4:]] == list(range(5, 17))
    # A finalist's row lists every session played; the spec's JSON keys are kept.
    assert [s["round"] for s in rows[0]["sessions"]] == [1, 2, 3, 4]
    assert all(set(row) <= {"rank", "player", "name", "table_points", "score", "sessions"} for row in rows)
    # The player pages' "place after session 4" is the final's place.
    places = public_standings_and_places(event)[1]
    assert [places[player][4] for player, rank, _, score in expected] == [
        (rank, score) for _, rank, _, score in expected
    ]
    assert places["p05"][3] == (4, 52)


@pytest.mark.django_db
def test_the_cut_is_refused_before_the_qualifying_results_are_confirmed_and_published(organiser, referee):
    event = cut_event(organiser, referee)
    publish_session(event.rounds.get(number=3), "results", False, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        finals.make_cut(event, acting_user=organiser)
    assert refused.value.code == "not_published"
    assert "session 3 are not published" in refused.value.message
    unconfirmed = import_event(document(unconfirmed=True), replace=True)
    with pytest.raises(ServiceError) as not_confirmed:
        finals.make_cut(unconfirmed, acting_user=organiser)
    assert not_confirmed.value.code == "not_confirmed"
    assert not Seat.objects.filter(round__tournament=unconfirmed, round__number=4).exists()


@pytest.mark.django_db
def test_the_cut_is_refused_when_a_tie_straddles_it_and_reads_past_a_freeze(organiser, referee, monkeypatch):
    event = cut_event(organiser, referee)
    freeze_standings(event, 2, acting_user=organiser)
    source = results.source()
    assert source.qualifying_order(event, 3)[:5] == [
        ("p01", 1),
        ("p02", 2),
        ("p03", 3),
        ("p05", 4),
        ("p04", 5),
    ]
    tied = [("p01", 1), ("p02", 2), ("p03", 3), ("p05", 4), ("p04", 4)]
    monkeypatch.setattr(type(source), "qualifying_order", lambda self, tournament, after: tied)
    with pytest.raises(ServiceError) as refused:
        finals.make_cut(event, acting_user=organiser)
    assert refused.value.code == "tied_at_cut"
    assert "p05 and p04 share place 4" in refused.value.message


@pytest.mark.django_db
def test_the_cut_is_undone_until_a_final_hand_is_entered(organiser, referee):
    event = cut_event(organiser, referee)
    finals.make_cut(event, acting_user=organiser)
    finals.undo_cut(event, acting_user=organiser)
    assert not Seat.objects.filter(round__tournament=event, round__number=4).exists()
    assert [r["player"] for r in standings_rows(event)[:4]] == ["p01", "p02", "p03", "p05"]
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.FINALS_UNDONE).exists()
    finals.make_cut(event, acting_user=organiser)
    table = event.rounds.get(number=4).tables.get()
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=10), acting_user=referee)
    with pytest.raises(ServiceError) as begun:
        finals.undo_cut(event, acting_user=organiser)
    assert begun.value.code == "final_begun"


@pytest.mark.django_db
def test_the_organiser_sets_the_finals_and_makes_the_cut_on_their_pages(client, organiser, referee):
    doc = document()
    del doc["tournament"]["settings"]["finals"]
    event = import_event(doc)
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    assert (
        "This event has no finals" in client.get(reverse("manage:finals", args=[event.slug])).content.decode()
    )
    url = reverse("manage:save_settings", args=[event.slug, "finals"])
    fields = {
        "finals-finals__size": "4",
        "finals-finals__after": "3",
        "finals-finals__carry_over": "half",
        "finals-finals__seating": "fixed",
    }
    assert client.post(url, fields).status_code == 302
    event.refresh_from_db()
    assert event.settings["finals"] == {"size": 4, "after": 3, "carry_over": "half", "seating": "fixed"}
    publish_session(event.rounds.get(number=3), "results", False, acting_user=organiser)
    refused = client.post(reverse("manage:finals_cut", args=[event.slug]), follow=True).content.decode()
    assert "The results of session 3 are not published yet; publish them first." in refused
    assert not Seat.objects.filter(round__tournament=event, round__number=4).exists()
    publish_session(event.rounds.get(number=3), "results", True, acting_user=organiser)
    page = client.get(reverse("manage:finals", args=[event.slug])).content.decode()
    assert "Make the cut" in page and "Player 5" in page  # p05 would go through
    made = client.post(reverse("manage:finals_cut", args=[event.slug]), follow=True).content.decode()
    assert "4 players go through to the final" in made and "Undo the cut" in made
    assert Seat.objects.filter(round__tournament=event, round__number=4).count() == 4
    # Saving the finals settings again keeps the cut: unchanged they save, changed they are refused.
    assert client.post(url, fields).status_code == 302
    changed = client.post(url, {**fields, "finals-finals__carry_over": "zero"}).content.decode()
    assert "the finals settings can no longer change" in changed
    event.refresh_from_db()
    assert event.settings["finals"]["carry_over"] == "half"
    assert event.settings["finals"]["made"] == {"after": 3, "finalists": ["p01", "p02", "p03", "p05"]}
    client.post(reverse("manage:finals_undo", args=[event.slug]), follow=True)
    assert not Seat.objects.filter(round__tournament=event, round__number=4).exists()


@pytest.mark.django_db
def test_public_pages_show_the_stage(client, organiser, referee, second):
    event = cut_event(organiser, referee)
    finals.make_cut(event, acting_user=organiser)
    play_final(event, referee, second)
    stage = '<span class="stage">· %s</span>'
    for name, args in [
        ("public:event", [event.slug]),
        ("public:results", [event.slug, 4]),
        ("public:projector", [event.slug]),
    ]:
        assert stage % "Final" in client.get(reverse(name, args=args)).content.decode(), name
    assert (
        stage % "Qualifying" in client.get(reverse("public:results", args=[event.slug, 2])).content.decode()
    )
    event_page = client.get(reverse("public:event", args=[event.slug])).content.decode()
    assert event_page.count(stage % "Qualifying") == 3
    standings = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Final: the 4 finalists first" in standings


@pytest.mark.django_db
def test_before_the_cut_the_standings_say_qualifying(client, organiser, referee):
    event = cut_event(organiser, referee)
    standings = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Qualifying: after session 3 the top 4 go through to the final." in standings


@pytest.mark.django_db
def test_the_api_says_each_sessions_stage_as_the_pages(client, organiser, referee, second):
    event = cut_event(organiser, referee)
    finals.make_cut(event, acting_user=organiser)
    play_final(event, referee, second)
    sessions = client.get(f"/api/v1/events/{event.slug}/sessions/").json()
    assert [s["stage"] for s in sessions] == ["qualifying"] * 3 + ["final"]
    detail = client.get(f"/api/v1/events/{event.slug}/").json()
    assert detail["sessions"][-1]["stage"] == "final"
