"""The points table a referee's phone adds NMJL games up with (static/js/offline-entry.js) is the rule set's
own scoring: for every shape of game the hand form can enter (how it ended, winner, discarder, jokerless,
the winner's exposures, any set of dead hands) and several values, under every scheme, the table's lookup
gives what ``points`` gives to the game as ``normalise`` stores it (Tournament Scoring, seeds/003 lines
1556-1570); a hand chosen on the event's card takes its value from the card."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.points_table import wins
from scoring.rules.nmjl.ruleset import NMJLRuleSet
from scoring.rules.nmjl.tournament import PRESETS
from scoring.rules.ruleset import SEATS, HandRecord

SCHEMES: list[dict[str, Any]] = [
    *({"scheme": {"preset": name}} for name in PRESETS),
    {"scheme": {"preset": "book"}, "dead_hand_in_wall_game": "wall_game"},
    # A scheme where every amount differs, dead hands and nonwinners included.
    {
        "scheme": {
            "preset": "exposures-10-20-30",
            "self_pick_bonus": 15,
            "jokerless_bonus": 30,
            "wall_game": 7,
            "nonwinner": -2,
            "dead_hand": -9,
            "discard_penalties": {"1": -3, "2": -11, "4": -40},
        }
    },
]


def dead_sets(winner: str | None) -> list[tuple[str, ...]]:
    alive = [seat for seat in SEATS if seat != winner]
    return [dead for size in range(len(alive) + 1) for dead in combinations(alive, size)]


def form_fields(
    won_by: str,
    winner: str | None,
    discarder: str | None,
    *,
    jokerless: bool = False,
    exposures: int = 0,
    dead: tuple[str, ...] = (),
    value: int | None = None,
    card_hand: str = "",
) -> dict[str, list[str]]:
    """The fields the page keeps for a game, as a browser sends the hand form (scoring/forms.py
    NMJLGameForm): a ticked checkbox "on", each dead hand a value of its own."""
    return {
        "won_by": [won_by],
        "winner": [winner or ""],
        "discarder": [discarder or ""],
        "card_hand": [card_hand],
        "value": ["" if value is None else str(value)],
        "jokerless": ["on"] if jokerless else [],
        "winner_exposures": [str(exposures)],
        "dead": list(dead),
        "tiles": [""],
    }


def stored_points(rules: NMJLRuleSet, fields: dict[str, list[str]]) -> dict[str, int] | None:
    """What the server stores the game as and scores it, as NMJLGameForm.entry sends it to the rule set:
    winner and discarder only where the result has them; None when it refuses the game."""
    won_by = fields["won_by"][0]
    data: dict[str, Any] = {"won_by": won_by, "dead": fields["dead"]}
    if won_by != "wall":
        data.update(jokerless=bool(fields["jokerless"]), winner_exposures=int(fields["winner_exposures"][0]))
        if fields["card_hand"][0]:
            data["hand"] = fields["card_hand"][0]
        else:
            data["value"] = int(fields["value"][0])
    record = HandRecord(
        winner=fields["winner"][0] if won_by != "wall" else None,
        discarder=fields["discarder"][0] if won_by == "discard" else None,
        data=data,
    )
    try:
        return rules.points(rules.normalise(record))
    except HandInputError:
        return None


def every_game(values: tuple[int, ...]) -> list[dict[str, list[str]]]:
    """Every game the form can enter, with the choices a form still shows but the result ignores (a
    discarder left chosen for a self-pick, a winner for a wall game)."""
    games = [form_fields("wall", "E", "S", jokerless=True, dead=dead, value=40) for dead in dead_sets(None)]
    for won_by, winner, discarder in wins():
        assert winner is not None
        shown = discarder or next(seat for seat in SEATS if seat != winner)
        for dead in dead_sets(winner):
            for exposures in range(5):
                for jokerless in (False, True):
                    for value in values:
                        games.append(
                            form_fields(
                                won_by,
                                winner,
                                shown,
                                jokerless=jokerless,
                                exposures=exposures,
                                dead=dead,
                                value=value,
                            )
                        )
    return games


@pytest.mark.parametrize("settings", SCHEMES, ids=lambda settings: str(settings))
def test_the_table_gives_what_points_gives_for_every_game_and_value(settings):
    rules = NMJLRuleSet(settings)  # no card: any value may be entered
    table = rules.points_table()
    assert table.keys == ("won_by", "winner", "discarder") and table.value == "value"
    assert len(table.shapes) == 1 + 4 + 12  # a wall game, four self-picks, twelve wins by discard
    checked = 0
    for fields in every_game((1, 25, 50, 1000)):
        expected = stored_points(rules, fields)
        if expected is not None:
            assert table.lookup(fields) == expected, fields
            checked += 1
    assert checked == 16 + (4 + 12) * 8 * 5 * 2 * 4


def test_a_hand_chosen_on_the_card_takes_the_cards_value():
    """The sample card's hands, Singles And Pairs among them (no jokerless bonus, rule 73, line 1564)."""
    rules = NMJLRuleSet(NMJLRuleSet.default_settings())
    table = rules.points_table()
    assert rules.card is not None
    assert set(table.fills["card_hand"]) == {hand.id for hand in rules.card.hands}
    assert any(hand.singles_and_pairs for hand in rules.card.hands)
    for hand in rules.card.hands:
        for won_by, winner, discarder in wins():
            for jokerless in (False, True):
                for exposures in (0, 3):
                    fields = form_fields(
                        won_by, winner, discarder, jokerless=jokerless, exposures=exposures, card_hand=hand.id
                    )
                    expected = stored_points(rules, fields)
                    if expected is not None:
                        assert table.lookup(fields) == expected, fields
    # A value typed while a hand is chosen is not what counts: the card's value is.
    fields = form_fields("self_pick", "E", None, value=1000, card_hand="sp-1")
    assert table.lookup(fields) == stored_points(rules, fields) == {"E": 60, "S": 0, "W": 0, "N": 0}


def test_what_the_table_cannot_say_is_not_looked_up():
    """Shown "?" by the page: a hand not on the event's card, a win without its value, a game entered
    with its tiles (the server reads the hand from them)."""
    table = NMJLRuleSet(NMJLRuleSet.default_settings()).points_table()
    assert table.lookup(form_fields("self_pick", "E", None, card_hand="not-on-the-card")) is None
    assert table.lookup(form_fields("discard", "E", "S")) is None
    fields = form_fields("self_pick", "E", None, value=25)
    assert table.lookup(fields) is not None
    assert table.lookup({**fields, "tiles": ["2m 2m 2m 4m 4m 4m 6m 6m 6m 6m 8m 8m 8m J"]}) is None
    assert table.lookup(form_fields("wall", None, None)) == dict.fromkeys(SEATS, 10)
