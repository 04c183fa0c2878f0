"""American (NMJL) as an event's rule set: Sloper chapter 3 (seeds/003_2541481d343502a5.txt).

Tournament points per game by the event's scheme ("Tournament Scoring", ~line 1556), the year's card as
data the organiser loads, seat rotation by the pivot rule 116.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from scoring.rules import vocabulary
from scoring.rules.errors import HandInputError, Text, gettext_noop
from scoring.rules.nmjl.card import MAX_CARD_BYTES, Card
from scoring.rules.ruleset import (
    SEATS,
    TIE_BREAK_SETTING,
    HandRecord,
    RuleSet,
    Vocabulary,
    Winds,
    seat,
    seat_of_player,
    whole,
)
from scoring.rules.rulings import Ruling
from scoring.rules.settings import Setting
from scoring.rules.tie_breaks import TIE_BREAK_SETTINGS

if TYPE_CHECKING:
    from scoring.rules.nmjl.tournament import TournamentScheme
    from scoring.rules.points_table import PointsTable

WON_BY = ("discard", "self_pick", "wall")


def _card_problem(value: Any) -> str | None:
    try:
        load_event_card(value)
    except HandInputError as error:
        return Text(error.template, **error.params)
    return None


def _scheme_problem(value: Any) -> str | None:
    from scoring.rules.nmjl.tournament import TournamentScheme

    try:
        TournamentScheme.from_settings(value)
    except HandInputError as error:
        return Text(error.template, **error.params)
    return None


PRESET_LABELS = {
    "book": gettext_noop("book: the book's table (line 1556)"),
    "exposures-10-20-25": gettext_noop(
        "exposures-10-20-25: discarding the win to 2, 3, 4 exposures -10, -20, -25"
    ),
    "exposures-10-20-30": gettext_noop(
        "exposures-10-20-30: discarding the win to 2, 3, 4 exposures -10, -20, -30"
    ),
    "wall-live-only": gettext_noop("wall-live-only: a wall game scores live hands only"),
    "jokerless-any-hand": gettext_noop("jokerless-any-hand: the jokerless bonus for Singles and Pairs too"),
}
"""The schemes by name, with what each changes from the book (the names stay: they are stored)."""


def _preset_choices() -> tuple[tuple[str, str], ...]:
    from scoring.rules.nmjl.tournament import PRESETS

    return tuple((name, PRESET_LABELS.get(name, name)) for name in PRESETS)


@cache
def _sample_card(card_id: str) -> Card:
    from scoring.rules.nmjl.card import load_sample_cards

    cards = load_sample_cards()
    if card_id not in cards:
        raise HandInputError(
            gettext_noop("unknown card %(card_id)r (samples: %(cards)s)"),
            code="unknown_card",
            card_id=card_id,
            cards=", ".join(cards),
        )
    return cards[card_id]


def load_event_card(data: Any) -> Card | None:
    """The event's card: a sample's id, or the card itself as JSON (``docs/nmjl-card-format.md``)."""
    from scoring.rules.nmjl.card import load_card

    if data is None:
        return None
    if isinstance(data, str):
        return _sample_card(data)
    return load_card(data)


LATE_NOTE = "Not in seat at the start: %(points)s tournament points (the event's scoring scheme)."


class NMJLRuleSet(RuleSet):
    code = "nmjl"
    label = "American (NMJL)"
    words = Vocabulary(hand="game", hands="games", session="round")
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "zh-hans": {
            "American (NMJL)": "美式麻将（NMJL）",
            LATE_NOTE: "开局时未就座：%(points)s比赛积分（赛事的计分方案）。",
            "rule 117: the pivot deals first after she moves": "规则117：轴心玩家移动后先发牌",
            # The referee's list (Sloper chapter 3, NMJL rules 92-98 and the tournament rules).
            "Dead hand": "死手",
            "Misnaming a discard, when this results in a mishap": "报错打出的牌并因此造成失误",
            "Throwing in the hand prematurely": "过早弃牌",
            "Dead hand: wrong number of tiles after East's first discard": "死手：东家首次打牌后牌数不对",
            "Dead hand: picking ahead (in a tournament)": "死手：提前摸牌（比赛中）",
            "Dead hand: peeking at the blind pass (in a tournament)": "死手：偷看盲传的牌（比赛中）",
            "Dead hand: putting a taken discard into the hand before exposing (at the tournament judge's "
            "discretion)": "死手：取得打出的牌后未亮出即放入手中（由裁判决定）",
            "Dead hand: exposing an illegal set not remedied": "死手：亮出不合规的牌组且未更正",
            "Dead hand: exposure that shows an illegal hand": "死手：亮出的牌表明牌型不合规",
            "Dead hand: mah-jongg in error, hand exposed": "死手：错和且已亮牌",
            "Loss of rank in the tournament": "取消比赛名次",
            # The rulings' citations (penalties.py) and the card's families (the sample card's and the
            # families the NMJL card prints every year); a family the words lack reads as on the card.
            "Tournament scoring table (line 1556)": "比赛计分表（第1556行）",
            "Organiser's policy (line 1572)": "组织者规定（第1572行）",
            **{
                f"NMJL rule {number}": f"NMJL规则{number}"
                for number in ("92c", "93", "94", "95c", "96", "97b", "97c", "98b", "100")
            },
            "Sample card 2027 (made up)": "2027年示例牌卡（虚构）",
            "Any Like Numbers": "任意同数",
            "Like Numbers": "同数",
            "Quints": "五同",
            "Consecutive Run": "连续数",
            "Winds - Dragons": "风牌 - 箭牌",
            "Singles And Pairs": "单张和对子",
            "Addition Hands": "加法牌型",
        }
    }
    hand_form = "scoring.forms.NMJLGameForm"
    card_max_bytes = MAX_CARD_BYTES
    settings_template = "scoring/settings/_nmjl.html"
    side_rankings: ClassVar[tuple[str, ...]] = ("games_won", "jokerless_wins")
    settings_fields: ClassVar[tuple[Setting, ...]] = (
        TIE_BREAK_SETTING,
        *TIE_BREAK_SETTINGS,
        Setting(
            key="card",
            label=gettext_noop("Card"),
            kind="any",
            default=None,
            optional=True,
            locked_after_results=True,
            check=_card_problem,
        ),
        Setting(
            key="scheme",
            label=gettext_noop("Tournament points scheme"),
            kind="any",
            default=None,
            optional=True,
            locked_after_results=True,
            check=_scheme_problem,
            choices=_preset_choices(),
            group=gettext_noop("Tournament points"),
            to_form=lambda value: (value or {}).get("preset", "book") if isinstance(value, dict) else "book",
            from_form=lambda preset: {"preset": preset},
        ),
        Setting(
            key="dead_hand_in_wall_game",
            label=gettext_noop("A dead hand in a wall game scores"),
            kind="choice",
            default="dead_hand",
            choices=(
                ("dead_hand", gettext_noop("the dead hand's points (0 in the book's table)")),
                (
                    "wall_game",
                    gettext_noop(
                        "the wall game's points, like the other players (rule 108; docs/nmjl-rules.md)"
                    ),
                ),
            ),
            help=gettext_noop(
                "The book's tournament table (lines 1556-1570) gives a dead hand 0 points, a wall game "
                "included; an event may give a dead player the wall game's points instead."
            ),
            locked_after_results=True,
            group=gettext_noop("Tournament points"),
        ),
        Setting(
            key="seat_rotation",
            label=gettext_noop("Seat rotation at a table of four"),
            kind="choice",
            default="official",
            choices=(
                (
                    "official",
                    gettext_noop(
                        "Rule 116: the pivot moves every second time the dice come to her; "
                        "the dice stay with the seat (official)"
                    ),
                ),
                (
                    "pivot_deals",
                    gettext_noop(
                        "Rule 117: the pivot deals first from her new seat (the author's recommendation)"
                    ),
                ),
            ),
            group=gettext_noop("Seat rotation"),
        ),
        Setting(
            key="penalty_policy.misnamed_discard_mishap",
            label=gettext_noop("Misnaming a discard, when this results in a mishap (tournament points)"),
            kind="int",
            default=0,
            minimum=-10_000,
            maximum=0,
            help=gettext_noop("The book leaves this to the organiser (line 1572); 0 records a warning."),
            group=gettext_noop("Penalties (organiser's policy)"),
        ),
        Setting(
            key="penalty_policy.premature_throw_in",
            label=gettext_noop("Throwing in the hand prematurely (tournament points)"),
            kind="int",
            default=0,
            minimum=-10_000,
            maximum=0,
            help=gettext_noop("The book leaves this to the organiser (line 1572); 0 records a warning."),
            group=gettext_noop("Penalties (organiser's policy)"),
        ),
    )

    @classmethod
    def default_settings(cls) -> dict[str, Any]:
        """A new event gets the made-up sample card and the book's tournament scoring table (~line 1556)
        until the organiser loads the year's card; a dead hand scores the table's 0 in a wall game too
        ("Dead hand 0 points", line 1570; docs/nmjl-rules.md)."""
        return {"card": "sample-2027", "scheme": {"preset": "book"}, "dead_hand_in_wall_game": "dead_hand"}

    @classmethod
    def load_card(cls, data: Any) -> Card | None:
        return load_event_card(data)

    @cached_property
    def card(self) -> Card | None:
        return load_event_card(self.settings.get("card"))

    @cached_property
    def scheme(self) -> TournamentScheme:
        from scoring.rules.nmjl.tournament import TournamentScheme

        scheme = TournamentScheme.from_settings(self.settings.get("scheme"))
        dead_in_wall = self.settings.get("dead_hand_in_wall_game")
        if dead_in_wall in ("wall_game", "dead_hand"):  # the visible setting wins over the preset's
            scheme = replace(scheme, wall_game_to_dead=dead_in_wall == "wall_game")
        return scheme

    @property
    def dice_follow_pivot(self) -> bool:
        """Rule 117 (lines 979-981) when the organiser chose it; rule 116's official reading otherwise."""
        return self.settings.get("seat_rotation") == "pivot_deals"

    def penalty_catalogue(self) -> Sequence[Ruling]:
        """NMJL rulings in NMJL words: the book's tournament table (line 1556), the organiser's policy
        (line 1572, the event's ``penalty_policy``), the dead hands of the official rules; never MCR's."""
        from scoring.rules.nmjl.penalties import OrganiserPolicy, referee_catalogue

        return referee_catalogue(OrganiserPolicy.from_settings(self.settings.get("penalty_policy")))

    def settings_problems(self) -> list[str]:
        try:
            self.card  # noqa: B018 - loading validates
            self.scheme  # noqa: B018
        except HandInputError as error:
            return [error.message]
        return []

    def settings_context(self) -> dict[str, Any]:
        from scoring.rules.nmjl.tournament import PRESETS

        preset = (self.settings.get("scheme") or {}).get("preset", "book")
        return {"card": self.card, "scheme": PRESETS.get(preset), "preset": preset, "presets": list(PRESETS)}

    def normalise(self, record: HandRecord) -> HandRecord:
        data = dict(record.data)
        won_by = data.get("won_by")
        if won_by not in WON_BY:
            raise HandInputError(
                gettext_noop("say how the game ended: discard, self_pick or wall"), code="bad_won_by"
            )
        dead = data.get("dead", [])
        if not isinstance(dead, list) or any(s not in SEATS for s in dead) or len(set(dead)) != len(dead):
            raise HandInputError(
                gettext_noop("dead hands must be a list of seats E, S, W, N"), code="bad_dead"
            )
        clean: dict[str, Any] = {"won_by": won_by, "dead": sorted(dead, key=SEATS.index)}
        if won_by == "wall":
            if record.winner is not None:
                raise HandInputError(gettext_noop("a wall game has no winner"), code="wall_with_winner")
            return HandRecord(winner=None, data=clean)
        winner = seat(record.winner, "the winner")
        if winner in dead:
            raise HandInputError(gettext_noop("a dead hand cannot win"), code="dead_winner")
        discarder = None
        if won_by == "discard":
            discarder = seat(record.discarder, "the discarder")
            if discarder == winner:
                raise HandInputError(
                    gettext_noop("the winner cannot also be the discarder"), code="winner_is_discarder"
                )
        card = self.card
        if data.get("tiles"):
            data.update(self._from_tiles(card, data))
        card_hand = data.get("hand")
        if card_hand:
            if card is None:
                raise HandInputError(
                    gettext_noop("this event has no card loaded; enter the value instead"), code="no_card"
                )
            hand = card.hand(card_hand)
            clean["hand"] = hand.id
            clean["value"] = hand.value
            clean["singles_and_pairs"] = hand.singles_and_pairs
            if hand.concealed and data.get("winner_exposures", 0):
                raise HandInputError(
                    gettext_noop("hand %(id)s is concealed: the winner has no exposures"),
                    code="bad_exposures",
                    id=hand.id,
                )
        else:
            clean["value"] = whole(data.get("value"), "the hand's value", 1, 1000)
            if card is not None and clean["value"] not in card.values:
                raise HandInputError(
                    gettext_noop("%(clean)s is not a value on the card (%(str)s)"),
                    code="value_not_on_card",
                    clean=clean["value"],
                    str=", ".join(map(str, card.values)),
                )
            clean["singles_and_pairs"] = bool(data.get("singles_and_pairs", False))
        clean["jokerless"] = bool(data.get("jokerless", False))
        clean["winner_exposures"] = whole(data.get("winner_exposures", 0), "the winner's exposures", 0, 4)
        if data.get("tiles"):
            clean["tiles"] = list(data["tiles"])
            clean["exposures"] = [list(group) for group in data.get("exposures", [])]
        self.points(HandRecord(winner=winner, discarder=discarder, data=clean))  # the engine's own checks
        return HandRecord(winner=winner, discarder=discarder, data=clean)

    @staticmethod
    def _from_tiles(card: Card | None, data: Mapping[str, Any]) -> dict[str, Any]:
        """The winner's 14 tiles (and exposures) checked by the matcher against the card (rules 23, 81):
        the hand they make (or the named one, checked), whether jokerless, and the exposures counted."""
        from scoring.rules.nmjl.matcher import identify_hand

        if card is None:
            raise HandInputError(
                gettext_noop("this event has no card loaded; the tiles cannot be checked"), code="no_card"
            )
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

        points: dict[str, int] = score_request(self.outcome(record), cards={})["points"]
        return points

    def describe(self, record: HandRecord) -> str:
        data = record.data
        if data.get("won_by") == "wall":
            return "wall game"
        how = "self-picked" if data["won_by"] == "self_pick" else f"from {record.discarder}"
        extra = " jokerless" if data.get("jokerless") else ""
        hand = f" ({data['hand']})" if data.get("hand") else ""
        return f"{record.winner} wins {data['value']}{hand}{extra} {how}"

    def describe_chinese(self, record: HandRecord) -> str:
        """ "东 和 25分 (2468-1)，无百搭，南 放铳" / "东 自摸 25分" / "荒局" (seats by starting wind)."""
        data = record.data
        if data.get("won_by") == "wall":
            return "荒局"
        winner = vocabulary.wind_label(record.winner or "", vocabulary.CHINESE)
        hand = f" ({data['hand']})" if data.get("hand") else ""
        extra = "，无百搭" if data.get("jokerless") else ""
        if data["won_by"] == "self_pick":
            return f"{winner} 自摸 {data['value']}分{hand}{extra}"
        discarder = vocabulary.wind_label(record.discarder or "", vocabulary.CHINESE)
        return f"{winner} 和 {data['value']}分{hand}{extra}，{discarder} 放铳"

    def side_counts(self, record: HandRecord) -> frozenset[str]:
        """A game won; a win without jokers also as a jokerless win (NMJL rules 73 and 73a, seeds/003
        line ~831)."""
        if not record.winner:
            return frozenset()
        return frozenset({"games_won", "jokerless_wins"} if record.data.get("jokerless") else {"games_won"})

    def winds(self, previous: Sequence[HandRecord]) -> Winds:
        return self.winds_after(len(previous))

    def winds_after(self, count: int) -> Winds:
        """The deal passes to the right every game; the pivot rule (116) moves the starting East."""
        from scoring.rules.nmjl.rotation import winds_for_hand

        return Winds(
            prevalent=None,
            seats=winds_for_hand(count, dice_follow_pivot=self.dice_follow_pivot),
            note="rule 117: the pivot deals first after she moves" if self.dice_follow_pivot else "",
        )

    def points_table(self) -> PointsTable:
        """The event's scheme and card as a table read off :meth:`points` (``nmjl/points_table.py``: the
        Tournament Scoring table, lines 1556-1570, adds separate amounts). Not looked up, shown "?": a
        game entered with its tiles (the server reads the hand from them)."""
        return self._points_table

    @cached_property
    def _points_table(self) -> PointsTable:
        """Read once per rule set (one per event's settings, ``tournaments.models``): some 150 games."""
        from scoring.rules.nmjl.points_table import read_points_table

        return read_points_table(self)

    def initial_for(self, record: HandRecord, tiles: Any = None) -> dict[str, Any]:
        data = record.data
        return {
            "won_by": data["won_by"],
            "winner": record.winner,
            "discarder": record.discarder,
            "card_hand": data.get("hand", ""),
            "value": None if data.get("hand") else data.get("value"),
            "jokerless": data.get("jokerless", False),
            "winner_exposures": data.get("winner_exposures", 0),
            "dead": data.get("dead", []),
        }

    def late_points(self, minutes: int) -> int | None:
        return -self.scheme.late if minutes > 0 else 0

    def late_note(self) -> str:
        return LATE_NOTE % {"points": self.scheme.late}

    def late_note_in(self, language: str | None) -> str:
        """The note in ``language``: the template is translated, then the scheme's points filled in."""
        return self.word(LATE_NOTE, language) % {"points": self.scheme.late}

    def hand_to_doc(self, record: HandRecord, tiles: Any, code_at: Mapping[str, str]) -> dict[str, Any]:
        details = record.data
        data: dict[str, Any] = {"dead": [code_at[s] for s in details.get("dead", [])]}
        if details["won_by"] == "wall":
            data.update(winner=None, wall=True)
            return data
        assert record.winner is not None  # only a wall game has no winner
        data.update(
            winner=code_at[record.winner],
            discarder=code_at[record.discarder] if record.discarder else None,
            value=details["value"],
            jokerless=details.get("jokerless", False),
            winner_exposures=details.get("winner_exposures", 0),
        )
        if details.get("hand"):
            data["hand"] = details["hand"]
        if details.get("tiles"):
            data["tiles"] = details["tiles"]
            data["exposures"] = details.get("exposures", [])
        return data

    def hand_from_doc(self, hand: Mapping[str, Any], wind_of: Mapping[str, str]) -> HandRecord:
        winner = seat_of_player(hand, "winner", wind_of)
        dead = hand.get("dead", [])
        if not isinstance(dead, list) or any(not isinstance(p, str) or p not in wind_of for p in dead):
            raise HandInputError(
                gettext_noop("dead: must list players who sit at this table"), code="bad_dead"
            )
        won_by = (
            "wall" if hand.get("wall") else ("discard" if hand.get("discarder") is not None else "self_pick")
        )
        if won_by != "wall" and winner is None:
            raise HandInputError(
                gettext_noop('winner: missing (use "wall": true for a wall game)'), code="missing_field"
            )
        data: dict[str, Any] = {"won_by": won_by, "dead": [wind_of[pid] for pid in dead]}
        for key in ("value", "jokerless", "winner_exposures", "singles_and_pairs", "tiles", "exposures"):
            if key in hand:
                data[key] = hand[key]
        if "hand" in hand:
            card = self.card
            if card is not None and hand.get("card", card.id) != card.id:
                raise HandInputError(
                    gettext_noop("card: this event uses card %(id)r"), code="wrong_card", id=card.id
                )
            data["hand"] = hand["hand"]
        return HandRecord(winner=winner, discarder=seat_of_player(hand, "discarder", wind_of), data=data)

    @classmethod
    def score_request(cls, request: Any) -> dict[str, Any]:
        from scoring.rules.nmjl.api import score_request

        return score_request(request)
