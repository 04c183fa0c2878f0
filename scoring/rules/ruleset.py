"""What every rule set must say about an event, in one class per rule set (no Django here).

Pages, services, the event JSON and the exports never compare a rule set's name: they ask its class.
A hand is stored as a :class:`HandRecord` in starting-seat letters (E, S, W, N); each rule set says how
to check one (``normalise``), what it is worth to each seat (``points``), how to say it in words, how
the seats rotate, what lateness costs, which settings it has, and how a hand reads and writes in the
event JSON (``shared/specs/event-json.md``). Adding a rule set is one class and one line in
:mod:`scoring.rules.registry`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scoring.rules import vocabulary
from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.points_table import PointsTable
from scoring.rules.rulings import Ruling
from scoring.rules.settings import Setting
from scoring.rules.tie_breaks import TIE_BREAK_SETTINGS, lots_of, order_of

SEATS = ("E", "S", "W", "N")


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


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Words the pages use for this rule set's unit of play."""

    hand: str = "hand"
    hands: str = "hands"
    session: str = "session"


@dataclass(frozen=True, slots=True)
class Winds:
    """Seat winds for one hand: ``prevalent`` (or None when the rule set has no round wind), and the
    wind of each starting seat."""

    prevalent: str | None
    seats: Mapping[str, str]
    note: str = ""


TIE_BREAK_SETTING = Setting(
    key="tie_break",
    label=gettext_noop("Players with equal totals"),
    kind="choice",
    default="shared",
    choices=(
        ("shared", gettext_noop("share the rank")),
        ("wins", gettext_noop("are ranked by games or hands won, then share")),
    ),
    group=gettext_noop("Ties in the standings"),
)


@dataclass(frozen=True, slots=True)
class PenaltyItem:
    """A penalty in force at a table, the same for every rule set (the MCR book's rules name each way):
    ``paid_to`` "each_other": the offender pays ``points`` to each other player (MCR rule 84);
    "none": the points are only deducted (rules 79, 80, 83, 88); a seat letter ("E", "S", "W", "N"),
    or "opponent" with ``paid_to_seat``: the offender pays that one player (rule 85e, line 2387).
    ``points`` 0 is a recorded warning (rules 77a, 85b) and moves nothing."""

    seat: str
    points: int
    paid_to: str = "none"
    paid_to_seat: str | None = None

    @property
    def receiver(self) -> str | None:
        """The one seat paid (rule 85e), or None when the points go to each other player or nobody."""
        if self.paid_to_seat is not None:
            return self.paid_to_seat
        return self.paid_to if self.paid_to in SEATS else None


def penalty_effect(penalty: PenaltyItem) -> dict[str, int]:
    """What a penalty does to each seat: MCR rule 84 penalties are paid to each other player; rule 85e's to
    the one opponent named; the rest (rules 79, 80, 83, 88) are deducted from the offender only. A
    warning (0 points, rules 77a and 85b, line 2354 and 2384) changes nothing. Every penalty paid to
    players sums to zero."""
    if penalty.seat not in SEATS:
        raise HandInputError(gettext_noop("unknown seat %(seat)r"), code="bad_seat", seat=penalty.seat)
    if isinstance(penalty.points, bool) or not isinstance(penalty.points, int):
        raise HandInputError(gettext_noop("penalty points must be a whole number"), code="bad_penalty")
    if penalty.points < 0:
        raise HandInputError(gettext_noop("penalty points cannot be negative"), code="bad_penalty")
    receiver = penalty.receiver
    if penalty.paid_to_seat is not None and penalty.paid_to not in ("none", "opponent", penalty.paid_to_seat):
        raise HandInputError(
            gettext_noop("paid_to %(paid_to)r and paid_to_seat %(paid_to_seat)r disagree"),
            code="bad_penalty",
            paid_to=penalty.paid_to,
            paid_to_seat=penalty.paid_to_seat,
        )
    if receiver is None and penalty.paid_to not in ("each_other", "none"):
        raise HandInputError(
            gettext_noop("paid_to must be 'each_other', 'none' or a seat (E, S, W, N), not %(paid_to)r"),
            code="bad_penalty",
            paid_to=penalty.paid_to,
        )
    if receiver is not None:
        if receiver not in SEATS:
            raise HandInputError(
                gettext_noop("unknown seat %(receiver)r to pay the penalty to"),
                code="bad_seat",
                receiver=receiver,
            )
        if receiver == penalty.seat:
            raise HandInputError(gettext_noop("a player cannot pay a penalty to himself"), code="bad_penalty")
    result = dict.fromkeys(SEATS, 0)
    if receiver is not None:
        result[receiver] += penalty.points
        result[penalty.seat] -= penalty.points
    elif penalty.paid_to == "each_other":
        for seat in SEATS:
            if seat != penalty.seat:
                result[seat] += penalty.points
                result[penalty.seat] -= penalty.points
    else:
        result[penalty.seat] -= penalty.points
    return result


PAID_TO_PLAYER = "player"
"""How the penalty form names a penalty paid to one player (``scoring.models.PaidTo``, rule 85e)."""


def _effect_line(seat: str, paid_to: str) -> tuple[dict[str, int], dict[str, int]]:
    one = penalty_effect(PenaltyItem(seat=seat, points=1, paid_to=paid_to))
    two = penalty_effect(PenaltyItem(seat=seat, points=2, paid_to=paid_to))
    per = {other: two[other] - one[other] for other in SEATS}
    return {other: one[other] - per[other] for other in SEATS}, per


def penalty_points_table(catalogue: Sequence[Ruling]) -> PointsTable:
    """What a penalty does to each seat as a points table, so a referee's phone adds up penalties it could
    not send yet (static/js/offline-entry.js) as ``score_session`` does: read off :func:`penalty_effect`,
    keyed by the form's payee, the offender's seat and the receiver's (``seat`` and ``receiver`` the page
    fills in from the players it names), the form's ``points`` the value. A ruling of the ``catalogue``
    stands for its points and payee; one whose points depend on the event's earlier rulings (escalating,
    MCR 79, 80 and 83) or on the tiles revealed (85e) is not listed, so the page shows "?"."""
    shapes: dict[str, tuple[Mapping[str, int], Mapping[str, int]]] = {}
    for offender in SEATS:
        for paid_to in ("none", "each_other"):
            shapes[f"{paid_to}:{offender}"] = _effect_line(offender, paid_to)
        for receiver in SEATS:
            if receiver != offender:
                shapes[f"{PAID_TO_PLAYER}:{offender}:{receiver}"] = _effect_line(offender, receiver)
    kinds = {
        ruling.key: {"paid_to": ruling.paid_to, "points": str(ruling.points_for())}
        for ruling in catalogue
        if not ruling.escalates and not ruling.per_tile
    }
    return PointsTable(
        keys=("paid_to", "seat", "receiver"), value="points", shapes=shapes, fills={"kind": kinds}
    )


def seat(value: Any, what: str, *, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in SEATS:
        raise HandInputError(gettext_noop("%(what)s must be one of E, S, W, N"), code="bad_seat", what=what)
    return value


def whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise HandInputError(
            gettext_noop("%(what)s must be a whole number from %(low)s to %(high)s"),
            code="bad_number",
            what=what,
            low=low,
            high=high,
        )
    return value


def check_totals(totals: Mapping[str, int]) -> dict[str, int]:
    if set(totals) != set(SEATS) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in totals.values()
    ):
        raise HandInputError(
            gettext_noop("totals need a whole-number score for each of E, S, W, N"), code="bad_totals"
        )
    if sum(totals.values()) != 0:
        raise HandInputError(
            gettext_noop("session totals must sum to zero; these sum to %(values)s"),
            code="totals_not_zero_sum",
            values=sum(totals.values()),
        )
    return dict(totals)


RULE_KEYS = (
    "rulings",  # the book's rules of errors and penalties, as a whole (the rulings register)
    "appeal",  # an appeal against a ruling, who decides it
    "appeal_deadline",  # when it must be filed
    "appeal_statement",  # in writing
    "appeal_signed",  # who signs it
    "appeal_fee",  # the fee that comes with it
    "pin_signing",  # the players sign the table's result
    "paid_to_each_other",  # a penalty paid to each other player
    "paid_to_none",  # a penalty only deducted
    "paid_to_player",  # a penalty paid to one player
)
"""What the referee's pages may cite a rule for (``RuleSet.rule_reference``)."""

GENERAL_RULINGS: tuple[Ruling, ...] = (
    Ruling("warning", "Tournament rules", "Warning", outcome="warning"),
    Ruling("loss_of_rank", "Tournament rules", "Loss of rank", outcome="loss_of_rank"),
    Ruling("disqualification", "Tournament rules", "Disqualification", outcome="disqualification"),
)


class RuleSet:
    """The rules of one event: the class holds what is fixed, an instance the event's settings."""

    code: ClassVar[str] = ""
    label: ClassVar[str] = ""
    words: ClassVar[Vocabulary] = Vocabulary()
    uses_table_points: ClassVar[bool] = False
    uses_tile_picker: ClassVar[bool] = False
    settings_template: ClassVar[str] = ""
    """A template the organiser's settings page includes for what the generic forms cannot show."""
    hand_form: ClassVar[str] = ""
    """Dotted path of the Django form that enters one hand, named by its rule set
    ("scoring.forms.MCRHandForm"), resolved by the scoring layer."""
    card_max_bytes: ClassVar[int] = 0
    """The largest card file (in bytes) an organiser may load (:meth:`load_card`); 0: these rules have
    no card."""
    tie_breaks: ClassVar[tuple[str, ...]] = ("shared", "wins")
    scoresheet_note: ClassVar[str] = ""
    settings_fields: ClassVar[tuple[Setting, ...]] = (TIE_BREAK_SETTING, *TIE_BREAK_SETTINGS)
    appeal_fee: ClassVar[int] = 0
    """The default of the event setting ``appeals.fee``: the fee the rule book names for an appeal."""
    appeal_fee_help: ClassVar[str] = gettext_noop("0 for no fee.")
    """Where the default comes from, shown with the setting."""
    time_ends_session: ClassVar[bool] = False
    """When the session's clock runs out, the hand in play is finished and no further hand may start
    (MCR rule 74f). Otherwise the clock is shown and signalled, and the tables go on."""
    side_rankings: ClassVar[tuple[str, ...]] = ("hands_won",)
    """The side rankings the event's public page offers (keys of ``scoring.rules.side``)."""
    hand_value_unit: ClassVar[str] = "points"
    """What ``hand_value`` counts ("fan" or "points"); the pages word it."""
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """This rule set's words in other languages (``{"zh-hans": {"hand": "盘", ...}}``), keyed by the English
    word: its label, ``words.hand`` and ``words.hands``. Missing words read in English."""
    fan_names: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Each language's names of this rule set's scoring elements, keyed by the English name."""
    rule_references: ClassVar[Mapping[str, str]] = {}
    """The rule of this rule set's own book that the referee's pages cite for each of :data:`RULE_KEYS`
    ("rule 84"), in English (``translations`` words it); a key left out: the book has no such rule and
    the pages cite nothing (never another book's number)."""

    def __init__(self, settings: Mapping[str, Any] | None = None) -> None:
        self.settings = dict(settings or {})

    @property
    def rules(self) -> str:
        return self.code

    # --- settings --------------------------------------------------------------------------------

    @classmethod
    def default_settings(cls) -> dict[str, Any]:
        """What a new event of this rule set stores at creation (absent keys take their defaults)."""
        return {}

    @classmethod
    def load_card(cls, data: Any) -> Any:
        """The card an organiser loads (its decoded JSON, stored as the setting ``card``), checked: it has
        a ``name``; raises :class:`HandInputError` when it is not a card. None for rules without a card
        (``card_max_bytes`` 0)."""
        return None

    def settings_problems(self) -> list[str]:
        """Problems the field checks cannot see (a card that does not load, say); empty when fine."""
        return []

    def settings_context(self) -> dict[str, Any]:
        """What ``settings_template`` shows (plain data)."""
        return {}

    @property
    def tie_break(self) -> str:
        value = self.settings.get("tie_break", "shared")
        return value if value in self.tie_breaks else "shared"

    @property
    def tie_break_order(self) -> tuple[str, ...]:
        """The event's tie-breaks after the book's ranking, in order (``scoring.rules.tie_breaks``)."""
        return order_of(self.settings, self.tie_break)

    @property
    def tie_break_lots(self) -> dict[str, int]:
        """Player id -> place in the event's recorded draw of lots (empty: not drawn)."""
        return lots_of(self.settings)

    # --- words in the reader's language (``language``: a language code such as "zh-hans") ---------

    def word(self, english: str, language: str | None) -> str:
        """One of this rule set's words in ``language``, else in English: its label, or "hand", "hands" and
        "session", which read as the rule set's own words (NMJL: "game", "games", "round")."""
        if english in ("hand", "hands", "session"):
            english = getattr(self.words, english)
        language = vocabulary.language_of(language)
        own = self.translations.get(language, {})
        return own.get(english) or vocabulary.COMMON_WORDS.get(language, {}).get(english, english)

    def label_in(self, language: str | None) -> str:
        return self.word(self.label, language)

    def fan_label(self, name: str, language: str | None) -> str:
        """A scoring element (an MCR fan) by its name in ``language``: "Big Four Winds" is "大四喜"."""
        return self.fan_names.get(vocabulary.language_of(language), {}).get(name, name)

    def tile_label(self, code: str, language: str | None) -> str:
        """A tile's name for a picture's text alternative: "5s" is "Five of Bamboo" / "五条"."""
        return vocabulary.tile_label(code, language)

    def wind_label(self, letter: str, language: str | None) -> str:
        return vocabulary.wind_label(letter, language)

    def rule_reference(self, key: str, language: str | None = None) -> str | None:
        """This book's rule for ``key`` (one of :data:`RULE_KEYS`) in ``language``, or None when the book
        has none."""
        if key not in RULE_KEYS:
            raise KeyError(key)
        english = self.rule_references.get(key)
        return None if english is None else self.word(english, language)

    # --- hands -----------------------------------------------------------------------------------

    def normalise(self, record: HandRecord) -> HandRecord:
        raise NotImplementedError

    def points(self, record: HandRecord) -> dict[str, int]:
        raise NotImplementedError

    def describe(self, record: HandRecord) -> str:
        raise NotImplementedError

    def describe_in(self, record: HandRecord, language: str | None) -> str:
        """``describe`` in ``language`` for the pages (the audit log keeps ``describe``'s English);
        a rule set without words in that language describes in English."""
        if vocabulary.language_of(language) == vocabulary.CHINESE:
            return self.describe_chinese(record)
        return self.describe(record)

    def describe_chinese(self, record: HandRecord) -> str:
        return self.describe(record)

    def claim_from_tiles(self, record: HandRecord, tiles: Any) -> HandRecord:
        """The hand as entered, before :meth:`normalise`, read with its tiles where the rules say the
        tiles decide (MCR rule 65c); by default the entry stands."""
        return record

    def check_tiles(self, record: HandRecord, tiles: Any) -> None:
        """Tiles kept with a hand must agree with it; by default a rule set keeps none."""

    def fans(self, tiles: Any) -> list[tuple[str, int]]:
        """The scoring elements of stored tiles, for players to check a score (none by default)."""
        return []

    def hands_allowed(self, hands_per_session: int | None) -> int | None:
        """The most hands a table may enter in a session (None: no limit)."""
        return hands_per_session

    def hands_per_session_problem(self, hands_per_session: int | None) -> str | None:
        """Why an event of this rule set cannot have this many hands per session, or None."""
        return None

    def winds(self, previous: Sequence[HandRecord]) -> Winds | None:
        """Each starting seat's wind in the next hand, after ``previous``; None when not shown."""
        return None

    def winds_after(self, count: int) -> Winds | None:
        """The winds of the hand after ``count`` hands when they follow from the count alone, so a page can
        show them ahead (hands kept on a phone, not sent yet); None: they depend on the hands, or none
        are shown."""
        return None

    def points_table(self) -> PointsTable | None:
        """The hand's points as a :class:`PointsTable`; None when they cannot be tabled so (the page then
        does not add up hands it could not send)."""
        return None

    def printed_winds(self, index: int) -> Winds | None:
        """Seat winds to print on a blank scoresheet for hand ``index`` (0-based); None: none printed."""
        return None

    def next_hand_initial(self, previous: Sequence[HandRecord]) -> dict[str, Any]:
        """Initial values of the form for the next hand."""
        return {}

    def initial_for(self, record: HandRecord, tiles: Any = None) -> dict[str, Any]:
        """A stored hand as the initial values of this rule set's hand form (for corrections)."""
        raise NotImplementedError

    # --- side rankings ---------------------------------------------------------------------------

    def side_counts(self, record: HandRecord) -> frozenset[str]:
        """The count rankings (``side_rankings``) a hand's winner earns one towards."""
        return frozenset({"hands_won"}) if record.winner else frozenset()

    def hand_value(self, record: HandRecord) -> int | None:
        """What a won hand is worth for the "best single hand" ranking (None: not ranked)."""
        return None

    # --- lateness and penalties ------------------------------------------------------------------

    def late_points(self, minutes: int) -> int | None:
        """Points a late player loses (None: forfeits the session); by default lateness costs nothing."""
        return 0

    def late_note(self) -> str:
        return "Recorded for the record; these rules set no points for lateness."

    def late_note_in(self, language: str | None) -> str:
        """The lateness note in ``language`` (a rule set whose note carries a number overrides this)."""
        return self.word(self.late_note(), language)

    def penalty_catalogue(self) -> Sequence[Ruling]:
        """What the referee can rule, in this rule set's own words (``scoring.rules.rulings.Ruling``);
        by default a warning and the two rulings every tournament has (loss of rank, disqualification)."""
        return GENERAL_RULINGS

    def penalty_table(self) -> PointsTable:
        """What a penalty does to each seat, as a table the referee's phone looks up for penalties it
        could not send yet (:func:`penalty_points_table`, read off :func:`penalty_effect`)."""
        return penalty_points_table(self.penalty_catalogue())

    @property
    def penalties_per_tile(self) -> bool:
        """Whether a ruling of the catalogue costs points per tile revealed (MCR 85e), so the penalty form
        asks how many tiles were revealed."""
        return any(ruling.per_tile for ruling in self.penalty_catalogue())

    # --- the session -----------------------------------------------------------------------------

    def score_session(
        self,
        hands: Sequence[HandRecord],
        *,
        totals: Mapping[str, int] | None = None,
        penalties: Sequence[PenaltyItem] = (),
        late_minutes: Mapping[str, int] | None = None,
    ) -> SessionTotals:
        """Scores of a table's session: its hands (or reported totals), penalties and lateness."""
        scores = dict.fromkeys(SEATS, 0)
        if totals is not None:
            scores.update(check_totals(totals))
        else:
            for record in hands:
                for seat_, points in self.points(record).items():
                    scores[seat_] += points
        for penalty in penalties:
            for seat_, points in penalty_effect(penalty).items():
                scores[seat_] += points
        forfeits = set()
        for seat_, minutes in (late_minutes or {}).items():
            lost = self.late_points(minutes)
            if lost is None:
                forfeits.add(seat_)
            else:
                scores[seat_] -= lost
        return SessionTotals(scores=scores, table_points=None, forfeits=frozenset(forfeits))

    # --- the event JSON --------------------------------------------------------------------------

    def hand_to_doc(self, record: HandRecord, tiles: Any, code_at: Mapping[str, str]) -> dict[str, Any]:
        """A stored hand in the event JSON's form (player ids instead of seats)."""
        raise NotImplementedError

    def hand_from_doc(self, hand: Mapping[str, Any], wind_of: Mapping[str, str]) -> HandRecord:
        """A hand of the event JSON (player ids) as an unchecked record in starting seats."""
        raise NotImplementedError

    # --- single hands (``score_hands``) ----------------------------------------------------------

    @classmethod
    def score_request(cls, request: Any) -> dict[str, Any]:
        """Score one hand of ``shared/specs/scoring-json.md``."""
        raise NotImplementedError

    @classmethod
    def tile_breakdown(cls, request: Any) -> dict[str, Any]:
        """The tile picker's answer for one hand of ``shared/specs/scoring-json.md`` (a rule set with
        ``uses_tile_picker``): ``result`` (the scored reading: ``reading`` and ``fans``, each with
        ``name``, ``count``, ``sets`` and ``points``; ``notes``), ``total`` (flowers included),
        ``meets_minimum`` and ``minimum``; raises :class:`HandInputError` for a hand it cannot score."""
        raise HandInputError(gettext_noop("these rules have no tile picker"), code="no_tile_picker")


def seat_of_player(hand: Mapping[str, Any], key: str, wind_of: Mapping[str, str]) -> str | None:
    """The starting seat of the player a JSON hand names under ``key`` (None when absent)."""
    pid = hand.get(key)
    if pid is None:
        return None
    if not isinstance(pid, str) or pid not in wind_of:
        raise HandInputError(
            gettext_noop("%(key)s: %(pid)r does not sit at this table"), code="not_at_table", key=key, pid=pid
        )
    return wind_of[pid]
