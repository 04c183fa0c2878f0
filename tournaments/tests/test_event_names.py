"""Event names of any length and script: a limit with a message, an address for any name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.addresses import address_from_name
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services import events as event_services
from tournaments.services import registrations

pytestmark = pytest.mark.django_db

FORM = {"rules": "mcr", "num_sessions": 4, "hands_per_session": 16}


def test_accents_go_with_their_letter_in_the_address(organiser):
    event = event_services.create_tournament(
        event_services.EventDetails(name="Ünïcødé Open"), acting_user=organiser
    )
    assert event.slug == "unicode-open"


def test_an_event_named_only_in_chinese_gets_a_pinyin_address(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:create_event"), {**FORM, "name": "上海麻将公开赛"})
    event = Tournament.objects.get(name="上海麻将公开赛")
    assert event.slug == "shang-hai-ma-jiang-gong-kai-sai"
    assert response.status_code == 302 and response["Location"].endswith(f"/{event.slug}/")


def test_a_name_with_nothing_latin_left_gets_a_generated_address(organiser):
    assert re.fullmatch(r"event-[0-9a-f]{8}", address_from_name("★ ☆ ★"))
    event = event_services.create_tournament(event_services.EventDetails(name="★ ☆ ★"), acting_user=organiser)
    assert re.fullmatch(r"event-[0-9a-f]{8}", event.slug)


def test_a_long_name_makes_an_address_within_its_limit():
    assert len(address_from_name("Ünïcødé " * 40)) <= Tournament._meta.get_field("slug").max_length


def test_a_pasted_5000_character_name_is_refused_with_a_message_naming_the_limit(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:create_event"), {**FORM, "name": "N" * 5000})
    page = response.content.decode()
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "at most 200 characters (it has 5000)" in page
    assert 'maxlength="200"' in page  # the browser's limit stays
    with pytest.raises(ServiceError) as error:
        event_services.create_tournament(event_services.EventDetails(name="N" * 5000), acting_user=organiser)
    assert error.value.code == "too_long"


def test_long_names_wrap_instead_of_widening_the_page(client, event, organiser):
    """A 120-character player name without a space wraps in its cell (no browser in this suite: the rule
    and the class that uses it are checked)."""
    from pathlib import Path

    from django.contrib.staticfiles import finders

    css = Path(str(finders.find("css/site.css"))).read_text(encoding="utf-8")
    rule = next(line for line in css.splitlines() if "overflow-wrap: anywhere" in line and "td.name" in line)
    assert rule.startswith("h1, h2, h3,")
    registrations.register_player(event, registrations.PlayerRow(name="W" * 120), acting_user=organiser)
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug])).content.decode()
    assert re.search(r'<td [^>]*class="name"><strong>W{120}</strong>', page)
