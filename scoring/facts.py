"""What a table's results and the standings are computed from, and the computation itself (no Django).

A session's facts are plain values: who sat where, the hands in play order, the totals when only totals were
entered, the penalties and lateness in force, who took a seat over. The loaders
(``scoring.services.standings``: the whole event in a fixed number of queries for the standings and every
export, or one prefetched table for a page) read them; everything else is computed here, once:

- which rulings count (:func:`counts`: not those an appeal overturned, MCR rule 94,
  seeds/003_2541481d343502a5.txt line 2405),
- a table's session (:func:`table_result`: the rule set's ``score_session``, MCR rule 71 for table points),
- which tables count for the standings (:func:`counted`: confirmed, published, not after the freeze),
- the standings (:func:`standings_from_facts`: MCR rule 73 through :func:`scoring.standings.compute_standings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial

from scoring import substitutions
from scoring.rules.finals import Cut
from scoring.rules.ruleset import HandRecord, PenaltyItem, RuleSet, SessionTotals
from scoring.rules.rulings import UNRANKED
from scoring.standings import SessionLine, StandingRow, TieBreaking, compute_standings

PAID_TO_PLAYER = "player"
"""A penalty paid to one player (MCR rule 85e): its receiver is a registration at the table."""


@dataclass(frozen=True, slots=True)
class SeatFact:
    """Who started the session in a seat."""

    wind: str
    registration_id: int
    code: str
    substitute: bool = False
    """A registered substitute: fills a seat, never ranked."""
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyFact:
    """A penalty (or warning, 0 points) in force against a registration at the table."""

    registration_id: int
    points: int
    paid_to: str
    receiver_id: int | None = None
    outcome: str = ""
    """A ruling that takes the player out of the ranking ("loss_of_rank", "disqualification")."""
    code: str = ""
    overturned: bool = False
    """An appeal against it was granted (MCR rule 94)."""


@dataclass(frozen=True, slots=True)
class LateFact:
    """Lateness in force (MCR rule 88 turns the minutes into points or a forfeit)."""

    registration_id: int
    minutes: int
    overturned: bool = False


@dataclass(frozen=True, slots=True)
class StandInFact:
    """A substitution: from hand ``from_hand`` on, ``code`` plays the seat ``wind``."""

    wind: str
    registration_id: int
    code: str
    from_hand: int
    substitute: bool = False


@dataclass(frozen=True)
class TableFacts:
    """One table's session as stored."""

    table_id: int
    round_number: int
    table_number: int
    seats: Sequence[SeatFact]
    hands: Sequence[HandRecord] = ()
    totals: Mapping[str, int] | None = None
    penalties: Sequence[PenaltyFact] = ()
    late: Sequence[LateFact] = ()
    stand_ins: Sequence[StandInFact] = ()
    published: bool = True
    """The session's results are published."""
    confirmed: bool = False

    @property
    def started(self) -> bool:
        return bool(self.hands) or self.totals is not None


@dataclass(frozen=True)
class EventFacts:
    """Every table of an event, and the event's settings that decide what counts."""

    tables: Sequence[TableFacts]
    substitution_rule: str = substitutions.DEFAULT_POLICY
    frozen_after: int | None = None
    """The standings are frozen after this session (``tournaments.release``)."""
    cut: Cut | None = None
    """The cut to the final made (``scoring.rules.finals``): the standings combine the two stages."""


def counts(item: PenaltyFact | LateFact) -> bool:
    """A ruling counts unless an appeal against it was granted: the appeal cancels it (MCR rule 94,
    seeds/003_2541481d343502a5.txt line 2405). The one place that decides it."""
    return not item.overturned


def _seat_of(table: TableFacts) -> dict[int, str]:
    """Registration -> starting seat; a substitute is charged at the seat they took over."""
    return {
        **{item.registration_id: item.wind for item in table.stand_ins},
        **{seat.registration_id: seat.wind for seat in table.seats},
    }


def _penalty_items(seat_of: Mapping[int, str], penalties: Iterable[PenaltyFact]) -> list[PenaltyItem]:
    """Penalties as the rule set scores them: warnings (0 points) cost nothing; a player no longer seated
    at the table is ignored; a payment to one player needs that player at the table, not the payer."""
    return [
        PenaltyItem(
            seat=seat_of[item.registration_id],
            points=item.points,
            paid_to=(
                seat_of[item.receiver_id]
                if item.paid_to == PAID_TO_PLAYER and item.receiver_id is not None
                else item.paid_to
            ),
        )
        for item in penalties
        if counts(item)
        and item.points > 0
        and item.registration_id in seat_of
        and (
            item.paid_to != PAID_TO_PLAYER
            or (item.receiver_id in seat_of and item.receiver_id != item.registration_id)
        )
    ]


def table_result(
    rules: RuleSet, table: TableFacts, *, penalties: Sequence[PenaltyFact] | None = None
) -> SessionTotals:
    """Scores (and, for MCR, table points, rule 71) of a table's session; ``penalties`` replaces the
    table's own (to price what one player's penalties cost the seat)."""
    seat_of = _seat_of(table)
    return rules.score_session(
        list(table.hands),
        totals=table.totals,
        penalties=_penalty_items(seat_of, table.penalties if penalties is None else penalties),
        late_minutes={
            seat_of[item.registration_id]: item.minutes
            for item in table.late
            if counts(item) and item.registration_id in seat_of
        },
    )


def counted(table: TableFacts, *, include_provisional: bool = False, frozen_after: int | None = None) -> bool:
    """Whether a table counts in the standings: started, confirmed, its session published and not after
    the session the standings are frozen at; ``include_provisional``: every started table (the organiser's
    preview, Swiss seating)."""
    if not table.started:
        return False
    if include_provisional:
        return True
    return (
        table.confirmed and table.published and (frozen_after is None or table.round_number <= frozen_after)
    )


def unranked_by_ruling(tables: Iterable[TableFacts]) -> dict[str, str]:
    """Players a ruling in force took out of the ranking (loss of rank, disqualification: MCR rules 77e-f
    and 89), counted table or not; a disqualification outweighs a loss of rank."""
    unranked: dict[str, str] = {}
    for table in tables:
        for item in table.penalties:
            if counts(item) and item.outcome in UNRANKED and unranked.get(item.code) != "disqualification":
                unranked[item.code] = item.outcome
    return unranked


def _table_lines(
    rules: RuleSet, table: TableFacts, *, substitution_rule: str, hidden: set[str]
) -> list[SessionLine]:
    """The standings lines of one counted table: one per ranked player (scoring.substitutions splits a
    seat taken over mid-session by the event's policy)."""
    result = table_result(rules, table)
    charged = substitutions.charged_to_substitutes(
        substitution_rule,
        result,
        partial(_rescore, rules, table),
        [(p.registration_id, p.points, p.paid_to, p.receiver_id) for p in table.penalties if counts(p)],
        {item.registration_id: (item.wind, item.code) for item in table.stand_ins},
    )
    taken: dict[str, list[substitutions.SeatSubstitution]] = {}
    for item in table.stand_ins:
        taken.setdefault(item.wind, []).append(
            substitutions.SeatSubstitution(item.from_hand, item.code, item.substitute)
        )
    wins = Counter(record.winner for record in table.hands if record.winner)
    top = max(result.scores.values(), default=None)
    lines: list[SessionLine] = []
    for seat in table.seats:
        not_ranked = seat.code in hidden
        if seat.wind in taken:
            lines.extend(
                substitutions.seat_lines(
                    substitution_rule,
                    rules=rules,
                    wind=seat.wind,
                    code=seat.code,
                    substitute=not_ranked,
                    substitutions=taken[seat.wind],
                    charged=charged.get(seat.wind, {}),
                    hands=table.hands,
                    result=result,
                    round_number=table.round_number,
                    table_number=table.table_number,
                )
            )
        elif not not_ranked:
            lines.append(
                SessionLine(
                    player=seat.code,
                    round_number=table.round_number,
                    table_number=table.table_number,
                    score=result.scores[seat.wind],
                    table_points=result.table_points[seat.wind] if result.table_points is not None else None,
                    forfeit=seat.wind in result.forfeits,
                    wins=wins[seat.wind],
                    first_place=result.scores[seat.wind] == top,
                )
            )
    return _with_penalties(table, lines)


def _with_penalties(table: TableFacts, lines: list[SessionLine]) -> list[SessionLine]:
    """Each player's penalty points in force at the table, on their first line there (the tie-break
    "fewest penalty points", ``scoring.rules.tie_breaks``)."""
    code_of = {
        **{item.registration_id: item.code for item in table.stand_ins},
        **{seat.registration_id: seat.code for seat in table.seats},
    }
    owed = Counter[str]()
    for item in table.penalties:
        if counts(item) and item.registration_id in code_of:
            owed[code_of[item.registration_id]] += item.points
    result: list[SessionLine] = []
    for line in lines:
        if owed.get(line.player):
            line = replace(line, penalty_points=owed.pop(line.player))
        result.append(line)
    return result


def _rescore(
    rules: RuleSet, table: TableFacts, *, penalties: Sequence[tuple[int, int, str, int | None]]
) -> SessionTotals:
    """The table scored with only these penalties (what one substitute's penalties cost the seat)."""
    return table_result(
        rules,
        table,
        penalties=[
            PenaltyFact(registration_id=pk, points=points, paid_to=paid_to, receiver_id=receiver)
            for pk, points, paid_to, receiver in penalties
        ],
    )


def standings_from_facts(
    rules: RuleSet, facts: EventFacts, *, include_provisional: bool = False
) -> list[StandingRow]:
    """The event's standings (MCR rules 71 and 73): every counted table's lines, ranked. Substitutes fill
    seats but are not ranked, nor are withdrawn players (their results stay); a player out of the ranking
    by a ruling is listed at the bottom with the status, counted tables or not, withdrawn or not."""
    unranked = unranked_by_ruling(facts.tables)
    substitutes = {seat.code for table in facts.tables for seat in table.seats if seat.substitute}
    withdrawn = {seat.code for table in facts.tables for seat in table.seats if seat.withdrawn}
    hidden = substitutes | (withdrawn - set(unranked))
    lines: list[SessionLine] = []
    for table in facts.tables:
        if counted(table, include_provisional=include_provisional, frozen_after=facts.frozen_after):
            lines.extend(_table_lines(rules, table, substitution_rule=facts.substitution_rule, hidden=hidden))
    players = [code for code in unranked if code not in substitutes]
    if facts.cut is not None:
        return _with_final(rules, facts.cut, lines, players, unranked)
    return _ranked(rules, lines, players, unranked)


def _ranked(
    rules: RuleSet,
    lines: Sequence[SessionLine],
    players: Sequence[str] | Mapping[str, tuple[Fraction, int]],
    unranked: Mapping[str, str],
) -> list[StandingRow]:
    return compute_standings(
        lines,
        players,
        use_table_points=rules.uses_table_points,
        tie_break=rules.tie_break,
        unranked=unranked,
        tie_breaks=TieBreaking(rules.tie_break_order, rules.tie_break_lots),
    )


def _with_final(
    rules: RuleSet,
    cut: Cut,
    lines: Sequence[SessionLine],
    players: Sequence[str],
    unranked: Mapping[str, str],
) -> list[StandingRow]:
    """The two stages combined: the finalists first, ranked by what they carry over from the qualifying
    sessions plus their final sessions (MCR rule 73 on those totals; the tie-breaks read the final
    sessions only), then everyone else in their qualifying order (rule 73 over the qualifying sessions).
    The finalists' rows list every session they played."""
    qualifying = _ranked(rules, [line for line in lines if line.round_number <= cut.after], players, unranked)
    by_player = {row.player: row for row in qualifying}
    finalists = [code for code in cut.finalists if code in by_player]
    carried = {
        code: (
            cut.carried_points(by_player[code].table_points or Fraction(0)),
            cut.carried_score(by_player[code].score),
        )
        for code in finalists
    }
    final = _ranked(
        rules,
        [line for line in lines if line.round_number > cut.after and line.player in carried],
        carried,
        {code: status for code, status in unranked.items() if code in carried},
    )
    for row in final:
        row.finalist = True
        row.sessions = sorted([*by_player[row.player].sessions, *row.sessions], key=lambda s: s.round_number)
    head = [row for row in final if row.rank is not None]
    rest = [row for row in qualifying if row.player not in carried and row.rank is not None]
    _rank_after(head, rest)
    bottom = [row for row in qualifying if row.player not in carried and row.rank is None]
    return head + rest + bottom + [row for row in final if row.rank is None]


def _rank_after(head: Sequence[StandingRow], rest: Sequence[StandingRow]) -> None:
    """Rank the players out of the final after the finalists, keeping their qualifying order and ties
    ("1, 1, 3" competition ranking, rule 73); the stage, not a tie-break, separates the two groups."""
    if head and rest:
        head[-1].below_by = rest[0].above_by = ""
    previous: tuple[int | None, int | None] = (None, None)  # (qualifying rank, rank given)
    for position, row in enumerate(rest, start=len(head) + 1):
        rank = previous[1] if row.rank == previous[0] else position
        previous = (row.rank, rank)
        row.rank = rank
