"""What a penalty does to each seat as a points table (``scoring.rules.points_table``), so a referee's phone
adds up penalties it could not send yet (static/js/offline-entry.js) as the rule set does (no Django here).

Read off :func:`scoring.rules.ruleset.penalty_effect`, which every rule set's ``score_session`` applies: the
offender's seat and how the penalty is paid (to nobody, MCR rules 79, 80, 83, 88; to each other player, rule
84; to one opponent, rule 85e, seeds/003 line 2387) give each seat a multiple of the points. A ruling of the
catalogue stands for its points and its payee; one whose points depend on the event's earlier rulings
(escalating, MCR 79, 80 and 83) or on the tiles revealed (85e) is not listed, so the page shows "?".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.rules.points_table import PointsTable
from scoring.rules.ruleset import SEATS, PenaltyItem, penalty_effect

if TYPE_CHECKING:
    from collections.abc import Mapping

    from scoring.rules.ruleset import RuleSet

PLAYER = "player"
"""How the penalty form names a penalty paid to one player (``scoring.models.PaidTo``, rule 85e)."""


def _affine(seat: str, paid_to: str) -> tuple[dict[str, int], dict[str, int]]:
    one = penalty_effect(PenaltyItem(seat=seat, points=1, paid_to=paid_to))
    two = penalty_effect(PenaltyItem(seat=seat, points=2, paid_to=paid_to))
    per = {other: two[other] - one[other] for other in SEATS}
    return {other: one[other] - per[other] for other in SEATS}, per


def penalty_table(rules: RuleSet) -> PointsTable:
    """Keyed by the form's payee, the offender's seat and the receiver's (``seat`` and ``receiver`` filled
    in by the page from the players it names), the form's ``points`` the value; ``kind`` fills in the
    points and payee of a catalogue ruling."""
    shapes: dict[str, tuple[Mapping[str, int], Mapping[str, int]]] = {}
    for seat in SEATS:
        for paid_to in ("none", "each_other"):
            shapes[f"{paid_to}:{seat}"] = _affine(seat, paid_to)
        for receiver in SEATS:
            if receiver != seat:
                shapes[f"{PLAYER}:{seat}:{receiver}"] = _affine(seat, receiver)
    kinds = {
        ruling.key: {"paid_to": ruling.paid_to, "points": str(ruling.points_for())}
        for ruling in rules.penalty_catalogue()
        if not ruling.escalates and not ruling.per_tile
    }
    return PointsTable(
        keys=("paid_to", "seat", "receiver"), value="points", shapes=shapes, fills={"kind": kinds}
    )
