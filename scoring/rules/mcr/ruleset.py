"""Chinese Official (MCR) as an event's rule set: Sloper chapter 4 (seeds/003_2541481d343502a5.txt).

Settlement rule 67, table points rule 71, ranking rule 73 (ties share the rank), rotation rules 74-75,
lateness rule 88, the penalty catalogue of rules 79-85.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from scoring.rules import vocabulary
from scoring.rules.errors import HandInputError, Text, gettext_noop
from scoring.rules.mcr import session as mcr
from scoring.rules.mcr.fan_names import FAN_NAMES
from scoring.rules.mcr.penalty_names import CHINESE_PENALTY_LABELS
from scoring.rules.points_table import PointsTable
from scoring.rules.ruleset import (
    SEATS,
    HandRecord,
    PenaltyItem,
    RuleSet,
    SessionTotals,
    Winds,
    seat_of_player,
)
from scoring.rules.rulings import Ruling
from scoring.rules.settings import Setting
from scoring.rules.tie_breaks import TIE_BREAK_SETTINGS


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


SCORESHEET_NOTE = (
    "[E] marks each player's seat wind in the hand (MCR rules 74-75). Discarder pays basic + 8, "
    "the others 8; self-drawn: all pay basic + 8 (rule 67)."
)

RULE_REFERENCES: Mapping[str, str] = {
    "rulings": "rules 76-93",  # Sloper chapter 4, lines 2350-2400
    "appeal": "rule 94",  # Sloper line ~2398
    "appeal_deadline": "rule 94a",
    "appeal_statement": "rule 94b",
    "appeal_signed": "rule 94c",
    "appeal_fee": "rule 94d",
    "pin_signing": "rule 72",
    "paid_to_each_other": "rule 84",
    "paid_to_none": "rules 79, 80, 83, 88",
    "paid_to_player": "rule 85e",
}
"""Sloper's chapter 4 rules the referee's pages cite (``RuleSet.rule_references``)."""
CHINESE_RULE_REFERENCES: Mapping[str, str] = {
    english: english.replace("rules ", "规则").replace("rule ", "规则").replace(", ", "、")
    for english in RULE_REFERENCES.values()
}


class MCRRuleSet(RuleSet):
    code = "mcr"
    label = "Chinese Official (MCR)"
    uses_table_points = True
    uses_tile_picker = True
    hand_form = "scoring.forms.MCRHandForm"
    settings_template = "scoring/settings/_mcr.html"
    tie_breaks: ClassVar[tuple[str, ...]] = ("shared",)  # rule 73: equal players share the rank
    settings_fields: ClassVar[tuple[Setting, ...]] = TIE_BREAK_SETTINGS
    appeal_fee = 200
    """Rule 94d (Sloper line 2409): "An appeal fee of U.S. $200 in cash must accompany the submission of
    the appeal"; returned if the appeal is upheld (94d-i), forfeited if denied (94d-ii)."""
    appeal_fee_help = gettext_noop(
        "MCR rule 94d: the book's fee is US$200 in cash, returned if the appeal is granted; 0 for no fee."
    )
    time_ends_session = True
    """Rule 74f (Sloper line 2335): with a time limit, the game ends when the time runs out or four
    rounds are played, whichever happens first."""
    side_rankings: ClassVar[tuple[str, ...]] = ("best_hand", "hands_won", "self_drawn")
    hand_value_unit: ClassVar[str] = "fan"
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "zh-hans": {
            "Chinese Official (MCR)": "国标麻将（MCR）",
            "seats rotate as MCR rule 75 says": "按MCR规则75换位",
            "MCR rule 88: up to 10 min 10 points, up to 15 min 20 points, more: forfeit (0 table points).": (
                "MCR规则88：迟到10分钟内罚10分，15分钟内罚20分，超过则弃权（标准分为0）。"
            ),
            **CHINESE_PENALTY_LABELS,
            **CHINESE_RULE_REFERENCES,
            SCORESHEET_NOTE: (
                "[E] 标出每位选手本盘的门风（国标规则74-75）。放铳者付基本分+8，其他两家各付8分；"
                "自摸：三家各付基本分+8（规则67）。"
            ),
        }
    }
    fan_names: ClassVar[Mapping[str, Mapping[str, str]]] = FAN_NAMES
    rule_references: ClassVar[Mapping[str, str]] = RULE_REFERENCES
    scoresheet_note = SCORESHEET_NOTE

    def normalise(self, record: HandRecord) -> HandRecord:
        outcome = mcr.HandOutcome(winner=record.winner, discarder=record.discarder, fan=record.fan or 0)
        if record.winner is not None and record.fan is None:
            raise HandInputError(gettext_noop("enter the winner's fan points"), code="fan_required")
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

    def describe_chinese(self, record: HandRecord) -> str:
        """ "东 和 8番，南 放铳" / "东 自摸 8番" / "荒庄" (seats by starting wind)."""
        if record.winner is None:
            return "荒庄"
        winner = vocabulary.wind_label(record.winner, vocabulary.CHINESE)
        if record.discarder is None:
            return f"{winner} 自摸 {record.fan}番"
        return (
            f"{winner} 和 {record.fan}番，{vocabulary.wind_label(record.discarder, vocabulary.CHINESE)} 放铳"
        )

    def claim_from_tiles(self, record: HandRecord, tiles: Any) -> HandRecord:
        """Rule 65c (Sloper line 2304): "If the winner cannot add the score but other players recognize
        that it is worth at least 8 points, the player scores only 8 points." A claim below 8 with tiles
        worth 8 or more without flowers is stored as 8; tiles that cannot be scored, or are below the
        minimum, leave the claim as entered for :meth:`normalise` and :meth:`check_tiles` to refuse."""
        if tiles is None or record.winner is None or record.fan is None or record.fan >= mcr.MINIMUM_FAN:
            return record
        from scoring.rules.mcr.claims import check_claim

        try:
            check = check_claim(tiles, record.fan)
        except HandInputError:
            return record
        return replace(record, fan=check.scored)

    def check_tiles(self, record: HandRecord, tiles: Any) -> None:
        """A claim kept with its tiles: the fan entered is the basic score with one point per flower
        (rule 66, line 3225; the example at line 4012 pays 18 for 8 fan points and two flowers); it may
        be lower than the tiles give (rule 65b) but never higher, and the tiles must make 8 points
        without the flowers (rule 24)."""
        if tiles is None or record.winner is None:
            return
        from scoring.rules.mcr.claims import check_claim

        try:
            check_claim(tiles, record.fan or 0)
        except HandInputError as error:
            code = error.code if error.code in ("claim_above_tiles", "below_minimum") else "bad_tiles"
            if code != "bad_tiles":
                raise HandInputError(error.template, code=code, **error.params) from None
            raise HandInputError(
                gettext_noop("the tiles are not a valid hand: %(problem)s"), code=code, problem=error
            ) from None

    def hands_allowed(self, hands_per_session: int | None) -> int:
        """Rule 74e/f: at most 16 hands, whether the event sets a number or a time limit."""
        return min(hands_per_session or mcr.MAX_HANDS, mcr.MAX_HANDS)

    def hands_per_session_problem(self, hands_per_session: int | None) -> str | None:
        if hands_per_session is not None and hands_per_session > mcr.MAX_HANDS:
            return Text(
                gettext_noop(
                    "an MCR session has at most %(max_hands)s hands (rule 74e: four rounds of four hands)"
                ),
                max_hands=mcr.MAX_HANDS,
            )
        return None

    def fans(self, tiles: Any) -> list[tuple[str, int]]:
        from scoring.rules.mcr.calculator import score_request

        if not tiles:
            return []
        try:
            return list(score_request(tiles)["fans"].items())
        except HandInputError:
            return []

    def side_counts(self, record: HandRecord) -> frozenset[str]:
        """A win counts as a hand won; a self-drawn win (no discarder; MCR rule 67, seeds/003 line
        ~2306) also as a self-drawn win."""
        if not record.winner:
            return frozenset()
        return (
            frozenset({"hands_won", "self_drawn"}) if record.discarder is None else frozenset({"hands_won"})
        )

    def hand_value(self, record: HandRecord) -> int | None:
        """The fan points the winner scored (flowers included, rule 66: the basic points as entered)."""
        return record.fan if record.winner else None

    def winds(self, previous: Sequence[HandRecord]) -> Winds:
        return self.winds_after(len(previous))

    def winds_after(self, count: int) -> Winds:
        """Rules 74b-d and 75 (lines 2331-2339): the deal and the rounds follow the number of hands."""
        prevalent, seats = mcr.winds_for_hand(count)
        return Winds(prevalent=prevalent, seats=seats, note="seats rotate as MCR rule 75 says")

    def points_table(self) -> PointsTable:
        """Rule 67 (line 2306) pays each seat an amount affine in the fan: the table is read off
        :meth:`points` at 8 and 9 fan, so the settlement itself stays in ``mcr.settle_hand``."""
        shapes: dict[str, tuple[Mapping[str, int], Mapping[str, int]]] = {
            "draw": (self.points(HandRecord(winner=None)), dict.fromkeys(SEATS, 0))
        }
        for winner in SEATS:
            ways = [("self", None), *(("discard", seat) for seat in SEATS if seat != winner)]
            for how, discarder in ways:
                at_8 = self.points(HandRecord(winner=winner, discarder=discarder, fan=8))
                at_9 = self.points(HandRecord(winner=winner, discarder=discarder, fan=9))
                per = {seat: at_9[seat] - at_8[seat] for seat in SEATS}
                base = {seat: at_8[seat] - 8 * per[seat] for seat in SEATS}
                shapes[":".join(part for part in (how, winner, discarder) if part)] = (base, per)
        return PointsTable(keys=("how", "winner", "discarder"), value="fan", shapes=shapes)

    def printed_winds(self, index: int) -> Winds:
        prevalent, seats = mcr.winds_for_hand(index)
        return Winds(prevalent=prevalent, seats=seats)

    def initial_for(self, record: HandRecord, tiles: Any = None) -> dict[str, Any]:
        import json

        return {
            "how": "draw" if not record.winner else ("self" if not record.discarder else "discard"),
            "winner": record.winner,
            "discarder": record.discarder,
            "fan": record.fan,
            "tiles": json.dumps(tiles) if tiles else "",
        }

    def late_points(self, minutes: int) -> int | None:
        return mcr.late_penalty(minutes)

    def late_note(self) -> str:
        return "MCR rule 88: up to 10 min 10 points, up to 15 min 20 points, more: forfeit (0 table points)."

    def penalty_catalogue(self) -> Sequence[Ruling]:
        """Sloper's rules 77-91 (chapter 4): points penalties, warnings, "may not declare hu", loss of
        rank and disqualification."""
        from scoring.rules.mcr.penalties import REFEREE_CATALOGUE

        return REFEREE_CATALOGUE

    def score_session(
        self,
        hands: Sequence[HandRecord],
        *,
        totals: Mapping[str, int] | None = None,
        penalties: Sequence[PenaltyItem] = (),
        late_minutes: Mapping[str, int] | None = None,
    ) -> SessionTotals:
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

    def hand_to_doc(self, record: HandRecord, tiles: Any, code_at: Mapping[str, str]) -> dict[str, Any]:
        if not record.winner:
            data: dict[str, Any] = {"winner": None}
        else:
            data = {
                "winner": code_at[record.winner],
                "discarder": code_at[record.discarder] if record.discarder else None,
                "fan": record.fan,
            }
        if tiles is not None:
            data["tiles"] = tiles
        return data

    def hand_from_doc(self, hand: Mapping[str, Any], wind_of: Mapping[str, str]) -> HandRecord:
        winner = seat_of_player(hand, "winner", wind_of)
        fan = hand.get("fan")
        if winner is not None and not _is_int(fan):
            raise HandInputError(gettext_noop("fan: must be a whole number"), code="bad_fan")
        return HandRecord(
            winner=winner, discarder=seat_of_player(hand, "discarder", wind_of), fan=fan if winner else None
        )

    @classmethod
    def score_request(cls, request: Any) -> dict[str, Any]:
        from scoring.rules.mcr.calculator import score_request

        return score_request(request)

    @classmethod
    def tile_breakdown(cls, request: Any) -> dict[str, Any]:
        from scoring.rules.mcr.calculator import MINIMUM_POINTS, calculate, score_request
        from scoring.rules.tiles import parse_hand

        summary = score_request(request)
        return {
            "result": calculate(parse_hand(request)),
            "total": summary["total"],
            "meets_minimum": summary["meets_minimum"],
            "minimum": MINIMUM_POINTS,
        }
