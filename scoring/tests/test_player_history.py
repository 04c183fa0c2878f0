"""A player across events (``/players/<id>/``): every published event they played with place, table
points, score and sessions, head-to-head counts, drafts left out, and the page's key in the read path
changing with any of the player's events; merging two records of one person and undoing it."""

from __future__ import annotations

import copy
import json

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Player, PlayerMerge
from scoring.interchange import import_event
from scoring.player_history import event_lines, head_to_head
from scoring.standings_cache import cached_standings_rows
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole, Registration, Role
from tournaments.release import publish_event, publish_session
from tournaments.services.player_merge import may_merge, merge_players, undo_merge

pytestmark = pytest.mark.django_db

BRUNO = "02817529"  # p2 in fixtures/demo-mcr.json
SOFIA = "07690101"  # p12: at Bruno's table in session 1 only


def _demo() -> dict:
    with (django_settings.BASE_DIR / "fixtures" / "demo-mcr.json").open(encoding="utf-8") as handle:
        return json.load(handle)


def _event(slug: str, name: str, *, start: str | None = None):
    doc = copy.deepcopy(_demo())
    doc["tournament"].update(slug=slug, name=name)
    if start:
        doc["tournament"]["start_date"] = start
    return import_event(doc)


@pytest.fixture
def three_events(db):
    """The demo event played twice (published) and a third time in a draft: the players with an EMA
    number are one record across the three."""
    first = _event("spring-open", "Spring Open")
    second = _event("autumn-open", "Autumn Open")
    draft = publish_event(_event("winter-open", "Winter Open"), False, acting_user=None)
    return first, second, draft


def test_a_player_page_lists_the_two_published_events_and_not_the_draft(client, three_events):
    first, _second, _draft = three_events
    bruno = Player.objects.get(ema_id=BRUNO)
    assert bruno.registrations.count() == 3  # one record, linked by EMA number

    lines = event_lines(bruno)
    assert {line.tournament.slug for line in lines} == {"spring-open", "autumn-open"}
    row = next(r for r in cached_standings_rows(first) if r["player"] == "p2")
    line = next(line for line in lines if line.tournament == first)
    assert (line.rank, line.score, line.table_points, line.sessions) == (
        row["rank"],
        row["score"],
        row["table_points"],
        len(row["sessions"]),
    )
    assert line.sessions == 2  # the demo's sessions 1 and 2 are played, session 3 only seated

    page = client.get(reverse("public:player_history", args=[bruno.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Spring Open" in text and "Autumn Open" in text
    assert "Winter Open" not in text and "winter-open" not in text
    assert reverse("public:player", args=["spring-open", "p2"]) in text


def test_the_events_player_page_links_to_the_page_across_events(client, three_events):
    bruno = Player.objects.get(ema_id=BRUNO)
    page = client.get(reverse("public:player", args=["spring-open", "p2"]))
    assert reverse("public:player_history", args=[bruno.pk]) in page.content.decode()


def test_head_to_head_counts_two_meetings_over_the_published_events(client, three_events):
    first, _second, _draft = three_events
    bruno, sofia = Player.objects.get(ema_id=BRUNO), Player.objects.get(ema_id=SOFIA)
    [pair] = head_to_head(bruno, sofia)
    assert pair.met == 2  # session 1 of each published event; the draft's third meeting is not counted
    assert {m.tournament.slug for m in pair.meetings} == {"spring-open", "autumn-open"}
    scores = {
        code: next(s["score"] for s in row["sessions"] if s["round"] == 1)
        for row in cached_standings_rows(first)
        for code in [row["player"]]
        if code in ("p2", "p12")
    }
    bruno_higher = scores["p2"] > scores["p12"]
    assert (pair.ahead, pair.behind, pair.level) == ((2, 0, 0) if bruno_higher else (0, 2, 0))
    # The other way round, the same meetings.
    [back] = head_to_head(sofia, bruno)
    assert (back.met, back.ahead, back.behind) == (2, pair.behind, pair.ahead)
    # Among everyone Bruno met, Sofia too.
    assert any(p.other == sofia and p.met == 2 for p in head_to_head(bruno))

    page = client.get(reverse("public:versus", args=[bruno.pk, sofia.pk]))
    assert page.status_code == 200
    assert "Met 2 times at confirmed tables." in page.content.decode()
    assert page.content.decode().count('class="meeting-row"') == 2


def test_an_unpublished_session_is_not_counted(three_events):
    first, _second, _draft = three_events
    bruno, sofia = Player.objects.get(ema_id=BRUNO), Player.objects.get(ema_id=SOFIA)
    publish_session(first.rounds.get(number=1), "results", False, acting_user=None)
    [pair] = head_to_head(bruno, sofia)
    assert pair.met == 1
    line = next(line for line in event_lines(bruno) if line.tournament == first)
    assert line.sessions == 1


def test_a_player_only_in_a_draft_event_is_invisible(client, three_events):
    _first, _second, draft = three_events
    only_draft = Registration.objects.get(
        tournament=draft, code="p1"
    ).player  # no EMA number: a record per event
    assert only_draft.registrations.count() == 1
    assert client.get(reverse("public:player_history", args=[only_draft.pk])).status_code == 404
    bruno = Player.objects.get(ema_id=BRUNO)
    assert client.get(reverse("public:versus", args=[bruno.pk, only_draft.pk])).status_code == 404
    # Withdrawn to draft, an event leaves the page at once.
    publish_event(_first, False, acting_user=None)
    publish_event(_second, False, acting_user=None)
    assert client.get(reverse("public:player_history", args=[bruno.pk])).status_code == 404


def test_the_key_changes_when_any_of_the_players_events_changes(client, three_events):
    """Stored under the public versions of every published event of the player: a change in the second
    event (its session 2's results withdrawn) is seen at once, and an unchanged page is read from the cache."""
    _first, second, _draft = three_events
    bruno = Player.objects.get(ema_id=BRUNO)
    url = reverse("public:player_history", args=[bruno.pk])
    before = client.get(url).content.decode()
    assert before.count('<td class="num" data-label="Sessions">2</td>') == 2
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).content.decode() == before
    assert len(queries) == 1  # the stamp: the page itself came from the cache

    publish_session(second.rounds.get(number=2), "results", False, acting_user=None)
    after = client.get(url).content.decode()
    assert after.count('<td class="num" data-label="Sessions">2</td>') == 1
    assert '<td class="num" data-label="Sessions">1</td>' in after

    # Publishing the draft event adds it.
    publish_event(_draft, True, acting_user=None)
    assert "Winter Open" in client.get(url).content.decode()


# --- merging two records of one person ---------------------------------------------------------------


@pytest.fixture
def two_records(three_events):
    """Ana Silva (p1, no EMA number) has a record per event; the second also got the EMA number."""
    first, second, _draft = three_events
    ana_first = Registration.objects.get(tournament=first, code="p1").player
    ana_second = Registration.objects.get(tournament=second, code="p1").player
    Player.objects.filter(pk=ana_second.pk).update(ema_id="01234567")
    ana_second.refresh_from_db()
    return ana_first, ana_second


def test_a_merge_joins_two_records_and_its_undo_puts_them_back(client, organiser, two_records, three_events):
    first, second, _draft = three_events
    kept, merged = two_records
    assert [line.tournament for line in event_lines(kept)] == [first]

    merge = merge_players(kept, merged, acting_user=organiser)
    kept.refresh_from_db()
    merged.refresh_from_db()
    assert kept.ema_id == "01234567" and merged.ema_id == ""  # the number follows the person
    assert {line.tournament for line in event_lines(kept)} == {first, second}
    assert Registration.objects.get(tournament=second, code="p1").player == kept
    assert merge.moved == {
        "tournaments.registration.player": [Registration.objects.get(tournament=second, code="p1").pk]
    }
    for event in (first, second):  # logged in each event involved
        assert AuditEntry.objects.filter(tournament=event, action=AuditAction.MERGE_PLAYERS).count() == 1
    # The merged record's page leads to the kept one.
    answer = client.get(reverse("public:player_history", args=[merged.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "public:player_history", args=[kept.pk]
    )
    assert (
        client.get(reverse("public:player_history", args=[kept.pk]))
        .content.decode()
        .count('class="event-row"')
        == 2
    )

    with pytest.raises(ServiceError) as refused:
        merge_players(kept, merged, acting_user=organiser)
    assert refused.value.code == "already_merged"

    undo_merge(merge, acting_user=organiser)
    kept.refresh_from_db()
    merged.refresh_from_db()
    assert (kept.ema_id, merged.ema_id) == ("", "01234567")
    assert Registration.objects.get(tournament=second, code="p1").player == merged
    assert [line.tournament for line in event_lines(kept)] == [first]
    assert PlayerMerge.objects.get(pk=merge.pk).undone_at is not None
    for event in (first, second):
        assert AuditEntry.objects.filter(tournament=event, action=AuditAction.UNDO_MERGE_PLAYERS).count() == 1
    assert client.get(reverse("public:player_history", args=[merged.pk])).status_code == 200
    with pytest.raises(ServiceError) as twice:
        undo_merge(merge, acting_user=organiser)
    assert twice.value.code == "already_undone"


def test_two_records_in_one_event_or_with_two_ema_numbers_are_not_merged(three_events):
    first, _second, _draft = three_events
    ana = Registration.objects.get(tournament=first, code="p1").player
    other = Registration.objects.get(tournament=first, code="p4").player  # also without an EMA number
    with pytest.raises(ServiceError) as same_event:
        merge_players(ana, other, acting_user=None)
    assert same_event.value.code == "same_event"
    bruno, sofia = Player.objects.get(ema_id=BRUNO), Player.objects.get(ema_id=SOFIA)
    with pytest.raises(ServiceError) as two_numbers:
        merge_players(bruno, sofia, acting_user=None)
    assert two_numbers.value.code == "two_ema_ids"
    assert not PlayerMerge.objects.exists()


def test_only_an_organiser_of_every_event_involved_or_a_superuser_may_merge(
    organiser, stranger, two_records, three_events
):
    first, second, _draft = three_events
    kept, merged = two_records
    assert not may_merge(stranger, kept, merged)
    EventRole.objects.create(tournament=first, user=organiser, role=Role.ORGANISER)
    assert not may_merge(organiser, kept, merged)  # the second event is another organiser's
    EventRole.objects.create(tournament=second, user=organiser, role=Role.ORGANISER)
    assert may_merge(organiser, kept, merged)
    stranger.is_superuser = True
    assert may_merge(stranger, kept, merged)


def test_the_organiser_merges_and_undoes_on_the_page(client, organiser, stranger, two_records, three_events):
    first, second, _draft = three_events
    kept, merged = two_records
    for event in (first, second):
        EventRole.objects.create(tournament=event, user=organiser, role=Role.ORGANISER)
    url = reverse("manage:merge_players")
    chosen = {"kept": kept.pk, "merged": merged.pk}

    client.force_login(stranger)
    shown = client.get(url, chosen)
    assert shown.status_code == 200 and "Only an organiser of every event" in shown.content.decode()
    assert client.post(url, chosen).status_code == 403
    assert not PlayerMerge.objects.exists()

    client.force_login(organiser)
    shown = client.get(url, chosen).content.decode()
    assert "Spring Open" in shown and "Autumn Open" in shown
    assert client.post(url, chosen).status_code == 302
    merge = PlayerMerge.objects.get(undone_at=None)
    assert (merge.kept, merge.merged, merge.created_by) == (kept, merged, organiser)
    assert reverse("manage:undo_merge", args=[merge.pk]) in client.get(url).content.decode()

    client.force_login(stranger)
    assert client.post(reverse("manage:undo_merge", args=[merge.pk])).status_code == 403
    client.force_login(organiser)
    assert client.post(reverse("manage:undo_merge", args=[merge.pk])).status_code == 302
    merge.refresh_from_db()
    assert merge.undone_by == organiser
    assert Registration.objects.get(tournament=second, code="p1").player == merged


def test_the_players_stamp_follows_every_published_event_of_the_player_and_nothing_else(three_events, event):
    from tournaments import public_read
    from tournaments.services import registrations

    first, second, draft = three_events
    bruno = Player.objects.get(ema_id=BRUNO)
    page = public_read.PublicPage(players=True)

    def stamp():
        return public_read.players_stamp(page, (bruno.pk,))

    seen = stamp()
    # Another event, which Bruno did not play: the same key.
    registrations.set_checked_in(event.registrations.get(code="p1"), True, acting_user=None)
    assert stamp() == seen
    # Any change the second event's pages show (its public version): a new key.
    registrations.set_checked_in(second.registrations.get(code="p5"), True, acting_user=None)
    assert stamp() != seen
    seen = stamp()
    # A change in the draft: not public, the same key; published, a new one.
    registrations.set_checked_in(draft.registrations.get(code="p5"), True, acting_user=None)
    assert stamp() == seen
    publish_event(draft, True, acting_user=None)
    assert stamp() != seen
    seen = stamp()
    # The record's details changed outside any event (the admin): a new key.
    Player.objects.filter(pk=bruno.pk).update(name="Bruno M. Costa")
    assert stamp() != seen
    # Both published events withdrawn and the draft too: nothing to show, never looked up.
    for tournament in (first, second, draft):
        publish_event(tournament, False, acting_user=None)
    assert stamp() is None


def test_the_head_to_head_picks_the_other_player_by_a_search_of_the_public_names(client, three_events):
    _first, _second, draft = three_events
    bruno, sofia = Player.objects.get(ema_id=BRUNO), Player.objects.get(ema_id=SOFIA)
    search = reverse("public:versus_search", args=[bruno.pk])
    for page in (
        reverse("public:player_history", args=[bruno.pk]),
        reverse("public:versus", args=[bruno.pk, sofia.pk]),
    ):
        assert f'action="{search}"' in client.get(page).content.decode()  # the form on both pages
    found = client.get(search, {"q": "liu"}).content.decode()
    assert reverse("public:versus", args=[bruno.pk, sofia.pk]) in found and "Liu Yang" in found
    assert "Marta García" in client.get(search, {"q": "GARCIA"}).content.decode()  # accents ignored
    # Ana Silva has no EMA number: a record per event, the draft's one not public.
    anas = client.get(search, {"q": "ana silva"}).content.decode()
    only_draft = Registration.objects.get(tournament=draft, code="p1").player_id
    assert anas.count('class="player-link"') == 2 and f"/vs/{only_draft}/" not in anas
    assert "Nobody matches" in client.get(search, {"q": "bruno"}).content.decode()  # not oneself
    assert "Nobody matches" in client.get(search, {"q": "zzz"}).content.decode()
    response = client.get(search, {"q": "liu"})
    assert response["X-Robots-Tag"] == "noindex" and "no-cache" in response["Cache-Control"]
