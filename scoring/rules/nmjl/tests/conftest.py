from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.rules.nmjl.card import Card, load_sample_cards

MINIMAL_CARD: dict[str, Any] = {
    "format": "nmjl-card/1",
    "id": "test-card",
    "year": 2027,
    "sample": True,
    "families": [
        {
            "name": "Test",
            "hands": [
                {"id": "t-1", "pattern": "222 444 6666 8888", "colours": "g g g g", "xc": "X", "value": 25},
            ],
        }
    ],
}


def card_data(**hand: Any) -> dict[str, Any]:
    """The minimal card with its one hand's fields replaced (a value of None removes the field)."""
    data = copy.deepcopy(MINIMAL_CARD)
    target = data["families"][0]["hands"][0]
    for key, value in hand.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
    return data


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The engine is pure Python: no Django cache to clear (overrides the project conftest's fixture, so
    these tests also run with ``-p no:django``)."""
    yield


@pytest.fixture(scope="session")
def card() -> Card:
    return load_sample_cards()["sample-2027"]
