"""A rehearsal copy of an event (tournaments/services/rehearsals.py) played through by simulated referees
(scoring/services/simulated_referees.py, ``manage.py play_rehearsal``): the real event's export and EMA file
stay byte-identical, the copy is invisible on every public URL and the API, in no player's history, refused by
the EMA file and publishing, marked on every staff page, and thrown away cleanly (asked twice, logged)."""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import replace

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from players.models import Player
from scoring.exports import EVENT_PRINTS, PrintError
from scoring.interchange import export_event
from scoring.models import Hand
from scoring.player_history import head_to_head, published_registrations
from scoring.rules import registry
from scoring.services import penalties, standings
from scoring.services.queries import is_confirmed
from scoring.services.simulated_referees import play_rehearsal
from scoring.simulated_browsers import OverHttp
from scoring.tests.test_public_names import public_urls
from tournaments import desk
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Registration, Role, Seat, Tournament
from tournaments.release import publish_event, publish_everything
from tournaments.services import events as event_services
from tournaments.services import kept_apart, registrations, rehearsals


def snapshot(tournament: Tournament) -> tuple[bytes, bytes, list[tuple[object, ...]]]:
    """The real event as it leaves the site: its JSON and the EMA file, the CSV's bytes and the workbook's
    cells (a workbook made a minute later differs in its zip entries' times, whatever the event)."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    document = json.dumps(export_event(tournament), ensure_ascii=False, indent=2).encode()
    _, _, csv = EVENT_PRINTS["ema-csv"](tournament).render()
    _, _, xlsx = EVENT_PRINTS["ema"](tournament).render()
    book = openpyxl.load_workbook(io.BytesIO(xlsx), read_only=True)
    cells = [row for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)]
    return document, csv, cells


@pytest.fixture
def quick_demo(demo_event, organiser):
    """The MCR demo event (played, confirmed, published), organised by ``organiser``, with a short seating
    search so that the copy's sessions are seated quickly."""
    event_services.grant_role(demo_event, organiser, Role.ORGANISER, acting_user=None)
    event_services.set_seating_options(
        demo_event, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    return Tournament.objects.get(pk=demo_event.pk)


@pytest.fixture
def played(quick_demo, organiser):
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    play_rehearsal(copy, acting_user=organiser, seed=1)
    return copy


def test_the_copy_has_the_players_sessions_settings_and_seating_and_no_results(quick_demo, organiser):
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    assert copy.is_rehearsal and copy.rehearsal_of == quick_demo and copy.published_at is None
    assert copy.slug == f"{quick_demo.slug}-rehearsal" and "(rehearsal)" in copy.name
    assert copy.settings == quick_demo.settings and copy.rules == quick_demo.rules
    assert copy.time_zone == quick_demo.time_zone

    def people(event):
        return sorted(Registration.objects.filter(tournament=event).values_list("player_id", "code", "team"))

    def seats(event):
        return sorted(
            Seat.objects.filter(round__tournament=event).values_list(
                "round__number", "table__number", "wind", "registration__code"
            )
        )

    assert people(copy) == people(quick_demo)
    assert seats(copy) == seats(quick_demo) and seats(copy)
    assert copy.rounds.count() == quick_demo.rounds.count()
    assert not Hand.objects.filter(table__round__tournament=copy).exists()
    assert copy.roles.filter(user=organiser, role=Role.ORGANISER).exists()
    # Logged in both, and a second copy gets its own address.
    assert AuditEntry.objects.filter(tournament=copy, action="rehearsal_copy").exists()
    assert AuditEntry.objects.filter(
        tournament=quick_demo, action="rehearsal_copy", data__rehearsal=copy.slug
    )
    again = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    assert again.slug == f"{quick_demo.slug}-rehearsal-2"
    with pytest.raises(ServiceError) as refused:
        rehearsals.copy_as_rehearsal(copy, acting_user=organiser)
    assert refused.value.code == "rehearsal_of_rehearsal"


def test_a_rehearsal_played_through_leaves_the_real_events_export_byte_identical(quick_demo, organiser):
    before = snapshot(quick_demo)
    version = Tournament.objects.get(pk=quick_demo.pk).public_version
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    played = play_rehearsal(copy, acting_user=organiser, seed=1)
    # A penalty in the rehearsal too (its rows are thrown away with it).
    table = copy.rounds.get(number=1).tables.get(number=1)
    seat = table.seats.get(wind="E")
    penalties.add_penalty(
        table, seat.registration, 10, paid_to="none", reason="rehearsed", acting_user=organiser
    )
    sessions = quick_demo.rounds.count()
    assert played.sessions == list(range(1, sessions + 1))
    tables = copy.rounds.get(number=1).tables.count() * sessions
    assert played.tables == tables and played.hands == 16 * tables
    # Every table confirmed and published in the copy: its standings rank everyone.
    rows = standings.event_standings(Tournament.objects.get(pk=copy.pk))
    assert rows and all(row.rank is not None for row in rows)
    hands = Hand.objects.filter(table__round__tournament=copy)
    assert {hand.entered_by.username for hand in hands} <= set(rehearsals.simulated_referee_names(copy))
    assert Counter(bool(hand.winner) for hand in hands)[True] > hands.count() / 2  # mostly wins
    assert snapshot(quick_demo) == before
    # Thrown away, the real event is still the same.
    rehearsals.throw_away(copy, acting_user=organiser)
    assert snapshot(quick_demo) == before
    # Its public pages were never redrawn: nothing of them changed.
    assert Tournament.objects.get(pk=quick_demo.pk).public_version == version


def test_a_rehearsal_is_404_on_every_public_url_and_the_api(client, played, quick_demo):
    assert played.rounds.filter(results_published_at__isnull=False).count() == played.rounds.count()
    for url, headers in public_urls(played):
        response = client.get(url, headers=headers)
        if url.startswith("/players/"):  # the people's pages are the real event's: the copy is not there
            assert response.status_code == 200, url
            assert (
                played.slug not in response.content.decode()
                and "(rehearsal)" not in response.content.decode()
            )
        else:
            assert response.status_code == 404, url
    for name in ("me", "clock"):
        url = reverse(f"public:{name}", args=[played.slug])
        assert client.get(url).status_code == 404, url
    code = played.registrations.first().code
    signing_in = client.post(reverse("public:me_sign_in", args=[played.slug]), {"code": code, "pin": "0000"})
    assert signing_in.status_code == 404
    home = client.get(reverse("public:home")).content.decode()
    assert quick_demo.name in home and played.name not in home
    listed = client.get(reverse("api:events")).json()
    assert played.slug not in json.dumps(listed) and quick_demo.slug in json.dumps(listed)


def test_a_rehearsal_is_in_no_players_history_or_head_to_head(played, quick_demo):
    ana, other = (
        Registration.objects.filter(tournament=quick_demo)
        .order_by("code")
        .values_list("player_id", flat=True)[:2]
    )
    player = Player.objects.get(pk=ana)
    assert [r.tournament_id for r in published_registrations(player)] == [quick_demo.pk]
    met = {h.other.pk: h.met for h in head_to_head(player)}
    # Only the real event's tables: a throw-away copy of the same event gives the same answer.
    rehearsals.throw_away(played, acting_user=None)
    assert {h.other.pk: h.met for h in head_to_head(player)} == met
    assert met.get(other, 0) <= quick_demo.rounds.count()


def test_the_ema_file_and_publishing_refuse_a_rehearsal(client, played, organiser):
    for kind in ("ema", "ema-csv"):
        with pytest.raises(PrintError) as refused:
            EVENT_PRINTS[kind](played).render()
        assert refused.value.code == "rehearsal"
    client.force_login(organiser)
    response = client.get(reverse("manage:event_print", args=[played.slug, "ema-csv"]))
    assert response.status_code == 409 and "rehearsal" in response.content.decode()
    with pytest.raises(ServiceError) as refused:
        publish_event(played, True, acting_user=organiser)
    assert refused.value.code == "rehearsal"
    with pytest.raises(ServiceError):
        publish_everything(played, acting_user=organiser)
    client.post(reverse("manage:publish_event", args=[played.slug]), {"published": "true"})
    assert Tournament.objects.get(pk=played.pk).published_at is None


def test_every_staff_page_of_a_rehearsal_shows_the_banner(client, played, quick_demo, organiser):
    client.force_login(organiser)
    table = played.rounds.get(number=1).tables.get(number=1)
    pages = [
        reverse("manage:dashboard"),
        reverse("manage:event", args=[played.slug]),
        reverse("manage:players", args=[played.slug]),
        reverse("manage:settings", args=[played.slug]),
        reverse("manage:session", args=[played.slug, 1]),
        reverse("manage:event_prints", args=[played.slug]),
        reverse("referee:index", args=[played.slug]),
        reverse("referee:table", args=[played.slug, 1, table.number]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "REHEARSAL" in response.content.decode(), url
    real = client.get(reverse("manage:event", args=[quick_demo.slug])).content.decode()
    assert "REHEARSAL" not in real and "Copy this event as a rehearsal" in real


def test_the_organiser_copies_and_throws_away_through_the_page(client, quick_demo, organiser, referee):
    client.force_login(referee)  # not an organiser of the event
    assert client.post(reverse("manage:copy_as_rehearsal", args=[quick_demo.slug])).status_code == 403
    client.force_login(organiser)
    response = client.post(reverse("manage:copy_as_rehearsal", args=[quick_demo.slug]))
    copy = Tournament.objects.get(rehearsal_of=quick_demo)
    assert response["Location"] == reverse("manage:event", args=[copy.slug])
    play_rehearsal(copy, sessions=1, acting_user=organiser)
    assert get_user_model().objects.filter(username__in=rehearsals.simulated_referee_names(copy)).count() == 2
    throw_away = reverse("manage:throw_away_rehearsal", args=[copy.slug])
    # Asked twice: the button's question, then the address typed; a wrong one deletes nothing.
    client.post(throw_away, {"confirm": quick_demo.slug})
    assert Tournament.objects.filter(pk=copy.pk).exists()
    response = client.post(throw_away, {"confirm": copy.slug})
    assert response["Location"] == reverse("manage:event", args=[quick_demo.slug])
    assert not Tournament.objects.filter(pk=copy.pk).exists()
    assert not Hand.objects.filter(table__round__tournament__slug=copy.slug).exists()
    assert not get_user_model().objects.filter(username__in=rehearsals.simulated_referee_names(copy)).exists()
    logged = AuditEntry.objects.get(tournament=quick_demo, action="rehearsal_delete")
    assert logged.actor == organiser and logged.data == {"rehearsal": copy.slug}
    # The real event cannot be thrown away this way, even with its address typed.
    client.post(reverse("manage:throw_away_rehearsal", args=[quick_demo.slug]), {"confirm": quick_demo.slug})
    assert Tournament.objects.filter(pk=quick_demo.pk).exists()
    with pytest.raises(ServiceError) as refused:
        rehearsals.throw_away(quick_demo, acting_user=organiser)
    assert refused.value.code == "not_rehearsal"


def test_play_rehearsal_refuses_a_real_event_and_plays_a_copy(quick_demo, capsys):
    with pytest.raises(CommandError, match="real event"):
        call_command("play_rehearsal", quick_demo.slug)
    call_command("play_rehearsal", quick_demo.slug, "--copy", "--sessions", "1")
    copy = Tournament.objects.get(rehearsal_of=quick_demo)
    assert "1 sessions" in capsys.readouterr().out
    assert list(copy.rounds.filter(results_published_at__isnull=False).values_list("number", flat=True)) == [
        1
    ]
    call_command("play_rehearsal", copy.slug, "--sessions", "1")  # the next session
    assert copy.rounds.filter(results_published_at__isnull=False).count() == 2
    assert AuditEntry.objects.filter(tournament=copy, action="rehearsal_played").count() == 2


@pytest.mark.parametrize("code", registry.codes())
def test_simulated_referees_play_every_rule_set(code, organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Night", rules=code, num_sessions=1, hands_per_session=8),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    copy = rehearsals.copy_as_rehearsal(tournament, acting_user=organiser)
    played = play_rehearsal(copy, acting_user=organiser, seed=2)
    assert (played.tables, played.hands) == (1, 8)
    hands = Hand.objects.filter(table__round__tournament=copy)
    assert any(hand.winner for hand in hands)  # not only draws
    assert not Hand.objects.filter(table__round__tournament=tournament).exists()


def test_a_rehearsal_changes_no_persons_details_of_the_real_event(quick_demo, organiser):
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    registration = copy.registrations.select_related("player").order_by("code").first()
    player = registration.player
    same = registrations.PlayerRow(
        name=player.name,
        country=player.country,
        ema_id=player.ema_id,
        family_name=player.family_name,
        given_name=player.given_name,
        team="Rehearsal team",
    )
    desk.edit(registration, same, acting_user=organiser)  # the copy's own team: allowed
    registration.refresh_from_db()
    assert registration.team == "Rehearsal team"
    assert Registration.objects.get(tournament=quick_demo, player=player).team != "Rehearsal team"
    renamed = replace(same, name="Someone Else", family_name="Else")
    with pytest.raises(ServiceError) as refused:
        desk.edit(registration, renamed, acting_user=organiser)
    assert refused.value.code == "rehearsal_person"
    assert Player.objects.get(pk=player.pk).name == player.name


@pytest.mark.django_db(transaction=True)
def test_the_benchmarks_browsers_play_a_rehearsal_through_the_pages(live_server, settings, organiser):
    """``--server``: the load benchmark's browser (bench/stack.py) posts the real hand form and the confirm
    button of a running server, signed in as the simulated referees."""
    settings.ALLOWED_HOSTS = ["*"]
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Club night", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    copy = rehearsals.copy_as_rehearsal(tournament, acting_user=organiser)
    port = int(live_server.url.rsplit(":", 1)[1])
    referees = OverHttp(port)
    played = play_rehearsal(copy, acting_user=organiser, referees=referees)
    assert (played.tables, played.hands) == (1, 4) and referees.requests == 2 * (4 + 1)
    table = copy.rounds.get(number=1).tables.get()
    hands = Hand.objects.filter(table=table, is_current=True).order_by("number")
    assert [hand.number for hand in hands] == [1, 2, 3, 4]
    assert {hand.entered_by.username for hand in hands} <= set(rehearsals.simulated_referee_names(copy))
    assert is_confirmed(table, fresh=True)


def test_the_organiser_plays_the_next_session_from_the_rehearsals_page(client, quick_demo, organiser):
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    client.force_login(organiser)
    page = client.get(reverse("manage:event", args=[copy.slug])).content.decode()
    play = reverse("manage:play_rehearsal", args=[copy.slug])
    assert f'action="{play}"' in page
    response = client.post(play, follow=True)
    assert "Session 1 played by simulated referees: 4 tables, 64 hands" in response.content.decode()
    assert list(copy.rounds.filter(results_published_at__isnull=False).values_list("number", flat=True)) == [
        1
    ]
    # The real event's page has no such button, and posting to it is refused.
    real = client.get(reverse("manage:event", args=[quick_demo.slug])).content.decode()
    assert "rehearsal/play/" not in real
    response = client.post(reverse("manage:play_rehearsal", args=[quick_demo.slug]), follow=True)
    assert "is a real event, not a rehearsal" in response.content.decode()


def test_a_persons_login_is_never_taken_or_deleted_as_a_simulated_referee(quick_demo, organiser):
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    name = rehearsals.simulated_referee_names(copy)[0]
    person = get_user_model().objects.create_user(name, password="pw-their-own-1")
    with pytest.raises(ServiceError) as refused:
        play_rehearsal(copy, acting_user=organiser)
    assert refused.value.code == "referee_name_taken"
    rehearsals.throw_away(copy, acting_user=organiser)
    assert get_user_model().objects.filter(pk=person.pk).exists()


def test_the_pairs_kept_apart_come_with_the_copy(quick_demo, organiser):
    first, second, third = Registration.objects.filter(tournament=quick_demo).order_by("code")[:3]
    kept_apart.keep_apart(third, first, acting_user=organiser)
    kept_apart.keep_apart(second, third, acting_user=organiser)
    copy = rehearsals.copy_as_rehearsal(quick_demo, acting_user=organiser)
    assert kept_apart.code_pairs(copy) == kept_apart.code_pairs(quick_demo)
    assert len(kept_apart.pairs_of(copy)) == 2 and len(kept_apart.pairs_of(quick_demo)) == 2
