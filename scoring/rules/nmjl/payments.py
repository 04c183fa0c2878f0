"""Home-game settlement of one NMJL game: who pays whom (zero-sum).

Sloper (shared/seeds/003_2541481d343502a5.txt): rules 71-76 (~line 824) and the worked examples at
~line 1524; rule 95c (misnamed discard), rule 98 (mah-jongg in error, worked at ~line 1630), rule 100
(discard out of turn), rule 104 (death challenge), rule 108 (a dead player pays as any nonwinner), and rules
121-130 (a fifth or sixth player betting).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.nmjl.outcome import SEATS, Outcome

PENALTY_MULTIPLE = 4
WALL_BET = "wall"


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: ``payer`` gives ``payee`` ``amount``; ``rule`` names the rule for the score sheet."""

    payer: str
    payee: str
    amount: int
    rule: str


def hand_unit(value: int, *, jokerless: bool, singles_and_pairs: bool) -> int:
    """Rule 73: a jokerless hand doubles every payment, except a Singles And Pairs hand."""
    return value * 2 if jokerless and not singles_and_pairs else value


def _game_transfers(outcome: Outcome) -> list[Transfer]:
    false_mahjong = outcome.false_mahjong
    if false_mahjong is not None and false_mahjong.ends_game:
        if false_mahjong.wall_destroyed_by is not None:
            assert outcome.lowest_value is not None
            out = {false_mahjong.declarer, false_mahjong.wall_destroyed_by, *false_mahjong.threw_in}
            return [
                Transfer(false_mahjong.wall_destroyed_by, seat, outcome.lowest_value, "98e")
                for seat in SEATS
                if seat not in out and seat not in outcome.dead
            ]
        assert false_mahjong.declared_value is not None
        (survivor,) = (s for s in SEATS if s != false_mahjong.declarer and s not in false_mahjong.threw_in)
        return [Transfer(false_mahjong.declarer, survivor, 2 * false_mahjong.declared_value, "98d")]
    if outcome.won_by not in ("discard", "self_pick"):
        return []  # Rule 78: a wall game has no winner and nobody pays.
    assert outcome.winner is not None and outcome.value is not None
    penalised = outcome.penalty_discarder
    if penalised is not None:
        rule = "95c" if penalised == outcome.misnamed_by else "100"
        return [Transfer(penalised, outcome.winner, PENALTY_MULTIPLE * outcome.value, rule)]
    unit = hand_unit(outcome.value, jokerless=outcome.jokerless, singles_and_pairs=outcome.singles_and_pairs)
    rule = "73" if unit != outcome.value else "72"
    transfers = []
    for seat in SEATS:
        if seat == outcome.winner:
            continue
        # Rule 72: the discarder pays double, others single; on self-pick all pay double.
        # Rule 108: a dead player pays the winner the same as any other nonwinner.
        double = outcome.won_by == "self_pick" or seat == outcome.discarder
        transfers.append(Transfer(seat, outcome.winner, unit * 2 if double else unit, rule))
    return transfers


def transfers(outcome: Outcome) -> list[Transfer]:
    """Every payment of the game, itemised: the hand (or the rule-98 penalty), then death challenges."""
    items = _game_transfers(outcome)
    for challenge in outcome.challenges:
        # Rule 104: whoever was wrong pays the other the lowest hand value on the card.
        assert outcome.lowest_value is not None
        items.append(Transfer(challenge.wrong, challenge.right, outcome.lowest_value, "104"))
    return items


def net(items: Iterable[Transfer], parties: Iterable[str] = SEATS) -> dict[str, int]:
    """What each party wins (+) or pays (-) over the transfers."""
    points = dict.fromkeys(parties, 0)
    for item in items:
        points[item.payer] = points.get(item.payer, 0) - item.amount
        points[item.payee] = points.get(item.payee, 0) + item.amount
    return points


def payments(outcome: Outcome) -> dict[str, int]:
    """Points won (+) and paid (-) by each seat; every payment is between two players, so they sum to 0."""
    return net(transfers(outcome))


def bettor_transfers(outcome: Outcome, bet: str, *, bettor: str = "bettor") -> list[Transfer]:
    """Rules 127-128: a bettor pays or receives the same as the player she bet on, penalties included;
    when she bet on a wall game and it is one, each player pays her the lowest hand value on the card.

    Rule 127 is followed where the example at ~line 1526 says "If Esther bet on Alice, everybody (except
    Betty) also pays Esther": Alice is the discarder there, so the example's names only fit a bet on Betty.
    """
    if bet == WALL_BET:
        if outcome.won_by != "wall":
            return []
        if outcome.lowest_value is None:
            raise HandInputError(
                gettext_noop("lowest_value is needed to pay a bettor who bet on a wall game (rule 128)"),
                code="missing_field",
            )
        return [Transfer(seat, bettor, outcome.lowest_value, "128") for seat in SEATS]
    if bet not in SEATS:
        raise HandInputError(
            gettext_noop("a bet is on E, S, W, N or 'wall', not %(bet)r (rule 123)"),
            code="bad_field",
            bet=bet,
        )
    mirrored = []
    for item in transfers(outcome):
        if item.payee == bet:
            mirrored.append(Transfer(item.payer, bettor, item.amount, "127"))
        elif item.payer == bet:
            mirrored.append(Transfer(bettor, item.payee, item.amount, "127"))
    return mirrored
