"""Every page answers for the roles that may see it, refuses the others, and never answers 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Hand

pytestmark = pytest.mark.django_db


def public_urls(slug: str) -> list[str]:
    return [
        reverse("public:home"),
        reverse("public:event", args=[slug]),
        reverse("public:seating", args=[slug, 1]),
        reverse("public:results", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings", args=[slug]) + "?sort=-score",
        reverse("public:teams", args=[slug]),
        reverse("public:side", args=[slug]),
        reverse("public:find", args=[slug]) + "?q=ana",
        reverse("public:projector", args=[slug]),
        reverse("public:clock", args=[slug]),
        reverse("public:clock", args=[slug]) + "?session=1&table=1",
        reverse("public:standings_download", args=[slug, "csv"]),
        reverse("public:standings_download", args=[slug, "xlsx"]),
        reverse("public:standings_download", args=[slug, "pdf"]),
    ]


def organiser_urls(slug: str) -> list[str]:
    return [
        reverse("manage:dashboard"),
        reverse("manage:event", args=[slug]),
        reverse("manage:live", args=[slug]),
        reverse("manage:session_live", args=[slug, 1]),
        reverse("manage:players", args=[slug]),
        reverse("manage:session", args=[slug, 1]),
    ]


def referee_urls(slug: str) -> list[str]:
    return [reverse("referee:index", args=[slug]), reverse("referee:table", args=[slug, 1, 1])]


def test_public_pages_answer_anyone(client, demo_event):
    for url in public_urls(demo_event.slug):
        assert client.get(url).status_code == 200, url


def test_public_seating_lists_every_player_with_table_and_seat(client, demo_event):
    page = client.get(reverse("public:seating", args=[demo_event.slug, 1])).content.decode()
    for registration in demo_event.registrations.select_related("player"):
        assert registration.player.name.replace("'", "&#x27;") in page


def test_standings_page_shows_the_leader_first(client, demo_event):
    from scoring.standings_cache import standings_rows

    leader = standings_rows(demo_event)[0]["name"]
    page = client.get(reverse("public:standings", args=[demo_event.slug])).content.decode()
    assert page.index(leader) < page.index(standings_rows(demo_event)[-1]["name"].replace("'", "&#x27;"))


def test_htmx_polling_gets_only_the_standings_table(client, demo_event):
    response = client.get(reverse("public:standings", args=[demo_event.slug]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"<table" in response.content


def test_organiser_and_referee_pages_need_a_login(client, event):
    for url in organiser_urls(event.slug) + referee_urls(event.slug):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_organiser_pages_answer_the_organiser(client, event, organiser):
    client.force_login(organiser)
    for url in organiser_urls(event.slug) + referee_urls(event.slug):
        assert client.get(url).status_code == 200, url


def test_referee_pages_answer_the_referee_but_organiser_pages_do_not(client, event, referee):
    client.force_login(referee)
    for url in referee_urls(event.slug):
        assert client.get(url).status_code == 200, url
    for url in organiser_urls(event.slug)[1:]:
        assert client.get(url).status_code == 403, url


def test_a_stranger_gets_403_on_an_events_staff_pages(client, event, stranger):
    client.force_login(stranger)
    for url in organiser_urls(event.slug)[1:] + referee_urls(event.slug):
        assert client.get(url).status_code == 403, url


def test_unknown_events_sessions_and_tables_are_404(client, event, organiser):
    client.force_login(organiser)
    for url in [
        reverse("public:event", args=["nope"]),
        reverse("public:seating", args=[event.slug, 99]),
        reverse("referee:table", args=[event.slug, 1, 99]),
        reverse("public:standings_download", args=[event.slug, "doc"]),
    ]:
        assert client.get(url).status_code == 404, url


def test_the_referee_enters_a_hand_and_sees_the_running_score(client, table, referee):
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1])
    response = client.post(
        url + "hands/add/",
        {
            "how": "discard",
            "winner": "E",
            "discarder": "W",
            "fan": "12",
            "expected_number": "1",
        },
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'data-seat="E">36<' in page
    assert 'data-seat="W">-20<' in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"how": "discard", "winner": "E", "discarder": "W", "fan": "7"}, "at least 8 fan points"),
        ({"how": "discard", "winner": "E", "discarder": "E", "fan": "8"}, "cannot also be the discarder"),
        ({"how": "discard", "winner": "E", "fan": "8"}, "Choose who discarded"),
        ({"how": "self", "fan": "8"}, "Choose the winner"),
        ({"how": "self", "winner": "E", "fan": "lots"}, "Enter a whole number"),
        ({"how": "self", "winner": "Z", "fan": "8"}, "Select a valid choice"),
        ({"how": "self", "winner": "E", "fan": "8", "tiles": "{broken"}, "tiles could not be read"),
    ],
)
def test_bad_hands_get_a_clear_message_and_nothing_is_saved(client, table, referee, data, message):
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1])
    response = client.post(url + "hands/add/", {**data})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Hand.objects.exists()


def test_a_double_submitted_hand_is_saved_once(client, table, referee):
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1])
    data = {"how": "self", "winner": "N", "fan": "8", "expected_number": "1"}
    client.post(url + "hands/add/", data)
    response = client.post(url + "hands/add/", data)
    assert response.status_code == 422
    assert "already entered" in response.content.decode()
    assert Hand.objects.count() == 1


def test_the_organiser_creates_an_event_and_registers_a_player(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("manage:create_event"),
        {"name": "Autumn Cup", "slug": "", "rules": "mcr", "num_sessions": "3", "hands_per_session": "16"},
    )
    assert response.status_code == 302
    response = client.post(
        reverse("manage:add_player", args=["autumn-cup"]), {"name": "Mei", "country": "cn"}
    )
    assert response.status_code == 302
    page = client.get(reverse("manage:players", args=["autumn-cup"])).content.decode()
    assert "Mei" in page and "CN" in page


def test_an_event_form_without_hands_or_time_limit_is_refused(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:create_event"), {"name": "X", "rules": "mcr", "num_sessions": "3"})
    assert response.status_code == 200
    assert "Set hands per session" in response.content.decode()


def test_a_bad_player_list_shows_each_bad_row(client, event, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(organiser)
    upload = SimpleUploadedFile(
        "list.csv", b"name,country\nOk Person,Portugal\nBad,Atlantis\n", content_type="text/csv"
    )
    response = client.post(reverse("manage:import_players", args=[event.slug]), {"file": upload})
    page = response.content.decode()
    assert "Nothing was imported" in page
    assert "Row 3: country" in page
    assert not event.registrations.filter(player__name="Ok Person").exists()


def test_checking_in_by_htmx_returns_the_button_only(client, event, organiser):
    client.force_login(organiser)
    registration = event.registrations.first()
    response = client.post(
        reverse("manage:check_in", args=[event.slug, registration.code]),
        {"checked_in": "true"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert b"<html" not in response.content
    registration.refresh_from_db()
    assert registration.checked_in


def test_seating_with_a_wrong_player_count_shows_the_reason(client, event, organiser):
    from tournaments.services.registrations import PlayerRow, register_player

    register_player(event, PlayerRow(name="Ninth"), acting_user=organiser)
    client.force_login(organiser)
    response = client.post(reverse("manage:seat_session", args=[event.slug, 2]), {"seed": "1"}, follow=True)
    assert "9 players is not a multiple of four" in response.content.decode()


def test_a_hand_is_corrected_through_its_page_and_the_history_shows_both_versions(client, table, referee):
    from scoring.services.entry import HandEntry, record_hand

    record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    client.force_login(referee)
    url = reverse("referee:correct_hand", args=[table.round.tournament.slug, 1, 1, 1])
    page = client.get(url).content.decode()
    assert "E wins 8 from S" in page
    response = client.post(url, {"how": "self", "winner": "E", "fan": "10"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "v1: E wins 8 from S" in page and "v2: E wins 10 self-drawn" in page


def test_the_demo_events_of_every_rule_set_render(client, db):
    from django.core.management import call_command

    call_command("load_demo", stdout=__import__("io").StringIO())
    client.login(username="organiser", password="organiser-demo")
    for slug in ("demo-mcr", "demo-nmjl", "demo-babcock"):
        for url in [
            reverse("public:event", args=[slug]),
            reverse("public:results", args=[slug, 1]),
            reverse("public:standings", args=[slug]),
            reverse("manage:event", args=[slug]),
            reverse("manage:settings", args=[slug]),
            reverse("referee:table", args=[slug, 1, 1]),
            reverse("referee:table", args=[slug, 2, 1]),
            reverse("referee:correct_hand", args=[slug, 1, 1, 1]),
        ]:
            assert client.get(url).status_code == 200, url


def test_the_cached_standings_change_as_soon_as_a_table_is_confirmed(client, table, referee, organiser):
    from scoring.services.confirmation import confirm_table
    from scoring.services.entry import HandEntry, record_hand, set_table_finished

    url = reverse("public:standings", args=[table.round.tournament.slug])
    winner = table.seats.get(wind="S").registration.player.name
    before = client.get(url).content.decode()
    record_hand(table, HandEntry(winner="S", fan=88), acting_user=referee)
    set_table_finished(table, True, acting_user=referee)
    provisional = client.get(url).content.decode()
    assert ">288<" not in provisional.replace(" ", "").replace("\n", "")  # not confirmed: not counted
    assert "tables confirmed" not in provisional  # only what is confirmed is public
    confirm_table(table, acting_user=organiser)
    after = client.get(url).content.decode()
    assert before != after
    assert ">288<" in after.replace(" ", "").replace("\n", "")  # 3 x (88 + 8)
    assert after.index(winner) < after.index("</tbody>")


def test_a_player_finds_their_seats_and_results_on_their_own_page(client, demo_event):
    from scoring.standings_cache import standings_rows

    leader = standings_rows(demo_event)[0]
    page = client.get(reverse("public:player", args=[demo_event.slug, leader["player"]])).content.decode()
    assert leader["name"] in page
    assert "Rank <strong>1</strong>" in page
    assert "not seated yet" not in page  # the demo seats all three sessions
    standings = client.get(reverse("public:standings", args=[demo_event.slug])).content.decode()
    assert reverse("public:player", args=[demo_event.slug, leader["player"]]) in standings
    assert client.get(reverse("public:player", args=[demo_event.slug, "nobody"])).status_code == 404


def test_the_public_results_list_the_fans_of_a_hand_entered_with_tiles(client, table, referee):
    from scoring.services.entry import HandEntry, record_hand

    tiles = {
        "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5s", "5s"],
        "melds": [],
        "win_tile": "9m",
        "self_drawn": False,
        "seat_wind": "S",
        "prevalent_wind": "E",
        "flowers": 0,
    }
    from scoring.rules.mcr.calculator import score_request

    fan = score_request(tiles)["total"]
    record_hand(table, HandEntry(winner="S", discarder="E", fan=fan, tiles=tiles), acting_user=referee)
    page = client.get(reverse("public:results", args=[table.round.tournament.slug, 1])).content.decode()
    assert "Pure Straight 16" in page


def test_the_organiser_prints_a_scoresheet_per_table_with_its_players(client, event, organiser):
    from pypdf import PdfReader

    from scoring.tests.jobs import fetch

    client.force_login(organiser)
    response = fetch(client, reverse("manage:scoresheets", args=[event.slug, 1]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(__import__("io").BytesIO(response.content))
    assert len(reader.pages) == event.rounds.get(number=1).tables.count() == 2
    first = reader.pages[0].extract_text()
    for seat in event.rounds.get(number=1).tables.get(number=1).seats.select_related("registration__player"):
        assert seat.registration.player.name in first
    assert "Session 1 · Table 1" in first
    assert "/referee/test-open/sessions/1/tables/1/" in first
    assert fetch(client, reverse("manage:scoresheets", args=[event.slug, 1])).status_code == 200
    client.logout()
    assert client.get(reverse("manage:scoresheets", args=[event.slug, 1])).status_code == 302


def test_the_player_page_makes_the_same_few_queries_whatever_the_number_of_sessions(
    client, demo_event, django_assert_max_num_queries
):
    # 16 on a cold cache: the event's version for the page cache, the standings (8 queries, whatever the
    # event's size) and the page's own 7 (seats at the player's tables in one, their penalties in one), none
    # of them per session.
    with django_assert_max_num_queries(16):
        assert client.get(reverse("public:player", args=[demo_event.slug, "p1"])).status_code == 200


def test_saving_a_hand_reads_only_what_the_save_needs(client, table, referee, django_assert_max_num_queries):
    # Each query is a round trip while a hall of phones keeps the cores busy. 14 in this count
    # (a savepoint's two included): session, user, the event with the referee's role, the table and its
    # seats for the form's choices; then the table's lock, its state in one query (seats, hands, totals,
    # rulings, signatures, confirmation, clock), the hand, the session's, the table's and the event's
    # versions and the audit entry. It was 32 when the form prefetched every result, 23 with a query per
    # fact read; the table's version (its public card drawn again alone) made 13 into 14.
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1]) + "hands/add/"
    hand = {"how": "discard", "winner": "E", "discarder": "W", "fan": "12"}
    assert client.post(url, {**hand, "expected_number": "1"}).status_code == 302
    with django_assert_max_num_queries(14):
        assert client.post(url, {**hand, "expected_number": "2"}).status_code == 302
    assert [h.number for h in Hand.objects.filter(is_current=True).order_by("number")] == [1, 2]


def test_a_missing_page_and_a_refused_one_use_the_sites_layout_and_link_onwards(client, event, stranger):
    missing = client.get("/e/no-such-event/")
    assert missing.status_code == 404
    assert "There is no such page" in missing.content.decode() and 'href="/"' in missing.content.decode()
    client.force_login(stranger)
    refused = client.get(reverse("manage:event", args=[event.slug]))
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "You may not open this page" in page and "your events" in page


def test_a_poll_of_unchanged_standings_is_answered_304(client, demo_event):
    url = reverse("public:standings", args=[demo_event.slug])
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and not again.content
    sorted_page = client.get(
        url + "?sort=name", headers={"HX-Request": "true", "If-None-Match": first["ETag"]}
    )
    assert sorted_page.status_code == 200
