"""The registration desk: edit, withdraw and reinstate a player, a warning on a probable
duplicate, countries from ISO 3166 (typed names mapped, never truncated), check-in by a scanned seat
slip or by a name search that ignores case and accents."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.countries import to_code
from players.models import Player
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from scoring.standings_cache import standings_rows
from tests.visible_text import shown_texts
from tournaments import desk
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Registration
from tournaments.services import registrations, reseating

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("Portugal", "PT"),
        ("portugal", "PT"),
        ("PRT", "PT"),
        ("pt", "PT"),
        ("PT · Portugal", "PT"),
        ("España", "ES"),
        ("espana", "ES"),
        ("Deutschland", "DE"),
        ("中国", "CN"),
        ("UK", "GB"),
        ("", ""),
        ("PO", None),
        ("Atlantis", None),
    ],
)
def test_typed_countries_map_to_iso_codes_or_are_refused(typed, code):
    assert to_code(typed) == code


def test_a_country_name_is_saved_as_its_code_never_truncated(client, event, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("manage:add_player", args=[event.slug]), {"name": "Rui", "country": "Portugal"}
    )
    assert response.status_code == 302
    assert Player.objects.get(name="Rui").country == "PT"


def test_an_unknown_country_is_refused_with_a_message_and_nothing_saved(client, event, organiser):
    client.force_login(organiser)
    before = Registration.objects.count()
    response = client.post(
        reverse("manage:add_player", args=[event.slug]), {"name": "Rui", "country": "Atlantis"}
    )
    assert response.status_code == 422
    assert "Atlantis" in response.content.decode() and "not a country we know" in response.content.decode()
    assert Registration.objects.count() == before


def test_the_players_page_offers_the_iso_country_list(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug])).content.decode()
    assert 'list="countries"' in page and '<option value="PT · Portugal">' in page
    assert page.count("<option value=") >= 249


def test_a_probable_duplicate_by_name_is_refused_until_register_anyway(client, event, organiser):
    registrations.register_player(event, registrations.PlayerRow(name="José García"), acting_user=organiser)
    client.force_login(organiser)
    url = reverse("manage:add_player", args=[event.slug])
    before = Registration.objects.count()
    response = client.post(url, {"name": "jose  garcia"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Probably already registered" in page and "José García" in page and "Register anyway" in page
    assert Registration.objects.count() == before
    response = client.post(url, {"name": "jose  garcia", "register_anyway": "on"})
    assert response.status_code == 302
    assert Registration.objects.count() == before + 1


def test_the_same_ema_number_is_always_refused(event, organiser):
    registrations.register_player(
        event, registrations.PlayerRow(name="Ana Silva", ema_id="11990001"), acting_user=organiser
    )
    with pytest.raises(ServiceError) as error:
        desk.register(
            event,
            registrations.PlayerRow(name="Another Name", ema_id="11990001"),
            register_anyway=True,
            acting_user=organiser,
        )
    assert error.value.code == "duplicate_ema_id"


def test_an_organiser_edits_a_player_and_it_is_logged(client, event, organiser):
    registration = event.registrations.get(player__name="Ana")
    client.force_login(organiser)
    url = reverse("manage:edit_player", args=[event.slug, registration.code])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Ana Sousa", "country": "Portugal", "ema_id": "", "team": "Porto"})
    assert response.status_code == 302
    registration.refresh_from_db()
    assert (registration.player.name, registration.player.country, registration.team) == (
        "Ana Sousa",
        "PT",
        "Porto",
    )
    entry = AuditEntry.objects.get(action="edit_player")
    assert entry.actor == organiser and entry.data["changed"]["name"] == ["Ana", "Ana Sousa"]


def test_an_edit_with_an_unknown_country_changes_nothing(client, event, organiser):
    registration = event.registrations.get(player__name="Ana")
    client.force_login(organiser)
    url = reverse("manage:edit_player", args=[event.slug, registration.code])
    response = client.post(url, {"name": "Ana Sousa", "country": "Narnia"})
    assert response.status_code == 422 and "Narnia" in response.content.decode()
    registration.player.refresh_from_db()
    assert registration.player.name == "Ana"


def test_a_withdrawn_player_is_kept_but_not_seated_later_nor_ranked_and_can_be_reinstated(
    client, event, organiser, referee
):
    table = event.rounds.get(number=1).tables.get(number=1)
    entry_service.record_hand(table, HandEntry(winner="E", discarder="W", fan=8), acting_user=referee)
    leaving = table.seats.get(wind="E").registration
    client.force_login(organiser)
    response = client.post(reverse("manage:withdraw", args=[event.slug, leaving.code]), {"withdrawn": "true"})
    assert response.status_code == 302
    leaving.refresh_from_db()
    assert leaving.withdrawn and Registration.objects.filter(pk=leaving.pk).exists()
    assert AuditEntry.objects.filter(action="withdraw", data__code=leaving.code).exists()
    assert leaving.code not in [row["player"] for row in standings_rows(event, include_provisional=True)]
    assert leaving.seats.filter(round__number=1).exists()  # history kept
    registrations.register_player(
        event, registrations.PlayerRow(name="Ivy"), acting_user=organiser
    )  # 8 again
    reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    assert event.rounds.get(number=2).seats.count() == 8
    assert not leaving.seats.filter(round__number=2).exists()
    client.post(reverse("manage:withdraw", args=[event.slug, leaving.code]), {"withdrawn": "false"})
    leaving.refresh_from_db()
    assert not leaving.withdrawn
    assert leaving.code in [row["player"] for row in standings_rows(event, include_provisional=True)]


def test_scanning_a_seat_slip_checks_the_player_in(client, event, organiser):
    registration = event.registrations.get(player__name="Bo")
    slip = "https://mahjong.example.org" + reverse("public:player", args=[event.slug, registration.code])
    client.force_login(organiser)
    response = client.post(reverse("manage:desk_check_in", args=[event.slug]), {"q": slip}, follow=True)
    registration.refresh_from_db()
    assert registration.checked_in
    assert "Bo (" in response.content.decode() and "is checked in" in response.content.decode()


def test_a_typed_code_checks_the_player_in_too(event, organiser):
    registration = event.registrations.get(player__name="Cy")
    desk.check_in_by_code(event, f" {registration.code.upper()} ", acting_user=organiser)
    registration.refresh_from_db()
    assert registration.checked_in


def test_a_name_search_ignores_case_and_accents(client, event, organiser):
    registrations.register_player(event, registrations.PlayerRow(name="María García"), acting_user=organiser)
    client.force_login(organiser)
    response = client.post(reverse("manage:desk_check_in", args=[event.slug]), {"q": "garcia"})
    assert response.status_code == 302
    # What the organiser reads (a CSRF token may hold the letters "Ana").
    shown = " ".join(shown_texts(client.get(response["Location"]).content.decode()))
    assert "María García" in shown and "Ana" not in shown
    assert [r.player.name for r in desk.find(event, "MARIA")] == ["María García"]


def test_a_withdrawn_player_cannot_be_checked_in_by_scan(event, organiser):
    registration = event.registrations.get(player__name="Di")
    desk.set_withdrawn(registration, True, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        desk.check_in_by_code(event, registration.code, acting_user=organiser)
    assert error.value.code == "withdrawn"


def test_the_check_in_button_refuses_a_withdrawn_player(client, event, organiser):
    registration = event.registrations.get(player__name="Ed")
    desk.set_withdrawn(registration, True, acting_user=organiser)
    client.force_login(organiser)
    url = reverse("manage:check_in", args=[event.slug, registration.code])
    response = client.post(url, {"checked_in": "true"}, follow=True)
    assert "has withdrawn" in response.content.decode()
    registration.refresh_from_db()
    assert not registration.checked_in


def test_the_desk_asks_for_family_and_given_names_and_saves_them(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug])).content.decode()
    assert 'name="family_name"' in page and 'name="given_name"' in page
    response = client.post(
        reverse("manage:add_player", args=[event.slug]),
        {"name": "Jan de Vries", "family_name": " de  Vries ", "given_name": "Jan", "country": "NL"},
    )
    assert response.status_code == 302
    player = Player.objects.get(name="Jan de Vries")
    assert (player.family_name, player.given_name) == ("de Vries", "Jan")
    client.post(reverse("manage:add_player", args=[event.slug]), {"name": "Rui Costa", "country": "PT"})
    assert (
        Player.objects.get(name="Rui Costa").family_name,
        Player.objects.get(name="Rui Costa").given_name,
    ) == (
        "",
        "",
    )


def test_the_edit_form_corrects_family_and_given_names_and_logs_them(client, event, organiser):
    registration = event.registrations.get(player__name="Ana")
    client.force_login(organiser)
    url = reverse("manage:edit_player", args=[event.slug, registration.code])
    assert 'name="family_name"' in client.get(url).content.decode()
    response = client.post(
        url,
        {"name": "陈波", "family_name": "陈", "given_name": "波", "country": "CN", "ema_id": "", "team": ""},
    )
    assert response.status_code == 302
    registration.player.refresh_from_db()
    assert (registration.player.family_name, registration.player.given_name) == ("陈", "波")
    entry = AuditEntry.objects.get(action="edit_player")
    assert entry.data["changed"]["family_name"] == ["", "陈"]
    page = client.get(url).content.decode()
    assert 'value="陈"' in page and 'value="波"' in page
