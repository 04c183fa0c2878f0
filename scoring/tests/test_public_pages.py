"""The public pages players follow on their phones: live fragments answered 304 until a
result changes, sort cues, the player search, team standings, side rankings and the player page."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.urls import reverse

from scoring import standings_page, views_public
from scoring.services.confirmation import confirm_table
from scoring.services.entry import HandEntry, record_hand, set_table_finished
from scoring.services.penalties import add_penalty
from tournaments.services import events as event_services
from tournaments.services import registrations as event_registrations
from tournaments.services import reseating

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
PURE_STRAIGHT = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5s", "5s"],
    "melds": [],
    "win_tile": "9m",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 0,
}


def finish(table, referee, organiser, hands):
    for entry in hands:
        record_hand(table, entry, acting_user=referee)
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)


def code_at(table, wind):
    return table.seats.get(wind=wind).registration.code


def name_at(table, wind):
    return table.seats.get(wind=wind).registration.player.name


# --- live without reloading ------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["results", "player", "teams", "side"])
def test_a_poll_is_answered_304_until_a_table_is_confirmed(client, table, referee, organiser, page):
    slug = table.round.tournament.slug
    url = {
        "results": reverse("public:results", args=[slug, 1]),
        "player": reverse("public:player", args=[slug, code_at(table, "S")]),
        "teams": reverse("public:teams", args=[slug]),
        "side": reverse("public:side", args=[slug]),
    }[page]
    first = client.get(url, headers=HTMX)
    assert first.status_code == 200 and first["ETag"] and "<html" not in first.content.decode()
    assert "HX-Request" in first["Vary"]
    again = client.get(url, headers={**HTMX, "If-None-Match": "W/" + first["ETag"]})
    assert again.status_code == 304 and not again.content
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    changed = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_results_page_polls_its_cards_and_shows_a_confirmed_table_without_a_reload(
    client, table, referee, organiser
):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    page = client.get(url).content.decode()
    assert 'hx-get="' + url + '"' in page and 'hx-trigger="every 30s"' in page
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    cards = client.get(url, headers=HTMX).content.decode()
    assert '<span class="state confirmed">confirmed</span>' in cards
    assert ">288<" in cards.replace(" ", "")  # 3 x (88 + 8), MCR rule 67


def test_a_hand_entered_draws_again_only_its_own_tables_card(client, event, referee, organiser):
    # While hands pour in, each table's card is kept under its results_version, so drawing the
    # session's page again draws only the tables that changed (a hand, a penalty at an unconfirmed table);
    # a change to the event's public pages (an audited organiser's change: a check-in here) draws them all.
    first, second = event.rounds.get(number=1).tables.order_by("number")
    url = reverse("public:results", args=[event.slug, 1])

    def cards_drawn(change) -> tuple[list[list[int]], str]:
        with mock.patch.object(
            views_public, "_result_card_data", wraps=views_public._result_card_data
        ) as draw:
            change()
            page = client.get(url).content.decode()
        return [sorted(call.args[2]) for call in draw.call_args_list], page

    assert cards_drawn(lambda: None)[0] == [sorted([first.pk, second.pk])]
    drawn, _ = cards_drawn(
        lambda: record_hand(first, HandEntry(winner="N", discarder="W", fan=8), acting_user=referee)
    )
    assert drawn == [[first.pk]]
    drawn, page = cards_drawn(
        lambda: record_hand(first, HandEntry(winner="E", discarder="S", fan=9), acting_user=referee)
    )
    assert drawn == [[first.pk]]
    card_one, card_two = page.split('id="table-1"')[1].split('id="table-2"')
    assert "<summary>2 hands</summary>" in card_one and "<summary>" not in card_two
    # MCR rule 67a-b (seeds/003_2541481d343502a5.txt, lines 2307-2308): the discarder pays basic + 8, the
    # others 8: East paid 8 for North's first hand and won 9 + 8 + 8 + 8 in the second.
    assert "E wins 9 from S" in card_one and ">25<" in card_one
    assert cards_drawn(lambda: None)[0] == []
    south = second.seats.get(wind="S").registration
    drawn, _ = cards_drawn(
        lambda: add_penalty(second, south, 10, paid_to="none", reason="slow play", acting_user=referee)
    )
    assert drawn == [[second.pk]]
    drawn, _ = cards_drawn(lambda: event_registrations.set_checked_in(south, False, acting_user=organiser))
    assert drawn == [sorted([first.pk, second.pk])]


def test_the_player_page_polls_its_body_and_shows_the_confirmed_session(client, table, referee, organiser):
    code = code_at(table, "S")
    url = reverse("public:player", args=[table.round.tournament.slug, code])
    assert "Not ranked yet" in client.get(url).content.decode()
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    body = client.get(url, headers=HTMX).content.decode()
    assert "Rank <strong>1</strong>" in body and ">288<" in body.replace(" ", "")


# --- sort cues ------------------------------------------------------------------------------------


def test_the_standings_headers_say_how_the_table_is_sorted(client, demo_event):
    url = reverse("public:standings", args=[demo_event.slug])
    page = client.get(url).content.decode()
    assert re.search(
        r'aria-sort="ascending"[^>]*>\s*<a class="sort-link"[^>]*>#<span class="sort-cue"[^>]*>▲', page
    )
    assert page.count('aria-sort="none"') >= 2
    by_score = client.get(url + "?sort=-score").content.decode()
    assert re.search(r'aria-sort="descending"[^>]*>\s*<a[^>]*>Score<span class="sort-cue"[^>]*>▼', by_score)
    scores = [int(s) for s in re.findall(r'<td class="num">(-?\d+)</td>\s*</tr>', by_score)]
    assert scores == sorted(scores, reverse=True) and len(scores) > 3


def test_the_standings_rows_carry_the_name_the_search_box_filters_on(client, demo_event):
    page = client.get(reverse("public:standings", args=[demo_event.slug])).content.decode()
    assert 'data-name="Marta García"' in page and 'data-filter="#standings table.standings"' in page


# --- finding a player -----------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["garcia", "GARCÍA", "marta  garc", "p13", "Garcı́a"])
def test_a_player_finds_their_seat_ignoring_case_and_accents(client, demo_event, query):
    page = client.get(reverse("public:find", args=[demo_event.slug]), {"q": query}).content.decode()
    assert "Marta García" in page
    assert reverse("public:player", args=[demo_event.slug, "p13"]) in page
    assert "Session 3: table 4, West" in page  # the latest seated session (fixtures/demo-mcr.json)


@pytest.mark.parametrize(
    "query",
    [
        "%",
        "'; DROP TABLE x; --",
        "<script>alert(1)</script>",
        "\x00\x1f",
        "🀄" * 500,
        "a" * 5000,
        "   ",
        "%%%",
    ],
)
def test_a_search_with_odd_characters_answers_a_page_never_an_error(client, demo_event, query):
    response = client.get(reverse("public:find", args=[demo_event.slug]), {"q": query})
    assert response.status_code == 200
    page = response.content.decode()
    assert "<script>alert" not in page and "\x00" not in page
    assert "Marta García" not in page


def test_a_search_for_nobody_says_so(client, demo_event):
    page = client.get(reverse("public:find", args=[demo_event.slug]), {"q": "zzzz"}).content.decode()
    assert "Nobody matches “zzzz”" in page


def test_unknown_events_and_players_get_the_friendly_missing_page(client, demo_event):
    for url in [
        reverse("public:find", args=["no-such-event"]) + "?q=ana",
        reverse("public:teams", args=["no-such-event"]),
        reverse("public:side", args=["no-such-event"]),
        reverse("public:player", args=[demo_event.slug, "nobody"]),
        reverse("public:player", args=[demo_event.slug, "%F0%9F%80%84"]),
    ]:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "There is no such page" in response.content.decode()


# --- team standings -------------------------------------------------------------------------------


def test_team_standings_sum_all_members_or_the_best_n(client, table, referee, organiser):
    tournament = table.round.tournament
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    other = tournament.rounds.get(number=1).tables.get(number=2)
    finish(other, referee, organiser, [HandEntry(winner="E", discarder="W", fan=8)])
    url = reverse("public:teams", args=[tournament.slug])
    from scoring.side_rankings import event_team_standings

    every = event_team_standings(tournament)
    registrations = {r.code: r for r in tournament.registrations.all()}
    from scoring.standings_cache import standings_rows

    rows = {row["player"]: row for row in standings_rows(tournament)}
    for team in every:
        members = [code for code, r in registrations.items() if r.team == team.team]
        assert team.score == sum(rows[code]["score"] for code in members)
    page = client.get(url).content.decode()
    assert "Each team counts all its members." in page
    for team in every:
        assert f"<td>{team.team}</td>" in page

    event_services.update_settings(tournament, {"teams.best": 1}, acting_user=organiser)
    tournament.refresh_from_db()
    best = event_team_standings(tournament)
    for team in best:
        members = [code for code, r in registrations.items() if r.team == team.team]
        # the best member as the standings rank them (table points, then score: MCR rule 73)
        best_member = max(members, key=lambda code: (rows[code]["table_points"], rows[code]["score"]))
        assert team.score == rows[best_member]["score"]
        assert len(team.counted) == 1
    page = client.get(url).content.decode()
    assert "Each team counts its best member." in page and "not-counted" in page


def test_the_team_setting_is_checked_like_every_setting(organiser, event):
    from tournaments.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        event_services.update_settings(event, {"teams.best": -1}, acting_user=organiser)
    assert refused.value.code == "bad_settings"
    with pytest.raises(ServiceError):
        event_services.update_settings(event, {"teams.best": "three"}, acting_user=organiser)


def test_the_standings_json_keeps_its_contract_without_teams(demo_event):
    from scoring.standings_cache import standings_rows

    row = standings_rows(demo_event)[0]
    assert set(row) == {"rank", "player", "name", "table_points", "score", "sessions"}


# --- side rankings --------------------------------------------------------------------------------


def test_side_rankings_count_only_confirmed_tables_and_show_the_best_hand_with_its_tiles(
    client, table, referee, organiser
):
    from scoring.rules.mcr.calculator import score_request

    tournament = table.round.tournament
    url = reverse("public:side", args=[tournament.slug])
    fan = score_request(PURE_STRAIGHT)["total"]
    record_hand(
        table, HandEntry(winner="S", discarder="E", fan=fan, tiles=PURE_STRAIGHT), acting_user=referee
    )
    record_hand(table, HandEntry(winner="W", fan=8), acting_user=referee)
    record_hand(table, HandEntry(winner="W", fan=9), acting_user=referee)
    page = client.get(url).content.decode()
    assert (
        page.count("Nothing yet: only confirmed tables count.") == 3
    )  # MCR: best hand, hands won, self-drawn
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    page = client.get(url).content.decode()
    best = page[page.index('id="side-best_hand"') : page.index('id="side-hands_won"')]
    assert name_at(table, "S") in best and f'<td class="num">{fan}</td>' in best
    assert "Pure Straight 16" in best and 'alt="Nine of Characters"' in best
    assert "session 1, table 1, hand 1" in best
    won = page[page.index('id="side-hands_won"') : page.index('id="side-self_drawn"')]
    assert won.index(name_at(table, "W")) < won.index(name_at(table, "S"))
    self_drawn = page[page.index('id="side-self_drawn"') :]
    assert name_at(table, "W") in self_drawn and name_at(table, "S") not in self_drawn


def test_an_nmjl_event_offers_games_won_and_jokerless_wins(client, db):
    import json

    from conftest import FIXTURES
    from scoring.interchange import import_event

    with (FIXTURES / "demo-nmjl.json").open(encoding="utf-8") as handle:
        tournament = import_event(json.load(handle))
    page = client.get(reverse("public:side", args=[tournament.slug])).content.decode()
    assert "Most games won" in page and "Most jokerless wins" in page
    assert "Best single hand" not in page and "Most self-drawn wins" not in page


# --- the player page ------------------------------------------------------------------------------


def test_the_player_page_shows_place_at_table_rank_after_each_session_penalties_and_a_chart(
    client, table, referee, organiser
):
    tournament = table.round.tournament
    south = table.seats.get(wind="S").registration
    north = table.seats.get(wind="N").registration
    record_hand(table, HandEntry(winner="S", discarder="N", fan=20), acting_user=referee)
    add_penalty(table, north, 10, paid_to="none", rule="MCR 83", reason="slow play", acting_user=referee)
    url = reverse("public:player", args=[tournament.slug, north.code])
    assert "slow play" not in client.get(url).content.decode()  # not confirmed: not shown yet
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    page = client.get(url).content.decode()
    row = page[page.index('data-session="1"') : page.index("</tr>", page.index('data-session="1"'))]
    cells = re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)
    assert cells[-2] == "4"  # last at the table: -28 - 10 (penalty, rule 83)
    assert "slow play" in page and "MCR 83" in page and "Session 1: 10 points" in page
    assert '<svg class="chart"' in page and "<script" not in page[page.index("<svg") : page.index("</svg>")]
    south_page = client.get(reverse("public:player", args=[tournament.slug, south.code])).content.decode()
    row = south_page[south_page.index('data-session="1"') :]
    assert re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)[2:4] == [
        "1",
        "1",
    ]  # first at the table, first overall


def test_the_demo_events_best_hands_show_their_tiles_and_fans(client, demo_event):
    page = client.get(reverse("public:side", args=[demo_event.slug])).content.decode()
    best = page[page.index('id="side-best_hand"') : page.index('id="side-hands_won"')]
    # fixtures/demo-mcr.json: 64 fan points claimed for each (a lower claim stands, MCR rule 65b).
    assert best.count('<td class="num">64</td>') == 2
    assert "Little Three Dragons 64" in best and "Little Four Winds 64" in best
    assert 'alt="Red Dragon"' in best and 'alt="North Wind"' in best


def test_a_substitutes_score_counts_for_the_place_at_the_table(client, organiser, referee):
    from tournaments.models import Role

    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Sub Open", slug="sub-open", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="substitutes", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]:
        event_registrations.register_player(
            tournament, event_registrations.PlayerRow(name=name), acting_user=organiser
        )
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    from tournaments.release import publish_everything

    tournament = publish_everything(tournament, acting_user=organiser)
    seat = next(
        s
        for t in tournament.rounds.get(number=1).tables.all()
        for s in t.seats.select_related("registration")
        if s.registration.is_substitute
    )
    table = seat.table
    # The substitute self-draws 88: the three others pay 96 each (MCR rule 67) and share second place,
    # splitting the table points of places 2 to 4: (2 + 1 + 0) / 3 = 1 (rule 71).
    finish(table, referee, organiser, [HandEntry(winner=seat.wind, fan=88)])
    other = table.seats.exclude(registration__is_substitute=True).select_related("registration").first()
    page = client.get(
        reverse("public:player", args=[tournament.slug, other.registration.code])
    ).content.decode()
    row = page[page.index('data-session="1"') :]
    assert re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)[:3] == ["-96", "1", "2"]


def test_a_withdrawn_player_is_not_found_by_the_search(client, event, organiser):
    from tournaments.desk import set_withdrawn

    url = reverse("public:find", args=[event.slug])
    assert "Flo" in client.get(url, {"q": "flo"}).content.decode()
    set_withdrawn(event.registrations.get(player__name="Flo"), True, acting_user=organiser)
    assert "Nobody matches" in client.get(url, {"q": "flo"}).content.decode()


def test_only_each_teams_best_n_members_count_and_members_are_listed_best_first():
    from scoring.exports.data import team_standings

    rows = [
        {"rank": 1, "player": "a", "name": "A", "table_points": 8.0, "score": 90},
        {"rank": 2, "player": "b", "name": "B", "table_points": 6.0, "score": 10},
        {"rank": 3, "player": "c", "name": "C", "table_points": 5.0, "score": 40},
        {"rank": 4, "player": "d", "name": "D", "table_points": 1.0, "score": -140},
    ]
    teams = {"a": "X", "d": "X", "b": "Y", "c": "Y"}
    every = team_standings(rows, teams, True)
    assert [(t.team, t.table_points, t.score) for t in every] == [("Y", 11.0, 50), ("X", 9.0, -50)]
    best = team_standings(rows, teams, True, best=1)
    assert [(t.team, t.table_points, t.score, t.counted) for t in best] == [
        ("X", 8.0, 90, ["A"]),
        ("Y", 6.0, 10, ["B"]),
    ]
    assert best[0].members == ["A", "D"]


def test_a_team_with_fewer_members_who_played_is_listed_below_the_complete_teams_unranked():
    # After one confirmed table, a one-member team led four-member teams by summing fewer results.
    from scoring.exports.data import team_standings

    rows = [
        {"rank": 1, "player": "a", "name": "A", "table_points": 4.0, "score": 30},
        {"rank": 2, "player": "b", "name": "B", "table_points": 2.0, "score": 10},
        {"rank": 3, "player": "c", "name": "C", "table_points": 1.0, "score": -5},
        {"rank": 4, "player": "d", "name": "D", "table_points": 0.0, "score": -35},
        {"rank": 5, "player": "e", "name": "E", "table_points": 0.0, "score": -40},
    ]
    teams = {"a": "Solo", "b": "Pair", "c": "Pair", "d": "Low", "e": "Low"}
    every = team_standings(rows, teams, True)
    assert [(t.rank, t.team, t.incomplete) for t in every] == [
        (1, "Pair", False),
        (2, "Low", False),
        (None, "Solo", True),  # 4 table points from one member: not ahead of the pairs' sums
    ]
    assert every[-1].needed == 2 and every[-1].members == ["A"]
    # best N: a team complete with N members is ranked on its best N; fewer than N is incomplete
    best = team_standings(rows, teams, True, best=2)
    assert [(t.rank, t.team) for t in best] == [(1, "Pair"), (2, "Low"), (None, "Solo")]
    # N larger than any team has: N is what the largest team has, so nobody is left unranked for it
    assert [t.rank for t in team_standings(rows, teams, True, best=4)] == [1, 2, None]
    # when every team has played as many, all are ranked as before
    assert all(t.rank for t in team_standings(rows, teams, True, best=1))


def test_the_team_page_marks_an_incomplete_team_and_says_why(client, table, referee, organiser):
    tournament = table.round.tournament
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    # the four who played are in four teams (teammates are seated apart); put two of them in one team
    first, second = (seat.registration for seat in table.seats.order_by("wind")[:2])
    tournament.registrations.filter(pk=second.pk).update(team=first.team)
    from scoring.side_rankings import event_team_standings

    teams = event_team_standings(tournament)
    assert (teams[0].rank, teams[0].team, teams[0].incomplete) == (1, first.team, False)
    assert all(t.incomplete and t.rank is None and t.needed == 2 for t in teams[1:]) and len(teams) == 3
    page = client.get(reverse("public:teams", args=[tournament.slug])).content.decode()
    assert page.count("incomplete: 1 of 2 members played") == 2
    assert "fewer results are not a better sum" in page
    from scoring.exports.standings import StandingsPDF
    from scoring.tests.test_exports import pdf_text

    text = pdf_text(StandingsPDF(tournament).render()[2])
    assert text.count("incomplete: 1 of 2 members played") == 2


# --- the standings page, polled every second ---------------------------------------------------------------


def test_the_standings_page_polls_every_second(client, table):
    url = reverse("public:standings", args=[table.round.tournament.slug])
    page = client.get(url).content.decode()
    assert 'hx-get="' + url + '"' in page and 'hx-trigger="every 1s"' in page


def test_a_staff_poll_of_the_standings_is_304_before_anything_is_drawn_until_a_confirmation(
    client, table, referee, organiser, django_assert_max_num_queries
):
    # The staff's polls are never stored (a session cookie): without the versions' ETag each would draw
    # the whole table every second (docs/public-pages.md, "Live without reloading").
    client.force_login(referee)
    url = reverse("public:standings", args=[table.round.tournament.slug])
    first = client.get(url, headers=HTMX)
    assert first.status_code == 200 and first["ETag"]
    with mock.patch.object(standings_page, "cached_standings_rows") as rows:
        with django_assert_max_num_queries(8):
            again = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
        rows.assert_not_called()
    assert again.status_code == 304 and not again.content
    finish(table, referee, organiser, [HandEntry(winner="S", fan=88)])
    changed = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert ">288<" in changed.content.decode().replace(" ", "")  # 3 x (88 + 8), MCR rule 67


def test_the_staff_provisional_poll_changes_with_a_hand_entered(client, table, referee):
    client.force_login(referee)
    url = reverse("public:standings", args=[table.round.tournament.slug]) + "?provisional=1"
    first = client.get(url, headers=HTMX)
    record_hand(table, HandEntry(winner="N", discarder="W", fan=8), acting_user=referee)
    changed = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_standings_poll_skips_nginx_s_copy_and_the_page_does_not(client, table):
    # nginx's one-second copy lives 1 to 2 s: the poll every second would show a confirmation up to 3 s late
    url = reverse("public:standings", args=[table.round.tournament.slug])
    assert client.get(url, headers=HTMX)["X-Accel-Expires"] == "0"
    assert client.get(url, headers=HTMX)["X-Accel-Expires"] == "0"  # the stored answer too
    assert "X-Accel-Expires" not in client.get(url)


def test_the_other_language_is_offered_at_the_top_of_the_page(client, table):
    # A phone finds it without scrolling to the foot, where the switch lists every language.
    url = reverse("public:standings", args=[table.round.tournament.slug])
    page = client.get(url).content.decode()
    header = page[page.index("<header") : page.index("</header>")]
    assert 'class="inline language-toggle"' in header and 'value="zh-hans"' in header
    assert 'value="en"' not in header  # the language shown is not offered again
    chinese = client.get(url, headers={"Accept-Language": "zh-hans"}).content.decode()
    header = chinese[chinese.index("<header") : chinese.index("</header>")]
    assert 'value="en"' in header and 'value="zh-hans"' not in header
