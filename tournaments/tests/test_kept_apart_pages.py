"""Players kept apart in an event: the organiser's page (English and Chinese), the service's refusals and
audit, whole plans that never seat a pair together, swaps, and the quality report's count."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, KeptApart, Registration, Seat
from tournaments.services import events as event_services
from tournaments.services import kept_apart, registrations, reseating, seating

CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def make_event(organiser, players: int, sessions: int, name: str = "Family Open"):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name=name, num_sessions=sessions, hands_per_session=4),
        acting_user=organiser,
    )
    for n in range(players):
        registrations.register_player(
            tournament,
            registrations.PlayerRow(name=f"Player {n:02d}", team=f"Club {n % 3}" if n < 6 else ""),
            acting_user=organiser,
        )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    return tournament


def player(tournament, n: int) -> Registration:
    return tournament.registrations.get(player__name=f"Player {n:02d}")


def together(tournament, a: Registration, b: Registration) -> int:
    tables_a = set(Seat.objects.filter(registration=a).values_list("table_id", flat=True))
    return Seat.objects.filter(registration=b, table_id__in=tables_a).count()


@pytest.fixture
def twenty(organiser):
    return make_event(organiser, 20, 7)


def test_a_kept_apart_pair_never_shares_a_table_in_a_twenty_player_seven_session_plan(twenty, organiser):
    pairs = [(6, 7), (6, 8), (10, 19), (12, 13), (0, 15)]  # Player 00 is also in a team
    for a, b in pairs:
        kept_apart.keep_apart(player(twenty, a), player(twenty, b), acting_user=organiser)
    assert reseating.seat_remaining(twenty, 1, acting_user=organiser) == 7
    for a, b in pairs:
        assert together(twenty, player(twenty, a), player(twenty, b)) == 0, (a, b)
    teams = dict(twenty.registrations.values_list("pk", "team"))
    for round_ in twenty.rounds.all():
        for table in round_.tables.all():
            names = [teams[pk] for pk in table.seats.values_list("registration_id", flat=True) if teams[pk]]
            assert len(names) == len(set(names))


def test_a_pair_is_unordered_stored_once_and_audited(twenty, organiser):
    a, b = player(twenty, 3), player(twenty, 4)
    pair = kept_apart.keep_apart(b, a, acting_user=organiser)
    assert (pair.first, pair.second) == (a, b)
    for first, second, code in ((a, b, "duplicate_pair"), (b, a, "duplicate_pair"), (a, a, "same_player")):
        with pytest.raises(ServiceError) as error:
            kept_apart.keep_apart(first, second, acting_user=organiser)
        assert error.value.code == code
    other = make_event(organiser, 4, 1, name="Other Open")
    with pytest.raises(ServiceError) as error:
        kept_apart.keep_apart(a, other.registrations.first(), acting_user=organiser)
    assert error.value.code == "other_event"
    assert kept_apart.code_pairs(twenty) == {frozenset((a.code, b.code))}
    kept_apart.stop_keeping_apart(pair, acting_user=organiser)
    assert not KeptApart.objects.exists()
    actions = list(AuditEntry.objects.filter(tournament=twenty).values_list("action", "actor", "data"))
    assert ("keep_apart", organiser.pk, {"players": [a.code, b.code]}) in actions
    assert ("unkeep_apart", organiser.pk, {"players": [a.code, b.code]}) in actions


def test_a_forced_meeting_is_counted_on_the_session_page(client, organiser):
    tournament = make_event(organiser, 8, 2)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    seats = Seat.objects.filter(round__number=1, round__tournament=tournament).order_by(
        "table__number", "wind"
    )
    a, b = (s.registration for s in seats[:2])  # at one table in session 1, before the pair was added
    kept_apart.keep_apart(a, b, acting_user=organiser)
    client.force_login(organiser)
    page = client.get(reverse("manage:session", args=[tournament.slug, 1])).content.decode()
    assert 'data-measure="kept_apart">1<' in page
    assert "Kept-apart pairs seated together" in page
    assert f"{min(a, b, key=lambda r: r.pk)} and {max(a, b, key=lambda r: r.pk)}: 1 times" in page
    # Session 2 is planned with the pair: they do not meet again.
    reseating.generate_seating(tournament.rounds.get(number=2), acting_user=organiser)
    assert together(tournament, a, b) == 1
    page = client.get(reverse("manage:session", args=[tournament.slug, 2])).content.decode()
    assert 'data-measure="kept_apart">1<' in page


def test_a_swap_that_seats_a_pair_together_is_refused(organiser):
    tournament = make_event(organiser, 8, 1)
    tournament.registrations.update(team="")
    round_ = tournament.rounds.get(number=1)
    reseating.generate_seating(round_, acting_user=organiser)
    seats = list(Seat.objects.filter(round=round_).select_related("registration").order_by("table__number"))
    mover = seats[0]
    across = [s for s in seats if s.table_id != mover.table_id]
    kept_apart.keep_apart(mover.registration, across[0].registration, acting_user=organiser)
    with pytest.raises(ServiceError) as error:
        seating.swap_seats(
            round_, mover.registration.code, across[1].registration.code, acting_user=organiser
        )
    assert error.value.code == "breaks_apart"
    assert Seat.objects.get(round=round_, registration=mover.registration).table_id == mover.table_id


@pytest.mark.parametrize(
    ("headers", "texts"),
    [
        ({}, ("Players kept apart", "will not be seated at one table", "may meet again")),
        (CHINESE, ("须分开的选手", "将不会被排在同一桌", "可以再同桌")),
    ],
)
def test_the_organiser_adds_and_removes_pairs_on_the_page(client, twenty, organiser, headers, texts):
    heading, added, removed = texts
    client.force_login(organiser)
    url = reverse("manage:kept_apart", args=[twenty.slug])
    page = client.get(url, **headers).content.decode()
    assert heading in page
    a, b = player(twenty, 1), player(twenty, 2)
    assert f'value="{a.code}"' in page
    response = client.post(url, {"first": a.code, "second": b.code}, follow=True, **headers)
    assert added in response.content.decode()
    pair = KeptApart.objects.get(tournament=twenty)
    again = client.post(url, {"first": b.code, "second": a.code}, **headers)
    assert again.status_code == 422
    assert KeptApart.objects.count() == 1
    remove = reverse("manage:remove_kept_apart", args=[twenty.slug, pair.pk])
    assert remove in client.get(url, **headers).content.decode()
    response = client.post(remove, follow=True, **headers)
    assert removed in response.content.decode()
    assert not KeptApart.objects.exists()
    settings_page = client.get(reverse("manage:settings", args=[twenty.slug]), **headers).content.decode()
    assert url in settings_page


def test_only_the_events_organisers_see_or_change_the_pairs(client, twenty, organiser, stranger):
    pair = kept_apart.keep_apart(player(twenty, 1), player(twenty, 2), acting_user=organiser)
    client.force_login(stranger)
    url = reverse("manage:kept_apart", args=[twenty.slug])
    assert client.get(url).status_code in (403, 404)
    response = client.post(url, {"first": player(twenty, 3).code, "second": player(twenty, 4).code})
    assert response.status_code in (403, 404)
    response = client.post(reverse("manage:remove_kept_apart", args=[twenty.slug, pair.pk]))
    assert response.status_code in (403, 404)
    assert KeptApart.objects.count() == 1


def test_an_uploaded_seating_and_a_re_seating_preview_count_the_pairs(client, event, organiser):
    from tournaments.services import seating_upload

    by_name = {r.player.name: r for r in event.registrations.select_related("player")}
    ana, cy = by_name["Ana"], by_name["Cy"]
    kept_apart.keep_apart(ana, cy, acting_user=organiser)
    met_before = together(event, ana, cy)
    c = {name: r.code for name, r in by_name.items()}
    text = (
        "session,table,E,S,W,N\n"
        f"2,1,{c['Ana']},{c['Cy']},{c['Ed']},{c['Gus']}\n"
        f"2,2,{c['Bo']},{c['Di']},{c['Flo']},{c['Hu']}\n"
    )
    report = seating_upload.check_upload(event, text.encode(), "seating.csv")
    assert report.problems == []
    assert report.quality.kept_apart_meetings == met_before + 1
    assert report.quality.kept_apart_met[0].meetings == met_before + 1
    client.force_login(organiser)
    upload = io.BytesIO(text.encode())
    upload.name = "seating.csv"
    page = client.post(reverse("manage:upload_seating", args=[event.slug]), {"file": upload}).content.decode()
    assert f'data-measure="kept_apart">{met_before + 1}<' in page
    proposal = reseating.propose(event, 2)
    assert proposal.quality.kept_apart_meetings == met_before
    assert reseating.from_token(event, proposal.token()).quality.kept_apart_meetings == met_before


def test_the_page_in_chinese_shows_no_english_but_names_and_codes(client, twenty, organiser):
    import re

    from tests.visible_text import shown_texts

    kept_apart.keep_apart(player(twenty, 1), player(twenty, 2), acting_user=organiser)
    client.force_login(organiser)
    html = client.get(reverse("manage:kept_apart", args=[twenty.slug]), **CHINESE).content.decode()
    allowed = {"player", "family", "open", "olga", "mcr", "ema", "english"}  # names, the language switch
    allowed |= {code.lower() for code in twenty.registrations.values_list("code", flat=True)}
    english = [
        text
        for text in shown_texts(html)
        if any(word.lower() not in allowed for word in re.findall(r"[A-Za-z]{2,}", text))
    ]
    assert english == []
