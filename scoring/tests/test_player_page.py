"""The player's own page (scoring/views_player.py) through Django's client: signing in from the seat
slip's QR address, "My event" (seat now and next, the table's hands, results, rulings with the appeal
deadline), signing the result or disagreeing, the referee settling it, and both languages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.exports import SESSION_PRINTS
from scoring.models import Confirmation, TableDispute
from scoring.services import entry as entry_service
from scoring.services import rulings
from scoring.services.entry import HandEntry
from scoring.services.pins import issue_pins, sign_as_player
from tests.test_chinese_pages import CHINESE, _names, english_on
from tests.visible_text import shown_texts
from tournaments.services import events as event_services
from tournaments.services import reseating

pytestmark = pytest.mark.django_db


def me(event) -> str:
    return reverse("public:me", args=[event.slug])


def seated(table):
    return {seat.wind: seat.registration for seat in table.seats.select_related("registration__player")}


def sign_in(client, event, registration) -> None:
    pin = issue_pins(event, acting_user=None)[registration.pk]
    response = client.post(
        reverse("public:me_sign_in", args=[event.slug]), {"code": registration.code, "pin": pin}
    )
    assert response.status_code == 302 and response["Location"] == me(event)


def complete(table, referee):
    for _ in range(4):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


def test_the_seat_slips_qr_code_leads_to_the_players_own_page_with_the_code(event, monkeypatch):
    from scoring.exports import hall

    drawn: list[str] = []
    real = hall.qr_drawing
    monkeypatch.setattr(hall, "qr_drawing", lambda url, size: drawn.append(url) or real(url, size))
    SESSION_PRINTS["seat-slips"](event.rounds.get(number=1), base_url="https://hall.example").render()
    codes = sorted(event.registrations.values_list("code", flat=True))
    assert sorted(drawn) == sorted(f"https://hall.example/e/{event.slug}/me/?code={code}" for code in codes)


def test_the_qr_address_asks_for_the_pin_with_the_code_filled_in_and_links_the_public_page(client, event):
    registration = event.registrations.order_by("code").first()
    response = client.get(me(event), {"code": registration.code})
    text = response.content.decode()
    assert response.status_code == 200
    assert f'value="{registration.code}"' in text and 'name="pin"' in text
    assert reverse("public:player", args=[event.slug, registration.code]) in text
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_a_wrong_pin_is_refused_and_a_right_one_signs_in_to_that_event_only(client, event):
    registration = event.registrations.order_by("code").first()
    refused = client.post(
        reverse("public:me_sign_in", args=[event.slug]), {"code": registration.code, "pin": "abc"}
    )
    assert refused.status_code == 422
    assert "That player code and PIN do not match" in refused.content.decode()
    sign_in(client, event, registration)
    page = client.get(me(event))
    assert page.status_code == 200
    assert f"<h1>{registration.player.name}</h1>" in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    # A player's session is no staff login: the referee's pages still send them to log in.
    assert client.get(reverse("referee:index", args=[event.slug])).status_code == 302
    client.post(reverse("public:me_sign_out", args=[event.slug]))
    assert 'name="pin"' in client.get(me(event)).content.decode()


def test_a_staff_login_is_untouched_by_signing_in_as_a_player(client, event, referee):
    client.force_login(referee)
    sign_in(client, event, event.registrations.order_by("code").first())
    assert client.get(reverse("referee:index", args=[event.slug])).status_code == 200
    client.post(reverse("public:me_sign_out", args=[event.slug]))
    assert client.get(reverse("referee:index", args=[event.slug])).status_code == 200


def test_my_event_shows_my_seat_now_and_next_with_opponents_and_my_tables_hands(
    client, event, organiser, referee
):
    reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    from tournaments.release import publish_everything

    publish_everything(event, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    sign_in(client, event, players["S"])
    text = client.get(me(event)).content.decode()
    assert "Session 1: table 1, South" in text
    assert all(players[w].player.name in text for w in "EWN")
    later = players["S"].seats.get(round__number=2)
    assert f"Next: session 2, table {later.table.number}, " in text
    fragment = reverse("public:me_table", args=[event.slug, 1])
    assert f'hx-get="{fragment}"' in text
    assert "hand-row" not in client.get(fragment).content.decode()
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    assert client.get(fragment).content.decode().count("hand-row") == 1
    # Another table's fragment is not this player's: sent back to their page.
    assert client.get(reverse("public:me_table", args=[event.slug, 9])).headers["HX-Redirect"] == me(event)


def test_my_rulings_show_with_the_appeal_deadline(client, event, referee):
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    rulings.add_ruling(table, players["E"], "warning", acting_user=referee)
    sign_in(client, event, players["E"])
    texts = " ".join(shown_texts(client.get(me(event)).content.decode()))
    assert "Session 1, table 1" in texts
    assert "min left): ask a referee." in texts


def test_signing_on_the_phone_confirms_after_the_fourth_and_a_disagreement_waits_for_a_referee(
    client, event, organiser, referee
):
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    sign_in(client, event, players["N"])
    assert "sign-button" not in client.get(me(event)).content.decode()  # not complete yet
    complete(table, referee)
    text = client.get(me(event)).content.decode()
    assert "Sign the result" in text and "I do not agree" in text
    client.post(reverse("public:me_disagree", args=[event.slug, 1]))
    dispute = TableDispute.objects.get(table=table, registration=players["N"])
    assert "does not agree: a referee is called." in client.get(me(event)).content.decode()
    client.force_login(referee)
    table_page = client.get(reverse("referee:table", args=[event.slug, 1, 1])).content.decode()
    assert f"North ({players['N'].player.name}) disagrees: call a referee." in table_page
    settle = reverse("referee:settle_dispute", args=[event.slug, 1, 1, dispute.pk])
    assert settle in table_page
    client.post(settle)
    assert TableDispute.objects.get().settled_at is not None
    for wind in "ESW":
        sign_as_player(table, players[wind])
    client.logout()
    sign_in(client, event, players["N"])
    response = client.post(reverse("public:me_sign", args=[event.slug, 1]), follow=True)
    assert "Every player has signed" in response.content.decode()
    assert 'id="my-confirmation"' in response.content.decode()  # the last table stays on the page
    assert Confirmation.objects.in_force().filter(table=table).exists()


def test_a_referee_who_is_not_of_the_event_cannot_settle(client, event, stranger, referee, organiser):
    table = event.rounds.get(number=1).tables.get(number=1)
    complete(table, referee)
    from scoring.services import disputes

    dispute = disputes.disagree(table, seated(table)["E"])
    client.force_login(stranger)
    response = client.post(reverse("referee:settle_dispute", args=[event.slug, 1, 1, dispute.pk]))
    assert response.status_code == 403
    assert TableDispute.objects.get().settled_at is None


def test_the_players_pages_read_in_chinese(client, event, organiser, referee):
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    rulings.add_ruling(table, players["E"], "warning", acting_user=referee)
    names = _names(event) | {code.lower() for code in event.registrations.values_list("code", flat=True)}
    sign_page = client.get(me(event), {"code": players["E"].code}, **CHINESE).content.decode()
    assert '<html lang="zh-hans">' in sign_page
    assert english_on(sign_page, names) == []
    sign_in(client, event, players["E"])
    complete(table, referee)
    page = client.get(me(event), **CHINESE).content.decode()
    assert english_on(page, names) == []
    assert "签" in page
    sign_as_player(table, players["S"])
    from scoring.services import disputes

    disputes.disagree(table, players["W"])
    fragment = client.get(reverse("public:me_table", args=[event.slug, 1]), **CHINESE).content.decode()
    assert english_on(fragment, names) == []
    client.force_login(referee)
    referee_page = client.get(reverse("referee:table", args=[event.slug, 1, 1]), **CHINESE).content.decode()
    assert english_on(referee_page, names) == []


def test_a_signed_in_player_calls_a_referee_to_their_table_from_their_page(client, event, table):
    from tournaments.models import RefereeCall

    player = seated(table)["E"]
    sign_in(client, event, player)
    page = client.get(me(event)).content.decode()
    assert f"Call a referee to table {table.number}" in page
    client.post(reverse("public:player_call", args=[event.slug]), {"reason": "claim", "next": me(event)})
    call = RefereeCall.objects.get(table=table)
    assert call.closed_at is None
    assert f"Table {table.number} has called a referee." in client.get(me(event)).content.decode()


def test_my_event_names_my_opponents_as_the_public_sees_them(client, event, organiser, referee):
    """The page is the player's, not the staff's: under the "player id" policy the opponents are their ids
    (their seats, the table's panel and a disagreement), the player themself their own name."""
    event_services.update_settings(event, {"public.names": "code"}, acting_user=organiser)
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    complete(table, referee)
    sign_in(client, event, players["N"])
    client.post(reverse("public:me_disagree", args=[event.slug, 1]))
    sign_in(client, event, players["S"])
    texts = " ".join(shown_texts(client.get(me(event)).content.decode()))
    words = set(re.findall(r"\w+", texts))
    assert players["S"].player.name in words
    assert all(players[w].player.name not in words for w in "ENW")  # "Bo", "Cy": whole words
    assert all(players[w].code in words for w in "ENW")
    assert f"{players['N'].code} does not agree" in texts
