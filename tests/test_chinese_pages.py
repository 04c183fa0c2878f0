"""The demo events read in Chinese from end to end: every main public and referee page of each demo
event, rendered with ``Accept-Language: zh-hans``, shows no English word outside a short allow-list (the
players' own names and places, codes). ``test_translations.py`` checks the templates' own text; this one also
catches what the Python side puts on a page (a hand's line, a ruling's citation, a card family, a wind's name,
a refusal), so a new English string on these pages fails here. Bad input gets a friendly page, never a 500."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.visible_text import shown_texts

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}

# Words a Chinese page may show in Latin letters: rule-set and federation abbreviations, file kinds, and
# the NMJL card's notation (below). Names typed by people (players, clubs, teams, events, accounts) are
# added per event from the database.
ALLOWED = {"MCR", "NMJL", "EMA", "PDF", "CSV", "XLSX", "UTC", "QR", "PIN", "English"}
# Tile codes and NMJL card patterns ("FF 2027 DDDD", "NNN SSS"), card hand ids ("quint-2", "2468-1") and
# versions ("v1"): codes, not words.
CODE = re.compile(r"^(?:[FDNEWS]+|[a-z]+-\d+|v\d+)$")
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
WORD = re.compile(r"[A-Za-z]{2,}")
ADDRESS = re.compile(r"(?:https?://)?[\w.:-]+/e/\S*")  # the projector's and the sheets' links to the site


def english_on(html: str, allowed: set[str]) -> list[str]:
    """The page's shown texts that hold an English word not in ``allowed`` (compared in lower case)."""
    return [
        text
        for text in shown_texts(html)
        if any(
            word.lower() not in allowed
            for token in TOKEN.findall(ADDRESS.sub(" ", text))
            if not CODE.match(token)
            for word in WORD.findall(token)
        )
    ]


def _names(tournament) -> set[str]:
    from tournaments.models import Registration

    texts = [tournament.name, *get_user_model().objects.values_list("username", flat=True)]
    for registration in Registration.objects.filter(tournament=tournament).select_related("player"):
        texts += [registration.player.name, registration.player.country, registration.team]
    card = tournament.rule_set.settings.get("card") if tournament.rules == "nmjl" else None
    if isinstance(card, dict):
        texts.append(str(card.get("name", "")))
    return {word.lower() for text in texts for word in WORD.findall(text)} | {w.lower() for w in ALLOWED}


@pytest.fixture(params=["demo-mcr", "demo-nmjl", "demo-babcock"])
def demo(request, db):
    """A demo event as ``make run`` loads it, with a referee who is also the chief referee, a ruling from
    the rule set's list (its citation and default reason come from Python) and an appeal against it."""
    from scoring.interchange import import_event
    from scoring.services import appeals, rulings
    from tournaments.models import Role
    from tournaments.services.events import grant_role

    with (FIXTURES / f"{request.param}.json").open(encoding="utf-8") as handle:
        tournament = import_event(json.load(handle))
    user = get_user_model().objects.create_user("referee", password="pw-referee-1")
    for role in (Role.REFEREE, Role.CHIEF_REFEREE):
        grant_role(tournament, user, role, acting_user=None)
    open_round = tournament.rounds.filter(tables__hands__isnull=True).order_by("number").first()
    played_round = tournament.rounds.get(number=1)
    open_table = open_round.tables.get(number=1)
    seat = open_table.seats.select_related("registration").first()
    penalty = rulings.add_ruling(open_table, seat.registration, "warning", acting_user=user)
    appeals.file_appeal(penalty, statement="我没有", signed_by="选手", fee_received=True, acting_user=user)
    return tournament, user, played_round, open_round


def _pages(client, urls: list[str], allowed: set[str]) -> dict[str, list[str]]:
    found = {}
    for url in urls:
        response = client.get(url, **CHINESE)
        assert response.status_code == 200, url
        if "<html" in response.content.decode():  # the clock is a fragment
            assert '<html lang="zh-hans">' in response.content.decode(), url
        english = english_on(response.content.decode(), allowed)
        if english:
            found[url] = english
    return found


def test_the_public_pages_of_a_demo_event_have_no_english(client, demo):
    tournament, _, played, _ = demo
    slug = tournament.slug
    code = tournament.registrations.order_by("code").first().code
    urls = [
        reverse("public:home"),
        reverse("public:event", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:results", args=[slug, played.number]),
        reverse("public:player", args=[slug, code]),
        reverse("public:teams", args=[slug]),
        reverse("public:side", args=[slug]),
        reverse("public:seating", args=[slug, played.number]),
        reverse("public:find", args=[slug]) + "?q=a",
        reverse("public:find", args=[slug]) + "?q=无此人",
        reverse("public:projector", args=[slug]),
        reverse("public:clock", args=[slug]),
    ]
    assert _pages(client, urls, _names(tournament)) == {}


def test_the_referee_pages_of_a_demo_event_have_no_english(client, demo):
    tournament, user, played, open_round = demo
    slug = tournament.slug
    client.force_login(user)
    played_table = (played.number, 1)
    penalty = open_round.tables.get(number=1).penalties.get()
    urls = [
        reverse("referee:my_tables"),
        reverse("referee:index", args=[slug]),
        reverse("referee:table", args=[slug, *played_table]),
        reverse("referee:table", args=[slug, open_round.number, 1]),
        reverse("referee:correct_hand", args=[slug, *played_table, 1]),
        reverse("referee:appeal_hand", args=[slug, *played_table, 1]),
        reverse("referee:appeal", args=[slug, open_round.number, 1, penalty.pk]),
        reverse("referee:appeals", args=[slug]),
    ]
    assert _pages(client, urls, _names(tournament)) == {}


def test_a_refused_hand_reads_in_chinese(client, demo_event, referee):
    from tournaments.models import Role
    from tournaments.services.events import grant_role

    grant_role(demo_event, referee, Role.REFEREE, acting_user=None)
    client.force_login(referee)
    open_round = demo_event.rounds.filter(tables__hands__isnull=True).order_by("number").first()
    url = reverse("referee:add_hand", args=[demo_event.slug, open_round.number, 1])
    for data, refusal in (
        ({"how": "discard", "winner": "E", "discarder": "S", "fan": "3", "expected_number": "1"}, "8番"),
        ({"how": "discard", "winner": "E", "discarder": "E", "fan": "8", "expected_number": "1"}, "放铳"),
        ({"how": "self", "winner": "E", "fan": "x<script>", "expected_number": "1"}, "整数"),
    ):
        response = client.post(url, data, **CHINESE)
        text = response.content.decode()
        assert response.status_code == 422, data
        assert refusal in text, data
        assert english_on(text, _names(demo_event)) == [], data


def test_a_role_refusal_reads_in_chinese(client, demo_event, referee):
    client.force_login(referee)
    for url in (
        reverse("referee:appeals", args=[demo_event.slug]),
        reverse("manage:event", args=[demo_event.slug]),
    ):
        response = client.get(url, **CHINESE)
        assert response.status_code == 403, url
        assert english_on(response.content.decode(), _names(demo_event)) == [], url


@pytest.mark.parametrize(
    "url",
    [
        "/e/no-such-event/",
        "/e/no-such-event/standings/",
        "/e/no-such-event/clock/",
        "/e/{slug}/players/no-such-player/",
        "/e/{slug}/players/%00/",
        "/e/{slug}/results/99/",
        "/e/{slug}/seating/99/",
        "/e/{slug}/standings.doc",
    ],
)
def test_an_unknown_event_or_player_is_a_friendly_chinese_page(client, demo_event, url):
    response = client.get(url.format(slug=demo_event.slug), **CHINESE)
    assert response.status_code == 404
    assert "没有这个页面" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    ["%", "%25", "<script>alert(1)</script>", "🀄🀅 李", "x" * 500, "\x00", "a\x00b", "'; --", "\ufffd\ufffe"],
)
def test_a_search_with_odd_characters_is_answered_in_chinese(client, demo_event, query):
    response = client.get(reverse("public:find", args=[demo_event.slug]), {"q": query}, **CHINESE)
    text = response.content.decode()
    assert response.status_code == 200
    assert "<h1>查找选手</h1>" in text
    assert "<script>alert(1)" not in text


@pytest.mark.parametrize(
    "header",
    [
        "zh",
        "zh-Hans-CN",
        "zh-CN,zh;q=0.9",
        "ZH-HANS",
        "zh-hans;q=abc",
        "*",
        ";;;",
        "é" * 300,
        "xx-" + "a" * 300,
    ],
)
def test_any_accept_language_header_gets_a_page(client, demo_event, header):
    response = client.get(reverse("public:standings", args=[demo_event.slug]), HTTP_ACCEPT_LANGUAGE=header)
    text = response.content.decode()
    assert response.status_code == 200
    assert "<h1>排名</h1>" in text or "<h1>Standings</h1>" in text


@pytest.mark.parametrize("cookie", ["klingon", "", "zh_Hans", "\x7f", "a" * 3000, "zh-hans"])
def test_any_language_cookie_gets_a_page(client, demo_event, cookie):
    from django.conf import settings

    # The raw header, as a browser or a script would send it: Python's cookie jar refuses to hold a control
    # character on Debian's Python 3.11 (a security fix), which a hostile client is free to send anyway.
    response = client.get(
        reverse("public:standings", args=[demo_event.slug]),
        HTTP_COOKIE=f"{settings.LANGUAGE_COOKIE_NAME}={cookie}",
    )
    assert response.status_code == 200
    assert ("<h1>排名</h1>" if cookie == "zh-hans" else "<h1>Standings</h1>") in response.content.decode()


@pytest.mark.parametrize(
    "data",
    [{}, {"language": "\x00"}, {"language": "zh-hans", "next": "\x00"}, {"language": "x" * 500, "next": "%"}],
)
def test_the_switch_takes_junk_without_an_error(client, data):
    response = client.post(reverse("set_language"), data)
    assert response.status_code == 302
    assert "//" not in response["Location"]


HANDS = (
    {  # pure straight with a single wait: "four sets and a pair", "waiting for 9s only"
        "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"],
        "melds": [],
        "win_tile": "9s",
        "self_drawn": False,
        "seat_wind": "S",
        "prevalent_wind": "E",
        "flowers": 0,
    },
    {  # thirteen orphans: "whole hand"
        "concealed": ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"],
        "melds": [],
        "win_tile": "7z",
        "self_drawn": True,
        "seat_wind": "N",
        "prevalent_wind": "S",
        "flowers": 0,
    },
    {"concealed": ["1m"] * 14, "melds": [], "win_tile": "1m"},  # a fifth copy: the tile named in Chinese
)


def test_the_tile_pickers_breakdown_reads_in_chinese(client, demo_event, referee):
    from tournaments.models import Role
    from tournaments.services.events import grant_role

    grant_role(demo_event, referee, Role.REFEREE, acting_user=None)
    client.force_login(referee)
    url = reverse("referee:fan_breakdown", args=[demo_event.slug])
    texts = []
    for hand in HANDS:
        text = client.post(url, {"tiles": json.dumps(hand)}, **CHINESE).content.decode()
        assert english_on(text, _names(demo_event)) == [], hand
        texts.append(text)
    assert "四副一将" in texts[0] and "只听9s" in texts[0]
    assert "整手牌" in texts[1]
    assert "一万" in texts[2]
