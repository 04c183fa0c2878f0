"""One interface over the rule engines, so events of every rule set share the same pages and services.

A hand is stored as a :class:`HandRecord` in starting-seat letters (E, S, W, N). Each rule set says how
to check one (``normalise``), what it is worth to each seat (``points``) and how to say it in words.
Pure Python, no Django: the services build an :class:`EventRules` from the tournament's settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from scoring.rules.errors import HandInputError
from scoring.rules.mcr import session as mcr

SEATS = ("E", "S", "W", "N")
CLASSICAL = ("babcock", "chinese-1920s", "foster")
NMJL_WON_BY = ("discard", "self_pick", "wall")


@dataclass(frozen=True, slots=True)
class HandRecord:
    winner: str | None
    discarder: str | None = None
    fan: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionTotals:
    scores: dict[str, int]
    table_points: dict[str, Any] | None
    forfeits: frozenset[str] = frozenset()


def _seat(value: Any, what: str, *, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if value not in SEATS:
        raise HandInputError(f"{what} must be one of E, S, W, N", code="bad_seat")
    return value


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HandInputError(f"{what} must be a whole number from {low} to {high}", code="bad_number")
    return value


class EventRules:
    """The rules of one event: ``rules`` is the tournament's rule set, ``settings`` its settings."""

    uses_table_points = False

    def __init__(self, rules: str, settings: Mapping[str, Any] | None = None) -> None:
        self.rules = rules
        self.settings = dict(settings or {})

    def normalise(self, record: HandRecord) -> HandRecord:
        raise NotImplementedError

    def points(self, record: HandRecord) -> dict[str, int]:
        raise NotImplementedError

    def describe(self, record: HandRecord) -> str:
        raise NotImplementedError

    def late_points(self, minutes: int) -> int | None:
        """Points a late player loses (None: forfeits the session); by default lateness costs nothing."""
        return 0

    def score_session(
        self,
        hands: Sequence[HandRecord],
        *,
        totals: Mapping[str, int] | None = None,
        penalties: Sequence[mcr.PenaltyItem] = (),
        late_minutes: Mapping[str, int] | None = None,
    ) -> SessionTotals:
        """Scores of a table's session: its hands (or reported totals), penalties and lateness."""
        scores = dict.fromkeys(SEATS, 0)
        if totals is not None:
            scores.update(check_totals(totals))
        else:
            for record in hands:
                for seat, points in self.points(record).items():
                    scores[seat] += points
        for penalty in penalties:
            for seat, points in mcr.penalty_effect(penalty).items():
                scores[seat] += points
        forfeits = set()
        for seat, minutes in (late_minutes or {}).items():
            lost = self.late_points(minutes)
            if lost is None:
                forfeits.add(seat)
            else:
                scores[seat] -= lost
        return SessionTotals(scores=scores, table_points=None, forfeits=frozenset(forfeits))


def check_totals(totals: Mapping[str, int]) -> dict[str, int]:
    if set(totals) != set(SEATS) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in totals.values()
    ):
        raise HandInputError("totals need a whole-number score for each of E, S, W, N", code="bad_totals")
    if sum(totals.values()) != 0:
        raise HandInputError(
            f"session totals must sum to zero; these sum to {sum(totals.values())}",
            code="totals_not_zero_sum",
        )
    return dict(totals)


class MCRRules(EventRules):
    """Sloper chapter 4: settlement rule 67, table points rule 71, lateness rule 88."""

    uses_table_points = True

    def normalise(self, record: HandRecord) -> HandRecord:
        outcome = mcr.HandOutcome(winner=record.winner, discarder=record.discarder, fan=record.fan or 0)
        if record.winner is not None and record.fan is None:
            raise HandInputError("enter the winner's fan points", code="fan_required")
        mcr.validate_hand(outcome)
        return HandRecord(
            winner=record.winner,
            discarder=record.discarder if record.winner else None,
            fan=record.fan if record.winner else None,
        )

    def points(self, record: HandRecord) -> dict[str, int]:
        return mcr.settle_hand(
            mcr.HandOutcome(winner=record.winner, discarder=record.discarder, fan=record.fan or 0)
        )

    def describe(self, record: HandRecord) -> str:
        if record.winner is None:
            return "draw"
        how = "self-drawn" if record.discarder is None else f"from {record.discarder}"
        return f"{record.winner} wins {record.fan} {how}"

    def late_points(self, minutes: int) -> int | None:
        return mcr.late_penalty(minutes)

    def score_session(self, hands, *, totals=None, penalties=(), late_minutes=None) -> SessionTotals:
        result = mcr.score_session(
            mcr.SessionInput(
                hands=[
                    mcr.HandOutcome(winner=h.winner, discarder=h.discarder, fan=h.fan or 0) for h in hands
                ],
                totals=totals,
                penalties=penalties,
                late_minutes=late_minutes or {},
            )
        )
        return SessionTotals(scores=result.scores, table_points=result.table_points, forfeits=result.forfeits)


class NMJLRules(EventRules):
    """Sloper chapter 3, "Tournament Scoring" (~line 1556): points per game by the event's scheme."""

    @cached_property
    def card(self):  # -> Card | None
        from scoring.rules.nmjl.card import load_card

        data = self.settings.get("card")
        if data is None:
            return None
        if isinstance(data, str):
            return _sample_card(data)
        return load_card(data)

    @cached_property
    def scheme(self):  # -> TournamentScheme
        from scoring.rules.nmjl.tournament import TournamentScheme

        return TournamentScheme.from_settings(self.settings.get("scheme"))

    def normalise(self, record: HandRecord) -> HandRecord:
        data = dict(record.data)
        won_by = data.get("won_by")
        if won_by not in NMJL_WON_BY:
            raise HandInputError("say how the game ended: discard, self_pick or wall", code="bad_won_by")
        dead = data.get("dead", [])
        if (
            not isinstance(dead, list)
            or any(seat not in SEATS for seat in dead)
            or len(set(dead)) != len(dead)
        ):
            raise HandInputError("dead hands must be a list of seats E, S, W, N", code="bad_dead")
        clean: dict[str, Any] = {"won_by": won_by, "dead": sorted(dead, key=SEATS.index)}
        if won_by == "wall":
            if record.winner is not None:
                raise HandInputError("a wall game has no winner", code="wall_with_winner")
            return HandRecord(winner=None, data=clean)
        winner = _seat(record.winner, "the winner")
        if winner in dead:
            raise HandInputError("a dead hand cannot win", code="dead_winner")
        discarder = None
        if won_by == "discard":
            discarder = _seat(record.discarder, "the discarder")
            if discarder == winner:
                raise HandInputError("the winner cannot also be the discarder", code="winner_is_discarder")
        card = self.card
        if data.get("tiles"):
            data.update(self._from_tiles(card, data))
        card_hand = data.get("hand")
        if card_hand:
            if card is None:
                raise HandInputError("this event has no card loaded; enter the value instead", code="no_card")
            hand = card.hand(card_hand)
            clean["hand"] = hand.id
            clean["value"] = hand.value
            clean["singles_and_pairs"] = hand.singles_and_pairs
            if hand.concealed and data.get("winner_exposures", 0):
                raise HandInputError(
                    f"hand {hand.id} is concealed: the winner has no exposures", code="bad_exposures"
                )
        else:
            clean["value"] = _whole(data.get("value"), "the hand's value", 1, 1000)
            if card is not None and clean["value"] not in card.values:
                raise HandInputError(
                    f"{clean['value']} is not a value on the card ({', '.join(map(str, card.values))})",
                    code="value_not_on_card",
                )
            clean["singles_and_pairs"] = bool(data.get("singles_and_pairs", False))
        clean["jokerless"] = bool(data.get("jokerless", False))
        clean["winner_exposures"] = _whole(data.get("winner_exposures", 0), "the winner's exposures", 0, 4)
        if data.get("tiles"):
            clean["tiles"] = list(data["tiles"])
            clean["exposures"] = [list(group) for group in data.get("exposures", [])]
        self.points(HandRecord(winner=winner, discarder=discarder, data=clean))  # the engine's own checks
        return HandRecord(winner=winner, discarder=discarder, data=clean)

    @staticmethod
    def _from_tiles(card, data: Mapping[str, Any]) -> dict[str, Any]:  # card: Card | None
        """The winner's 14 tiles (and exposures) checked by the matcher against the card (rules 23, 81):
        the hand they make (or the named one, checked), whether jokerless, and the exposures counted."""
        from scoring.rules.nmjl.matcher import identify_hand

        if card is None:
            raise HandInputError("this event has no card loaded; the tiles cannot be checked", code="no_card")
        tiles, exposures = data["tiles"], data.get("exposures", [])
        match = identify_hand(card, tiles, exposures, data.get("hand") or None)
        return {"hand": match.hand_id, "jokerless": match.jokerless, "winner_exposures": len(exposures)}

    def outcome(self, record: HandRecord) -> dict[str, Any]:
        """The spec's NMJL outcome object (scoring-json.md) for this game, in tournament mode."""
        data = record.data
        outcome: dict[str, Any] = {
            "mode": "tournament",
            "won_by": data["won_by"],
            "dead": list(data.get("dead", [])),
            "scheme": self.scheme.to_settings(),
        }
        if data["won_by"] != "wall":
            outcome.update(
                winner=record.winner,
                discarder=record.discarder,
                value=data["value"],
                jokerless=data.get("jokerless", False),
                singles_and_pairs=data.get("singles_and_pairs", False),
                winner_exposures=data.get("winner_exposures", 0),
            )
        return outcome

    def points(self, record: HandRecord) -> dict[str, int]:
        from scoring.rules.nmjl.api import score_request

        return score_request(self.outcome(record), cards={})["points"]

    def describe(self, record: HandRecord) -> str:
        data = record.data
        if data.get("won_by") == "wall":
            return "wall game"
        how = "self-picked" if data["won_by"] == "self_pick" else f"from {record.discarder}"
        extra = " jokerless" if data.get("jokerless") else ""
        hand = f" ({data['hand']})" if data.get("hand") else ""
        return f"{record.winner} wins {data['value']}{hand}{extra} {how}"

    def late_points(self, minutes: int) -> int | None:
        return -self.scheme.late if minutes > 0 else 0


class ClassicalRules(EventRules):
    """Babcock / the 1920s Chinese book / Foster: each hand's scores settled between the players."""

    def normalise(self, record: HandRecord) -> HandRecord:
        data = record.data
        winner = _seat(record.winner, "the winner", allow_none=True)
        east = _seat(data.get("east"), "East (the dealer)")
        scores = data.get("scores")
        if not isinstance(scores, Mapping) or set(scores) != set(SEATS):
            raise HandInputError("give each player's hand score (E, S, W, N)", code="bad_scores")
        clean_scores = {seat: _whole(scores[seat], f"{seat}'s hand score", 0, 100_000) for seat in SEATS}
        limit = self.limit
        if limit is not None:
            over = [seat for seat in SEATS if clean_scores[seat] > limit]
            if over:
                raise HandInputError(
                    f"{over[0]}'s hand score {clean_scores[over[0]]} is above the limit of {limit} "
                    "(scores are capped at the limit; the event's limit is in its settings)",
                    code="above_limit",
                )
        clean = HandRecord(winner=winner, data={"east": east, "scores": clean_scores})
        self.points(clean)
        return clean

    def points(self, record: HandRecord) -> dict[str, int]:
        from scoring.rules.classical.api import settle

        return settle(
            record.data["scores"],
            record.winner,
            record.data["east"],
            self.rules,
            options=self.settlement_options,
        )

    @property
    def limit(self) -> int | None:
        """The most a hand may score: the event's table option, else the book's (Babcock line 409: 300)."""
        from scoring.rules.classical.rulesets import RULE_BOOKS

        if "limit" in self.settings:
            return self.settings["limit"]
        return RULE_BOOKS[self.rules].defaults.limit

    @property
    def settlement_options(self) -> dict[str, Any]:
        """The event's table options for settlement (e.g. paying to the nearest 10, Babcock line 1204)."""
        return dict(self.settings.get("settlement") or {})

    def describe(self, record: HandRecord) -> str:
        scores = record.data["scores"]
        listed = ", ".join(f"{seat} {scores[seat]}" for seat in SEATS)
        head = f"{record.winner} goes out" if record.winner else "draw"
        return f"{head} (East {record.data['east']}; {listed})"


@cache
def _sample_card(card_id: str):  # -> Card
    from scoring.rules.nmjl.card import load_sample_cards

    cards = load_sample_cards()
    if card_id not in cards:
        raise HandInputError(f"unknown card {card_id!r} (samples: {', '.join(cards)})", code="unknown_card")
    return cards[card_id]


def rules_for(rules: str, settings: Mapping[str, Any] | None = None) -> EventRules:
    if rules == "mcr":
        return MCRRules(rules, settings)
    if rules == "nmjl":
        return NMJLRules(rules, settings)
    if rules in CLASSICAL:
        return ClassicalRules(rules, settings)
    raise HandInputError(f"unknown rule set {rules!r}", code="unknown_rules")


def next_classical_east(previous: Sequence[HandRecord]) -> str:
    """Who deals the next classical hand: East keeps the deal after winning it (or a draw), else it
    passes to the next player to the right (Babcock, seeds/000_237ca3ff6aae24f4.txt, lines 361 and 420)."""
    if not previous:
        return "E"
    last = previous[-1]
    east = last.data.get("east", "E")
    if last.winner is None or last.winner == east:
        return east
    return SEATS[(SEATS.index(east) + 1) % 4]
