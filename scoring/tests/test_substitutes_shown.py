"""A substitute who took over a seat mid-session, shown where a tournament director and the
players look, and named by a penalty for an offence during their hands."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.exports import ScoresheetsPDF
from scoring.models import Penalty
from scoring.services import confirmation, entry, penalties, queries, rulings, seat_changes, standings
from scoring.services.entry import HandEntry
from tournaments.errors import ServiceError
from tournaments.services import events as event_services
from tournaments.services import registrations

TAKEOVER = "from hand 2: Zed Newcomer for {absent}"


def seat_of(table, wind: str):
    return table.seats.select_related("registration__player").get(wind=wind).registration


def rows(tournament) -> dict[str, tuple[int, object]]:
    return {
        row.player: (row.score, row.table_points)
        for row in standings.event_standings(tournament, include_provisional=True)
    }


def take_over(event, table, organiser, *, policy: str = "seat", reserve: bool = False):
    """East plays hand 1, then Zed Newcomer takes over East from hand 2 (a registered player, or with
    ``reserve`` a registered substitute, never ranked)."""
    event_services.update_settings(event, {"seating.substitution_standings": policy}, acting_user=organiser)
    absent = seat_of(table, "E")
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=organiser)
    if reserve:
        substitution = seat_changes.substitute_new_player(
            table, absent.code, "Zed Newcomer", acting_user=organiser
        )
    else:
        newcomer = registrations.register_player(
            event, registrations.PlayerRow(name="Zed Newcomer"), acting_user=organiser
        )
        substitution = seat_changes.substitute_seat(table, absent.code, newcomer, acting_user=organiser)
    return absent, substitution.substitute


def text_of(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.mark.django_db
def test_the_public_seating_shows_who_took_over_from_which_hand(client, event, table, organiser):
    absent, newcomer = take_over(event, table, organiser, reserve=True)
    page = text_of(client.get(reverse("public:seating", args=[event.slug, 1])))
    line = TAKEOVER.format(absent=absent.player.name)
    assert page.count(line) == 3  # the absent player's row, the substitute's own row, the table card
    # the substitute finds their seat by name, with a link to their page
    assert reverse("public:player", args=[event.slug, newcomer.code]) in page


@pytest.mark.django_db
def test_the_results_page_and_the_referee_table_say_who_played_the_seat(
    client, event, table, organiser, referee
):
    absent, _ = take_over(event, table, organiser)
    line = TAKEOVER.format(absent=absent.player.name)
    assert line in text_of(client.get(reverse("public:results", args=[event.slug, 1])))
    client.force_login(referee)
    assert line in text_of(client.get(reverse("referee:table", args=[event.slug, 1, 1])))


@pytest.mark.django_db
def test_the_player_pages_say_who_took_over_and_for_whom(client, event, table, organiser):
    absent, newcomer = take_over(event, table, organiser, reserve=True)
    line = TAKEOVER.format(absent=absent.player.name)
    absent_page = text_of(client.get(reverse("public:player", args=[event.slug, absent.code])))
    assert line in absent_page
    # A reserve has a page once they played: the table, the seat and the hands, for whom.
    response = client.get(reverse("public:player", args=[event.slug, newcomer.code]))
    assert response.status_code == 200
    page = text_of(response)
    assert line in page and 'class="wind seat-wind">E<' in page
    other_reserve = registrations.register_player(
        event, registrations.PlayerRow(name="Never Played"), acting_user=organiser
    )
    other_reserve.is_substitute = True
    other_reserve.save()
    assert client.get(reverse("public:player", args=[event.slug, other_reserve.code])).status_code == 404


@pytest.mark.django_db
def test_the_scoresheet_prints_the_substitute_and_a_penalty_naming_them(event, table, organiser):
    absent, newcomer = take_over(event, table, organiser)
    penalties.add_penalty(table, newcomer, 10, paid_to="none", rule="MCR 80", acting_user=organiser)
    _, _, content = ScoresheetsPDF(table.round).render()
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages)
    assert TAKEOVER.format(absent=absent.player.name) in text
    assert "Penalty E Zed Newcomer: MCR 80" in text


@pytest.mark.django_db
def test_the_referee_can_name_the_substitute_in_a_penalty(client, event, table, organiser, referee):
    _, newcomer = take_over(event, table, organiser)
    client.force_login(referee)
    response = client.post(
        reverse("referee:add_penalty", args=[event.slug, 1, 1]),
        {
            "player": newcomer.code,
            "kind": "other",
            "points": 10,
            "paid_to": "none",
            "rule": "MCR 80",
            "expected_position": 0,
        },
    )
    assert response.status_code == 302
    assert Penalty.objects.get().registration == newcomer


@pytest.mark.django_db
def test_a_substitutes_penalty_counts_at_their_seat_for_the_absent_player_by_default(event, table, organiser):
    """scoring/substitutions.py: under "seat" the absent player keeps the seat's whole result, and the
    seat's score carries a penalty the substitute committed (MCR rule 80: deducted only)."""
    absent, newcomer = take_over(event, table, organiser)
    before = rows(event)
    penalties.add_penalty(table, newcomer, 10, paid_to="none", rule="MCR 80", acting_user=organiser)
    after = rows(event)
    assert after[absent.code][0] == before[absent.code][0] - 10
    assert newcomer.code not in after
    assert (
        standings.session_result(queries.table_with_results(table)).scores["E"] == before[absent.code][0] - 10
    )


@pytest.mark.django_db
def test_under_hands_the_substitute_carries_their_own_penalty(event, table, organiser):
    """Under "hands" each keeps what they played, so the penalty goes with the person who committed it;
    MCR rule 84 (paid to each other player): the opponents still receive it."""
    absent, newcomer = take_over(event, table, organiser, policy="hands")
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=8), acting_user=organiser)
    before = rows(event)
    penalties.add_penalty(table, newcomer, 5, paid_to="each_other", rule="MCR 84", acting_user=organiser)
    after = rows(event)
    assert after[newcomer.code][0] == before[newcomer.code][0] - 15
    assert after[absent.code][0] == before[absent.code][0]
    south = seat_of(table, "S")
    assert after[south.code][0] == before[south.code][0] + 5


@pytest.mark.django_db
def test_under_absent_hands_a_substitutes_penalty_counts_for_nobody(event, table, organiser):
    absent, newcomer = take_over(event, table, organiser, policy="absent_hands")
    before = rows(event)
    penalties.add_penalty(table, newcomer, 10, paid_to="none", rule="MCR 80", acting_user=organiser)
    assert rows(event)[absent.code] == before[absent.code]


@pytest.mark.django_db
def test_a_penalty_names_whoever_played_the_seat_in_that_hand(event, table, organiser, referee):
    """A ruling tied to a hand (MCR 78, "see_wall_tile": may not win that hand) names the person who
    played the seat in it: the absent player before the takeover, the substitute from it on."""
    absent, newcomer = take_over(event, table, organiser)
    with pytest.raises(ServiceError) as refused:
        rulings.add_ruling(table, newcomer, "see_wall_tile", hand_number=1, acting_user=referee)
    assert refused.value.code == "not_playing" and "hand 1 was played by" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        rulings.add_ruling(table, absent, "see_wall_tile", hand_number=2, acting_user=referee)
    assert refused.value.code == "not_playing" and "Zed Newcomer" in refused.value.message
    assert not Penalty.objects.exists()
    rulings.add_ruling(table, newcomer, "see_wall_tile", hand_number=2, acting_user=referee)
    with pytest.raises(ServiceError) as barred:  # the barred substitute cannot win hand 2 at East
        entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    assert barred.value.code == "winner_barred"


@pytest.mark.django_db
def test_a_penalty_cannot_be_paid_by_a_substitute_to_their_own_seat(event, table, organiser):
    absent, newcomer = take_over(event, table, organiser)
    with pytest.raises(ServiceError) as refused:
        penalties.add_penalty(
            table, newcomer, 10, paid_to="player", paid_to_player=absent, rule="85e", acting_user=organiser
        )
    assert refused.value.code == "bad_receiver"
    penalties.add_penalty(
        table,
        newcomer,
        10,
        paid_to="player",
        paid_to_player=seat_of(table, "S"),
        rule="85e",
        acting_user=organiser,
    )
    assert Penalty.objects.count() == 1


@pytest.mark.django_db
def test_the_substitutes_page_lists_their_penalty_once_the_table_counts(
    client, event, table, organiser, referee
):
    _, newcomer = take_over(event, table, organiser, reserve=True)
    penalties.add_penalty(
        table, newcomer, 10, paid_to="none", rule="MCR 80", reason="slow play", acting_user=organiser
    )
    url = reverse("public:player", args=[event.slug, newcomer.code])
    assert "slow play" not in text_of(client.get(url))  # provisional: not shown yet
    for _ in range(3):
        entry.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    confirmation.confirm_table(table, acting_user=referee)
    assert "slow play" in text_of(client.get(url))


@pytest.mark.django_db
def test_the_absent_players_page_lists_the_substitutes_penalty_their_seat_carries(
    client, event, table, organiser, referee
):
    """Under the default policy the seat's score, and so the absent player's, carries the substitute's
    penalty (scoring/substitutions.py): their page says so, naming who committed it."""
    absent, newcomer = take_over(event, table, organiser)
    penalties.add_penalty(
        table, newcomer, 10, paid_to="none", rule="MCR 80", reason="slow play", acting_user=organiser
    )
    for _ in range(3):
        entry.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    confirmation.confirm_table(table, acting_user=referee)
    page = text_of(client.get(reverse("public:player", args=[event.slug, absent.code])))
    assert "slow play" in page and "committed by Zed Newcomer, who played the seat" in page
    own = text_of(client.get(reverse("public:player", args=[event.slug, newcomer.code])))
    assert "slow play" in own and "committed by" not in own


@pytest.mark.django_db
def test_under_hands_the_absent_players_page_does_not_list_the_substitutes_penalty(
    client, event, table, organiser, referee
):
    absent, newcomer = take_over(event, table, organiser, policy="hands")
    penalties.add_penalty(
        table, newcomer, 10, paid_to="none", rule="MCR 80", reason="slow play", acting_user=organiser
    )
    for _ in range(3):
        entry.record_hand(table, HandEntry(winner=None), acting_user=organiser)
    confirmation.confirm_table(table, acting_user=referee)
    assert "slow play" not in text_of(client.get(reverse("public:player", args=[event.slug, absent.code])))


@pytest.mark.django_db
def test_a_reserve_who_took_over_a_seat_finds_it_by_name(client, event, table, organiser):
    absent, _ = take_over(event, table, organiser, reserve=True)
    page = text_of(client.get(reverse("public:find", args=[event.slug]), {"q": "zed"}))
    assert f"Session 1: table {table.number}, East" in page
    assert TAKEOVER.format(absent=absent.player.name) in page
    idle = registrations.register_player(
        event, registrations.PlayerRow(name="Zoe Idle"), acting_user=organiser
    )
    idle.is_substitute = True
    idle.save()
    assert "Zoe Idle" not in text_of(client.get(reverse("public:find", args=[event.slug]), {"q": "zoe"}))
