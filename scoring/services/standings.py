"""The event's standings from its stored results: a table's session (:func:`session_result`), the
standings over the confirmed tables (:func:`event_standings`, MCR rules 71 and 73, ranked by
``scoring/standings.py``), and what the event layer asks of results (:class:`ScoringResults`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import partial

from django.db.models import Count, Exists, Max, OuterRef

from scoring import substitutions
from scoring.models import AppealDecision, AppealStatus, Confirmation, Hand, LateArrival, Penalty, TableTotals
from scoring.rules.ruleset import HandRecord, SessionTotals
from scoring.rules.rulings import UNRANKED
from scoring.services.queries import event_rules, hand_record, played_hands, score_table
from scoring.services.rulings import disqualification
from scoring.standings import SessionLine, StandingRow, compute_standings
from tournaments import takeovers
from tournaments.models import Registration, Round, Seat, Substitution, Table, Tournament
from tournaments.results import TableProgress


def session_result(table: Table) -> SessionTotals:
    """Scores (and, for MCR, table points) of a table's session (prefetch with result_prefetches)."""
    seats = table.seats.all()
    return score_table(
        event_rules(table.round.tournament),
        # A penalty naming a substitute counts at the seat they took over (scoring.substitutions).
        {**takeovers.substitute_winds(seats), **{seat.registration_id: seat.wind for seat in seats}},
        [hand_record(h) for h in played_hands(table)],
        totals=next((t.scores for t in table.totals_versions.all() if t.is_current), None),
        penalties=[
            (p.registration_id, p.points, p.paid_to, p.paid_to_player_id)
            for p in table.penalties.all()
            if not p.cancelled
        ],
        late={item.registration_id: item.minutes for item in table.late_arrivals.all() if not item.cancelled},
    )


def confirmed_tables(tournament: Tournament) -> set[int]:
    return set(
        Confirmation.objects.in_force()
        .filter(table__round__tournament=tournament)
        .values_list("table_id", flat=True)
    )


def event_standings(tournament: Tournament, *, include_provisional: bool = False) -> list[StandingRow]:
    """Standings over the confirmed tables of the sessions whose results are published, up to the
    session the standings are frozen at (MCR rules 71 and 73; ``tournaments.release``);
    ``include_provisional`` counts every table with results, for the organiser's preview. Substitutes fill seats but are not ranked, nor are
    withdrawn players (their results stay), and a player with no counted session is not ranked at all.
    A player out of the ranking by a ruling (loss of rank, disqualification: MCR 77e-f, 89) is listed at
    the bottom with the status, counted tables or not, withdrawn or not (a disqualification withdraws the
    player, ``scoring.rulings``).

    This runs on the public pages' hot path after every result, so it reads plain values (seven
    queries, whatever the size of the event) instead of building model objects.
    """
    rules = event_rules(tournament)
    in_event = {"table__round__tournament": tournament}
    tables = Table.objects.filter(round__tournament=tournament).values_list(
        "id", "round__number", "number", "round__results_published_at"
    )
    seats: dict[int, list[tuple[str, int, str, bool]]] = defaultdict(list)
    withdrawn: set[str] = set()
    substitutes: set[str] = set()
    substituted = False  # substitutions are read only when a seat has one (scoring.substitutions)
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
        # Substitutes and withdrawn players fill seats but are not ranked; a player withdrawn
        # by a disqualification is listed unranked with the status instead (below).
        seats[table_id].append((wind, registration_id, code, substitute))
        if withdrawn_at is not None:
            withdrawn.add(code)
        if substitute:
            substitutes.add(code)
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
    upheld: set[int] = set()
    upheld_late: set[int] = set()
    for penalty_id, late_id in (
        AppealDecision.objects.in_force()
        .filter(status=AppealStatus.UPHELD, appeal__table__round__tournament=tournament)
        .values_list("appeal__penalty_id", "appeal__late_arrival_id")
    ):
        if penalty_id is not None:
            upheld.add(penalty_id)
        else:
            upheld_late.add(late_id)
    penalties: dict[int, list[tuple[int, int, str, int | None]]] = defaultdict(list)
    unranked: dict[str, str] = {}  # loss of rank and disqualification (MCR 77e-f, 89): scoring.rulings
    for (
        penalty_id,
        table_id,
        registration_id,
        points,
        paid_to,
        receiver,
        outcome,
        code,
    ) in (
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
        if penalty_id in upheld:
            continue
        penalties[table_id].append((registration_id, points, paid_to, receiver))
        if outcome in UNRANKED and unranked.get(code) != "disqualification":
            unranked[code] = outcome
    hidden = substitutes | (withdrawn - set(unranked))
    seats = defaultdict(
        list,
        {
            table_id: [(wind, pk, code, code in hidden) for wind, pk, code, _ in table_seats]
            for table_id, table_seats in seats.items()
        },
    )
    late: dict[int, dict[int, int]] = defaultdict(dict)
    for late_id, table_id, registration_id, minutes in (
        LateArrival.objects.in_force()
        .filter(**in_event)
        .values_list("id", "table_id", "registration_id", "minutes")
    ):
        if late_id not in upheld_late:
            late[table_id][registration_id] = minutes
    counted = None if include_provisional else confirmed_tables(tournament)
    taken = substitutions.substitutions_by_seat(tournament) if substituted else {}
    # Substitutes by table: a penalty naming one counts at the seat they took over (scoring.substitutions).
    stand_ins: dict[int, dict[int, str]] = defaultdict(dict)
    stand_in_codes: dict[int, str] = {}
    if substituted:
        for table_id, wind, substitute_id, substitute_code in Substitution.objects.filter(
            seat__round__tournament=tournament
        ).values_list("seat__table_id", "seat__wind", "substitute_id", "substitute__code"):
            stand_ins[table_id][substitute_id] = wind
            stand_in_codes[substitute_id] = substitute_code
    substitution_rule = substitutions.policy(tournament.settings)
    lines: list[SessionLine] = []
    frozen_after = tournament.standings_frozen_after
    for table_id, round_number, table_number, results_published in tables:
        if not hands[table_id] and table_id not in totals:
            continue  # not started
        if counted is not None and table_id not in counted:
            continue  # provisional
        if not include_provisional and (
            results_published is None or (frozen_after is not None and round_number > frozen_after)
        ):
            continue  # a draft session, or after the session the standings are frozen at (tournaments/release.py)
        seat_of = {**stand_ins[table_id], **{pk: wind for wind, pk, _, _ in seats[table_id]}}
        result = score_table(
            rules,
            seat_of,
            hands[table_id],
            totals=totals.get(table_id),
            penalties=penalties[table_id],
            late=late[table_id],
        )
        charged = substitutions.charged_to_substitutes(
            substitution_rule,
            result,
            partial(
                score_table, rules, seat_of, hands[table_id], totals=totals.get(table_id), late=late[table_id]
            ),
            penalties[table_id],
            {pk: (wind, stand_in_codes[pk]) for pk, wind in stand_ins[table_id].items()},
        )
        wins = Counter(record.winner for record in hands[table_id] if record.winner)
        for wind, _, code, substitute in seats[table_id]:
            if (table_id, wind) in taken:
                lines.extend(
                    substitutions.seat_lines(
                        substitution_rule,
                        rules=rules,
                        wind=wind,
                        code=code,
                        substitute=substitute,
                        substitutions=taken[table_id, wind],
                        charged=charged.get(wind, {}),
                        hands=hands[table_id],
                        result=result,
                        round_number=round_number,
                        table_number=table_number,
                    )
                )
                continue
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
    return compute_standings(
        lines,
        # A player out of the ranking by a ruling is listed (at the bottom, with the status) even before
        # any table of theirs is counted (MCR 77e-f, 89).
        [code for code in unranked if code not in substitutes],
        use_table_points=rules.uses_table_points,
        tie_break=rules.tie_break,
        unranked=unranked,
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
