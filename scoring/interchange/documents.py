"""The event document's shapes (``shared/specs/event-json.md``): its limits, reading it safely, and the
small checks that the validation, the export and the import share."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from scoring.models import REASONS_LENGTH, STATEMENT_LENGTH, Appeal
from scoring.rules.ruleset import HandRecord, RuleSet
from scoring.services import entry
from tournaments.field_limits import max_length, too_long
from tournaments.models import Registration, Tournament
from tournaments.services.registrations import PlayerRow

FORMAT = "mahjong-event/1"
ID_LENGTH = max_length(Registration, "code")
ID_RE = re.compile(rf"^[A-Za-z0-9_.'-]{{1,{ID_LENGTH}}}$")
MAX_ROUND = 50
MAX_TABLE = 500
MAX_DOCUMENT_BYTES = 50_000_000
MAX_NESTING = 16  # an event document nests 11 levels at most (doc, rounds, table, hands, tiles, melds...)
TILE_CODES = ("bad_tiles", "claim_above_tiles", "below_minimum")
SLUG_LENGTH = max_length(Tournament, "slug")
SLUG_RE = re.compile(rf"^[-a-zA-Z0-9_]{{1,{SLUG_LENGTH}}}$")
PENALTY_TEXTS = ("rule", "reason", "kind")
"""A penalty's texts in the event JSON, each as long as its column of ``Penalty`` at most."""

RULING_OUTCOMES = ("points", "warning", "forced_discard", "no_win", "loss_of_rank", "disqualification")
"""``scoring.rules.rulings.OUTCOMES``: what a penalty's optional ``outcome`` may say (docs/rulings.md)."""

APPEAL_TEXTS = {
    "statement": STATEMENT_LENGTH,
    "signed_by": max_length(Appeal, "signed_by"),
    "reasons": REASONS_LENGTH,
}
"""Optional texts of an appeal in the event JSON (rule 94b-c and the decision's reasons), with their limits:
the signature's column, and for the two unlimited columns (TextField) the appeal pages' own limits."""


class EventImportError(Exception):
    """Every problem found in a document, each as "path: what is wrong"."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


@dataclass
class Checker:
    """The problems found so far, each said with its path in the document."""

    problems: list[str]

    def add(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def length(self, path: str, model: Any, field: str, text: str) -> None:
        """Report a text longer than the model field it is stored in (``field_limits``)."""
        limit = too_long(model, field, text)
        if limit is not None:
            self.add(path, f"must be at most {limit} characters (it has {len(text)})")

    def objects(
        self, value: Any, path: str, *, missing: str = "must be a list"
    ) -> list[tuple[str, Mapping[str, Any]]]:
        """The objects of a list in the document, each with its path; anything else is reported."""
        if not isinstance(value, list):
            self.add(path, missing)
            return []
        found = []
        for index, item in enumerate(value):
            if isinstance(item, Mapping):
                found.append((f"{path}[{index}]", item))
            else:
                self.add(f"{path}[{index}]", "must be an object")
        return found


def scalar(value: Any) -> Any:
    """A value usable as a key (a list where an id belongs is simply not found)."""
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number of the document (JSON's ``true`` is not one, though Python's ``bool`` is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def depth(value: Any, limit: int) -> int:
    """How deep lists and objects nest, stopping once past ``limit``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _too_long_number(text: str) -> int:
    if len(text) - text.startswith("-") > 30:
        raise ValueError(f"a number with {len(text)} digits")
    return int(text)


def read_document(raw: bytes | str) -> Any:
    """An event document read safely: a size limit, numbers of at most 30 digits, nesting that Python's
    parser survives; anything else is an :class:`EventImportError` with a clear message."""
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise EventImportError([f"$: the document is larger than {MAX_DOCUMENT_BYTES // 1_000_000} MB"])
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        return json.loads(text, parse_int=_too_long_number)
    except UnicodeDecodeError as error:
        raise EventImportError([f"$: not UTF-8 text ({error})"]) from None
    except RecursionError:
        raise EventImportError(
            [f"$: lists and objects nest too deep (at most {MAX_NESTING} levels)"]
        ) from None
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        raise EventImportError([f"$: not valid JSON ({error})"]) from None


def player_row(player: Mapping[str, Any]) -> PlayerRow:
    """A player of the document as the registration desk's row (checked by ``clean_player_row``)."""

    def text(key: str) -> str:
        value = player.get(key, "")
        return value if isinstance(value, str) else ("" if value is None else str(value))

    return PlayerRow(
        name=text("name"),
        country=text("country"),
        ema_id=text("ema_id"),
        team=text("team"),
        family_name=text("family_name"),
        given_name=text("given_name"),
    )


def hand_record_from_doc(hand: Mapping[str, Any], wind_of: Mapping[str, str], rules: RuleSet) -> HandRecord:
    """A hand of the event JSON (player ids) checked as the pages check one (``entry.check_hand``)."""
    return entry.check_hand(rules, rules.hand_from_doc(hand, wind_of), hand.get("tiles"))
