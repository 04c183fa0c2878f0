"""The referee's table page at a real table: where a save lands, what each rule set cites,
the players in seat order, the appeals link, errors said once, and the Chinese page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.visible_text import shown_texts


def table_url(table):
    return reverse("referee:table", args=[table.round.tournament.slug, table.round.number, table.number])


def test_a_saved_hand_lands_on_the_next_hands_form(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    data = {"how": "discard", "winner": "E", "discarder": "W", "fan": "12", "expected_number": "1"}
    response = client.post(url + "hands/add/", data)
    assert response.status_code == 302
    assert response["Location"] == url + "#hand-form"
    page = client.get(url).content.decode()
    assert page.count('id="hand-form"') == 1
    # What was saved is said there, in the form the phone scrolls to, once (not at the top, out of sight).
    assert page.count("Hand saved (") == 1
    assert page.index('id="hand-form"') < page.index("Hand saved (") < page.index("<h2>Hand 2</h2>")


def test_the_last_hand_saved_is_said_at_the_top_where_the_complete_table_lands(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    for number in range(1, 5):  # the fixture's sessions have 4 hands
        draw = {"how": "draw", "expected_number": str(number)}
        page = client.post(url + "hands/add/", draw, follow=True).content.decode()
    assert 'id="hand-form"' not in page
    assert page.count("Hand saved (") == 1 and page.index("Hand saved (") < page.index("<h1>")


def rule_set_table(organiser, referee, rules):
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    tournament = event_services.create_tournament(
        event_services.EventDetails(name=f"{rules} night", rules=rules, num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return table


MCR_ONLY = ("rule 84", "rule 94", "rules 79, 80, 83, 88", "rule 85e", "tiles revealed")


@pytest.mark.parametrize("rules", ["nmjl", "babcock"])
def test_an_nmjl_or_classical_table_page_cites_no_mcr_rule(client, organiser, referee, rules):
    table = rule_set_table(organiser, referee, rules)
    client.force_login(organiser)  # who also sees the appeals link
    page = client.get(table_url(table)).content.decode().lower()
    # NMJL's own rulings cite its rules as "NMJL rule 94" (peeking at the blind pass): its book's, not MCR's.
    page = page.replace("nmjl rule", "nmjl's")
    for text in MCR_ONLY:
        assert text not in page, text
    assert "only for points per tile" not in page  # the penalty form's tiles field
    assert "paid to each other player" in page  # the choice is there, without MCR's number


def test_an_mcr_table_page_still_cites_sloper(client, table, organiser):
    client.force_login(organiser)
    page = client.get(table_url(table)).content.decode().lower()
    for text in MCR_ONLY:
        assert text in page, text
    assert "only for points per tile" in page


def test_the_appeal_form_cites_the_rule_sets_own_rules(client, organiser, referee):
    from scoring.services import rulings

    nmjl = rule_set_table(organiser, referee, "nmjl")
    player = nmjl.seats.get(wind="E").registration
    penalty = rulings.add_ruling(nmjl, player, "warning", reason="noise", acting_user=organiser)
    client.force_login(organiser)
    page = client.get(table_url(nmjl) + f"penalties/{penalty.pk}/appeal/").content.decode()
    # What the referee reads (a CSRF token or an address may hold the digits "94").
    assert "94" not in " ".join(shown_texts(page))
    assert "Written statement" in page


def options(page: str, form_start: str, name: str) -> list[str]:
    """The option labels of the select ``name`` in the form whose action contains ``form_start``."""
    form = page[page.index(form_start) :]
    select = form[form.index(f'name="{name}"') :]
    select = select[: select.index("</select>")]
    return [part.split(">", 1)[1].split("<", 1)[0] for part in select.split("<option")[1:]]


def seat_labels(table):
    names = {seat.wind: seat.registration.player.name for seat in table.seats.all()}
    return [
        f"{names[w]} ({word} seat)"
        for w, word in zip("ESWN", ("East", "South", "West", "North"), strict=True)
    ]


def test_the_penalty_lateness_and_appeal_lists_are_in_seat_order_with_the_wind(client, table, referee):
    from scoring.services import rulings

    client.force_login(referee)
    url = table_url(table)
    page = client.get(url).content.decode()
    expected = seat_labels(table)
    assert options(page, "penalties/add/", "player") == expected
    assert options(page, "penalties/add/", "paid_to_player") == ["—", *expected]
    assert options(page, "late/", "player") == expected
    east = table.seats.get(wind="E").registration
    penalty = rulings.add_ruling(table, east, "warning", reason="noise", acting_user=referee)
    appeal_page = client.get(url + f"penalties/{penalty.pk}/appeal/").content.decode()
    assert options(appeal_page, "<form", "appellant") == expected


def test_the_penalty_form_starts_with_no_ruling_chosen_and_shows_points_only_for_other(
    client, table, referee
):
    client.force_login(referee)
    page = client.get(table_url(table)).content.decode()
    form = page[page.index("penalties/add/") : page.index("Record penalty")]
    kinds = form[form.index('name="kind"') : form.index("</select>", form.index('name="kind"'))]
    # The referee picks: nothing but the empty choice is selected, so nothing is recorded by default.
    assert kinds.count("selected") == 1 and '<option value="" selected>—</option>' in kinds
    assert 'data-shown-for="other"><label for="id_points"' in form
    assert 'data-shown-for="other"><label for="id_rule"' in form
    # A ruling that bars a win asks for the hand, one paid per tile for the tiles (MCR 84, 85e).
    hand = form[: form.index('for="id_hand_number"')].rsplit("data-shown-for=", 1)[1]
    assert "see_wall_tile" in hand and "other" not in hand
    # Nothing chosen is refused and nothing is saved.
    data = {"player": str(table.seats.get(wind="E").registration.code), "expected_position": "0"}
    response = client.post(table_url(table) + "penalties/add/", data)
    assert response.status_code == 422
    assert "Choose a ruling, or Other to enter the points." in response.content.decode()
    assert not table.penalties.exists()


@pytest.fixture
def chief(event, organiser):
    from django.contrib.auth import get_user_model

    from tournaments.models import Role
    from tournaments.services import events as event_services

    user = get_user_model().objects.create_user("chiara", password="pw-chiara-123")
    event_services.grant_role(event, user, Role.CHIEF_REFEREE, acting_user=organiser)
    return user


def test_only_those_who_decide_appeals_are_shown_the_appeals_link(client, table, referee, chief):
    appeals = reverse("referee:appeals", args=[table.round.tournament.slug])
    index = reverse("referee:index", args=[table.round.tournament.slug])
    client.force_login(referee)
    assert client.get(appeals).status_code == 403
    assert appeals not in client.get(table_url(table)).content.decode()
    assert appeals not in client.get(index).content.decode()
    client.force_login(chief)
    assert client.get(appeals).status_code == 200
    assert f'href="{appeals}"' in client.get(table_url(table)).content.decode()
    assert f'href="{appeals}"' in client.get(index).content.decode()


@pytest.mark.parametrize(
    ("status", "said"),
    [("upheld", "Appeal granted: ruling withdrawn"), ("denied", "Appeal rejected: ruling stands")],
)
def test_a_decision_reads_one_way_only_on_the_buttons_the_message_and_the_lists(
    client, table, referee, chief, status, said
):
    from scoring.services import appeals as appeals_service
    from scoring.services import rulings

    penalty = rulings.add_ruling(
        table, table.seats.get(wind="S").registration, "late_pung", acting_user=referee
    )
    appeal = appeals_service.file_appeal(
        penalty, statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )
    slug = table.round.tournament.slug
    client.force_login(chief)
    page = client.get(reverse("referee:appeals", args=[slug])).content.decode()
    assert 'value="upheld" class="small">Appeal granted: ruling withdrawn</button>' in page
    assert 'value="denied" class="small secondary">Appeal rejected: ruling stands</button>' in page
    assert "Uphold" not in page and "Deny" not in page
    response = client.post(
        reverse("referee:decide", args=[slug, appeal.pk]), {"status": status, "reasons": "Seen"}
    )
    page = client.get(response["Location"]).content.decode()
    assert f"{said}. The decision is recorded." in page
    assert f"{said}; decided by chiara" in page
    for either_way in ("Upheld", "Denied", ">upheld", ">denied", "upheld<", "denied<"):
        assert either_way not in page, either_way
    assert f"· {said.lower()}" in client.get(table_url(table)).content.decode()


def test_a_refused_hand_says_why_once(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    data = {"how": "self", "winner": "N", "fan": "8", "expected_number": "1"}
    client.post(url + "hands/add/", data)
    page = client.post(url + "hands/add/", data).content.decode()
    assert page.count("already entered") == 1


def test_a_form_error_is_said_once(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    page = client.post(url + "hands/add/", {"how": "discard", "winner": "E", "fan": "8"}).content.decode()
    assert page.count("Choose who discarded") == 1
    page = client.post(url + "late/", {"player": "nobody", "minutes": "5"}).content.decode()
    assert page.count("Select a valid choice") == 1


def test_a_refused_penalty_and_a_refused_correction_say_why_once(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    east = str(table.seats.get(wind="E").registration.code)
    page = client.post(
        url + "penalties/add/", {"player": east, "kind": "other", "paid_to": "none"}
    ).content.decode()
    assert page.count("Enter the penalty points") == 1
    client.post(url + "hands/add/", {"how": "self", "winner": "N", "fan": "8", "expected_number": "1"})
    data = {"how": "self", "winner": "N", "fan": "8", "expected_version": "7"}
    page = client.post(url + "hands/1/correct/", data).content.decode()
    assert page.count("was changed by someone else") == 1


CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_the_chinese_table_page_gives_the_tile_picker_its_words_and_winds_by_name(client, table, referee):
    import json

    client.force_login(referee)
    page = client.get(table_url(table), **CHINESE).content.decode()
    words = json.loads(
        re.search(r'<script id="tp-words" type="application/json">(.*?)</script>', page).group(1)
    )
    assert words["phrases"]["pick_tiles"] == "选择牌张以查看番种。"
    assert words["phrases"]["draw_no_tiles"] == "流局：不保存牌。"
    assert "Pick tiles" not in page
    picker = page[page.index('id="tp-seat_wind"') :]
    seat_winds = re.findall(r'<option value="[ESWN]">([^<]*)</option>', picker[: picker.index("</select>")])
    assert seat_winds == list("东南西北")


def test_the_chinese_player_page_names_the_seat_winds(client, table):
    east = table.seats.get(wind="E").registration
    page = client.get(
        reverse("public:player", args=[table.round.tournament.slug, east.code]), **CHINESE
    ).content.decode()
    assert '<span class="wind seat-wind">东</span>' in page
    assert not re.search(r'<small class="muted">[ESWN]</small>', page)
