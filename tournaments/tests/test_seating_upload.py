"""A prepared seating uploaded as CSV or XLSX, checked before anything is stored."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from scoring.services.entry import HandEntry, record_hand
from tournaments.errors import ServiceError
from tournaments.models import Seat
from tournaments.services import seating_upload


def codes(event) -> dict[str, str]:
    return {r.player.name: r.code for r in event.registrations.select_related("player")}


def good_csv(event) -> str:
    c = codes(event)
    return (
        "session,table,E,S,W,N\n"
        f"2,1,{c['Ana']},{c['Cy']},{c['Ed']},{c['Gus']}\n"
        f"2,2,bo,DI,Flö,{c['Hu']}\n"  # names compared without case or accents ("Flo")
    )


@pytest.mark.django_db
def test_a_good_file_is_checked_with_its_quality_then_stored(event, organiser):
    report = seating_upload.check_upload(event, good_csv(event).encode(), "seating.csv")
    assert report.problems == []
    assert list(report.rounds) == [2]
    assert report.quality is not None and report.quality.rounds == 2
    assert not Seat.objects.filter(round__number=2).exists()  # checking stores nothing
    again = seating_upload.from_token(event, report.token())
    seating_upload.store_upload(event, again, acting_user=organiser)
    seats = {
        (s.table.number, s.wind): s.registration.player.name for s in Seat.objects.filter(round__number=2)
    }
    assert seats[1, "E"] == "Ana" and seats[2, "W"] == "Flo"
    assert len(seats) == 8


@pytest.mark.django_db
def test_every_problem_is_reported_with_its_row_and_nothing_is_stored(event, organiser):
    record_hand(
        event.rounds.get(number=1).tables.get(number=1), HandEntry(winner=None), acting_user=organiser
    )
    c = codes(event)
    text = (
        "Session;Table;East;South;West;North\n"
        f"2;1;{c['Ana']};{c['Bo']};Nobody;{c['Di']}\n"
        f"2;2;{c['Ana']};{c['Ed']};{c['Flo']};\n"
        f"2;1;{c['Gus']};{c['Hu']};{c['Cy']};{c['Ed']}\n"
        f"1;3;{c['Gus']};{c['Hu']};{c['Cy']};{c['Ed']}\n"
        f"7;1;{c['Gus']};{c['Hu']};{c['Cy']};{c['Ed']}\n"
    )
    report = seating_upload.check_upload(event, text.encode(), "seating.csv")
    problems = "\n".join(report.problems)
    assert "Row 2: W: 'Nobody' is not a player of this event." in problems
    assert "Row 3: the table has 3 players, not 4 (empty: N)." in problems
    assert "Row 3: E: Ana is already seated in session 2 (row 2)." in problems
    assert "Row 4: table 1 of session 2 is also on row 2." in problems
    assert "Row 5: session 1 already has hands; its seating is kept." in problems
    assert "Row 6: session '7' is not a session of this event." in problems
    assert not report.ok
    with pytest.raises(ServiceError):
        seating_upload.store_upload(event, report, acting_user=organiser)
    assert not Seat.objects.filter(round__number=2).exists()


@pytest.mark.django_db
def test_an_xlsx_file_claiming_a_million_rows_is_read_by_its_real_rows(event):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for line in good_csv(event).splitlines():
        sheet.append([int(cell) if cell.isdigit() else cell for cell in line.split(",")])
    buffer = io.BytesIO()
    workbook.save(buffer)
    report = seating_upload.check_upload(event, buffer.getvalue(), "seating.xlsx")
    assert report.ok, report.problems


@pytest.mark.django_db
def test_a_hand_entered_after_the_check_stops_the_store(event, organiser):
    text = good_csv(event).replace("2,", "1,", 2).replace("\n1,", "\n1,")
    report = seating_upload.check_upload(event, text.encode(), "seating.csv")
    assert report.ok, report.problems
    record_hand(
        event.rounds.get(number=1).tables.get(number=1), HandEntry(winner=None), acting_user=organiser
    )
    before = sorted(Seat.objects.filter(round__number=1).values_list("registration__code", flat=True))
    with pytest.raises(ServiceError) as refused:
        seating_upload.store_upload(event, report, acting_user=organiser)
    assert refused.value.code == "round_has_results"
    assert sorted(Seat.objects.filter(round__number=1).values_list("registration__code", flat=True)) == before


@pytest.mark.django_db
def test_the_upload_page_shows_the_problems_or_the_preview(client, event, organiser):
    client.force_login(organiser)
    url = reverse("manage:upload_seating", args=[event.slug])
    bad = io.BytesIO(b"session,table,E,S,W,N\n2,1,a,b,c,d\n")
    bad.name = "bad.csv"
    page = client.post(url, {"file": bad}).content.decode()
    assert "nothing was stored" in page and "Row 2:" in page
    good = io.BytesIO(good_csv(event).encode())
    good.name = "good.csv"
    page = client.post(url, {"file": good}).content.decode()
    assert "The file is fine" in page
    token = page.split('name="plan" value="')[1].split('"')[0]
    assert client.post(url, {"action": "store", "plan": token}).status_code == 302
    assert Seat.objects.filter(round__number=2).count() == 8
