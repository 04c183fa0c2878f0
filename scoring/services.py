"""Every write of a result goes through a function here: validated by the rule engine, written in a
transaction as a new version (never an edit in place), attributed and audited, standings bumped."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Max, Prefetch

from scoring.models import Appeal, AppealStatus, Hand, LateArrival, PaidTo, Penalty, TableTotals
from scoring.rules.errors import HandInputError
from scoring.rules.mcr import session as mcr
from scoring.rulesets import EventRules, HandRecord, SessionTotals, check_totals, rules_for
from scoring.standings import SessionLine, StandingRow, compute_standings
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Registration, Round, Seat, Table, Tournament
from tournaments.services import User, audit, bump_standings

APPEAL_DEADLINE_MINUTES = 30  # MCR rule 94a (seeds/003_2541481d343502a5.txt, line ~2466)


@dataclass(frozen=True)
class HandEntry:
    """What a referee enters for one hand; seats are winds at the start of the session.

    MCR uses ``fan`` (and optionally ``tiles``); NMJL and the classical rule sets put their details in
    ``data`` (see :mod:`scoring.rulesets`).
    """

    winner: str | None
    discarder: str | None = None
    fan: int | None = None
    tiles: dict[str, Any] | None = None
    data: dict[str, Any] | None = None


def event_rules(tournament: Tournament) -> EventRules:
    """The event's rule engine, built once per rule set and settings: pages score many tables of one
    event (each with its own copy of the tournament row), and an NMJL card is costly to load."""
    return _rules_for_settings(tournament.rules, json.dumps(tournament.settings, sort_keys=True))


@lru_cache(maxsize=64)
def _rules_for_settings(rules: str, settings: str) -> EventRules:
    return rules_for(rules, json.loads(settings))


def score_table(
    rules: EventRules,
    seat_of: Mapping[int, str],
    hands: list[HandRecord],
    *,
    totals: Mapping[str, int] | None,
    penalties: Iterable[tuple[int, int, str]],
    late: Mapping[int, int],
) -> SessionTotals:
    """One table's session from its stored facts: ``seat_of`` maps registrations to starting seats,
    ``penalties`` are (registration, points, paid_to) still in force. Warnings (0 points) cost nothing;
    a player no longer seated at the table is ignored."""
    return rules.score_session(
        hands,
        totals=totals,
        penalties=[
            mcr.PenaltyItem(seat=seat_of[registration], points=points, paid_to=paid_to)
            for registration, points, paid_to in penalties
            if points > 0 and registration in seat_of
        ],
        late_minutes={seat_of[r]: minutes for r, minutes in late.items() if r in seat_of},
    )


def _lock_table(table: Table) -> Table:
    """Take the table's row lock so two referees saving at once are serialised (PostgreSQL);
    SQLite's IMMEDIATE transactions already serialise writers."""
    return Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)


def current_hands(table: Table) -> list[Hand]:
    return list(table.hands.filter(is_current=True, voided=False).order_by("number"))


def _service_error(error: HandInputError) -> ServiceError:
    message = error.message[0].upper() + error.message[1:]
    return ServiceError(message if message.endswith(".") else message + ".", code=error.code)


def _check_entry(entry: HandEntry, tournament: Tournament) -> HandRecord:
    """The entry checked by the event's rule engine (MCR: rules 24 and 67; NMJL: the card and the
    scheme; classical: the settlement), as the record to store."""
    rules = event_rules(tournament)
    try:
        record = rules.normalise(
            HandRecord(winner=entry.winner, discarder=entry.discarder, fan=entry.fan, data=entry.data or {})
        )
    except HandInputError as error:
        raise _service_error(error) from None
    if entry.tiles is not None and entry.winner is not None and tournament.rules == "mcr":
        _check_tiles_agree(entry)
    return record


def _check_tiles_agree(entry: HandEntry) -> None:
    """Tiles stored with a hand must score the fan entered (issue 3's calculator)."""
    from scoring.rules.mcr import calculator

    try:
        result = calculator.score_request(entry.tiles)
    except HandInputError as error:
        raise ServiceError(f"The tiles are not a valid hand: {error.message}.", code="bad_tiles") from None
    flowers = entry.tiles.get("flowers", 0) if isinstance(entry.tiles, dict) else 0
    basic = result["total"] - flowers
    if basic != entry.fan:
        raise ServiceError(
            f"The tiles score {basic} fan points (flowers excluded) but {entry.fan} was entered.",
            code="fan_disagrees_with_tiles",
        )


def _seats_ready(table: Table) -> None:
    if table.seats.count() != 4:
        raise ServiceError("This table does not have four players seated.", code="table_not_seated")


def _user(acting_user: User) -> Any:
    return acting_user if acting_user is not None and acting_user.is_authenticated else None


def _hand_fields(record: HandRecord, entry: HandEntry) -> dict[str, Any]:
    return {
        "winner": record.winner or "",
        "discarder": record.discarder or "",
        "fan": record.fan,
        "data": dict(record.data),
        "tiles": entry.tiles if record.winner else None,
    }


@transaction.atomic
def record_hand(
    table: Table, entry: HandEntry, *, acting_user: User, expected_number: int | None = None
) -> Hand:
    """Add the next hand at a table, checked by the event's rule engine.

    ``expected_number`` makes entry idempotent: a form posted twice (double click, retry on a bad
    connection) is refused the second time instead of adding the hand again.
    """
    table = _lock_table(table)
    tournament = table.round.tournament
    _seats_ready(table)
    record = _check_entry(entry, tournament)
    if table.totals_versions.filter(is_current=True).exists():
        raise ServiceError(
            "This table has reported session totals; hands can no longer be added.", code="has_totals"
        )
    if table.finished_at is not None:
        raise ServiceError("This table is marked complete; reopen it to add hands.", code="table_finished")
    limit = tournament.hands_per_session
    played = table.hands.filter(is_current=True, voided=False).count()
    if limit is not None and played >= limit:
        raise ServiceError(
            f"The session allows {limit} hands and {played} are entered.", code="too_many_hands"
        )
    if expected_number is not None and expected_number != played + 1:
        raise ServiceError(
            f"Hand {expected_number} was already entered; the page was out of date and nothing was added.",
            code="already_entered",
        )
    last = table.hands.aggregate(Max("number"))["number__max"] or 0
    hand = Hand.objects.create(
        table=table, number=last + 1, entered_by=_user(acting_user), **_hand_fields(record, entry)
    )
    summary = event_rules(tournament).describe(record)
    _after_write(table, acting_user, "record_hand", f"hand {played + 1}: {summary}", hand=hand.number)
    return hand


@transaction.atomic
def correct_hand(hand: Hand, entry: HandEntry, *, acting_user: User) -> Hand:
    """Replace a hand's result by a new version; the old version stays, marked superseded."""
    table = _lock_table(hand.table)
    current = table.hands.select_for_update().get(number=hand.number, is_current=True)
    record = _check_entry(entry, table.round.tournament)
    Hand.objects.filter(pk=current.pk).update(is_current=False)
    new = Hand.objects.create(
        table=table,
        number=current.number,
        version=current.version + 1,
        entered_by=_user(acting_user),
        **_hand_fields(record, entry),
    )
    summary = event_rules(table.round.tournament).describe(record)
    _after_write(
        table, acting_user, "correct_hand", f"hand corrected: {summary}", hand=new.number, version=new.version
    )
    return new


@transaction.atomic
def void_last_hand(table: Table, *, acting_user: User) -> Hand:
    """Delete the last hand entered, as a new voided version (later hands' winds would shift otherwise)."""
    table = _lock_table(table)
    hands = current_hands(table)
    if not hands:
        raise ServiceError("There is no hand to delete.", code="no_hand")
    if table.finished_at is not None:
        raise ServiceError("This table is marked complete; reopen it first.", code="table_finished")
    last = hands[-1]
    Hand.objects.filter(pk=last.pk).update(is_current=False)
    new = Hand.objects.create(
        table=table,
        number=last.number,
        version=last.version + 1,
        voided=True,
        entered_by=acting_user if acting_user is not None and acting_user.is_authenticated else None,
    )
    _after_write(table, acting_user, "void_hand", f"hand {last.number} deleted", hand=last.number)
    return new


@transaction.atomic
def record_totals(table: Table, scores: dict[str, int], *, acting_user: User) -> TableTotals:
    """Session totals instead of hands, when the organiser allows it; they must sum to zero."""
    table = _lock_table(table)
    _seats_ready(table)
    if not table.totals_only:
        raise ServiceError(
            "The organiser has not allowed totals only for this table.", code="totals_not_allowed"
        )
    if current_hands(table):
        raise ServiceError(
            "This table already has hands entered; delete them before reporting totals.", code="has_hands"
        )
    try:
        check_totals(scores)
    except HandInputError as error:
        raise _service_error(error) from None
    previous = table.totals_versions.filter(is_current=True).first()
    if previous is not None:
        TableTotals.objects.filter(pk=previous.pk).update(is_current=False)
    totals = TableTotals.objects.create(
        table=table,
        version=(previous.version + 1) if previous else 1,
        scores={seat: int(scores[seat]) for seat in WINDS},
        entered_by=acting_user if acting_user is not None and acting_user.is_authenticated else None,
    )
    _after_write(table, acting_user, "record_totals", f"totals {totals.scores}", version=totals.version)
    return totals


@transaction.atomic
def set_table_finished(table: Table, finished: bool, *, acting_user: User) -> None:
    from django.utils import timezone

    table = _lock_table(table)
    if finished and not current_hands(table) and not table.totals_versions.filter(is_current=True).exists():
        raise ServiceError(
            "Enter at least one hand before marking the table complete.", code="nothing_entered"
        )
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now() if finished else None)
    _after_write(
        table,
        acting_user,
        "finish_table" if finished else "reopen_table",
        "complete" if finished else "reopened",
    )


@transaction.atomic
def add_penalty(
    table: Table,
    registration: Registration,
    points: int,
    *,
    paid_to: str,
    rule: str = "",
    reason: str = "",
    warning: bool = False,
    acting_user: User,
) -> Penalty:
    """Record a penalty (``warning``: a 0-point first occurrence of rules 79, 80 or 83, kept because it
    counts towards the next one)."""
    table = _lock_table(table)
    if not table.seats.filter(registration=registration).exists():
        raise ServiceError(f"{registration} does not sit at this table.", code="not_at_table")
    if points < 0 or (points == 0 and not warning):
        raise ServiceError("Penalty points must be positive.", code="bad_penalty")
    if paid_to not in PaidTo.values:
        raise ServiceError("Choose how the penalty is paid.", code="bad_penalty")
    position = table.penalties.count()
    penalty = Penalty.objects.create(
        table=table,
        registration=registration,
        points=points,
        paid_to=paid_to,
        rule=rule[:40],
        reason=reason[:300],
        position=position,
        created_by=acting_user if acting_user is not None and acting_user.is_authenticated else None,
    )
    _after_write(
        table, acting_user, "penalty", f"{registration}: {points} ({paid_to}) {rule}", penalty=penalty.pk
    )
    return penalty


@transaction.atomic
def record_late(table: Table, registration: Registration, minutes: int, *, acting_user: User) -> LateArrival:
    table = _lock_table(table)
    if not table.seats.filter(registration=registration).exists():
        raise ServiceError(f"{registration} does not sit at this table.", code="not_at_table")
    late, _ = LateArrival.objects.update_or_create(
        table=table,
        registration=registration,
        defaults={
            "minutes": minutes,
            "recorded_by": acting_user if acting_user is not None and acting_user.is_authenticated else None,
        },
    )
    _after_write(table, acting_user, "late", f"{registration} late {minutes} min", minutes=minutes)
    return late


@transaction.atomic
def add_catalogue_penalty(
    table: Table, registration: Registration, key: str, *, reason: str = "", acting_user: User
) -> Penalty:
    """A penalty from the MCR book's catalogue (rules 79-85), its points worked out: for the escalating
    ones (79, 80, 83) from how often this player was penalised under that rule in this event before
    (the book says "each repeat violation"; counting over the whole event is this app's reading)."""
    from scoring.rules.mcr.penalties import BY_KEY, points_for

    kind = BY_KEY.get(key)
    if kind is None:
        raise ServiceError("Choose a penalty from the list.", code="bad_penalty")
    earlier = Penalty.objects.filter(
        registration=registration, rule=kind.rule, table__round__tournament=table.round.tournament
    ).prefetch_related("appeals")
    occurrence = 1 + sum(1 for penalty in earlier if not penalty.cancelled)
    points = points_for(kind, occurrence)
    return add_penalty(
        table,
        registration,
        points,
        paid_to=kind.paid_to,
        rule=kind.rule,
        reason=reason or (kind.label if points else f"{kind.label} (warning)"),
        warning=points == 0,
        acting_user=acting_user,
    )


@transaction.atomic
def file_appeal(penalty: Penalty, *, minutes_after: int, statement: str = "", acting_user: User) -> Appeal:
    """Rule 94a: an appeal must be submitted within 30 minutes of the judgment."""
    if minutes_after > APPEAL_DEADLINE_MINUTES:
        raise ServiceError(
            f"An appeal must be filed within {APPEAL_DEADLINE_MINUTES} minutes of the judgment "
            "(MCR rule 94a).",
            code="appeal_too_late",
        )
    appeal = Appeal.objects.create(penalty=penalty, filed_minutes_after=minutes_after, statement=statement)
    audit(penalty.table.round.tournament, acting_user, "appeal", f"Appeal against penalty {penalty.pk}")
    return appeal


@transaction.atomic
def decide_appeal(appeal: Appeal, status: str, *, acting_user: User) -> Appeal:
    if status not in (AppealStatus.UPHELD, AppealStatus.DENIED):
        raise ServiceError("An appeal is decided as upheld or denied.", code="bad_status")
    appeal.status = status
    appeal.decided_by = acting_user if acting_user is not None and acting_user.is_authenticated else None
    appeal.save(update_fields=["status", "decided_by"])
    table = appeal.penalty.table
    _after_write(table, acting_user, "decide_appeal", f"appeal {appeal.pk} {status}", appeal=appeal.pk)
    return appeal


def _after_write(table: Table, acting_user: User, action: str, summary: str, **data: Any) -> None:
    tournament = table.round.tournament
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        action,
        f"Session {table.round.number} table {table.number}: {summary}",
        **data,
    )


def table_state(table: Table) -> str:
    """ "not started", "in play" or "complete" (prefetch hands and totals for lists of tables)."""
    hands = [h for h in table.hands.all() if h.is_current and not h.voided]
    has_totals = any(t.is_current for t in table.totals_versions.all())
    limit = table.round.tournament.hands_per_session
    if has_totals or table.finished_at is not None or (limit is not None and len(hands) >= limit):
        return "complete"
    return "in play" if hands else "not started"


def hand_record(hand: Hand) -> HandRecord:
    return HandRecord(
        winner=hand.winner or None, discarder=hand.discarder or None, fan=hand.fan, data=hand.data
    )


def played_hands(table: Table) -> list[Hand]:
    """Current, not deleted hands in play order (uses the prefetched hands)."""
    return sorted((h for h in table.hands.all() if h.is_current and not h.voided), key=lambda h: h.number)


def result_prefetches() -> list[Any]:
    return [
        Prefetch("seats", queryset=Seat.objects.select_related("registration__player")),
        Prefetch(
            "hands",
            queryset=Hand.objects.filter(is_current=True, voided=False).defer("created_at", "entered_by"),
        ),
        Prefetch("totals_versions", queryset=TableTotals.objects.filter(is_current=True)),
        Prefetch("penalties", queryset=Penalty.objects.prefetch_related("appeals")),
        "late_arrivals",
    ]


def tables_with_results(tournament: Tournament, round_: Round | None = None) -> list[Table]:
    tables = Table.objects.filter(round__tournament=tournament).select_related("round__tournament")
    if round_ is not None:
        tables = tables.filter(round=round_)
    return list(tables.prefetch_related(*result_prefetches()).order_by("round__number", "number"))


def table_with_results(table: Table) -> Table:
    """One table with what its pages need prefetched (the referee page loads just its own table)."""
    return (
        Table.objects.select_related("round__tournament")
        .prefetch_related(*result_prefetches())
        .get(pk=table.pk)
    )


def session_result(table: Table) -> SessionTotals:
    """Scores (and, for MCR, table points) of a table's session (prefetch with result_prefetches)."""
    return score_table(
        event_rules(table.round.tournament),
        {seat.registration_id: seat.wind for seat in table.seats.all()},
        [hand_record(h) for h in played_hands(table)],
        totals=next((t.scores for t in table.totals_versions.all() if t.is_current), None),
        penalties=[
            (p.registration_id, p.points, p.paid_to) for p in table.penalties.all() if not p.cancelled
        ],
        late={item.registration_id: item.minutes for item in table.late_arrivals.all()},
    )


def event_standings(tournament: Tournament) -> list[StandingRow]:
    """Standings over every table that has results (MCR rules 71 and 73). Substitutes fill seats but
    are not ranked.

    This runs on the public pages' hot path after every result, so it reads plain values (seven
    queries, whatever the size of the event) instead of building model objects.
    """
    rules = event_rules(tournament)
    in_event = {"table__round__tournament": tournament}
    tables = Table.objects.filter(round__tournament=tournament).values_list("id", "round__number", "number")
    seats: dict[int, list[tuple[str, int, str, bool]]] = defaultdict(list)
    for table_id, wind, registration_id, code, substitute in Seat.objects.filter(
        round__tournament=tournament
    ).values_list("table_id", "wind", "registration_id", "registration__code", "registration__is_substitute"):
        seats[table_id].append((wind, registration_id, code, substitute))
    hands: dict[int, list[HandRecord]] = defaultdict(list)
    for table_id, winner, discarder, fan, data in (
        Hand.objects.filter(is_current=True, voided=False, **in_event)
        .order_by("table_id", "number")
        .values_list("table_id", "winner", "discarder", "fan", "data")
    ):
        hands[table_id].append(
            HandRecord(winner=winner or None, discarder=discarder or None, fan=fan, data=data)
        )
    totals = dict(TableTotals.objects.filter(is_current=True, **in_event).values_list("table_id", "scores"))
    upheld = set(
        Appeal.objects.filter(
            status=AppealStatus.UPHELD, penalty__table__round__tournament=tournament
        ).values_list("penalty_id", flat=True)
    )
    penalties: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for penalty_id, table_id, registration_id, points, paid_to in Penalty.objects.filter(
        **in_event
    ).values_list("id", "table_id", "registration_id", "points", "paid_to"):
        if penalty_id not in upheld:
            penalties[table_id].append((registration_id, points, paid_to))
    late: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, registration_id, minutes in LateArrival.objects.filter(**in_event).values_list(
        "table_id", "registration_id", "minutes"
    ):
        late[table_id][registration_id] = minutes
    lines: list[SessionLine] = []
    for table_id, round_number, table_number in tables:
        if not hands[table_id] and table_id not in totals:
            continue  # not started
        result = score_table(
            rules,
            {registration_id: wind for wind, registration_id, _, _ in seats[table_id]},
            hands[table_id],
            totals=totals.get(table_id),
            penalties=penalties[table_id],
            late=late[table_id],
        )
        wins = Counter(record.winner for record in hands[table_id] if record.winner)
        for wind, _, code, substitute in seats[table_id]:
            if substitute:
                continue
            lines.append(
                SessionLine(
                    player=code,
                    round_number=round_number,
                    table_number=table_number,
                    score=result.scores[wind],
                    table_points=result.table_points[wind] if result.table_points is not None else None,
                    forfeit=wind in result.forfeits,
                    wins=wins[wind],
                )
            )
    codes = tournament.registrations.filter(is_substitute=False).values_list("code", flat=True)
    tie_break = tournament.settings.get("tie_break", "shared") if tournament.rules != "mcr" else "shared"
    return compute_standings(lines, codes, use_table_points=tournament.uses_table_points, tie_break=tie_break)


def running_scores(table: Table) -> list[dict[str, Any]]:
    """Per hand: its description, each starting seat's points and running total, for the pages."""
    rules = event_rules(table.round.tournament)
    totals = dict.fromkeys(WINDS, 0)
    rows = []
    for hand in played_hands(table):
        record = hand_record(hand)
        delta = rules.points(record)
        for seat in WINDS:
            totals[seat] += delta[seat]
        rows.append({"hand": hand, "delta": delta, "totals": dict(totals), "text": rules.describe(record)})
    return rows


def describe_hand(hand: Hand) -> str:
    return event_rules(hand.table.round.tournament).describe(hand_record(hand))
