"""Home-game settlement of one NMJL game: who pays whom (zero-sum).

Sloper (shared/seeds/003_2541481d343502a5.txt): rules 71-76 (~line 824) and the worked examples at
~line 1524; rule 95c (misnamed discard), rule 98 (mah-jongg in error, worked at ~line 1614), rule 100
(discard out of turn), rule 104 (death challenge), rule 108 (a dead player pays as any nonwinner).
"""

from __future__ import annotations

from scoring.rules.nmjl.outcome import SEATS, Outcome

PENALTY_MULTIPLE = 4


def hand_unit(value: int, *, jokerless: bool, singles_and_pairs: bool) -> int:
    """Rule 73: a jokerless hand doubles every payment, except a Singles And Pairs hand."""
    return value * 2 if jokerless and not singles_and_pairs else value


def payments(outcome: Outcome) -> dict[str, int]:
    """Points won (+) and paid (-) by each seat; every payment is between two players, so they sum to 0."""
    points = dict.fromkeys(SEATS, 0)

    def pay(payer: str, payee: str, amount: int) -> None:
        points[payer] -= amount
        points[payee] += amount

    false_mahjong = outcome.false_mahjong
    if false_mahjong is not None and false_mahjong.ends_game:
        if false_mahjong.wall_destroyed_by is not None:
            # Rule 98e: the destroyer pays each surviving player the lowest hand value on the card.
            assert outcome.lowest_value is not None
            out = {false_mahjong.declarer, false_mahjong.wall_destroyed_by, *false_mahjong.threw_in}
            for seat in SEATS:
                if seat not in out and seat not in outcome.dead:
                    pay(false_mahjong.wall_destroyed_by, seat, outcome.lowest_value)
        else:
            # Rule 98d: the declarer pays the sole survivor double the value of the hand she declared.
            assert false_mahjong.declared_value is not None
            (survivor,) = (
                s for s in SEATS if s != false_mahjong.declarer and s not in false_mahjong.threw_in
            )
            pay(false_mahjong.declarer, survivor, 2 * false_mahjong.declared_value)
    elif outcome.won_by in ("discard", "self_pick"):
        assert outcome.winner is not None and outcome.value is not None
        penalised = outcome.penalty_discarder
        if penalised is not None:
            # Rules 95c and 100: that discarder alone pays four times the value of the winner's hand.
            pay(penalised, outcome.winner, PENALTY_MULTIPLE * outcome.value)
        else:
            unit = hand_unit(
                outcome.value, jokerless=outcome.jokerless, singles_and_pairs=outcome.singles_and_pairs
            )
            for seat in SEATS:
                if seat == outcome.winner:
                    continue
                # Rule 72: the discarder pays double, others single; on self-pick all pay double.
                # Rule 108: a dead player pays the winner the same as any other nonwinner.
                double = outcome.won_by == "self_pick" or seat == outcome.discarder
                pay(seat, outcome.winner, unit * 2 if double else unit)
    # Rule 78: a wall game has no winner and nobody pays.
    for challenge in outcome.challenges:
        # Rule 104: whoever was wrong pays the other the lowest hand value on the card.
        assert outcome.lowest_value is not None
        pay(challenge.wrong, challenge.right, outcome.lowest_value)
    return points
