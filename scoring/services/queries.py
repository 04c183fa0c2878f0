"""Reading a table's results for the pages, the exports and the standings: the event's rule set, the
hands in force, the prefetches that load a list of tables in a few queries, and a session's scores from
its stored facts. Nothing here writes."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db.models import Min, Prefetch
from django.utils.translation import get_language

from scoring.models import Confirmation, Hand, LateArrival, PaidTo, Penalty, TableTotals
from scoring.rules.ruleset import HandRecord, PenaltyItem, RuleSet, SessionTotals
from tournaments.models import WINDS, Round, Seat, Table, Tournament
from tournaments.services import substitutions as seat_substitutions


def event_rules(tournament: Tournament) -> RuleSet:
    """The event's rule set with its settings (built once per rule set and settings)."""
    return tournament.rule_set


def score_table(
    rules: RuleSet,
    seat_of: Mapping[int, str],
    hands: list[HandRecord],
    *,
    totals: Mapping[str, int] | None,
    penalties: Iterable[tuple[int, int, str, int | None]],
    late: Mapping[int, int],
) -> SessionTotals:
    """One table's session from its stored facts: ``seat_of`` maps registrations to starting seats,
    ``penalties`` are (registration, points, paid_to, receiver) still in force, the receiver being the
    registration paid when ``paid_to`` is one player (rule 85e). Warnings (0 points) cost nothing; a
    player no longer seated at the table is ignored."""
    return rules.score_session(
        hands,
        totals=totals,
        penalties=[
            PenaltyItem(
                seat=seat_of[registration],
                points=points,
                paid_to=seat_of[receiver] if paid_to == PaidTo.PLAYER and receiver is not None else paid_to,
            )
            for registration, points, paid_to, receiver in penalties
            if points > 0
            and registration in seat_of
            and (paid_to != PaidTo.PLAYER or (receiver in seat_of and receiver != registration))
        ],
        late_minutes={seat_of[r]: minutes for r, minutes in late.items() if r in seat_of},
    )


def hands_first_entered(table: Table) -> list[datetime]:
    """When each of the table's current hands was first entered (corrections keep that moment): what
    the session clock needs to tell the hand in play at time from a later one (rule 74f). One query."""
    current = Hand.objects.in_force().filter(table=table).values("number")
    return list(
        Hand.objects.filter(table=table, number__in=current)
        .values("number")
        .annotate(first=Min("created_at"))
        .values_list("first", flat=True)
    )


def current_hands(table: Table) -> list[Hand]:
    return list(table.hands.in_force().order_by("number"))


def is_confirmed(table: Table, *, fresh: bool = False) -> bool:
    """Whether the table's result is confirmed (prefetched ``confirmations`` unless ``fresh``)."""
    if fresh:
        return Confirmation.objects.in_force().filter(table=table).exists()
    return any(c.is_in_force for c in table.confirmations.all())


def hand_record(hand: Hand) -> HandRecord:
    return HandRecord(
        winner=hand.winner or None, discarder=hand.discarder or None, fan=hand.fan, data=hand.data
    )


def played_hands(table: Table) -> list[Hand]:
    """Current, not deleted hands in play order (uses the prefetched hands)."""
    return sorted((h for h in table.hands.all() if h.is_in_force), key=lambda h: h.number)


def seat_prefetches(*, substitutions: bool = True) -> list[Any]:
    """A table's seats with their players and who took a seat over mid-session (pages, penalties);
    ``substitutions=False``: the seats only (a hand's form names seats, never a substitute)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    return [seats, seat_substitutions.seat_prefetch("seats__")] if substitutions else [seats]


def result_prefetches() -> list[Any]:
    return [
        *seat_prefetches(),
        Prefetch(
            "hands",
            queryset=Hand.objects.in_force().defer("created_at", "entered_by"),
        ),
        Prefetch("totals_versions", queryset=TableTotals.objects.current()),
        Prefetch(
            "penalties",
            queryset=Penalty.objects.in_force().prefetch_related("appeals__decisions"),
        ),
        Prefetch(
            "late_arrivals",
            queryset=LateArrival.objects.in_force().prefetch_related("appeals__decisions"),
        ),
        Prefetch("confirmations", queryset=Confirmation.objects.in_force()),
    ]


def tables_with_results(
    tournament: Tournament, round_: Round | None = None, *, only: Collection[int] | None = None
) -> list[Table]:
    """The event's tables (a session's; ``only`` these ids) with their results prefetched."""
    tables = Table.objects.filter(round__tournament=tournament).select_related("round__tournament")
    if round_ is not None:
        tables = tables.filter(round=round_)
    if only is not None:
        tables = tables.filter(pk__in=only)
    return list(tables.prefetch_related(*result_prefetches()).order_by("round__number", "number"))


def table_with_results(table: Table) -> Table:
    """One table with what its pages need prefetched (the referee page loads just its own table)."""
    return (
        Table.objects.select_related("round__tournament")
        .prefetch_related(*result_prefetches())
        .get(pk=table.pk)
    )


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
        rows.append(
            {
                "hand": hand,
                "record": record,
                "delta": delta,
                "totals": dict(totals),
                "text": rules.describe_in(record, get_language()),  # the page's language
            }
        )
    return rows


def describe_hand(hand: Hand) -> str:
    return event_rules(hand.table.round.tournament).describe(hand_record(hand))
