"""An NMJL card file is data an organiser uploads, so it is checked like any hostile input.

Every refusal names the limit it hit, and the event keeps the card it had.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from conftest import FIXTURES
from scoring.rules.errors import HandInputError
from scoring.rules.nmjl import card as card_module
from scoring.rules.nmjl.card import load_card
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services import events as event_services

SAMPLE = json.loads((FIXTURES.parent / "scoring/rules/nmjl/cards/sample-2027.json").read_text())


@pytest.fixture
def nmjl_event(organiser):
    return event_services.create_tournament(
        event_services.EventDetails(name="Boca Open", rules="nmjl", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )


def _refused(document) -> str:
    with pytest.raises(HandInputError) as error:
        load_card(document)
    assert error.value.code == "bad_card"
    return error.value.message


def test_the_sample_card_is_within_every_limit():
    assert load_card(json.dumps(SAMPLE)).id == SAMPLE["id"]


def test_too_many_families_or_hands_are_refused_with_the_limit():
    many_families = copy.deepcopy(SAMPLE)
    many_families["families"] = many_families["families"] * (card_module.MAX_FAMILIES + 1)
    assert f"at most {card_module.MAX_FAMILIES}" in _refused(many_families)
    many_hands = copy.deepcopy(SAMPLE)
    hand = many_hands["families"][0]["hands"][0]
    many_hands["families"][0]["hands"] = [
        dict(hand, id=f"h{i}") for i in range(card_module.MAX_HANDS_PER_FAMILY + 1)
    ]
    assert f"at most {card_module.MAX_HANDS_PER_FAMILY}" in _refused(many_hands)


def test_a_very_long_name_or_a_control_character_is_refused_and_not_echoed_whole():
    long_name = copy.deepcopy(SAMPLE)
    long_name["name"] = "x" * 100_000
    message = _refused(long_name)
    assert f"at most {card_module.MAX_TEXT}" in message and len(message) < 300
    nul = copy.deepcopy(SAMPLE)
    nul["families"][0]["name"] = "Evens\x00"
    assert "control character" in _refused(nul)


def test_a_5000_digit_year_is_refused_without_writing_the_number_out():
    document = json.dumps(SAMPLE).replace(f'"year": {SAMPLE["year"]}', '"year": 1' + "0" * 5000)
    assert '"year": 1000' in document
    with pytest.raises(ServiceError) as error:
        event_services.load_event_card(
            Tournament(name="x", rules="nmjl"),
            document.encode(),
            acting_user=None,
        )
    assert error.value.code == "bad_card" and len(error.value.message) < 400


def test_an_oversized_or_deeply_nested_card_file_is_refused_and_the_event_keeps_its_card(
    nmjl_event, organiser
):
    before = Tournament.objects.get(pk=nmjl_event.pk).settings["card"]
    too_big = b" " * (card_module.MAX_CARD_BYTES + 1) + json.dumps(SAMPLE).encode()
    with pytest.raises(ServiceError) as error:
        event_services.load_event_card(nmjl_event, too_big, acting_user=organiser)
    assert f"{card_module.MAX_CARD_BYTES:,}" in error.value.message
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    with pytest.raises(ServiceError) as error:
        event_services.load_event_card(nmjl_event, deep, acting_user=organiser)
    assert error.value.code == "bad_card"
    assert Tournament.objects.get(pk=nmjl_event.pk).settings["card"] == before


def test_the_card_page_refuses_a_large_upload_before_reading_it(client, nmjl_event, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("card.json", b"{" + b" " * card_module.MAX_CARD_BYTES + b"}")
    response = client.post(reverse("manage:load_card", args=[nmjl_event.slug]), {"card": upload})
    assert response.status_code == 422  # the settings page again, with the form's message
    assert "at most 524,288" in response.content.decode()
    assert Tournament.objects.get(pk=nmjl_event.pk).settings["card"] == "sample-2027"
