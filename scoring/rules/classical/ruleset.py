"""The classical 1920s rule books as event rule sets: Babcock's Red Book, the 1920s Chinese rule book
and Foster's laws (:mod:`.rulesets` holds where the books differ). Each hand's scores are entered
(losing hands score too) and settled between the players; standings by cumulative score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scoring.rules import vocabulary
from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.ruleset import (
    SEATS,
    TIE_BREAK_SETTING,
    HandRecord,
    RuleSet,
    seat,
    seat_of_player,
    whole,
)
from scoring.rules.settings import Setting
from scoring.rules.tie_breaks import TIE_BREAK_SETTINGS

SETTLEMENT = gettext_noop("Settlement")


def _settle_problem(options: Mapping[str, Any], code: str) -> str | None:
    from scoring.rules.classical.api import settle

    try:
        settle({"E": 10, "S": 0, "W": 0, "N": 0}, "E", "E", code, options=dict(options))
    except HandInputError as error:
        return error.message
    return None


class ClassicalRuleSet(RuleSet):
    """One of the classical books: winner paid by all, losers settle the differences, East double."""

    hand_form = "scoring.forms.ClassicalHandForm"
    settings_template = "scoring/settings/_classical.html"
    side_rankings: ClassVar[tuple[str, ...]] = ("best_hand", "hands_won")
    hand_value_unit: ClassVar[str] = "points"
    settings_fields: ClassVar[tuple[Setting, ...]] = (
        TIE_BREAK_SETTING,
        *TIE_BREAK_SETTINGS,
        Setting(
            key="settlement.round_to",
            label=gettext_noop("Pay each amount to the nearest"),
            kind="choice",
            default=1,
            choices=((1, gettext_noop("1 (exact)")), (10, gettext_noop("10 (Babcock line 1204)"))),
            group=SETTLEMENT,
            locked_after_results=True,
        ),
        Setting(
            key="settlement.stakes_limit",
            label=gettext_noop("No single payment over"),
            kind="int",
            default=None,
            optional=True,
            minimum=1,
            maximum=100_000,
            help=gettext_noop("Foster question 11"),
            group=SETTLEMENT,
            locked_after_results=True,
        ),
        Setting(
            key="limit",
            label=gettext_noop("Limit of a hand"),
            kind="int",
            default=None,
            optional=True,
            minimum=1,
            maximum=100_000,
            help=gettext_noop(
                "Empty keeps the book's (Babcock line 409: 300; 400, 500 or 600 by agreement, line 780)"
            ),
            group=SETTLEMENT,
            locked_after_results=True,
        ),
    )

    def settings_problems(self) -> list[str]:
        problem = _settle_problem(self.settlement_options, self.code)
        return [problem] if problem else []

    def normalise(self, record: HandRecord) -> HandRecord:
        data = record.data
        winner = seat(record.winner, "the winner", allow_none=True)
        east = seat(data.get("east"), "East (the dealer)")
        scores = data.get("scores")
        if not isinstance(scores, Mapping) or set(scores) != set(SEATS):
            raise HandInputError(
                gettext_noop("give each player's hand score (E, S, W, N)"), code="bad_scores"
            )
        clean_scores = {s: whole(scores[s], f"{s}'s hand score", 0, 100_000) for s in SEATS}
        if winner is not None and clean_scores[winner] == 0:
            # Going out always scores: Babcock line 504 (20 for Mah-Jongg), the 1920s book's basal score
            # (line 159), Foster question 14 (line 123). A winner at 0 is a hand whose scores were not entered.
            raise HandInputError(
                gettext_noop(
                    "%(winner)s went out but their hand score is 0: enter each player's hand score "
                    "(going out alone scores points in every classical book)"
                ),
                code="winner_scores_nothing",
                winner=winner,
            )
        limit = self.limit
        if limit is not None:
            over = [s for s in SEATS if clean_scores[s] > limit]
            if over:
                raise HandInputError(
                    gettext_noop(
                        "%(over)s's hand score %(clean_scores)s is above the limit of %(limit)s (scores "
                        "are capped at the limit; the event's limit is in its settings)"
                    ),
                    code="above_limit",
                    over=over[0],
                    clean_scores=clean_scores[over[0]],
                    limit=limit,
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
            self.code,
            options=self.settlement_options,
        )

    def hand_value(self, record: HandRecord) -> int | None:
        """The winner's hand score as the table scored it (before settlement)."""
        return record.data["scores"][record.winner] if record.winner else None

    @property
    def limit(self) -> int | None:
        """The most a hand may score: the event's table option, else the book's (Babcock line 409: 300)."""
        from scoring.rules.classical.rulesets import RULE_BOOKS

        if "limit" in self.settings:
            limit: int | None = self.settings["limit"]  # a checked setting (settings_fields)
            return limit
        return RULE_BOOKS[self.code].defaults.limit

    @property
    def settlement_options(self) -> dict[str, Any]:
        """The event's table options for settlement (e.g. paying to the nearest 10, Babcock line 1204)."""
        return dict(self.settings.get("settlement") or {})

    def describe(self, record: HandRecord) -> str:
        scores = record.data["scores"]
        listed = ", ".join(f"{s} {scores[s]}" for s in SEATS)
        head = f"{record.winner} goes out" if record.winner else "draw"
        return f"{head} (East {record.data['east']}; {listed})"

    def describe_chinese(self, record: HandRecord) -> str:
        """ "东 和牌（东家 南；东 10, 南 2, ...）" / "荒庄（...）" (seats by starting wind)."""
        scores = record.data["scores"]

        def name(seat_: str) -> str:
            return vocabulary.wind_label(seat_, vocabulary.CHINESE)

        listed = ", ".join(f"{name(s)} {scores[s]}" for s in SEATS)
        head = f"{name(record.winner)} 和牌" if record.winner else "荒庄"
        return f"{head}（东家 {name(record.data['east'])}；{listed}）"

    def next_hand_initial(self, previous: Sequence[HandRecord]) -> dict[str, Any]:
        return {"east": next_east(previous)}

    def initial_for(self, record: HandRecord, tiles: Any = None) -> dict[str, Any]:
        initial = {"winner": record.winner, "east": record.data.get("east")}
        initial.update({f"score_{w}": v for w, v in record.data["scores"].items()})
        return initial

    def hand_to_doc(self, record: HandRecord, tiles: Any, code_at: Mapping[str, str]) -> dict[str, Any]:
        details = record.data
        return {
            "winner": code_at[record.winner] if record.winner else None,
            "east": code_at[details["east"]],
            "scores": {code_at[s]: score for s, score in details["scores"].items()},
        }

    def hand_from_doc(self, hand: Mapping[str, Any], wind_of: Mapping[str, str]) -> HandRecord:
        winner = seat_of_player(hand, "winner", wind_of)
        scores = hand.get("scores")
        if not isinstance(scores, Mapping) or set(scores) != set(wind_of):
            raise HandInputError(
                gettext_noop("scores: give each of the four players' hand scores"), code="bad_scores"
            )
        east = hand.get("east")
        if not isinstance(east, str) or east not in wind_of:
            raise HandInputError(gettext_noop("east: must be a player at this table"), code="bad_east")
        return HandRecord(
            winner=winner, data={"east": wind_of[east], "scores": {wind_of[p]: v for p, v in scores.items()}}
        )

    @classmethod
    def score_request(cls, request: Any) -> dict[str, Any]:
        from scoring.rules.classical.api import score_request

        return score_request(request, cls.code)


def next_east(previous: Sequence[HandRecord]) -> str:
    """Who deals the next classical hand: East keeps the deal after winning it (or a draw), else it
    passes to the next player to the right (Babcock, seeds/000_237ca3ff6aae24f4.txt, lines 361 and 420)."""
    if not previous:
        return "E"
    last = previous[-1]
    east: str = last.data.get("east", "E")
    if last.winner is None or last.winner == east:
        return east
    return SEATS[(SEATS.index(east) + 1) % 4]


class BabcockRuleSet(ClassicalRuleSet):
    code = "babcock"
    label = "Classical: Babcock 1923"
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "zh-hans": {"Classical: Babcock 1923": "古典规则：Babcock 1923"}
    }


class Chinese1920sRuleSet(ClassicalRuleSet):
    code = "chinese-1920s"
    label = "Classical: 1920s Chinese rule book"
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "zh-hans": {
            "Classical: 1920s Chinese rule book": "古典规则：1920年代中国规则书",
            "hand": "盘",
            "hands": "盘",
        }
    }


class FosterRuleSet(ClassicalRuleSet):
    code = "foster"
    label = "Classical: Foster 1923"
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "zh-hans": {"Classical: Foster 1923": "古典规则：Foster 1923"}
    }
