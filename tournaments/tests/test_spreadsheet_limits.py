"""An uploaded XLSX is checked before it is opened (a small file unpacking to gigabytes is refused
with the limit, before openpyxl reads a byte), through the player import and the seating upload alike."""

from __future__ import annotations

import html
import io
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments import spreadsheets
from tournaments.errors import ServiceError
from tournaments.models import Registration, Table


def _workbook_with_shared_strings(unpacked: int) -> bytes:
    """A real workbook (header and one row) whose xl/sharedStrings.xml holds one string of ``unpacked``
    characters: deflate packs it into a few kilobytes."""
    workbook = openpyxl.Workbook()
    workbook.active.append(["session", "table", "E", "S", "W", "N"])
    workbook.active.append([2, 1, "p1", "p2", "p3", "p4"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename != "xl/sharedStrings.xml":
                target.writestr(item, source.read(item.filename))
        target.writestr(
            "xl/sharedStrings.xml",
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
            b"<si><t>" + b"x" * unpacked + b"</t></si></sst>",
        )
    return out.getvalue()


@pytest.fixture
def openpyxl_never_opens(monkeypatch):
    """The refusal comes before openpyxl: reaching ``load_workbook`` fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl.load_workbook was reached")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


def _post_players(client, event, content: bytes, name: str = "players.xlsx") -> str:
    url = reverse("manage:import_players", args=[event.slug])
    response = client.post(url, {"file": SimpleUploadedFile(name, content)})
    assert response.status_code in (200, 422)  # the form again, with the message; never a 500
    return html.unescape(response.content.decode())


def _post_seating(client, event, content: bytes, name: str = "seating.xlsx") -> str:
    url = reverse("manage:upload_seating", args=[event.slug])
    response = client.post(url, {"action": "check", "file": SimpleUploadedFile(name, content)})
    assert response.status_code in (200, 422)  # the form again, with the message; never a 500
    return html.unescape(response.content.decode())


def test_a_workbook_unpacking_past_the_total_limit_is_refused_by_both_forms(
    client, event, organiser, openpyxl_never_opens
):
    content = _workbook_with_shared_strings(30_000_000)
    assert len(content) < 100_000
    client.force_login(organiser)
    players, tables = Registration.objects.count(), Table.objects.count()
    for page in (_post_players(client, event, content), _post_seating(client, event, content)):
        assert "The spreadsheet unpacks to 30 MB, more than the 20 MB this site reads." in page
    assert Registration.objects.count() == players  # nothing imported
    assert Table.objects.count() == tables  # nothing seated


def test_one_part_past_its_limit_is_refused_with_its_name(client, event, organiser, openpyxl_never_opens):
    content = _workbook_with_shared_strings(15_000_000)
    client.force_login(organiser)
    players, tables = Registration.objects.count(), Table.objects.count()
    for page in (_post_players(client, event, content), _post_seating(client, event, content)):
        assert (
            "A part of the spreadsheet (xl/sharedStrings.xml) unpacks to 15 MB, more than the 10 MB "
            "this site reads for one part." in page
        )
    assert Registration.objects.count() == players
    assert Table.objects.count() == tables


def test_a_file_that_is_not_a_zip_archive_is_refused_plainly(client, event, organiser, openpyxl_never_opens):
    client.force_login(organiser)
    for page in (
        _post_players(client, event, b"name\nAna\n"),
        _post_seating(client, event, b"session,table\n"),
    ):
        assert "This is not an XLSX workbook (an .xlsx file is a zip archive)." in page


def test_an_archive_of_too_many_parts_is_refused(openpyxl_never_opens):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for number in range(spreadsheets.MAX_PARTS + 1):
            target.writestr(f"part{number}.xml", b"")
    with pytest.raises(ServiceError) as error:
        spreadsheets.open_workbook(out.getvalue())
    assert error.value.code == "too_large"
    assert "more than the 1,000 this site reads" in error.value.message


def test_a_workbook_within_the_limits_still_opens(event, organiser):
    rows = spreadsheets.read_rows(_workbook_with_shared_strings(1000), "seating.xlsx", what="tables")
    assert rows[0][:6] == ["session", "table", "E", "S", "W", "N"]
