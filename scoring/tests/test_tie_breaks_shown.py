"""A tie decided by a tie-break says so on the standings page (public and the organiser's preview) and in the
standings PDF; the standings JSON keeps the keys of shared/specs/event-json.md ("Standings"); the draw of
lots is made once, recorded and audited (scoring/rules/tie_breaks.py, tournaments/services/tie_lots.py)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from scoring.exports import StandingsPDF
from scoring.interchange import import_event
from scoring.standings_cache import standings_rows
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Role
from tournaments.services import events as event_services
from tournaments.services import tie_lots

PLAYERS = "ABPQRSTU"


def table(number: int, scores: dict[str, int]) -> dict[str, object]:
    return {
        "number": number,
        "seats": dict(zip("ESWN", scores, strict=True)),
        "totals": scores,
    }


def document(**settings: object) -> dict[str, object]:
    """A and B meet in session 1 (A first, B second) and sit apart in session 2 (B first, A second): both
    end on 6 table points (MCR rule 71) and a score of 40, so rule 73 leaves them equal."""
    return {
        "format": "mahjong-event/1",
        "tournament": {"name": "Tie Open", "slug": "tie-open", "rules": "mcr", "settings": settings},
        "players": [{"id": code, "name": f"Player {code}", "country": "FR"} for code in PLAYERS],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    table(1, {"A": 30, "B": 10, "P": -15, "Q": -25}),
                    table(2, {"R": 5, "S": 0, "T": -2, "U": -3}),
                ],
            },
            {
                "number": 2,
                "tables": [
                    table(1, {"B": 30, "P": 5, "R": -10, "S": -25}),
                    table(2, {"Q": 20, "A": 10, "T": -10, "U": -20}),
                ],
            },
        ],
    }


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


@pytest.mark.django_db
def test_a_tie_decided_by_head_to_head_says_so_on_the_page_and_in_the_pdf(client, organiser):
    event = import_event(document(tie_break_order=["head_to_head"]))
    page = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "ahead on head-to-head" in page and "behind on head-to-head" in page
    text = pdf_text(StandingsPDF(event).render()[2])
    assert "ahead on head-to-head" in text and "behind on head-to-head" in text
    rows = standings_rows(event)
    assert [(row["player"], row["rank"]) for row in rows[:2]] == [("A", 1), ("B", 2)]
    # The spec's JSON rows keep their keys.
    assert all(set(row) <= {"rank", "player", "name", "table_points", "score", "sessions"} for row in rows)
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    preview = client.get(reverse("public:standings", args=[event.slug]) + "?provisional=1").content.decode()
    assert "ahead on head-to-head" in preview


@pytest.mark.django_db
def test_by_default_mcr_players_equal_on_rule_73_share_and_the_json_is_unchanged(capsys):
    event = import_event(document())
    rows = standings_rows(event)
    assert [(row["player"], row["rank"]) for row in rows[:2]] == [("A", 1), ("B", 1)]
    call_command("standings", event.slug, "--format", "json")
    printed = json.loads(capsys.readouterr().out)
    assert printed == rows and "above_by" not in json.dumps(printed)
    assert "shared" in pdf_text(StandingsPDF(event).render()[2])


@pytest.mark.django_db
def test_an_unknown_tie_break_is_refused_at_the_door(organiser):
    event = import_event(document())
    with pytest.raises(ServiceError):
        event_services.update_settings(event, {"tie_break_order": ["coin"]}, acting_user=organiser)
    event_services.update_settings(event, {"tie_break_order": ["lots"]}, acting_user=organiser)
    event.refresh_from_db()
    assert event.rule_set.tie_break_order == ("lots",)


@pytest.mark.django_db
def test_the_draw_of_lots_is_made_once_recorded_and_audited(client, organiser):
    event = import_event(document(tie_break_order=["lots"]))
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    order = tie_lots.draw_lots(event, acting_user=organiser, shuffle=lambda codes: codes.sort(reverse=True))
    assert order == sorted(PLAYERS, reverse=True)
    event.refresh_from_db()
    assert tie_lots.drawn_lots(event) == order
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.DRAW_LOTS).count() == 1
    rows = standings_rows(event)
    assert [(row["player"], row["rank"]) for row in rows[:2]] == [("B", 1), ("A", 2)]  # B drawn before A
    with pytest.raises(ServiceError):
        tie_lots.draw_lots(event, acting_user=organiser)
    client.force_login(organiser)
    response = client.post(reverse("manage:draw_lots", args=[event.slug]), follow=True)
    assert "never redrawn" in response.content.decode()
    event.refresh_from_db()
    assert tie_lots.drawn_lots(event) == order
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.DRAW_LOTS).count() == 1


@pytest.mark.django_db
def test_the_organiser_orders_the_tie_breaks_on_the_settings_page(client, organiser):
    event = import_event(document())
    EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    url = reverse("manage:save_settings", args=[event.slug, "ties-in-the-standings"])
    field = "ties-in-the-standings-tie_break_order"
    assert client.post(url, {field: "head_to_head, lots"}).status_code == 302
    event.refresh_from_db()
    assert event.settings["tie_break_order"] == ["head_to_head", "lots"]
    page = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    assert 'value="head_to_head, lots"' in page and "Draw lots now" in page
    refused = client.post(url, {field: "coin"})
    assert refused.status_code == 422 and "at most once" in refused.content.decode()
    assert client.post(url, {field: ""}).status_code == 302  # empty: rule 73, then shared
    event.refresh_from_db()
    assert "tie_break_order" not in event.settings


@pytest.mark.django_db
def test_the_csv_and_xlsx_downloads_carry_the_tie_break_reason():
    from openpyxl import load_workbook

    from scoring.exports import StandingsCSV, StandingsXLSX

    event = import_event(document(tie_break_order=["head_to_head"]))
    lines = list(csv.reader(io.StringIO(StandingsCSV(event).render()[2].decode())))
    assert lines[0][-1] == "Tie-break"
    by_player = {line[1]: line[-1] for line in lines[1:]}
    assert by_player["A"] == "ahead on head-to-head"
    assert by_player["B"] == "behind on head-to-head"
    assert by_player["R"] == ""  # the main ranking decided
    sheet = load_workbook(io.BytesIO(StandingsXLSX(event).render()[2]), read_only=True).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][-1] == "Tie-break"
    assert {row[1]: row[-1] for row in rows[1:]}["A"] == "ahead on head-to-head"
