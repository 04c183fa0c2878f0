"""Bad input at the registration desk is a clear refusal, never a 500 or a full memory."""

from __future__ import annotations

import io
import re
import zipfile

import openpyxl
import pytest
from django.urls import reverse

from tournaments.errors import ServiceError
from tournaments.services import registrations


def _xlsx_claiming_a_million_rows() -> bytes:
    """A tiny workbook whose sheet says its dimension is A1:XFD1048576 (read-only mode trusts it)."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["name", "country"])
    sheet.append(["Zoe Lima", "PT"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', data)
            target.writestr(item, data)
    return out.getvalue()


def test_a_workbook_that_claims_a_million_rows_imports_its_real_rows(event, organiser):
    content = _xlsx_claiming_a_million_rows()
    assert len(content) < 10_000
    report = registrations.import_players(event, content, "bomb.xlsx", acting_user=organiser)
    assert [r.player.name for r in report.created] == ["Zoe Lima"]


def test_a_file_with_too_many_rows_is_refused_with_the_limit(event, organiser):
    content = ("name\n" + "".join(f"Player {i}\n" for i in range(6000))).encode()
    with pytest.raises(ServiceError) as error:
        registrations.import_players(event, content, "big.csv", acting_user=organiser)
    assert error.value.code == "too_many_rows"
    assert "5000" in error.value.message
    assert event.registrations.count() == 8  # nothing imported


def test_a_csv_field_over_128_kb_is_a_clear_refusal(event, organiser):
    content = b'name\n"' + b"x" * 200_000 + b'"\n'
    with pytest.raises(ServiceError) as error:
        registrations.import_players(event, content, "long.csv", acting_user=organiser)
    assert error.value.code == "bad_file"


def test_a_nul_byte_in_a_name_is_refused(event, organiser):
    with pytest.raises(ServiceError) as error:
        registrations.register_player(
            event, registrations.PlayerRow(name="Ana\x00Silva"), acting_user=organiser
        )
    assert error.value.code == "control_character"


@pytest.mark.slow
def test_thousands_of_rows_import_with_codes_worked_out_once(event, organiser):
    content = ("name\n" + "".join(f"Player {i}\n" for i in range(1000))).encode()
    report = registrations.import_players(event, content, "many.csv", acting_user=organiser)
    assert not report.errors
    codes = [r.code for r in report.created]
    assert len(set(codes)) == 1000 and "p9" in codes and "p1008" in codes


def test_only_accounts_allowed_by_an_administrator_create_events(client, stranger, organiser):
    client.force_login(stranger)
    assert client.get(reverse("manage:create_event")).status_code == 403
    assert "New event" not in client.get(reverse("manage:dashboard")).content.decode()
    client.force_login(organiser)
    assert client.get(reverse("manage:create_event")).status_code == 200
    assert "New event" in client.get(reverse("manage:dashboard")).content.decode()


def test_results_and_the_audit_log_cannot_be_destroyed_in_the_admin(client, demo_event, db):
    from django.contrib.auth import get_user_model

    from scoring.models import Hand
    from tournaments.models import AuditEntry

    admin = get_user_model().objects.create_superuser("root", password="pw-root-123")
    client.force_login(admin)
    hand = Hand.objects.filter(table__round__tournament=demo_event).first()
    assert (
        client.post(reverse("admin:scoring_hand_delete", args=[hand.pk]), {"post": "yes"}).status_code == 403
    )
    assert Hand.objects.filter(pk=hand.pk).exists()
    response = client.post(
        reverse("admin:tournaments_tournament_delete", args=[demo_event.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    slug = demo_event.slug
    demo_event.delete()  # an event deleted anyway (by code) keeps its audit trail
    assert AuditEntry.objects.filter(event_slug=slug).exists()
