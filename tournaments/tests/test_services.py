"""Event set-up through the services: players, import, check-in, seating."""

from __future__ import annotations

import io
from itertools import combinations

import pytest

from players.models import Player
from tournaments.errors import ServiceError
from tournaments.field_limits import max_length
from tournaments.models import Registration
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating
from tournaments.services import registrations as event_registrations


def test_the_creator_of_an_event_becomes_its_organiser(organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Club Night"), acting_user=organiser
    )
    assert tournament.slug == "club-night"
    assert tournament.rounds.count() == 4
    assert tournament.roles.get().user == organiser


def test_an_event_needs_hands_or_a_time_limit(organiser):
    with pytest.raises(ServiceError) as error:
        event_services.create_tournament(
            event_services.EventDetails(name="X", hands_per_session=None, session_minutes=None),
            acting_user=organiser,
        )
    assert error.value.code == "session_length"


def test_a_csv_import_registers_everyone(event, organiser):
    content = b"name,country,ema_id,team\nZoe Park,KR,12345678,Seoul\nYan Li,CN,,\n"
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.errors == []
    assert [r.player.name for r in report.created] == ["Zoe Park", "Yan Li"]
    assert report.created[0].player.ema_id == "12345678"


def test_a_csv_with_bad_rows_imports_nothing_and_names_each_row(event, organiser):
    before = Registration.objects.count()
    content = (
        b"name,country,ema_id\nGood Player,Portugal,\n,PT,\nBad Country,Atlantis,\nBad Ema,PT,12ab\nAna,PT,\n"
    )
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.created == []
    assert report.errors == [
        "Row 3: name is missing.",
        "Row 4: country 'Atlantis' is not a country we know: choose one from the list"
        " (a name such as Portugal or an ISO code such as PT).",
        "Row 5: EMA id '12ab' is not 8 digits.",
        "Row 6: Ana is already registered in this event (Ana, p1).",
    ]
    assert Registration.objects.count() == before


def test_the_first_upload_lists_every_bad_row_with_its_number_and_stores_nothing(event, organiser):
    event_registrations.register_player(
        event, event_registrations.PlayerRow(name="Test Dup", ema_id="11990009"), acting_user=organiser
    )
    before = (Registration.objects.count(), Player.objects.count())
    content = (
        b"name,country,ema_id\n"
        b"Bad Country,Atlantis,\n"  # row 2
        b"Rui Costa,PT,11990001\n"  # row 3
        b"Tess Dupont,FR,11990009\n"  # row 4: Test Dup's number
        b"Rita Costa,PT,11990001\n"  # row 5: row 3's number
        b"Good Player,PT,11990002\n"
    )
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.created == []
    assert report.errors == [
        "Row 2: country 'Atlantis' is not a country we know: choose one from the list"
        " (a name such as Portugal or an ISO code such as PT).",
        "Row 3: EMA id 11990001 is also on row 5 (one number, one person).",
        "Row 4: EMA id 11990009 is already registered in this event (Test Dup, p9).",
        "Row 5: EMA id 11990001 is also on row 3 (one number, one person).",
    ]
    assert (Registration.objects.count(), Player.objects.count()) == before


def test_a_row_with_several_problems_lists_each_and_names_repeat_within_the_file(event, organiser):
    content = (
        "name,country,ema_id,team\n"
        "Zoë Park,Atlantis,12ab,\n"  # row 2: two problems
        "zoe park,KR,,\n"  # row 3: row 2's name, ignoring case and accents
        f",PT,,{'t' * 200}\n"  # row 4: no name, team too long
    ).encode()
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.errors == [
        "Row 2: country 'Atlantis' is not a country we know: choose one from the list"
        " (a name such as Portugal or an ISO code such as PT).",
        "Row 2: EMA id '12ab' is not 8 digits.",
        "Row 2: Zoë Park is also on row 3 (the same name, ignoring case and accents).",
        "Row 3: zoe park is also on row 2 (the same name, ignoring case and accents).",
        "Row 4: name is missing.",
        f"Row 4: team is longer than {max_length(Registration, 'team')} characters (it has 200).",
    ]
    assert report.created == []


def test_the_import_page_lists_every_problem_on_the_first_upload(client, event, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    event_registrations.register_player(
        event, event_registrations.PlayerRow(name="Test Dup", ema_id="11990009"), acting_user=organiser
    )
    client.force_login(organiser)
    upload = SimpleUploadedFile(
        "players.csv", b"name,ema_id\nNew One,11990009\nTwo,11990001\nThree,11990001\n", "text/csv"
    )
    response = client.post(reverse("manage:import_players", args=[event.slug]), {"file": upload})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Row 2: EMA id 11990009 is already registered in this event (Test Dup, p9)." in page
    assert (
        "Row 3: EMA id 11990001 is also on row 4" in page
        and "Row 4: EMA id 11990001 is also on row 3" in page
    )


def test_an_xlsx_list_imports_like_a_csv(event, organiser):
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active.append(["Name", "Country", "EMA ID", "Team"])
    workbook.active.append(["Xu Ming", "CN", None, "Beijing"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    report = event_registrations.import_players(event, buffer.getvalue(), "list.xlsx", acting_user=organiser)
    assert [r.team for r in report.created] == ["Beijing"]


def test_an_import_takes_optional_family_and_given_name_columns(event, organiser):
    content = (
        "name,family_name,given_name,country\n"
        "Jan de Vries,de Vries,Jan,NL\n"
        "María José García López,García López,María José,ES\n"
        "陈波,陈,波,CN\n"
        "Rui Costa,,,PT\n"
    ).encode()
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.errors == []
    assert [(r.player.family_name, r.player.given_name) for r in report.created] == [
        ("de Vries", "Jan"),
        ("García López", "María José"),
        ("陈", "波"),
        ("", ""),
    ]


def test_an_xlsx_import_reads_family_and_given_name_headers_as_people_write_them(event, organiser):
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active.append(["Name", "Family name", "Given names", "Country"])
    workbook.active.append(["Jan de Vries", "de Vries", "Jan", "NL"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    report = event_registrations.import_players(event, buffer.getvalue(), "list.xlsx", acting_user=organiser)
    assert [(r.player.family_name, r.player.given_name) for r in report.created] == [("de Vries", "Jan")]


def test_a_file_that_is_not_a_workbook_gets_a_clear_message(event, organiser):
    with pytest.raises(ServiceError) as error:
        event_registrations.import_players(event, b"not a zip", "list.xlsx", acting_user=organiser)
    assert error.value.code == "bad_file"


def test_seating_puts_every_checked_in_player_at_one_table(event, organiser):
    round_ = event.rounds.get(number=2)
    tables = reseating.generate_seating(round_, acting_user=organiser)
    seated = [seat.registration_id for table in tables for seat in table.seats.all()]
    assert len(tables) == 2
    assert sorted(seated) == sorted(event.registrations.values_list("id", flat=True))


def test_the_second_session_avoids_first_session_opponents_when_it_can(organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Sixteen", num_sessions=2), acting_user=organiser
    )
    for n in range(16):
        event_registrations.register_player(
            tournament, event_registrations.PlayerRow(name=f"Player {n}"), acting_user=organiser
        )
    rounds = list(tournament.rounds.order_by("number"))
    meetings = set()
    repeats = 0
    for round_ in rounds:
        for table in reseating.generate_seating(round_, acting_user=organiser):
            ids = sorted(table.seats.values_list("registration_id", flat=True))
            for pair in combinations(ids, 2):
                repeats += pair in meetings
                meetings.add(pair)
    assert repeats == 0


def test_seating_refuses_a_number_of_players_not_divisible_by_four(event, organiser):
    event_registrations.register_player(
        event, event_registrations.PlayerRow(name="Ninth"), acting_user=organiser
    )
    with pytest.raises(ServiceError) as error:
        reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    assert error.value.code == "not_multiple_of_four"
    assert "9 players" in error.value.message


def test_checked_in_players_are_the_ones_seated(event, organiser):
    registrations = list(event.registrations.order_by("id"))
    for registration in registrations[:4]:
        event_registrations.set_checked_in(registration, True, acting_user=organiser)
    tables = reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    assert len(tables) == 1


def test_a_session_with_results_cannot_be_reseated(event, organiser, referee):
    from scoring.services.entry import HandEntry, record_hand

    round_ = event.rounds.get(number=1)
    record_hand(round_.tables.first(), HandEntry(winner=None), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        reseating.generate_seating(round_, acting_user=organiser)
    assert error.value.code == "round_has_results"


def test_a_player_cannot_be_registered_twice_by_ema_id(event, organiser):
    event_registrations.register_player(
        event, event_registrations.PlayerRow(name="Kim", ema_id="10000001"), acting_user=organiser
    )
    with pytest.raises(ServiceError) as error:
        event_registrations.register_player(
            event, event_registrations.PlayerRow(name="Kim L.", ema_id="10000001"), acting_user=organiser
        )
    assert error.value.code == "already_registered"


def test_a_player_registered_at_the_desk_during_the_import_refuses_it_with_the_row(
    event, organiser, monkeypatch
):
    checked = event_registrations.check_player_rows

    def check_then_desk_registers(tournament, rows):
        answer = checked(tournament, rows)
        event_registrations.register_player(
            tournament,
            event_registrations.PlayerRow(name="Quick Desk", ema_id="11990005"),
            acting_user=organiser,
        )
        return answer

    monkeypatch.setattr(registrations, "check_player_rows", check_then_desk_registers)
    before = Registration.objects.count()
    content = b"name,ema_id\nFirst Row,11990004\nSame Person,11990005\n"
    report = event_registrations.import_players(event, content, "players.csv", acting_user=organiser)
    assert report.errors == ["Row 3: EMA id 11990005 is already registered in this event (Quick Desk)."]
    assert report.created == []
    assert Registration.objects.count() == before + 1  # the desk's player only
