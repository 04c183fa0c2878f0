"""``score_hands --rules nmjl``: an NMJL hand outcome in JSON to ``{"points": {...}}``.

Implements "An NMJL hand outcome" of shared/specs/scoring-json.md: ``mode`` ``payments`` (rules 71-76, 95c,
98, 100, 104, 108 of Sloper, shared/seeds/003_2541481d343502a5.txt) or ``tournament`` (the table at
~line 1556, changed by ``scheme``). Any bad input raises :class:`HandInputError` with a plain message.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scoring.rules.errors import HandInputError
from scoring.rules.limits import check_request
from scoring.rules.nmjl.card import Card, CardHand, load_sample_cards
from scoring.rules.nmjl.matcher import Match, identify_hand
from scoring.rules.nmjl.outcome import DeathChallenge, FalseMahjong, Outcome
from scoring.rules.nmjl.payments import payments
from scoring.rules.nmjl.tournament import TournamentScheme, tournament_points

MODES = ("payments", "tournament")
FIELDS = frozenset(
    {
        "mode",
        "value",
        "card",
        "hand",
        "won_by",
        "winner",
        "discarder",
        "jokerless",
        "singles_and_pairs",
        "winner_exposures",
        "dead",
        "lowest_value",
        "events",
        "scheme",
        "late",
        "tiles",
        "exposures",
    }
)
EVENT_FIELDS = {
    "misnamed_discard": {"kind", "misnamer"},
    "out_of_turn_discard": {"kind", "discarder"},
    "false_mahjong": {"kind", "declarer", "declared_value", "threw_in", "wall_destroyed_by"},
    "death_challenge": {"kind", "challenger", "challenged", "challenged_was_dead"},
}


@lru_cache(maxsize=1)
def _sample_cards() -> dict[str, Card]:
    return load_sample_cards()


def _bool(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise HandInputError(f"field {key!r} must be true or false, not {value!r}", code="bad_field")
    return value


def _seats(data: Mapping[str, Any], key: str) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(seat, str) for seat in value):
        raise HandInputError(f'field {key!r} must be a list of seats such as ["W"]', code="bad_field")
    return frozenset(value)


def _card_hand(data: Mapping[str, Any], cards: Mapping[str, Card]) -> tuple[Card | None, CardHand | None]:
    if "hand" in data and "card" not in data:
        raise HandInputError("field 'hand' needs 'card' (the card id)", code="missing_field")
    if "card" not in data:
        return None, None
    card_id = data["card"]
    if not isinstance(card_id, str) or card_id not in cards:
        known = ", ".join(sorted(cards)) or "none"
        raise HandInputError(f"unknown card {card_id!r} (cards: {known})", code="unknown_card")
    card = cards[card_id]
    if "hand" not in data:
        return card, None
    hand_id = data["hand"]
    if not isinstance(hand_id, str):
        raise HandInputError(f"field 'hand' must be a hand id, not {hand_id!r}", code="bad_field")
    return card, card.hand(hand_id)


def _hand_from_tiles(
    data: Mapping[str, Any], card: Card | None, hand: CardHand | None
) -> tuple[CardHand, Match]:
    """Optional ``tiles`` (all 14) and ``exposures`` of the winner: check them against the card (rules 23, 81)
    and find the hand when none is named (the winner names hers, rule 66d: the highest value is taken)."""
    if card is None:
        raise HandInputError("fields 'tiles' and 'exposures' need 'card' (the card id)", code="missing_field")
    if "tiles" not in data:
        raise HandInputError(
            "field 'exposures' needs 'tiles' (all 14 tiles of the hand)", code="missing_field"
        )
    if data.get("won_by") not in ("discard", "self_pick"):
        raise HandInputError("fields 'tiles' and 'exposures' describe a winning hand", code="bad_field")
    match = identify_hand(
        card, data["tiles"], data.get("exposures", []), hand.id if hand is not None else None
    )
    return card.hand(match.hand_id), match


def _value(data: Mapping[str, Any], card: Card | None, hand: CardHand | None) -> int | None:
    """Rule 71: the value printed on the card; checked against the card when one is named."""
    value = data.get("value")
    if hand is not None:
        if value is not None and value != hand.value:
            raise HandInputError(
                f"value {value!r} is not the value of hand {hand.id!r}, which is {hand.value}",
                code="bad_value",
            )
        return hand.value
    if value is not None and card is not None and value not in card.values:
        values = ", ".join(str(v) for v in card.values)
        raise HandInputError(
            f"value {value!r} is not on card {card.id!r} (values: {values})", code="bad_value"
        )
    return value


def _events(data: Mapping[str, Any], card: Card | None) -> dict[str, Any]:
    events = data.get("events", [])
    if not isinstance(events, list):
        raise HandInputError("field 'events' must be a list of objects with a 'kind'", code="bad_field")
    found: dict[str, Any] = {"challenges": []}
    for index, event in enumerate(events):
        where = f"events[{index}]"
        if not isinstance(event, Mapping) or event.get("kind") not in EVENT_FIELDS:
            kinds = ", ".join(EVENT_FIELDS)
            raise HandInputError(f"{where} must be an object whose kind is one of {kinds}", code="bad_event")
        kind = event["kind"]
        unknown = sorted(set(event) - EVENT_FIELDS[kind])
        if unknown:
            raise HandInputError(f"{where}: unknown field {unknown[0]!r} for {kind}", code="bad_event")
        missing = sorted(
            EVENT_FIELDS[kind] - set(event) - {"declared_value", "threw_in", "wall_destroyed_by"}
        )
        if missing:
            raise HandInputError(f"{where}: {kind} needs field {missing[0]!r}", code="missing_field")
        if kind == "death_challenge":
            if not isinstance(event["challenged_was_dead"], bool):
                raise HandInputError(f"{where}: challenged_was_dead must be true or false", code="bad_event")
            found["challenges"].append(
                DeathChallenge(event["challenger"], event["challenged"], event["challenged_was_dead"])
            )
            continue
        if kind in found:
            raise HandInputError(f"{where}: only one {kind} event per game", code="bad_event")
        if kind == "false_mahjong":
            threw_in = event.get("threw_in", [])
            if not isinstance(threw_in, list):
                raise HandInputError(f"{where}: threw_in must be a list of seats", code="bad_event")
            declared = event.get("declared_value")
            if declared is not None and card is not None and declared not in card.values:
                raise HandInputError(
                    f"{where}: declared_value {declared!r} is not on card {card.id!r}", code="bad_value"
                )
            found[kind] = FalseMahjong(
                declarer=event["declarer"],
                declared_value=declared,
                threw_in=tuple(threw_in),
                wall_destroyed_by=event.get("wall_destroyed_by"),
            )
        else:
            found[kind] = event["misnamer" if kind == "misnamed_discard" else "discarder"]
    if "misnamed_discard" in found and "out_of_turn_discard" in found:
        raise HandInputError(
            "give either a misnamed discard or an out-of-turn discard, not both", code="bad_event"
        )
    return found


def parse_outcome(data: Any, *, cards: Mapping[str, Card] | None = None) -> tuple[str, Outcome]:
    """The mode and the :class:`Outcome` of a spec object (without the scheme)."""
    check_request(data)
    if not isinstance(data, Mapping):
        raise HandInputError("an NMJL hand outcome must be a JSON object", code="bad_field")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise HandInputError(f"unknown field {unknown[0]!r} in an NMJL hand outcome", code="bad_field")
    mode = data.get("mode")
    if mode not in MODES:
        raise HandInputError(
            f"field 'mode' must be 'payments' or 'tournament', not {mode!r}", code="bad_field"
        )
    card, hand = _card_hand(data, _sample_cards() if cards is None else cards)
    jokerless = _bool(data, "jokerless")
    exposures = data.get("winner_exposures")
    if "tiles" in data or "exposures" in data:
        hand, match = _hand_from_tiles(data, card, hand)
        if "jokerless" in data and jokerless != match.jokerless:
            raise HandInputError(
                f"jokerless is {jokerless} but the tiles say {match.jokerless}", code="bad_field"
            )
        jokerless = match.jokerless
        shown = len(data.get("exposures", []))
        if exposures is not None and exposures != shown:
            raise HandInputError(
                f"winner_exposures is {exposures!r} but {shown} exposures are given", code="bad_field"
            )
        exposures = shown
    value = _value(data, card, hand)
    singles_and_pairs = _bool(data, "singles_and_pairs", hand.singles_and_pairs if hand else False)
    if hand is not None and singles_and_pairs != hand.singles_and_pairs:
        raise HandInputError(
            f"singles_and_pairs is {singles_and_pairs} but hand {hand.id!r} says {hand.singles_and_pairs}",
            code="bad_field",
        )
    if hand is not None and hand.concealed:
        if exposures not in (None, 0):
            raise HandInputError(
                f"hand {hand.id!r} is concealed (C): the winner cannot have exposures (rule 26)",
                code="bad_outcome",
            )
        exposures = 0
    if hand is not None and hand.singles_and_pairs and exposures is None:
        exposures = 0
    lowest = data.get("lowest_value")
    if card is not None:
        if lowest is not None and lowest != card.lowest_value:
            raise HandInputError(
                f"lowest_value {lowest!r} is not the lowest value on card {card.id!r} ({card.lowest_value})",
                code="bad_value",
            )
        lowest = card.lowest_value
    events = _events(data, card)
    misnamed = events.get("misnamed_discard")
    out_of_turn = events.get("out_of_turn_discard")
    discarder = data.get("discarder")
    penalised = misnamed or out_of_turn
    if penalised is not None and discarder is None:
        discarder = penalised
    outcome = Outcome(
        won_by=data.get("won_by"),
        value=value,
        winner=data.get("winner"),
        discarder=discarder,
        jokerless=jokerless,
        singles_and_pairs=singles_and_pairs,
        winner_exposures=exposures,
        dead=_seats(data, "dead"),
        lowest_value=lowest,
        misnamed_by=misnamed,
        out_of_turn_by=out_of_turn,
        false_mahjong=events.get("false_mahjong"),
        challenges=tuple(events["challenges"]),
        late=_seats(data, "late"),
    )
    return mode, outcome


def score_request(data: Any, *, cards: Mapping[str, Card] | None = None) -> dict[str, Any]:
    """One NMJL hand outcome (spec object) to ``{"points": {"E": .., "S": .., "W": .., "N": ..}}``.

    ``cards`` maps card ids to loaded cards for ``"card"``/``"hand"``; by default the shipped samples.
    """
    mode, outcome = parse_outcome(data, cards=cards)
    if mode == "payments":
        if "scheme" in data:
            raise HandInputError("field 'scheme' belongs to mode 'tournament'", code="bad_field")
        if outcome.late:
            raise HandInputError("field 'late' belongs to mode 'tournament'", code="bad_field")
        return {"points": payments(outcome)}
    scheme = TournamentScheme.from_settings(data.get("scheme"))
    return {"points": tournament_points(outcome, scheme)}
