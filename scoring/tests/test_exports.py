"""Event exports: the standings PDF, the workbook, the EMA results file, the ``standings`` command."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.exports import (
    EVENT_PRINTS,
    STANDINGS_EXPORTS,
    EMAResultsCSV,
    EMAResultsXLSX,
    EventWorkbook,
    PrintError,
    StandingsPDF,
    ema_check,
    safe_text,
)
from scoring.exports.data import team_standings
from scoring.exports.ema import EMA_COLUMNS, ema_names, split_name
from scoring.services import confirmation, entry, penalties
from scoring.services.entry import HandEntry
from scoring.tests.jobs import fetch
from tournaments.models import Role
from tournaments.services import events as event_services


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


def workbook(content: bytes):
    return load_workbook(io.BytesIO(content))


@pytest.fixture
def finished(event, referee, organiser):
    """Session 1 of the test event played out and confirmed: four hands at each table, a penalty at
    table 1."""
    for table in event.rounds.get(number=1).tables.all():
        for winner, discarder, fan in [("E", "S", 10), ("S", None, 8), ("W", "N", 12), (None, None, None)]:
            entry.record_hand(
                table, HandEntry(winner=winner, discarder=discarder, fan=fan), acting_user=referee
            )
    table = event.rounds.get(number=1).tables.get(number=1)
    penalties.add_penalty(
        table, table.seats.get(wind="N").registration, 10, paid_to="none", rule="MCR 83", acting_user=referee
    )
    for table in event.rounds.get(number=1).tables.all():
        confirmation.confirm_table(table, acting_user=organiser)  # a second person (rule 72)
    return event


def test_the_exports_keep_their_old_names():
    assert set(STANDINGS_EXPORTS) == {"csv", "xlsx", "pdf"}
    assert safe_text("=1+1") == "'=1+1"


def test_the_standings_pdf_says_after_which_session_and_that_it_is_final(finished):
    text = pdf_text(StandingsPDF(finished).render()[2])
    assert "Standings after session 1, final, made at" in text
    assert "Country" in text and "EMA number" in text
    assert "Teams" in text and "T1" in text  # the test event's players are in teams T0-T3


def test_the_standings_are_provisional_until_every_table_of_the_session_is_confirmed(
    event, referee, organiser
):
    # The public download says only what is published and confirmed (an entry changes no public page).
    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    assert "before the first session" in pdf_text(StandingsPDF(event, paper="letter").render()[2])
    entry.set_table_finished(table, True, acting_user=referee)
    confirmation.confirm_table(table, acting_user=organiser)
    assert "after session 1, provisional" in pdf_text(StandingsPDF(event, paper="letter").render()[2])


def test_teams_are_ranked_by_their_members_sums_and_equal_teams_share_a_rank():
    rows = [
        {"player": "a", "name": "A", "table_points": 4.0, "score": 30},
        {"player": "b", "name": "B", "table_points": 0.0, "score": -30},
        {"player": "c", "name": "C", "table_points": 2.0, "score": 5},
        {"player": "d", "name": "D", "table_points": 2.0, "score": -5},
        {"player": "e", "name": "E", "table_points": 1.0, "score": 0},
    ]
    teams = team_standings(rows, {"a": "X", "b": "X", "c": "Y", "d": "Y", "e": ""}, True)
    assert [(t.rank, t.team, t.table_points, t.score) for t in teams] == [(1, "X", 4.0, 0), (1, "Y", 4.0, 0)]


def test_the_workbook_has_totals_a_sheet_per_session_every_hand_penalties_and_appeals(finished):
    name, content_type, content = EventWorkbook(finished).render()
    assert name == "test-open-results.xlsx" and "spreadsheetml" in content_type
    book = workbook(content)
    assert book.sheetnames == ["Totals", "Session 1", "Hands", "Penalties", "Lateness", "Appeals"]
    totals = book["Totals"]
    assert totals.freeze_panes == "A2"
    assert [c.value for c in totals[1]][:8] == [
        "Rank",
        "Player id",
        "Name",
        "Country",
        "EMA number",
        "Team",
        "Table points",
        "Score",
    ]
    assert isinstance(totals["H2"].value, int) and isinstance(totals["A2"].value, int)
    assert totals.column_dimensions["C"].width == 28
    assert book["Hands"].max_row == 1 + 8
    assert book["Penalties"]["E2"].value == 10


def test_text_in_the_workbook_is_never_a_formula(finished):
    player = finished.registrations.get(code="p1").player
    player.name = '=HYPERLINK("http://evil.example","x")'
    player.save()
    book = workbook(EventWorkbook(finished).render()[2])
    cells = [c for row in book["Totals"].iter_rows() for c in row if c.value == player.name]
    assert cells and all(c.data_type == "s" for c in cells)


def test_the_ema_file_has_the_mers_columns_and_a_row_per_ranked_player(finished):
    book = workbook(EMAResultsXLSX(finished).render()[2])
    sheet = book.active
    assert [c.value for c in sheet[1]] == EMA_COLUMNS
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert len(rows) == 8
    assert rows[0][0] == 1 and rows[0][1] is None  # no EMA number: left empty
    assert all(isinstance(r[5], (int, float)) and isinstance(r[6], int) for r in rows)
    check = ema_check(finished)
    assert check.ok and len(check.warnings) == 8
    assert "Ana (p1) has no EMA number" in " ".join(check.warnings)


def test_the_ema_csv_quotes_nothing_as_a_formula(finished):
    player = finished.registrations.get(code="p2").player
    player.name = "=cmd Bo"
    player.save()
    text = EMAResultsCSV(finished).render()[2].decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == EMA_COLUMNS
    assert any(r[3] == "'=cmd" for r in rows[1:])


def test_the_ema_check_refuses_results_not_yet_confirmed(event, referee):
    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    check = ema_check(event)
    provisional = [p for p in check.problems if "not yet confirmed" in p]
    assert provisional and "session 1 table 1" in provisional[0]
    with pytest.raises(PrintError) as error:
        EMAResultsXLSX(event).render()
    assert error.value.code == "ema_check_failed"
    assert provisional[0] in error.value.message


def test_an_ema_file_is_refused_for_rules_without_table_points(organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Boca Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    with pytest.raises(PrintError) as error:
        EMAResultsCSV(tournament).render()
    assert error.value.code == "no_table_points"
    assert "American (NMJL)" in error.value.message


def test_names_split_into_last_and_first():
    assert split_name("Ana Silva") == ("Silva", "Ana")
    assert split_name("de Vries, Karin") == ("de Vries", "Karin")
    assert split_name("陈波") == ("陈波", "")


def test_the_ema_names_are_the_family_and_given_names_when_given_else_the_split():
    assert ema_names("Jan de Vries", "de Vries", "Jan") == ("de Vries", "Jan")
    assert ema_names("María José García López", "García López", "María José") == (
        "García López",
        "María José",
    )
    assert ema_names("陈波", "陈", "波") == ("陈", "波")
    assert ema_names("Jan de Vries") == ("Vries", "Jan de")  # today's split for a player without them
    assert ema_names("Jan de Vries", "", "Jan") == ("Vries", "Jan de")


def test_the_ema_file_uses_the_family_and_given_names_and_falls_back_to_the_split(finished):
    for code, name, family, given in [
        ("p1", "Jan de Vries", "de Vries", "Jan"),
        ("p2", "陈波", "陈", "波"),
        ("p3", "Karin van Dijk", "", ""),
    ]:
        player = finished.registrations.get(code=code).player
        player.name, player.family_name, player.given_name = name, family, given
        player.save()
    rows = list(csv.reader(io.StringIO(EMAResultsCSV(finished).render()[2].decode())))
    names = {(row[2], row[3]) for row in rows[1:]}
    assert {("de Vries", "Jan"), ("陈", "波"), ("Dijk", "Karin van")} <= names
    sheet = workbook(EMAResultsXLSX(finished).render()[2]).active
    assert ("de Vries", "Jan") in {(r[2], r[3]) for r in sheet.iter_rows(min_row=2, values_only=True)}


# --- the command and the pages -------------------------------------------------------------------


def test_the_command_writes_the_ema_file_and_names_the_players_without_a_number(finished, tmp_path, capsys):
    out = tmp_path / "ema.xlsx"
    call_command("standings", finished.slug, "--format", "ema", "-o", str(out))
    assert [c.value for c in workbook(out.read_bytes()).active[1]] == EMA_COLUMNS
    assert "Ana (p1) has no EMA number" in capsys.readouterr().err
    call_command("standings", finished.slug, "--format", "ema-csv", "-o", str(tmp_path / "ema.csv"))
    assert (tmp_path / "ema.csv").read_text().startswith("Place,EMA number")


def test_the_command_refuses_with_the_reason_and_writes_nothing(organiser, tmp_path):
    event_services.create_tournament(
        event_services.EventDetails(name="Boca Open", slug="boca", rules="nmjl", num_sessions=1),
        acting_user=organiser,
    )
    out = tmp_path / "ema.xlsx"
    with pytest.raises(CommandError, match="needs table points"):
        call_command("standings", "boca", "--format", "ema", "-o", str(out))
    assert not out.exists()


def test_the_command_writes_the_register_and_the_workbook(finished, tmp_path):
    call_command(
        "standings", finished.slug, "--format", "register", "--paper", "letter", "-o", str(tmp_path / "r.pdf")
    )
    assert "MCR 83" in pdf_text((tmp_path / "r.pdf").read_bytes())
    call_command("standings", finished.slug, "--format", "workbook", "-o", str(tmp_path / "w.xlsx"))
    assert "Hands" in workbook((tmp_path / "w.xlsx").read_bytes()).sheetnames


def test_each_event_print_downloads_from_the_print_page(client, finished, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:event_prints", args=[finished.slug]))
    assert page.status_code == 200
    for kind in EVENT_PRINTS:
        url = reverse("manage:event_print", args=[finished.slug, kind])
        assert url in page.content.decode()
        response = fetch(client, url)
        assert response.status_code == 200, kind
        assert response.content[:4] in (b"%PDF", b"PK\x03\x04", b"Plac"), kind


def test_an_ema_export_of_an_event_that_is_not_mcr_answers_409(client, organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Boca Open", slug="boca", rules="nmjl", num_sessions=1),
        acting_user=organiser,
    )
    client.force_login(organiser)
    response = client.get(reverse("manage:event_print", args=[tournament.slug, "ema"]))
    assert response.status_code == 409
    assert "needs table points" in response.content.decode()
    page = client.get(reverse("manage:event_prints", args=[tournament.slug])).content.decode()
    assert "has none" in page


def test_the_demo_events_ema_file_checks_out(demo_event, organiser):
    event_services.grant_role(demo_event, organiser, Role.ORGANISER, acting_user=None)
    check = ema_check(demo_event)
    assert check.ok, check.problems
    rows = workbook(EMAResultsXLSX(demo_event).render()[2]).active
    assert rows.max_row == 1 + 16


def _header_positions(content: bytes, texts: list[str]) -> dict[str, float]:
    """Where each of ``texts`` starts on the first page (pypdf's text matrix, in points)."""
    found: dict[str, float] = {}

    def visit(text, cm, tm, font, size):
        if text.strip() in texts and text.strip() not in found:
            found[text.strip()] = tm[4] * cm[0] + cm[4]

    PdfReader(io.BytesIO(content)).pages[0].extract_text(visitor_text=visit)
    return found


def test_the_standings_pdf_gives_the_name_the_room_and_each_session_a_narrow_column(finished):
    export = StandingsPDF(finished)
    export.rounds = [1, 2, 3, 4]  # four sessions in the table (only the first has results)
    widths = export.column_widths(774)
    assert widths[-4:] == [StandingsPDF.SESSION_WIDTH] * 4 and StandingsPDF.SESSION_WIDTH <= 50
    assert widths[1] > 300 and sum(widths) == pytest.approx(774)  # the name takes what is left
    content = export.render()[2]
    heads = _header_positions(content, ["Name", "S1 TP", "S2 TP", "S3 TP", "S4 TP"])
    gaps = [heads[f"S{n + 1} TP"] - heads[f"S{n} TP"] for n in (1, 2, 3)]
    assert all(gap == pytest.approx(StandingsPDF.SESSION_WIDTH, abs=1) for gap in gaps)  # right-aligned heads
    assert heads["S1 TP"] - heads["Name"] > 300  # the room is the name's
    # one session: still narrow, not half the page (a 500-point session column must fit)
    export.rounds = [1]
    assert export.column_widths(774)[-1] <= 50


def test_many_sessions_share_what_the_name_leaves_and_the_name_keeps_its_least_width(finished):
    export = StandingsPDF(finished)
    export.rounds = list(range(1, 21))
    widths = export.column_widths(774)
    assert widths[1] == StandingsPDF.NAME_WIDTH and sum(widths) == pytest.approx(774)
    assert widths[-1] < StandingsPDF.SESSION_WIDTH
