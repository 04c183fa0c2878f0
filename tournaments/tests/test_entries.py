"""Registration by the players: capacity and waiting list, the EMA number recognised, approval into the
desk's registrations, the time trap, the honeypot, the flood limit, the closing time and the email."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from players.models import Player
from tournaments.archive import set_archived
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, EntryStatus
from tournaments.services import entries
from tournaments.services.entries import EntryDetails

pytestmark = pytest.mark.django_db


def details(number: int, **changes: str) -> EntryDetails:
    values = {
        "family_name": f"Family{number}",
        "given_name": f"Given{number}",
        "email": f"player{number}@example.org",
        "country": "PT",
    }
    values.update(changes)
    return EntryDetails(**values)


DESK_PLAYERS = 8
"""The ``event`` fixture's players, registered at the desk: they use up places too (``places_taken``)."""


@pytest.fixture
def open_event(event, organiser):
    """Registration open with 8 places left for the players' own entries."""
    entries.open_registration(
        event, capacity=DESK_PLAYERS + 8, closes_at=timezone.now() + timedelta(days=7), acting_user=organiser
    )
    return event


def test_the_desks_registrations_use_up_places_too(organiser):
    """A capacity of 8 with 3 desk registrations (a substitute and a withdrawn player do not count) leaves
    5 places for the players' own entries; an approved entry is counted once."""
    from tournaments import desk
    from tournaments.services import events as event_services
    from tournaments.services import registrations, seating

    event = event_services.create_tournament(
        event_services.EventDetails(name="Desk Open", slug="desk-open", num_sessions=1), acting_user=organiser
    )
    for name in ("Desk One", "Desk Two", "Desk Three"):
        registrations.register_player(event, registrations.PlayerRow(name=name), acting_user=organiser)
    gone = registrations.register_player(
        event, registrations.PlayerRow(name="Desk Gone"), acting_user=organiser
    )
    desk.set_withdrawn(gone, True, acting_user=organiser)
    seating.substitute(event, "sub-1")
    entries.open_registration(
        event, capacity=8, closes_at=timezone.now() + timedelta(days=7), acting_user=organiser
    )
    assert entries.places_taken(event) == 3
    made = [entries.submit_entry(event, details(n)) for n in range(1, 8)]
    assert [e.status for e in made] == [EntryStatus.APPLIED] * 5 + [EntryStatus.WAITING] * 2
    entries.approve_entry(made[0], acting_user=organiser)
    assert entries.places_taken(event) == 8
    moved = entries.withdraw_entry(made[1])
    assert [e.pk for e in moved] == [made[5].pk]


def test_ten_entries_into_eight_places_leave_two_waiting(open_event):
    made = [entries.submit_entry(open_event, details(n)) for n in range(1, 11)]
    assert [e.status for e in made] == [EntryStatus.APPLIED] * 8 + [EntryStatus.WAITING] * 2
    assert [entries.waiting_number(e) for e in made[8:]] == [1, 2]


def test_a_player_the_desk_withdraws_frees_a_place_for_the_waiting_list(event, organiser, client):
    """While registration is open; after it closes the organiser decides at the desk."""
    entries.open_registration(
        event, capacity=DESK_PLAYERS, closes_at=timezone.now() + timedelta(days=7), acting_user=organiser
    )
    waiting = [entries.submit_entry(event, details(n)) for n in (1, 2)]
    assert {e.status for e in waiting} == {EntryStatus.WAITING}
    client.force_login(organiser)
    first, second = event.registrations.order_by("code")[:2]
    client.post(reverse("manage:withdraw", args=[event.slug, first.code]), {"withdrawn": "on"})
    assert Entry.objects.get(pk=waiting[0].pk).status == EntryStatus.APPLIED
    assert Entry.objects.get(pk=waiting[1].pk).status == EntryStatus.WAITING
    assert len(mail.outbox) == 1 and waiting[0].email in mail.outbox[0].to
    entries.close_registration(event, acting_user=organiser)
    client.post(reverse("manage:withdraw", args=[event.slug, second.code]), {"withdrawn": "on"})
    assert Entry.objects.get(pk=waiting[1].pk).status == EntryStatus.WAITING


def test_a_withdrawal_moves_the_first_waiting_up_and_is_logged(open_event):
    made = [entries.submit_entry(open_event, details(n)) for n in range(1, 11)]
    moved = entries.withdraw_entry(made[3])
    assert [e.pk for e in moved] == [made[8].pk]
    statuses = dict(Entry.objects.values_list("pk", "status"))
    assert statuses[made[3].pk] == EntryStatus.WITHDRAWN
    assert statuses[made[8].pk] == EntryStatus.APPLIED
    assert statuses[made[9].pk] == EntryStatus.WAITING
    assert entries.waiting_number(Entry.objects.get(pk=made[9].pk)) == 1
    assert AuditEntry.objects.filter(tournament=open_event, action="entry_moved_up").count() == 1


def test_a_refusal_frees_a_place_too(open_event, organiser):
    made = [entries.submit_entry(open_event, details(n)) for n in range(1, 10)]
    entries.refuse_entry(made[0], acting_user=organiser)
    assert Entry.objects.get(pk=made[8].pk).status == EntryStatus.APPLIED


def test_an_earlier_player_with_the_ema_number_is_linked_never_duplicated(open_event, organiser):
    known = Player.objects.create(name="Known Player", ema_id="04120001", country="PT")
    players_before = Player.objects.count()
    entry = entries.submit_entry(open_event, details(1, ema_id="04120001"))
    assert entry.player == known
    approved = entries.approve_entry(entry, acting_user=organiser)
    assert approved.registration is not None
    assert approved.registration.player == known
    assert Player.objects.count() == players_before
    with pytest.raises(ServiceError) as refused:
        entries.submit_entry(open_event, details(2, ema_id="04120001"))
    assert refused.value.code == "duplicate_ema_id"


def test_approval_registers_the_player_for_the_desk(open_event, organiser, client):
    entry = entries.submit_entry(open_event, details(1, team="Dragons"))
    entries.approve_entry(entry, acting_user=organiser)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.APPROVED
    registration = open_event.registrations.get(player__name="Given1 Family1")
    assert registration.team == "Dragons" and registration.player.country == "PT"
    client.force_login(organiser)
    assert "Given1 Family1" in client.get(reverse("manage:players", args=[open_event.slug])).content.decode()
    entries.withdraw_entry(entry)
    registration.refresh_from_db()
    assert registration.withdrawn


def test_bad_input_and_duplicates_are_refused(open_event):
    entries.submit_entry(open_event, details(1))
    for bad, code in [
        (details(2, ema_id="123"), "bad_ema_id"),
        (details(2, country="Atlantis"), "bad_country"),
        (details(2, email="not-an-address"), "bad_email"),
        (details(2, family_name=" "), "name_required"),
        (details(2, email="PLAYER1@example.org"), "duplicate_email"),
        (details(1, email="other@example.org"), "duplicate_name"),
    ]:
        with pytest.raises(ServiceError) as refused:
            entries.submit_entry(open_event, bad)
        assert refused.value.code == code


def test_the_closing_time_refuses(open_event, organiser):
    with pytest.raises(ServiceError) as refused:
        entries.submit_entry(open_event, details(1), now=timezone.now() + timedelta(days=8))
    assert refused.value.code == "closed"
    entries.close_registration(open_event, acting_user=organiser)
    with pytest.raises(ServiceError):
        entries.submit_entry(open_event, details(1))


def form_data(number: int, **changes: str) -> dict[str, str]:
    data = {
        "family_name": f"Family{number}",
        "given_name": f"Given{number}",
        "email": f"player{number}@example.org",
        "country": "PT · Portugal",
        "ema_id": "",
        "team": "",
        "website": "",
        "stamp": entries.form_stamp(time.time() - 10),
    }
    data.update(changes)
    return data


def test_an_entry_through_the_form_sends_the_email_with_the_private_link(open_event, client):
    url = reverse("public:register", args=[open_event.slug])
    page = client.get(url)
    assert page.status_code == 200 and 'name="stamp"' in page.content.decode()
    response = client.post(url, form_data(1))
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["player1@example.org"] and open_event.name in message.subject
    assert response["Location"] in message.body
    own_page = client.get(response["Location"])
    assert own_page.status_code == 200 and "Given1 Family1" in own_page.content.decode()
    client.post(response["Location"] + "withdraw/")
    assert Entry.objects.get().status == EntryStatus.WITHDRAWN


def test_a_forged_link_is_not_found(open_event, client):
    entry = entries.submit_entry(open_event, details(1))
    token = entries.entry_token(entry)
    assert client.get(reverse("public:entry", args=[open_event.slug, token + "x"])).status_code == 404


def test_the_time_trap_and_the_honeypot_refuse(open_event, client):
    url = reverse("public:register", args=[open_event.slug])
    too_fast = client.post(url, form_data(1, stamp=entries.form_stamp()))
    assert too_fast.status_code == 422 and "too quickly" in too_fast.content.decode()
    forged = client.post(url, form_data(1, stamp="12345"))
    assert forged.status_code == 422
    bot = client.post(url, form_data(1, website="http://spam.example"))
    assert bot.status_code == 422
    assert not Entry.objects.exists() and not mail.outbox


@override_settings(ENTRY_ADDRESS_LIMIT=2)
def test_a_flood_from_one_address_is_refused(open_event, client):
    url = reverse("public:register", args=[open_event.slug])
    assert client.post(url, form_data(1)).status_code == 302
    assert client.post(url, form_data(2)).status_code == 302
    flood = client.post(url, form_data(3))
    assert flood.status_code == 422 and "Too many entries" in flood.content.decode()
    assert Entry.objects.count() == 2
    other = client.post(url, form_data(3), REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 302


def test_the_closed_form_says_so(event, client):
    page = client.get(reverse("public:register", args=[event.slug]))
    assert "not open" in page.content.decode()
    refused = client.post(reverse("public:register", args=[event.slug]), form_data(1))
    assert refused.status_code == 422 and not Entry.objects.exists()


def test_the_organiser_opens_approves_and_marks_fees(event, organiser, client):
    client.force_login(organiser)
    closes = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    client.post(reverse("manage:entry_window", args=[event.slug]), {"capacity": "16", "closes_at": closes})
    assert AuditEntry.objects.filter(tournament=event, action="entry_window").exists()
    entry = entries.submit_entry(event, details(1))
    page = client.get(reverse("manage:entries", args=[event.slug]))
    assert page.status_code == 200 and "Given1 Family1" in page.content.decode()
    client.post(reverse("manage:entry_action", args=[event.slug, entry.pk, "paid"]))
    client.post(reverse("manage:entry_action", args=[event.slug, entry.pk, "approve"]))
    entry.refresh_from_db()
    assert entry.fee_paid and entry.status == EntryStatus.APPROVED
    assert {"entry_fee", "approve_entry"} <= set(
        AuditEntry.objects.filter(tournament=event).values_list("action", flat=True)
    )


def test_the_pages_read_in_chinese(open_event, organiser, client):
    entry = entries.submit_entry(open_event, details(1))
    headers = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    register = client.get(reverse("public:register", args=[open_event.slug]), **headers)
    assert "报名" in register.content.decode()
    own = client.get(reverse("public:entry", args=[open_event.slug, entries.entry_token(entry)]), **headers)
    assert "你的报名" in own.content.decode()
    client.force_login(organiser)
    listing = client.get(reverse("manage:entries", args=[open_event.slug]), **headers)
    assert "选手自行报名" in listing.content.decode()


junk = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "0", "-1", "99999999999999999999", "2026-13-45T99:99", "PT", "12345678", "a@b.c"]),
)
FIELDS = ["family_name", "given_name", "email", "country", "ema_id", "team", "website", "stamp"]
FIELDS += ["capacity", "closes_at", "close"]
TARGETS = [
    ("public:register", ()),
    ("manage:entry_window", ()),
    ("manage:entry_action", ("approve",)),
    ("manage:entry_action", ("refuse",)),
    ("manage:entry_action", ("paid",)),
    ("manage:entry_action", ("nonsense",)),
]


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(st.sampled_from(FIELDS), junk, max_size=8), target=st.sampled_from(TARGETS))
def test_no_entry_form_answers_500(client, open_event, organiser, data, target):
    """Bad input to the registration form and the organiser's entry forms is answered with a message."""
    entry = Entry.objects.first() or entries.submit_entry(open_event, details(1))
    client.force_login(organiser)
    name, extra = target
    args = [open_event.slug, entry.pk, *extra] if extra else [open_event.slug]
    response = client.post(reverse(name, args=args), {"stamp": form_stamp_old(), **data})
    assert response.status_code in {200, 302, 404, 422}


def form_stamp_old() -> str:
    return entries.form_stamp(time.time() - 10)


def test_the_form_is_never_a_stored_page(open_event, client):
    """Each anonymous reader gets a fresh time stamp: the public page cache never answers for the form."""
    url = reverse("public:register", args=[open_event.slug])
    first, second = client.get(url), client.get(url)
    stamp = 'name="stamp" value="'
    assert first.content.decode().split(stamp)[1] != second.content.decode().split(stamp)[1]
    assert "no-cache" in first["Cache-Control"] or "max-age=0" in first["Cache-Control"]


def test_the_event_page_links_to_the_form_while_registration_is_open(open_event, organiser, client):
    page = reverse("public:event", args=[open_event.slug])
    register = reverse("public:register", args=[open_event.slug])
    assert register in client.get(page).content.decode()
    entries.close_registration(open_event, acting_user=organiser)
    assert register not in client.get(page).content.decode()


def test_an_archived_event_takes_no_entries_and_keeps_them(open_event, organiser):
    entry = entries.submit_entry(open_event, details(1))
    set_archived(open_event, True, acting_user=organiser)
    open_event.refresh_from_db()
    with pytest.raises(ServiceError):
        entries.submit_entry(open_event, details(2))
    with pytest.raises(ServiceError) as refused:
        entries.withdraw_entry(entry)
    assert refused.value.code == "archived"


def test_the_player_who_moves_up_is_told_by_email(open_event, client):
    made = [entries.submit_entry(open_event, details(n)) for n in range(1, 10)]
    client.post(reverse("public:withdraw_entry", args=[open_event.slug, entries.entry_token(made[0])]))
    assert [m.to for m in mail.outbox] == [["player9@example.org"]]
    assert entries.entry_token(made[8]) in mail.outbox[0].body
