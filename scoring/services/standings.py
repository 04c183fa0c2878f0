"""The event's standings from its stored results: the loaders of the facts ``scoring.facts`` computes from
(the whole event in a fixed number of queries, :func:`load_event_facts`; one prefetched table,
:func:`table_facts`), a table's session (:func:`session_result`), the standings over the confirmed tables
(:func:`event_standings`, MCR rules 71 and 73), and what the event layer asks of results
(:class:`ScoringResults`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import replace

from django.db.models import Count, Exists, Max, OuterRef

from scoring import substitutions
from scoring.facts import (
    EventFacts,
    LateFact,
    PenaltyFact,
    SeatFact,
    StandInFact,
    TableFacts,
    standings_from_facts,
    table_result,
)
from scoring.models import AppealDecision, AppealStatus, Confirmation, Hand, LateArrival, Penalty, TableTotals
from scoring.rules.finals import cut_of
from scoring.rules.ruleset import HandRecord, SessionTotals
from scoring.services.queries import event_rules, hand_record, played_hands
from scoring.services.rulings import disqualification
from scoring.standings import StandingRow
from tournaments.models import Registration, Round, Seat, Substitution, Table, Tournament
from tournaments.results import TableProgress, TablesPlayed
from tournaments.services import substitutions as seat_substitutions


def confirmed_tables(tournament: Tournament) -> set[int]:
    return set(
        Confirmation.objects.in_force()
        .filter(table__round__tournament=tournament)
        .values_list("table_id", flat=True)
    )


def load_event_facts(tournament: Tournament) -> EventFacts:
    """Every table's facts of the event in a fixed number of queries (plain values, no model objects:
    this runs on the public pages' hot path after every result)."""
    in_event = {"table__round__tournament": tournament}
    seats: dict[int, list[SeatFact]] = defaultdict(list)
    substituted = False  # substitutions are read only when a seat has one (most events have none)
    for table_id, wind, registration_id, code, substitute, withdrawn_at, taken_over in (
        Seat.objects.filter(round__tournament=tournament)
        .annotate(taken_over=Exists(Substitution.objects.filter(seat=OuterRef("pk"))))
        .values_list(
            "table_id",
            "wind",
            "registration_id",
            "registration__code",
            "registration__is_substitute",
            "registration__withdrawn_at",
            "taken_over",
        )
    ):
        seats[table_id].append(SeatFact(wind, registration_id, code, substitute, withdrawn_at is not None))
        substituted = substituted or taken_over
    hands: dict[int, list[HandRecord]] = defaultdict(list)
    for table_id, winner, discarder, fan, data in (
        Hand.objects.in_force()
        .filter(**in_event)
        .order_by("table_id", "number")
        .values_list("table_id", "winner", "discarder", "fan", "data")
    ):
        hands[table_id].append(
            HandRecord(winner=winner or None, discarder=discarder or None, fan=fan, data=data)
        )
    totals = dict(TableTotals.objects.current().filter(**in_event).values_list("table_id", "scores"))
    overturned_penalties: set[int] = set()
    overturned_late: set[int] = set()
    for penalty_id, late_id in (
        AppealDecision.objects.in_force()
        .filter(status=AppealStatus.UPHELD, appeal__table__round__tournament=tournament)
        .values_list("appeal__penalty_id", "appeal__late_arrival_id")
    ):
        if penalty_id is not None:
            overturned_penalties.add(penalty_id)
        else:
            overturned_late.add(late_id)
    penalties: dict[int, list[PenaltyFact]] = defaultdict(list)
    for penalty_id, table_id, registration_id, points, paid_to, receiver, outcome, code in (
        Penalty.objects.in_force()
        .filter(**in_event)
        .values_list(
            "id",
            "table_id",
            "registration_id",
            "points",
            "paid_to",
            "paid_to_player_id",
            "outcome",
            "registration__code",
        )
    ):
        penalties[table_id].append(
            PenaltyFact(
                registration_id, points, paid_to, receiver, outcome, code, penalty_id in overturned_penalties
            )
        )
    late: dict[int, list[LateFact]] = defaultdict(list)
    for late_id, table_id, registration_id, minutes in (
        LateArrival.objects.in_force()
        .filter(**in_event)
        .values_list("id", "table_id", "registration_id", "minutes")
    ):
        late[table_id].append(LateFact(registration_id, minutes, late_id in overturned_late))
    stand_ins: dict[int, list[StandInFact]] = defaultdict(list)
    substitutions_found = (
        Substitution.objects.filter(seat__round__tournament=tournament).values_list(
            "seat__table_id",
            "seat__wind",
            "substitute_id",
            "substitute__code",
            "from_hand",
            "substitute__is_substitute",
        )
        if substituted
        else []
    )
    for table_id, wind, substitute_id, code, from_hand, substitute in substitutions_found:
        stand_ins[table_id].append(StandInFact(wind, substitute_id, code, from_hand, substitute))
    confirmed = confirmed_tables(tournament)
    return EventFacts(
        tables=[
            TableFacts(
                table_id=table_id,
                round_number=round_number,
                table_number=number,
                seats=seats[table_id],
                hands=hands[table_id],
                totals=totals.get(table_id),
                penalties=penalties[table_id],
                late=late[table_id],
                stand_ins=stand_ins[table_id],
                published=published_at is not None,
                confirmed=table_id in confirmed,
            )
            for table_id, round_number, number, published_at in Table.objects.filter(
                round__tournament=tournament
            )
            .order_by("round__number", "number")
            .values_list("id", "round__number", "number", "round__results_published_at")
        ],
        substitution_rule=substitutions.policy(tournament.settings),
        frozen_after=tournament.standings_frozen_after,
        cut=cut_of(tournament.settings),
    )


def table_facts(table: Table) -> TableFacts:
    """One table's facts from its prefetched results (``result_prefetches``): the pages' loader."""
    return TableFacts(
        table_id=table.pk,
        round_number=table.round.number,
        table_number=table.number,
        seats=[
            SeatFact(
                seat.wind,
                seat.registration_id,
                seat.registration.code,
                seat.registration.is_substitute,
                seat.registration.withdrawn_at is not None,
            )
            for seat in table.seats.all()
        ],
        hands=[hand_record(hand) for hand in played_hands(table)],
        totals=next((t.scores for t in table.totals_versions.all() if t.is_current), None),
        penalties=[
            PenaltyFact(
                p.registration_id, p.points, p.paid_to, p.paid_to_player_id, p.outcome, "", p.cancelled
            )
            for p in table.penalties.all()
        ],
        late=[
            LateFact(item.registration_id, item.minutes, item.cancelled) for item in table.late_arrivals.all()
        ],
        stand_ins=[
            StandInFact(
                seat.wind,
                item.substitute_id,
                item.substitute.code,
                item.from_hand,
                item.substitute.is_substitute,
            )
            for seat in table.seats.all()
            for item in seat_substitutions.of_seat(seat)
        ],
        published=table.round.results_published_at is not None,
        confirmed=any(c.is_in_force for c in table.confirmations.all()),
    )


def session_result(table: Table) -> SessionTotals:
    """Scores (and, for MCR, table points) of a table's session (prefetch with result_prefetches)."""
    return table_result(event_rules(table.round.tournament), table_facts(table))


def event_standings(tournament: Tournament, *, include_provisional: bool = False) -> list[StandingRow]:
    """Standings over the confirmed tables of the sessions whose results are published, up to the session
    the standings are frozen at (MCR rules 71 and 73; ``tournaments.release``); ``include_provisional``
    counts every table with results, for the organiser's preview (``scoring.facts``)."""
    return standings_from_facts(
        event_rules(tournament), load_event_facts(tournament), include_provisional=include_provisional
    )


class ScoringResults:
    """What the event layer asks of results (registered in ``ScoringConfig.ready``)."""

    def round_has_results(self, round_: Round) -> bool:
        return (
            Hand.objects.filter(table__round=round_).exists()
            or TableTotals.objects.filter(table__round=round_).exists()
        )

    def swiss_scores(self, tournament: Tournament) -> dict[str, float]:
        """Swiss seating's order: table points first, then score (one number per player), over every
        entered result (the next session is seated before the last one is confirmed)."""
        return {
            row.player: float(row.sort_key()[0]) * 10_000 + row.score
            for row in event_standings(tournament, include_provisional=True)
        }

    def disqualification(self, registration: Registration) -> str:
        return disqualification(registration)

    def tables_played(self, table_ids: Collection[int]) -> TablesPlayed:
        """Which of the tables have a hand in force or totals, and which are confirmed (three queries)."""
        ids = list(table_ids)
        if not ids:
            return TablesPlayed(begun=frozenset(), confirmed=frozenset())
        with_hands = Hand.objects.in_force().filter(table__in=ids).values_list("table_id", flat=True)
        with_totals = TableTotals.objects.current().filter(table__in=ids).values_list("table_id", flat=True)
        confirmed = Confirmation.objects.in_force().filter(table__in=ids).values_list("table_id", flat=True)
        return TablesPlayed(begun=frozenset([*with_hands, *with_totals]), confirmed=frozenset(confirmed))

    def unconfirmed_tables(self, round_: Round) -> int:
        confirmed = (
            Confirmation.objects.in_force().filter(table__round=round_).values_list("table_id", flat=True)
        )
        return Table.objects.filter(round=round_).exclude(pk__in=set(confirmed)).count()

    def qualifying_order(self, tournament: Tournament, after: int) -> list[tuple[str, int]]:
        facts = load_event_facts(tournament)
        # The public standings may be frozen earlier (until the prize-giving); the cut reads every
        # qualifying session.
        qualifying = replace(
            facts, tables=[t for t in facts.tables if t.round_number <= after], cut=None, frozen_after=None
        )
        rows = standings_from_facts(event_rules(tournament), qualifying)
        return [(row.player, row.rank) for row in rows if row.rank is not None]

    def final_order(self, tournament: Tournament, through: int) -> list[tuple[str, int | None]]:
        facts = load_event_facts(tournament)
        # As for the cut, a freeze of the public standings does not hide the final sessions played.
        current = replace(
            facts, tables=[t for t in facts.tables if t.round_number <= through], frozen_after=None
        )
        rows = standings_from_facts(event_rules(tournament), current)
        return [(row.player, row.rank) for row in rows if row.finalist]

    def table_progress(self, tables: Sequence[Table]) -> dict[int, TableProgress]:
        """Each table's state and hands as ``services.confirmation.table_state`` reads them, counted in the database
        (a few queries for any number of tables: the organiser's live pages poll this for every
        table of the event, 1,000 on a 400-player event)."""
        ids = [t.pk for t in tables]
        rows = list(Table.objects.filter(pk__in=ids).values_list("pk", "finished_at", "round__tournament_id"))
        limits = {
            tournament.pk: tournament.rule_set.hands_allowed(tournament.hands_per_session)
            for tournament in Tournament.objects.filter(pk__in={row[2] for row in rows})
        }
        hands = dict(
            Hand.objects.in_force()
            .filter(table__in=ids)
            .values("table")
            .annotate(n=Count("id"))
            .values_list("table", "n")
        )
        with_totals = set(TableTotals.objects.current().filter(table__in=ids).values_list("table", flat=True))
        last_entry = dict(
            Hand.objects.filter(table__in=ids)
            .values("table")
            .annotate(last=Max("created_at"))
            .values_list("table", "last")
        )
        progress = {}
        for pk, finished_at, tournament_id in rows:
            limit = limits[tournament_id]
            played = hands.get(pk, 0)
            if pk in with_totals or finished_at is not None or (limit is not None and played >= limit):
                state = "complete"
            else:
                state = "in play" if played else "not started"
            progress[pk] = TableProgress(
                state=state, hands=played, limit=limit, last_entry_at=last_entry.get(pk)
            )
        return progress
