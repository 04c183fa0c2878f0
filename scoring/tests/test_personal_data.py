"""A person's data: the copy (``player_data``), erasure that keeps the standings (``anonymise_player``),
who may erase, the organiser's page (asked twice) and the consent recorded at registration."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from scoring.models import PlayerPin
from scoring.services import personal_data
from tournaments.audit import AuditAction
from tournaments.consent import CONSENT_VERSION
from tournaments.desk import edit
from tournaments.models import AuditEntry, Entry, Registration
from tournaments.services import entries, registrations


def _command(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _standings(slug: str) -> list[dict]:
    return json.loads(_command("standings", slug))


def _without_names(rows: list[dict]) -> list[dict]:
    return [{key: value for key, value in row.items() if key != "name"} for row in rows]


def _log_text() -> str:
    return "\n".join(
        f"{entry.summary} {json.dumps(entry.data, ensure_ascii=False)}" for entry in AuditEntry.objects.all()
    )


def _ranked(event) -> Registration:
    code = _standings(event.slug)[0]["player"]
    return event.registrations.select_related("player").get(code=code)


@pytest.mark.django_db
def test_erasure_keeps_the_standings_and_leaves_no_name(demo_event, organiser):
    registration = _ranked(demo_event)
    player = registration.player
    old_name = player.name
    player.ema_id = "01234567"
    player.save()
    # The desk's correction logs the earlier spelling as well.
    edit(
        registration,
        registrations.PlayerRow(name=f"{old_name} Jr", ema_id="01234567", team=registration.team),
        acting_user=organiser,
    )
    assert old_name in _log_text()
    before = _standings(demo_event.slug)
    pins = PlayerPin.objects.filter(registration=registration)
    assert pins.exists()

    out = _command("anonymise_player", str(player.pk), "--yes")

    player.refresh_from_db()
    name = personal_data.pseudonym(player.pk)
    assert name in out
    assert player.name == name and player.ema_id == "" and personal_data.is_anonymised(player)
    after = _standings(demo_event.slug)
    assert _without_names(after) == _without_names(before)
    assert [row["name"] for row in after if row["player"] == registration.code] == [name]
    assert not pins.exists()
    text = _log_text()
    assert old_name not in text and "01234567" not in text
    assert name in text
    assert AuditEntry.objects.filter(
        action=AuditAction.ANONYMISE_PLAYER.value, tournament=demo_event
    ).exists()
    # Stable: the same record, the same pseudonym; asking again changes nothing more.
    _command("anonymise_player", str(player.pk), "--yes")
    player.refresh_from_db()
    assert player.name == name
    assert _without_names(_standings(demo_event.slug)) == _without_names(before)


@pytest.mark.django_db
def test_pseudonym_is_stable_keyed_and_distinct():
    assert personal_data.pseudonym(7) == personal_data.pseudonym(7)
    assert personal_data.pseudonym(7) != personal_data.pseudonym(8)
    assert personal_data.pseudonym(7).startswith("Player ")
    assert personal_data.pseudonym(7).split()[1] != "7"


@pytest.fixture
def open_event(event, organiser):
    entries.open_registration(
        event, capacity=20, closes_at=timezone.now() + timedelta(days=7), acting_user=organiser
    )
    return event


def _entered(event, organiser) -> Entry:
    entry = entries.submit_entry(
        event,
        entries.EntryDetails(
            family_name="Lindqvist", given_name="Maja", email="maja.l@example.org", ema_id="04129999"
        ),
    )
    return entries.approve_entry(entry, acting_user=organiser)


@pytest.mark.django_db
def test_consent_recorded_by_an_entry_and_kept_by_its_approval(open_event, organiser):
    entry = _entered(open_event, organiser)
    assert entry.consent_version == CONSENT_VERSION and entry.consent_at is not None
    assert entry.registration.consent_version == CONSENT_VERSION
    assert entry.registration.consent_at == entry.consent_at


@pytest.mark.django_db
def test_erasure_reaches_entries_and_their_emails(open_event, organiser):
    entry = _entered(open_event, organiser)
    player = entry.registration.player
    held = personal_data.player_data(player)
    assert held["entries"][0]["email"] == "maja.l@example.org"
    assert any("Maja Lindqvist" in row["summary"] for row in held["audit_entries"])
    personal_data.anonymise_player(player, acting_user=organiser)
    entry.refresh_from_db()
    name = personal_data.pseudonym(player.pk)
    assert entry.name == name and entry.email == "" and entry.ema_id == ""
    text = _log_text()
    for old in ("Maja", "Lindqvist", "maja.l@example.org", "04129999"):
        assert old not in text
    after = personal_data.player_data(player)
    assert after["player"]["anonymised"] is True
    assert "Lindqvist" not in json.dumps(after, ensure_ascii=False)


@pytest.mark.django_db
def test_player_data_is_json_of_everything_held(demo_event):
    registration = _ranked(demo_event)
    player = registration.player
    data = json.loads(_command("player_data", str(player.pk)))
    assert data["player"]["name"] == player.name
    assert data["player"]["anonymised"] is False
    [held] = data["registrations"]
    assert held["event"]["slug"] == demo_event.slug
    assert held["code"] == registration.code
    assert held["results"]["rank"] == 1
    assert "name" not in held["results"]
    assert data["entries"] == []
    assert isinstance(data["audit_entries"], list)


@pytest.mark.django_db
def test_player_data_lists_the_log_entries_naming_them(event, organiser):
    registration = event.registrations.select_related("player").get(code="p1")
    data = personal_data.player_data(registration.player)
    summaries = [entry["summary"] for entry in data["audit_entries"]]
    assert f"Registered {registration.player.name}" in summaries
    assert all(summary != "Registered Bo" for summary in summaries)


@pytest.mark.django_db
def test_who_may_erase(event, organiser, referee, stranger):
    player = event.registrations.get(code="p1").player
    assert personal_data.may_erase(organiser, player)
    assert not personal_data.may_erase(referee, player)
    assert not personal_data.may_erase(stranger, player)
    admin = User.objects.create_superuser("root", password="x")
    assert personal_data.may_erase(admin, player)
    lonely = Player.objects.create(name="Nobody")
    assert not personal_data.may_erase(organiser, lonely)
    assert personal_data.may_erase(admin, lonely)


@pytest.mark.django_db
def test_organiser_page_asks_twice_and_logs(client, event, organiser, stranger):
    player = event.registrations.get(code="p1").player
    url = reverse("manage:erase_player", args=[player.pk])
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    page = client.get(url)
    assert page.status_code == 200
    assert personal_data.pseudonym(player.pk) in page.content.decode()
    # The second ask: the typed name must match.
    refused = client.post(url, {"confirm": "someone else"})
    assert refused.status_code == 200
    player.refresh_from_db()
    assert player.name == "Ana"
    done = client.post(url, {"confirm": " ana "})
    assert done.status_code == 302
    player.refresh_from_db()
    assert personal_data.is_anonymised(player)
    logged = AuditEntry.objects.get(action=AuditAction.ANONYMISE_PLAYER.value, tournament=event)
    assert logged.actor == organiser


@pytest.mark.django_db
def test_consent_recorded_at_the_desk_and_by_import(event, organiser):
    registration = registrations.register_player(
        event, registrations.PlayerRow(name="Ivo"), acting_user=organiser
    )
    assert registration.consent_version == CONSENT_VERSION and registration.consent_at is not None
    report = registrations.import_players(event, b"name\nJo\n", "players.csv", acting_user=organiser)
    assert not report.errors
    [imported] = report.created
    assert imported.consent_version == CONSENT_VERSION and imported.consent_at is not None


@pytest.mark.django_db
def test_an_imported_event_records_no_consent(demo_event):
    assert set(demo_event.registrations.values_list("consent_version", flat=True)) == {""}


@pytest.mark.django_db
def test_desk_and_entry_forms_show_the_notice(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug])).content.decode()
    assert f'data-consent-version="{CONSENT_VERSION}"' in page


@pytest.mark.django_db
def test_entry_form_shows_the_notice(client, open_event):
    page = client.get(reverse("public:register", args=[open_event.slug])).content.decode()
    assert f'data-consent-version="{CONSENT_VERSION}"' in page


@pytest.mark.django_db
def test_erasure_reaches_a_merged_record_and_the_number_the_merge_kept(event, organiser):
    from tournaments.services import player_merge

    kept = event.registrations.get(code="p1").player
    other = Player.objects.create(name="Ana Oliveira-Lindqvist", ema_id="04127777")
    merge = player_merge.merge_players(kept, other, acting_user=organiser)
    assert merge.details["ema_id"] == ["", "04127777"]
    personal_data.anonymise_player(kept, acting_user=organiser)
    other.refresh_from_db()
    merge.refresh_from_db()
    assert other.name == personal_data.pseudonym(other.pk) and other.ema_id == ""
    assert "ema_id" not in merge.details
    text = _log_text()
    assert "Oliveira" not in text and "04127777" not in text


@pytest.mark.django_db
def test_the_command_asks_for_the_number_and_refuses_an_unknown_record(event, monkeypatch):
    from django.core.management.base import CommandError

    player = event.registrations.get(code="p1").player
    monkeypatch.setattr("builtins.input", lambda prompt: "999")
    with pytest.raises(CommandError):
        _command("anonymise_player", str(player.pk))
    player.refresh_from_db()
    assert player.name == "Ana"
    monkeypatch.setattr("builtins.input", lambda prompt: str(player.pk))
    _command("anonymise_player", str(player.pk))
    player.refresh_from_db()
    assert personal_data.is_anonymised(player)
    with pytest.raises(CommandError):
        _command("player_data", "987654")
    with pytest.raises(CommandError):
        _command("anonymise_player", "987654", "--yes")


@pytest.mark.django_db
def test_a_kept_apart_pair_is_in_the_copy_and_its_log_entries_are_erased(event, organiser):
    from tournaments.services import kept_apart

    first, second = list(event.registrations.select_related("player").order_by("pk")[:2])
    kept_apart.keep_apart(first, second, acting_user=organiser)
    held = personal_data.player_data(first.player)
    assert [r["kept_apart_from"] for r in held["registrations"]] == [[second.code]]
    assert any("kept apart" in row["summary"] for row in held["audit_entries"])
    old_name = first.player.name
    personal_data.anonymise_player(first.player, acting_user=organiser)
    summaries = AuditEntry.objects.filter(action=AuditAction.KEEP_APART).values_list("summary", flat=True)
    assert [old_name in s for s in summaries] == [False]
    assert personal_data.pseudonym(first.player.pk) in summaries[0]
