"""What a hand is worth to each seat as a table a page looks up, so a referee's phone can add up hands it
could not send yet (static/js/offline-entry.js) without scoring them itself (no Django here).

A rule set reads its table off its own ``points`` (``RuleSet.points_table``); :meth:`PointsTable.lookup` is
the lookup the page makes, in Python, so a rule set's tests check the table against ``points`` through it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

Fields = Mapping[str, Sequence[str]]
"""A hand form's fields as the page sends them: each name's values (several for checkboxes), as text."""


@dataclass(frozen=True, slots=True)
class PointsTerm:
    """Points some more of the form's fields add to the table's, by their values joined with ":" (a shape
    not listed adds nothing). A field sent with several values (checkboxes: NMJL's dead hands) adds once
    for each value; a field not sent counts as the one value ""."""

    keys: tuple[str, ...]
    shapes: Mapping[str, Mapping[str, int]]

    def as_json(self) -> dict[str, Any]:
        return {"keys": list(self.keys), "shapes": {key: dict(adds) for key, adds in self.shapes.items()}}


@dataclass(frozen=True, slots=True)
class PointsTable:
    """What a hand is worth to each seat as ``base + value * per``, by the hand's shape: the values of the
    hand form's ``keys`` fields joined with ":", a shorter shape standing for the longer ones its form
    ignores ("draw" whatever winner was chosen); ``value`` names the form's numeric field. ``terms`` add
    what other fields change (each :class:`PointsTerm`); ``fills`` are choices that stand for other fields'
    values (NMJL's ``card_hand``: the hand's value on the card); a hand with one of the ``unknown`` fields
    filled in (tiles the server reads the hand from) is not looked up."""

    keys: tuple[str, ...]
    value: str
    shapes: Mapping[str, tuple[Mapping[str, int], Mapping[str, int]]]
    terms: tuple[PointsTerm, ...] = ()
    fills: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "keys": list(self.keys),
            "value": self.value,
            "shapes": dict(self.shapes),
            "terms": [term.as_json() for term in self.terms],
            "fills": {name: dict(choices) for name, choices in self.fills.items()},
            "unknown": list(self.unknown),
        }

    def lookup(self, fields: Fields) -> dict[str, int] | None:
        """The points of the hand these fields enter, as the page looks them up; None when the table
        cannot say (a shape or a choice it does not list, a value missing, an ``unknown`` field given):
        the page shows "?"."""
        if any(value for name in self.unknown for value in fields.get(name, ())):
            return None
        values = {name: list(given) for name, given in fields.items()}
        for name, choices in self.fills.items():
            chosen = _first(values, name)
            if chosen:
                if chosen not in choices:
                    return None
                values.update({filled: [text] for filled, text in choices[chosen].items()})
        points = self._shape_points(values)
        if points is None:
            return None
        for term in self.terms:
            for combination in product(*(values.get(name) or [""] for name in term.keys)):
                for seat, adds in term.shapes.get(":".join(combination), {}).items():
                    points[seat] += adds
        return points

    def _shape_points(self, values: Mapping[str, Sequence[str]]) -> dict[str, int] | None:
        parts = [_first(values, name) for name in self.keys]
        for length in range(len(parts), 0, -1):
            shape = ":".join(parts[:length])
            if "" in parts[:length] or shape not in self.shapes:
                continue
            base, per = self.shapes[shape]
            text = _first(values, self.value).strip()
            if not re.fullmatch(r"-?[0-9]+", text):
                if any(per.values()):
                    return None  # a win without its value
                text = "0"
            return {seat: base[seat] + int(text) * per[seat] for seat in base}
        return None


def _first(values: Mapping[str, Sequence[str]], name: str) -> str:
    given = values.get(name) or [""]
    return given[0]
