"""An NMJL event's points table (``scoring.rules.points_table``), read off the rule set's own ``points``.

The Tournament Scoring table (Sloper, shared/seeds/003_2541481d343502a5.txt lines 1556-1570) and every
scheme of ``tournament.py`` give each seat a sum of separate amounts: the winner the card value (line
1562), plus 10 for a self-pick (1563) and 20 for a jokerless hand (1564, not for Singles And Pairs, rule
73); the discarder the penalty for the winner's exposures (1566-1567); a wall game its points (1565); a
dead hand its own (1570) instead of the nonwinner's (1569). So the table is the win's shape (how, winner,
discarder) affine in the value, plus what jokerless, the exposures and each dead hand add; each amount is
the difference ``points`` gives with that one field changed, and a field whose difference is not the same
in every hand it is read from raises (the table would not be what ``points`` says).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from scoring.rules.points_table import PointsTable, PointsTerm
from scoring.rules.ruleset import SEATS, HandRecord

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from scoring.rules.nmjl.card import Card


class GameRules(Protocol):
    """What the table is read off: the NMJL rule set's scoring, its checks and its card (the rule set's
    class calls this module, so this module names it only by what it uses)."""

    @property
    def card(self) -> Card | None: ...

    def points(self, record: HandRecord) -> dict[str, int]: ...

    def normalise(self, record: HandRecord) -> HandRecord: ...


VALUE = 25
"""The value the table is read at (and at one more); any value reads the same line."""
CHECKED = "on"
"""What a browser sends for a ticked checkbox (the form's jokerless), and the fill for Singles And Pairs."""


Shape = tuple[str, str | None, str | None]
"""A game's won_by, winner and discarder."""


def wins() -> Iterator[Shape]:
    """Every win's shape: (won_by, winner, discarder)."""
    for winner in SEATS:
        yield "self_pick", winner, None
        for discarder in SEATS:
            if discarder != winner:
                yield "discard", winner, discarder


PLAIN: dict[str, Any] = {
    "value": VALUE,
    "jokerless": False,
    "singles_and_pairs": False,
    "winner_exposures": 0,
}
"""A win's other fields as the table reads its shape: no jokerless bonus, no exposures."""


def hand_points(rules: GameRules, shape: Shape, dead: tuple[str, ...] = (), **changes: Any) -> dict[str, int]:
    """``rules.points`` of one game as ``normalise`` stores it: ``changes`` to :data:`PLAIN` for a win."""
    won_by, winner, discarder = shape
    data: dict[str, Any] = {"won_by": won_by, "dead": list(dead)}
    if won_by != "wall":
        data.update(PLAIN, **changes)
    return rules.points(HandRecord(winner=winner, discarder=discarder, data=data))


def _difference(changed: Mapping[str, int], plain: Mapping[str, int]) -> dict[str, int]:
    return {seat: changed[seat] - plain[seat] for seat in SEATS if changed[seat] != plain[seat]}


class _Term:
    """A term's shapes as they are read, each read the same every time or refused."""

    def __init__(self) -> None:
        self.shapes: dict[str, dict[str, int]] = {}

    def add(self, key: str, adds: dict[str, int]) -> None:
        if self.shapes.setdefault(key, adds) != adds:
            raise ValueError(f"NMJL points are not additive in {key!r}: {self.shapes[key]} and {adds}")

    def term(self, keys: tuple[str, ...]) -> PointsTerm:
        return PointsTerm(keys=keys, shapes={key: adds for key, adds in self.shapes.items() if adds})


def read_points_table(rules: GameRules) -> PointsTable:
    """The table of ``rules`` (its scheme, its card), read off ``rules.points``."""
    wall: Shape = ("wall", None, None)
    shapes: dict[str, tuple[Mapping[str, int], Mapping[str, int]]] = {
        "wall": (hand_points(rules, wall), dict.fromkeys(SEATS, 0))
    }
    jokerless, exposures, dead = _Term(), _Term(), _Term()
    for seat in SEATS:
        dead.add(f"wall:{seat}", _difference(hand_points(rules, wall, (seat,)), shapes["wall"][0]))
    for shape in wins():
        won_by, winner, discarder = shape
        plain = hand_points(rules, shape)
        more = hand_points(rules, shape, value=VALUE + 1)
        per = {seat: more[seat] - plain[seat] for seat in SEATS}
        base = {seat: plain[seat] - VALUE * per[seat] for seat in SEATS}
        shapes[":".join(part for part in shape if part)] = (base, per)
        for singles_and_pairs in (False, True):
            added = _difference(
                hand_points(rules, shape, jokerless=True, singles_and_pairs=singles_and_pairs),
                hand_points(rules, shape, singles_and_pairs=singles_and_pairs),
            )
            jokerless.add(f"{won_by}:{winner}:{CHECKED}:{CHECKED if singles_and_pairs else ''}", added)
        if discarder is not None:
            for count in range(1, 5):
                added = _difference(hand_points(rules, shape, winner_exposures=count), plain)
                exposures.add(f"{won_by}:{discarder}:{count}", added)
        for seat in SEATS:
            if seat != winner:
                dead.add(f"{won_by}:{seat}", _difference(hand_points(rules, shape, (seat,)), plain))
    return PointsTable(
        keys=("won_by", "winner", "discarder"),
        value="value",
        shapes=shapes,
        terms=(
            jokerless.term(("won_by", "winner", "jokerless", "singles_and_pairs")),
            exposures.term(("won_by", "discarder", "winner_exposures")),
            dead.term(("won_by", "dead")),
        ),
        fills={"card_hand": card_fills(rules)},
        unknown=("tiles",),  # the server reads the hand, its jokers and exposures from them
    )


def card_fills(rules: GameRules) -> dict[str, dict[str, str]]:
    """Each hand of the event's card as the fields ``normalise`` fills in for it: its value and whether
    it is Singles And Pairs (no jokerless bonus, line 1564 and rule 73)."""
    if rules.card is None:
        return {}
    fills = {}
    for hand in rules.card.hands:
        clean = rules.normalise(HandRecord(winner="E", data={"won_by": "self_pick", "hand": hand.id})).data
        fills[hand.id] = {
            "value": str(clean["value"]),
            "singles_and_pairs": CHECKED if clean["singles_and_pairs"] else "",
        }
    return fills
