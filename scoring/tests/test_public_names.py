"""Public names by policy (tournaments/public_names.py): with the "player code" policy no public URL,
fragment, download or answer of the read API shows a player's real name (PDFs read back with pypdf,
workbooks opened with openpyxl), a player's own narrowing hides that player only, staff pages and the EMA
file keep full names, and players' pages ask search engines not to index them."""

from __future__ import annotations

import html
import io
import json
import re

import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from players.models import Player
from scoring.exports import EVENT_PRINTS, SESSION_PRINTS
from scoring.services import confirmation, entry, seat_changes
from scoring.services.entry import HandEntry
from tournaments import desk
from tournaments.models import Registration, Role, Tournament
from tournaments.public_names import initial_name, public_name
from tournaments.services import events as event_services
from tournaments.services import registrations

HTMX = {"HX-Request": "true"}
HALL_PRINTS = ("seat-slips", "table-cards", "seating-lists")


def body_text(content: bytes, content_type: str) -> str:
    """What a reader sees in a response or file: a PDF's text, a workbook's cells, HTML unescaped."""
    if content.startswith(b"%PDF"):
        return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages)
    if content.startswith(b"PK"):
        book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
        return " ".join(
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
        )
    if "json" in content_type:  # "\u00e1" read back as "á"
        return json.dumps(json.loads(content), ensure_ascii=False)
    return html.unescape(content.decode("utf-8"))


def name_words(name: str) -> list[str]:
    """The words that give a name away (family and given names; "de" and the like are too short)."""
    return [word for word in re.split(r"[\s']+", name) if len(word) >= 3]


def public_urls(tournament: Tournament) -> list[tuple[str, dict[str, str]]]:
    """Every public URL of the event, full pages and their htmx fragments."""
    slug = tournament.slug
    urls: list[tuple[str, dict[str, str]]] = [(reverse("public:event", args=[slug]), {})]
    for number in tournament.rounds.exclude(seated_at=None).values_list("number", flat=True):
        urls += [
            (reverse("public:seating", args=[slug, number]), {}),
            (reverse("public:results", args=[slug, number]), {}),
            (reverse("public:results", args=[slug, number]), HTMX),
        ]
    for name in ("standings", "teams", "side", "projector"):
        urls += [(reverse(f"public:{name}", args=[slug]), {}), (reverse(f"public:{name}", args=[slug]), HTMX)]
    registered = list(tournament.registrations.select_related("player"))
    for registration in registered:
        page = reverse("public:player", args=[slug, registration.code])
        history = reverse("public:player_history", args=[registration.player_id])
        urls += [(page, {}), (page, HTMX), (history, {})]
        find = reverse("public:find", args=[slug])
        urls += [(f"{find}?q={registration.code}", {})]
    first, second = registered[0].player_id, registered[1].player_id
    urls.append((reverse("public:versus", args=[first, second]), {}))
    versus_search = reverse("public:versus_search", args=[first])
    urls += [(f"{versus_search}?q={registration.code}", {}) for registration in registered[1:]]
    for fmt in ("csv", "xlsx", "pdf"):
        urls.append((reverse("public:standings_download", args=[slug, fmt]), {}))
    # the public read API (api/data.py)
    urls += [(reverse(f"api:{name}", args=[slug]), {}) for name in ("event", "players", "standings")]
    for number in tournament.rounds.exclude(seated_at=None).values_list("number", flat=True):
        urls += [(reverse(f"api:{name}", args=[slug, number]), {}) for name in ("seating", "results")]
    return urls


def public_bodies(client, tournament: Tournament) -> list[tuple[str, str]]:
    bodies = []
    for url, headers in public_urls(tournament):
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        bodies.append((url, body_text(response.content, response.get("Content-Type", ""))))
    for kind in HALL_PRINTS:  # prints shown to the hall
        for round_ in tournament.rounds.exclude(seated_at=None):
            _, _, content = SESSION_PRINTS[kind](round_, "http://testserver").render()
            bodies.append((f"{kind} {round_.number}", body_text(content, "")))
    _, _, content = EVENT_PRINTS["standings"](tournament).render()
    bodies.append(("standings print", body_text(content, "")))
    return bodies


def leaks(bodies: list[tuple[str, str]], names: list[str]) -> list[tuple[str, str]]:
    return [
        (url, word) for url, text in bodies for name in names for word in name_words(name) if word in text
    ]


@pytest.fixture
def coded(demo_event, organiser):
    return event_services.update_settings(demo_event, {"public.names": "code"}, acting_user=organiser)


def test_the_player_code_policy_hides_every_name_on_every_public_url_and_print(client, coded):
    names = list(coded.registrations.values_list("player__name", flat=True))
    bodies = public_bodies(client, coded)
    assert not leaks(bodies, names)
    standings = next(text for url, text in bodies if url.endswith("standings/"))
    assert "p1" in standings  # the players are there, by their ids


def test_searching_a_hidden_full_name_finds_nobody(client, coded):
    find = reverse("public:find", args=[coded.slug])
    assert "Nobody matches" in client.get(find, {"q": "Ana Silva"}).content.decode()
    found = client.get(find, {"q": "p1"}).content.decode()
    assert "/players/p1/" in found and "Silva" not in found


def test_the_head_to_heads_search_finds_no_hidden_full_name(client, coded):
    first, second = coded.registrations.order_by("code").select_related("player")[:2]
    search = reverse("public:versus_search", args=[first.player_id])
    assert "Nobody matches" in client.get(search, {"q": second.player.name}).content.decode()
    found = client.get(search, {"q": second.code}).content.decode()
    assert reverse("public:versus", args=[first.player_id, second.player_id]) in found
    assert not [word for word in name_words(second.player.name) if word in found]


def test_staff_pages_and_the_ema_file_keep_full_names(client, coded, organiser):
    event_services.grant_role(coded, organiser, Role.ORGANISER, acting_user=organiser)
    client.force_login(organiser)
    players = client.get(reverse("manage:players", args=[coded.slug])).content.decode()
    assert "Ana Silva" in players
    _, _, content = EVENT_PRINTS["ema-csv"](coded).render()
    assert "Silva" in content.decode("utf-8-sig")


def test_a_player_narrowing_to_the_code_is_hidden_alone(client, demo_event, organiser):
    hidden = demo_event.registrations.select_related("player").get(code="p1")
    row = registrations.PlayerRow(name=hidden.player.name, country=hidden.player.country, public_name="code")
    desk.edit(hidden, row, acting_user=organiser)
    hidden.refresh_from_db()
    assert public_name(hidden) == "p1"
    others = list(demo_event.registrations.exclude(pk=hidden.pk).values_list("player__name", flat=True))
    bodies = public_bodies(client, Tournament.objects.get(pk=demo_event.pk))
    assert not leaks(bodies, [hidden.player.name])
    standings = next(text for url, text in bodies if url.endswith("standings/"))
    assert all(name in standings for name in others)  # everyone else keeps their full name


def test_a_player_can_narrow_the_policy_never_widen_it(demo_event, organiser):
    event_services.update_settings(demo_event, {"public.names": "initial"}, acting_user=organiser)
    registration = Registration.objects.select_related("player", "tournament").get(
        tournament=demo_event, code="p13"
    )
    assert public_name(registration) == "Marta G."
    registration.public_name = "code"
    assert public_name(registration) == "p13"
    event_services.update_settings(demo_event, {"public.names": "code"}, acting_user=organiser)
    registration = Registration.objects.select_related("player", "tournament").get(pk=registration.pk)
    registration.public_name = "initial"
    assert public_name(registration) == "p13"


def test_initials_use_the_federation_split_when_typed():
    assert initial_name("García López, María", "María", "García López") == "María G."
    assert initial_name("Karin de Vries") == "Karin V."
    assert initial_name("Madonna") == "M."


def test_changing_the_policy_changes_what_the_cache_serves(client, demo_event, organiser):
    url = reverse("public:standings", args=[demo_event.slug])
    assert "Ana Silva" in client.get(url).content.decode()
    before = Tournament.objects.get(pk=demo_event.pk).public_version
    event_services.update_settings(demo_event, {"public.names": "code"}, acting_user=organiser)
    assert Tournament.objects.get(pk=demo_event.pk).public_version > before
    assert "Ana Silva" not in client.get(url).content.decode()
    registration = demo_event.registrations.select_related("player").get(code="p2")
    event_services.update_settings(demo_event, {"public.names": "full"}, acting_user=organiser)
    assert "Bruno Costa" in client.get(url).content.decode()
    desk.edit(
        registration,
        registrations.PlayerRow(name="Bruno Costa", country="PT", ema_id="02817529", public_name="code"),
        acting_user=organiser,
    )
    text = client.get(url).content.decode()
    assert "Bruno Costa" not in text and "Ana Silva" in text


def test_players_pages_are_not_indexed_unless_the_event_allows_it(client, demo_event, organiser):
    page = reverse("public:player", args=[demo_event.slug, "p1"])
    history = reverse("public:player_history", args=[Player.objects.get(name="Ana Silva").pk])
    for url in (page, history):
        response = client.get(url)
        assert response["X-Robots-Tag"] == "noindex"
        assert '<meta name="robots" content="noindex">' in response.content.decode()
    event_services.update_settings(demo_event, {"public.indexing": True}, acting_user=organiser)
    response = client.get(page)
    assert "X-Robots-Tag" not in response
    assert 'name="robots"' not in response.content.decode()
    standings = client.get(reverse("public:standings", args=[demo_event.slug]))
    assert "X-Robots-Tag" not in standings  # only the players' pages


def test_a_substitute_and_the_player_they_replaced_are_hidden_too(client, event, table, organiser, referee):
    """The seating, results, find and player pages name both in "from hand 2: X for Y"."""
    for number, registration in enumerate(event.registrations.select_related("player"), start=1):
        Player.objects.filter(pk=registration.player_id).update(name=f"Quirinus{number} Zablocki{number}")
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    absent = table.seats.get(wind="E").registration
    seat_changes.substitute_new_player(table, absent.code, "Xanthippe Newcombe", acting_user=organiser)
    for _ in range(3):
        entry.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    confirmation.confirm_table(table, acting_user=referee)
    coded = event_services.update_settings(event, {"public.names": "code"}, acting_user=organiser)
    names = list(coded.registrations.values_list("player__name", flat=True))
    bodies = public_bodies(client, coded)
    seating = next(text for url, text in bodies if "/seating/1/" in url)
    assert f"for {absent.code}" in seating  # the substitution is shown, by ids
    assert not leaks(bodies, names)


def test_the_organiser_sets_the_policy_and_a_players_choice_on_their_pages(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    assert "How players appear on public pages" in page
    response = client.post(
        reverse("manage:save_settings", args=[event.slug, "privacy"]),
        {"privacy-public__names": "initial", "privacy-public__indexing": ""},
    )
    assert response.status_code == 302
    registration = event.registrations.select_related("player").get(player__name="Ana")
    url = reverse("manage:edit_player", args=[event.slug, registration.code])
    assert "Public name" in client.get(url).content.decode()
    response = client.post(url, {"name": "Ana Sousa", "country": "PT", "public_name": "code"})
    assert response.status_code == 302
    registration = Registration.objects.select_related("player", "tournament").get(pk=registration.pk)
    assert (registration.public_name, public_name(registration)) == ("code", registration.code)
    bo = Registration.objects.select_related("player", "tournament").get(tournament=event, player__name="Bo")
    assert public_name(bo) == "B."  # one word: its initial
    client.logout()
    standings = client.get(reverse("public:standings", args=[event.slug]))
    assert "Ana Sousa" not in standings.content.decode()
