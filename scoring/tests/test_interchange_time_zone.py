"""The venue's time zone travels with the event JSON (shared/specs/event-json.md: ``settings`` holds what the
organiser set; absent keys take the defaults, here the site's ``TIME_ZONE``)."""

from __future__ import annotations

import pytest

from scoring.interchange.export import export_event
from scoring.interchange.load import import_event
from scoring.interchange.validate import validate_event

pytestmark = pytest.mark.django_db


def document(**settings: object) -> dict:
    return {
        "format": "mahjong-event/1",
        "tournament": {
            "name": "Zoned Open",
            "slug": "zoned-open",
            "rules": "mcr",
            "settings": {"hands_per_session": 16, **settings},
        },
        "players": [{"id": f"p{n}", "name": f"Player {n}", "country": "NL"} for n in range(1, 5)],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "p1", "S": "p2", "W": "p3", "N": "p4"},
                        "hands": [{"winner": "p1", "discarder": "p3", "fan": 12}],
                    }
                ],
            }
        ],
    }


def test_an_events_zone_is_exported_and_imported_again(settings):
    settings.TIME_ZONE = "UTC"
    event = import_event(document(time_zone="Europe/Amsterdam"))
    assert event.time_zone == "Europe/Amsterdam"
    exported = export_event(event)
    assert exported["tournament"]["settings"]["time_zone"] == "Europe/Amsterdam"
    again = import_event(exported, replace=True)
    assert again.time_zone == "Europe/Amsterdam" and export_event(again) == exported


def test_the_sites_own_zone_is_left_out_as_a_default(settings):
    settings.TIME_ZONE = "UTC"
    event = import_event(document())
    assert event.time_zone == "UTC"
    assert "time_zone" not in export_event(event)["tournament"]["settings"]


@pytest.mark.parametrize("zone", ["Mars/Olympus", 7, ""])
def test_an_unknown_zone_is_refused_with_its_path(zone):
    problems = validate_event(document(time_zone=zone))
    assert any(problem.startswith("tournament.settings.time_zone") for problem in problems), problems
