"""The player's polled table fragment (``public:me_table``, scoring/views_player.py) answered 304 while its
version holds. A cache is correct first: after each real change at the table (service calls, as the pages
make them) the fragment drawn now equals the one drawn before whenever the version did not change, and a poll
holding an older version gets the new fragment. Then the view's answers: 304 and its headers, the redirect of
a browser not signed in, another player's browser, the kept copy's CSRF token, and what a 304 costs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token  # type: ignore[attr-defined]
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Signature
from scoring.services import appeals, confirmation, disputes, penalties, pins, queries, seat_changes
from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from tests.test_chinese_pages import CHINESE
from tournaments import desk
from tournaments.models import Role
from tournaments.services import events as event_services
from tournaments.services import registrations

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")([^"]+)(")')


def drawn(response) -> str:
    """The fragment as drawn, its CSRF tokens as the secret they carry: Django masks the token afresh in
    every drawing (against BREACH), and any mask of the browser's secret is accepted."""
    text = response.content.decode()
    return TOKEN.sub(lambda found: found[1] + _unmask_cipher_token(found[2]) + found[3], text)


def seated(table):
    return {seat.wind: seat.registration for seat in table.seats.select_related("registration__player")}


def sign_in(client, event, registration) -> None:
    pin = pins.issue_pins(event, acting_user=None)[registration.pk]
    response = client.post(
        reverse("public:me_sign_in", args=[event.slug]), {"code": registration.code, "pin": pin}
    )
    assert response.status_code == 302


class Poll:
    """A phone polling its table (in its language): after each step, the fragment drawn afresh and the polls
    holding the previous version and the new one."""

    def __init__(self, client: Client, url: str, language: str = "en") -> None:
        self.client, self.url, self.language = client, url, language
        self.version: str | None = None
        self.html = ""
        self.steps: list[tuple[str, bool, bool]] = []  # (step, version changed, fragment changed)

    def get(self, holding: str | None = None):
        held = {"If-None-Match": holding} if holding is not None else {}
        return self.client.get(self.url, headers={"Accept-Language": self.language, **held})

    def after(self, step: str) -> None:
        fresh = self.get()
        assert fresh.status_code == 200, step
        version, html = fresh["ETag"], drawn(fresh)
        same = self.get(version)
        assert (same.status_code, same.content, same["ETag"]) == (304, b"", version), step
        if self.version is not None:
            held = self.get(self.version)
            if version == self.version:
                assert html == self.html, f"{step}: the version held but the fragment changed"
                assert held.status_code == 304, step
            else:
                assert held.status_code == 200 and held["ETag"] == version, step
                assert drawn(held) == html, step
            self.steps.append((step, version != self.version, html != self.html))
        self.version, self.html = version, html


class Polls:
    """The same phone's poll in English and in Chinese: each language its own version and fragment."""

    def __init__(self, client: Client, url: str) -> None:
        self.english, self.chinese = Poll(client, url), Poll(client, url, "zh-hans")

    def after(self, step: str) -> None:
        self.english.after(step)
        self.chinese.after(step)
        assert self.english.version != self.chinese.version and self.english.html != self.chinese.html

    @property
    def steps(self) -> list[tuple[str, bool, bool]]:
        assert [step[:2] for step in self.english.steps] == [step[:2] for step in self.chinese.steps]
        return self.english.steps


@pytest.fixture
def chief(event, organiser):
    user = get_user_model().objects.create_user("chiara", password="pw-chiara-123")
    event_services.grant_role(event, user, Role.CHIEF_REFEREE, acting_user=organiser)
    return user


@pytest.fixture
def second_referee(event, organiser):
    user = get_user_model().objects.create_user("sue", password="pw-sue-123")
    event_services.grant_role(event, user, Role.REFEREE, acting_user=organiser)
    return user


def test_the_fragment_is_the_same_whenever_its_version_is_through_a_whole_session(
    client, event, organiser, referee, chief, second_referee
):
    event_services.update_settings(event, {"confirmation.by": "either"}, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    other = event.rounds.get(number=1).tables.get(number=2)
    players = seated(table)
    me = players["N"]
    sign_in(client, event, me)
    poll = Polls(client, reverse("public:me_table", args=[event.slug, 1]))
    hand = HandEntry(winner="E", discarder="S", fan=8)

    poll.after("start")
    entry_service.record_hand(other, hand, acting_user=referee)
    poll.after("a hand at another table")
    entry_service.set_table_finished(other, True, acting_user=referee)
    confirmation.confirm_table(other, acting_user=organiser)
    poll.after("another table confirmed")
    entry_service.record_hand(table, hand, acting_user=referee)
    poll.after("hand 1")
    entry_service.record_hand(table, HandEntry(winner="S", discarder=None, fan=10), acting_user=referee)
    poll.after("hand 2")
    first = table.hands.current().get(number=1)
    entry_service.correct_hand(first, HandEntry(winner="W", discarder="N", fan=9), acting_user=referee)
    poll.after("hand 1 corrected")
    entry_service.void_last_hand(table, acting_user=referee)
    poll.after("hand 2 deleted")
    entry_service.set_table_finished(table, True, acting_user=referee)
    poll.after("marked complete")
    entry_service.set_table_finished(table, False, acting_user=referee)
    poll.after("reopened")
    seat_changes.substitute_new_player(table, players["W"].code, "Zed Reserve", acting_user=organiser)
    poll.after("a substitute takes West's seat")
    for _ in range(3):
        entry_service.record_hand(table, hand, acting_user=referee)
    poll.after("the last hands: complete, the players sign")
    penalty = penalties.add_penalty(table, players["E"], 10, paid_to="none", rule="80", acting_user=referee)
    poll.after("a penalty")
    penalties.record_late(table, players["S"], 3, acting_user=referee)
    poll.after("lateness")
    appeal = appeals.file_appeal(
        penalty, statement="Not me", signed_by="Ana", fee_received=True, acting_user=referee
    )
    poll.after("an appeal filed")
    appeals.decide_appeal(appeal, "upheld", reasons="Misheard", acting_user=chief)
    poll.after("the appeal upheld: the penalty cancelled")
    pins.sign_as_player(table, players["S"])
    poll.after("South signs")
    pins.sign_as_player(table, me)
    poll.after("I sign")
    disputes.disagree(table, players["E"])
    poll.after("East does not agree")
    disputes.settle(disputes.open_disputes(table)[0], acting_user=referee)
    poll.after("a referee settles it")
    pins.sign_as_player(table, players["E"])
    pins.sign_as_player(table, players["W"])
    poll.after("the last signatures confirm")
    last = table.hands.current().order_by("-number").first()
    entry_service.correct_hand(last, HandEntry(winner="N", discarder="E", fan=8), acting_user=referee)
    poll.after("a correction withdraws the confirmation and the signatures")
    event_services.update_settings(event, {"confirmation.by": "referee"}, acting_user=organiser)
    poll.after("only referees confirm")
    confirmation.confirm(table, acting_user=second_referee)
    poll.after("a second referee confirms")
    opponent = players["S"]
    desk.edit(opponent, registrations.PlayerRow(name="Bo Renamed"), acting_user=organiser)
    poll.after("an opponent renamed")
    desk.edit(opponent, registrations.PlayerRow(name="Bo Renamed", public_name="code"), acting_user=organiser)
    poll.after("the opponent shows their id")
    event_services.update_settings(event, {"public.names": "initial"}, acting_user=organiser)
    poll.after("the event shows initials")
    desk.set_withdrawn(players["E"], True, acting_user=organiser)
    poll.after("East withdrawn")
    desk.set_withdrawn(players["E"], False, acting_user=organiser)
    poll.after("East reinstated")

    changed = [step for step, _, fragment in poll.steps if fragment]
    assert len(changed) == 21, poll.steps  # most steps change what the phone shows
    # What the fragment does not show keeps the phone's copy: a hand or a confirmation at another table (every
    # phone of the hall would draw its table again otherwise), an appeal filed (it shows the decision).
    unchanged = [step for step, version, _ in poll.steps if not version]
    assert unchanged == ["a hand at another table", "another table confirmed", "an appeal filed"]


def test_a_name_changed_in_another_event_of_the_same_person_is_a_new_version(client, event, organiser):
    """A person is one record across events (tournaments/desk.py ``edit``): their name edited at another
    event's desk bumps that event's versions, not this one's, and still shows on this phone."""
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    desk.edit(players["E"], registrations.PlayerRow(name="Ana", ema_id="11990001"), acting_user=organiser)
    later = event_services.create_tournament(
        event_services.EventDetails(name="Later Open", slug="later-open", num_sessions=1),
        acting_user=organiser,
    )
    there = registrations.register_player(
        later, registrations.PlayerRow(name="Ana", ema_id="11990001"), acting_user=organiser
    )
    assert there.player_id == players["E"].player_id
    sign_in(client, event, players["N"])
    poll = Poll(client, reverse("public:me_table", args=[event.slug, 1]))
    poll.after("start")
    desk.edit(there, registrations.PlayerRow(name="Ana Renamed", ema_id="11990001"), acting_user=organiser)
    poll.after("renamed at the other event")
    assert "Ana Renamed" in poll.html
    assert poll.steps == [("renamed at the other event", True, True)]


def test_blind_entry_hides_the_figures_until_the_second_entry_agrees(
    client, blind_event, organiser, referee, second
):
    table = blind_event.rounds.get(number=1).tables.get(number=1)
    sign_in(client, blind_event, seated(table)["E"])
    poll = Poll(client, reverse("public:me_table", args=[blind_event.slug, 1]))
    poll.after("start")
    for _ in range(4):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    poll.after("complete, figures hidden")
    assert "blind double entry" in poll.html
    confirmation.record_blind_entry(table, {"E": 0, "S": 0, "W": 0, "N": 0}, acting_user=second)
    poll.after("a second entry that differs")
    rows, totals = confirmation.first_entry(queries.table_with_results(table))
    confirmation.record_blind_entry(table, totals, rows, acting_user=second)
    poll.after("a second entry that agrees: confirmed")
    assert 'id="my-confirmation"' in poll.html and "blind double entry" not in poll.html


def test_each_language_has_its_own_version(client, event):
    table = event.rounds.get(number=1).tables.get(number=1)
    sign_in(client, event, seated(table)["N"])
    url = reverse("public:me_table", args=[event.slug, 1])
    english = client.get(url)
    chinese = client.get(url, HTTP_IF_NONE_MATCH=english["ETag"], **CHINESE)
    assert chinese.status_code == 200 and chinese["ETag"] != english["ETag"]
    assert "我的" in chinese.content.decode() and "My table" in english.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=chinese["ETag"], **CHINESE).status_code == 304
    back = client.get(url, HTTP_IF_NONE_MATCH=chinese["ETag"])
    assert back.status_code == 200 and drawn(back) == drawn(english)


def test_a_poll_holding_the_version_is_answered_304_with_the_headers_of_a_kept_copy(client, event):
    table = event.rounds.get(number=1).tables.get(number=1)
    sign_in(client, event, seated(table)["N"])
    url = reverse("public:me_table", args=[event.slug, 1])
    first = client.get(url)
    assert first.status_code == 200 and 'class="mine"' in first.content.decode()
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    for response in (first, client.get(url, HTTP_IF_NONE_MATCH=etag)):
        assert response["Cache-Control"] == "no-cache, private"  # kept by the browser, never stored elsewhere
        assert {"Cookie", "Accept-Language"} <= {v.strip() for v in response["Vary"].split(",")}
        assert response["ETag"] == etag
    # Compressed answers carry a weak ETag (GZipMiddleware): the browser sends it back so.
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"stale", W/{etag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_a_browser_not_signed_in_is_sent_to_its_page_whatever_it_holds(client, event):
    table = event.rounds.get(number=1).tables.get(number=1)
    sign_in(client, event, seated(table)["N"])
    url = reverse("public:me_table", args=[event.slug, 1])
    etag = client.get(url)["ETag"]
    client.post(reverse("public:me_sign_out", args=[event.slug]))
    for response in (client.get(url), client.get(url, HTTP_IF_NONE_MATCH=etag)):
        assert response.status_code == 200 and response.content == b""
        assert response["HX-Redirect"] == reverse("public:me", args=[event.slug])
        assert "no-store" in response["Cache-Control"] and "ETag" not in response


def test_another_players_browser_never_gets_this_players_fragment(client, event):
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    sign_in(client, event, players["N"])
    url = reverse("public:me_table", args=[event.slug, 1])
    mine = client.get(url)
    mate = Client()
    sign_in(mate, event, players["S"])
    theirs = mate.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200 and theirs["ETag"] != mine["ETag"]
    assert f"<strong>{players['S'].player.name}</strong>" in theirs.content.decode()
    assert f"<strong>{players['N'].player.name}</strong>" not in theirs.content.decode()
    elsewhere = event.rounds.get(number=1).tables.get(number=2)
    stranger = Client()
    sign_in(stranger, event, seated(elsewhere)["E"])
    answer = stranger.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])
    assert answer.status_code == 200 and answer["ETag"] != mine["ETag"]
    assert "table 2" in answer.content.decode() and "table 1" not in answer.content.decode()


def test_the_kept_copys_sign_form_still_posts_while_its_version_holds(event, organiser, referee):
    """The browser hands htmx its kept copy on a 304, with the CSRF token of the drawing it kept: the
    version holds the browser's CSRF secret, so that token is always one the server accepts."""
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    me = seated(table)["N"]
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(reverse("public:me", args=[event.slug]), {"code": me.code})
    pin = pins.issue_pins(event, acting_user=None)[me.pk]
    token = TOKEN.search(page.content.decode())[2]
    signed_in = phone.post(
        reverse("public:me_sign_in", args=[event.slug]),
        {"code": me.code, "pin": pin, "csrfmiddlewaretoken": token},
    )
    assert signed_in.status_code == 302
    for _ in range(4):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    url = reverse("public:me_table", args=[event.slug, 1])
    kept = phone.get(url)
    assert 'id="sign-button"' in kept.content.decode()
    assert phone.get(url, HTTP_IF_NONE_MATCH=kept["ETag"]).status_code == 304
    token = TOKEN.search(kept.content.decode())[2]
    signed = phone.post(reverse("public:me_sign", args=[event.slug, 1]), {"csrfmiddlewaretoken": token})
    assert signed.status_code == 302
    assert Signature.objects.in_force().filter(table=table, registration=me).exists()
    # Another CSRF secret (the cookie lost, a new one set) is another version: the copy is drawn again.
    phone.cookies["csrftoken"] = "x" * 32
    assert phone.get(url, HTTP_IF_NONE_MATCH=kept["ETag"]).status_code == 200


def test_a_304_costs_three_queries_and_draws_nothing(client, event, monkeypatch):
    """The session, the event and one statement (the player still signed in, their table and its stamp;
    prepared on PostgreSQL by the first poll): nothing of the fragment is read or drawn (``table_panel`` is
    not called)."""
    from scoring import views_player

    table = event.rounds.get(number=1).tables.get(number=1)
    sign_in(client, event, seated(table)["N"])
    url = reverse("public:me_table", args=[event.slug, 1])
    etag = client.get(url)["ETag"]
    monkeypatch.setattr(views_player, "table_panel", lambda *args: pytest.fail("drawn on a 304"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert len(queries) == 3, [query["sql"] for query in queries]
