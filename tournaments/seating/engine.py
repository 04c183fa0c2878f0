"""Plan a tournament's seating: ``plan_seating``, ``reseat_from``, ``swap_players``.

Pipeline: validate; add substitutes or choose sit-outs (N not a multiple of four); group players into tables
(an exact construction when one fits, then tabu search, see ``constructions`` and ``search``); order each
table's seats E, S, W, N (``winds``); number the tables (``tables``); measure (``quality``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from . import constructions, designs
from .errors import SeatingError
from .models import (
    RoundSeating,
    SeatingConstraints,
    SeatingPlan,
    SeatingPlayer,
    SubstitutePolicy,
    TableSeating,
)
from .quality import quality_report
from .repair import repair_clashes
from .search import (
    ANNEALING_MOVES_PER_SECOND,
    CLUB_WEIGHT,
    EVALUATIONS_PER_SECOND,
    TEAM_WEIGHT,
    SearchProblem,
    anneal,
    initial_groups,
    pair_cost,
    polish_returns,
    tabu_search,
    total_cost,
)
from .tables import improve_numbers, number_tables, reassign_rounds
from .winds import order_seats

SUBSTITUTE_TEAM = "\x00substitutes"


def plan_seating(
    players: Sequence[SeatingPlayer],
    rounds: int,
    *,
    seed: int = 0,
    time_limit: float = 10.0,
    history: Sequence[RoundSeating] = (),
    substitute_policy: SubstitutePolicy | str = SubstitutePolicy.NONE,
    fixed_tables: Mapping[str, int] | None = None,
    swiss_scores: Mapping[str, float] | None = None,
    avoid_same_club: bool = False,
    kept_apart: Iterable[Collection[str]] = (),
) -> SeatingPlan:
    """Seat ``players`` for ``rounds`` more rounds after ``history``; same arguments, same plan.

    - ``substitute_policy``: when N is not a multiple of four, add substitutes or let players sit out.
    - ``fixed_tables``: player id -> table number (1-based), added to ``SeatingPlayer.fixed_table``.
    - ``swiss_scores``: player id -> current score; tables are then filled by standing (top four together
      and so on) as far as that does not repeat a pair.
    - teammates (and with ``avoid_same_club`` same-club players) are kept apart whenever possible.
    - ``kept_apart``: pairs of player ids the organiser keeps apart (family, couples), held as firmly as
      teammates; unlike a team, "A apart from B and from C" leaves B free to meet C.

    The search stops at the counting lower bound, at its work budget (``time_limit`` seconds of evaluations
    at ``search.EVALUATIONS_PER_SECOND``) or at ``time_limit`` on the clock, whichever comes first.
    Raises ``SeatingError`` (codes: ``invalid_rounds``, ``no_players``, ``duplicate_player``,
    ``not_multiple_of_four``, ``too_few_players``, ``fixed_table_out_of_range``, ``fixed_table_full``,
    ``too_many_fixed``, ``unknown_player``, ``invalid_time_limit``, ``invalid_pair``).
    """
    started = time.perf_counter()
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError("The number of rounds must be at least 1.", "invalid_rounds")
    if not time_limit > 0:
        raise SeatingError("The time limit must be positive.", "invalid_time_limit")
    policy = SubstitutePolicy(substitute_policy)
    if not players:
        raise SeatingError("There are no players to seat.", "no_players")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise SeatingError(f"Player ids must be unique; repeated: {', '.join(dup)}.", "duplicate_player")
    roster = list(players)
    substitutes: list[str] = []
    remainder = len(roster) % 4
    if remainder:
        if policy is SubstitutePolicy.NONE:
            raise SeatingError(
                f"{len(roster)} players is not a multiple of four: choose substitutes or sit-outs.",
                "not_multiple_of_four",
            )
        if policy is SubstitutePolicy.SUBSTITUTES:
            for i in range(4 - remainder):
                sub = f"sub-{i + 1}"
                while sub in ids:
                    sub += "'"
                substitutes.append(sub)
                roster.append(SeatingPlayer(id=sub, team=SUBSTITUTE_TEAM))
    if len(roster) < 4:
        raise SeatingError("At least four players are needed for one table.", "too_few_players")
    sitting = len(roster) % 4
    n = len(roster)
    tables_per_round = n // 4
    index = {p.id: i for i, p in enumerate(roster)}

    fixed: dict[str, int] = {p.id: p.fixed_table for p in roster if p.fixed_table is not None}
    for pid, number in (fixed_tables or {}).items():
        if pid not in index:
            raise SeatingError(f"Unknown player {pid!r} has a fixed table.", "unknown_player")
        fixed[pid] = number
    if len(fixed) > tables_per_round:
        raise SeatingError(
            f"{len(fixed)} players have fixed tables but there are only {tables_per_round} tables.",
            "too_many_fixed",
        )
    for pid, number in fixed.items():
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= tables_per_round:
            raise SeatingError(
                f"Player {pid} is fixed to table {number}, but there are tables 1 to {tables_per_round}.",
                "fixed_table_out_of_range",
            )
    by_table: dict[int, list[str]] = {}
    for pid, number in fixed.items():
        by_table.setdefault(number, []).append(pid)
    for number, pids in by_table.items():
        if len(pids) > 4:
            raise SeatingError(
                f"Table {number} is fixed for {len(pids)} players; a table seats four.", "fixed_table_full"
            )
    if swiss_scores is not None:
        missing = sorted(set(swiss_scores) - set(index))
        if missing:
            raise SeatingError(f"Scores for unknown players: {', '.join(missing)}.", "unknown_player")

    pairs = _kept_apart_pairs(kept_apart, index)
    rng = random.Random(seed)  # noqa: S311 -- a seeded, reproducible search, not cryptography
    # Sit-outs: fewest sit-outs so far first (history included), never a player with a fixed table if avoidable.
    sit_counts = {p.id: 0 for p in roster}
    for past in history:
        for pid in past.sit_outs:
            if pid in sit_counts:
                sit_counts[pid] += 1
    tie = {p.id: rng.random() for p in roster}
    sit_outs: list[list[str]] = []
    for _ in range(rounds):
        chosen = sorted(roster, key=lambda p: (p.id in fixed, sit_counts[p.id], tie[p.id]))[:sitting]
        for p in chosen:
            sit_counts[p.id] += 1
            tie[p.id] = rng.random()
        sit_outs.append(sorted((p.id for p in chosen), key=ids_key))
    active = [[index[p.id] for p in roster if p.id not in set(outs)] for outs in sit_outs]
    pins: list[dict[int, int]] = []
    for act in active:
        act_set = set(act)
        pins.append({index[pid]: number - 1 for pid, number in fixed.items() if index[pid] in act_set})

    base = [0] * (n * n)
    for past in history:
        for table in past.tables:
            seats = [index[pid] for pid in table.seats if pid in index]
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    base[a * n + b] += 1
                    base[b * n + a] += 1

    extra: list[int] | None = None
    apart: set[frozenset[str]] = set()

    def weigh(a: int, b: int, w: int) -> None:
        nonlocal extra
        if extra is None:
            extra = [0] * (n * n)
        extra[a * n + b] += w
        extra[b * n + a] += w

    for i, p in enumerate(roster):
        for j in range(i + 1, n):
            q = roster[j]
            if p.team is not None and p.team == q.team:
                weigh(i, j, TEAM_WEIGHT)
                apart.add(frozenset((p.id, q.id)))
            elif avoid_same_club and p.club is not None and p.club == q.club:
                weigh(i, j, CLUB_WEIGHT)
                apart.add(frozenset((p.id, q.id)))
    for pair in sorted(pairs, key=sorted):
        a, b = (index[pid] for pid in sorted(pair))
        if roster[a].team is None or roster[a].team != roster[b].team:
            weigh(a, b, TEAM_WEIGHT)
    apart |= pairs
    swiss_floor = 0
    if swiss_scores is not None:
        ranked = sorted(roster, key=lambda p: (-float(swiss_scores.get(p.id, 0.0)), ids_key(p.id)))
        rank = {index[p.id]: r for r, p in enumerate(ranked)}
        for i in range(n):
            for j in range(i + 1, n):
                weigh(i, j, abs(rank[i] - rank[j]))
        for act in active:
            order = sorted(rank[p] for p in act)
            for k in range(0, len(order), 4):
                g = order[k : k + 4]
                swiss_floor += sum(b - a for x, a in enumerate(g) for b in g[x + 1 :])

    meetings = sum(
        sum(1 for pid in table.seats if pid in index)
        * (sum(1 for pid in table.seats if pid in index) - 1)
        // 2
        for past in history
        for table in past.tables
    ) + sum(6 * (len(a) // 4) for a in active)
    all_pairs = n * (n - 1) // 2
    per_pair, rem = divmod(meetings, all_pairs)
    lower = rem * pair_cost(per_pair + 1) + (all_pairs - rem) * pair_cost(per_pair) + swiss_floor

    history_pairs = (
        tuple(a * n + b for a in range(n) for b in range(a + 1, n) if base[a * n + b]) if history else ()
    )
    problem = SearchProblem(
        n=n, active=active, pins=pins, base=base, extra=extra, lower_bound=lower, history_pairs=history_pairs
    )
    plain = not history and not fixed and sitting == 0
    groups, share = _start(problem, rounds, rng, plain=plain, started=started, time_limit=time_limit)
    # Tabu search first (it settles sparse cases at once), then annealing, then tabu again to polish.
    search_budget = share * time_limit
    result = tabu_search(
        problem,
        groups,
        rng,
        budget=int(0.1 * search_budget * EVALUATIONS_PER_SECOND),
        deadline=started + 0.45 * time_limit,
    )
    if not result.reached_bound:
        annealed = anneal(
            problem,
            result.groups,
            rng,
            budget=int(0.75 * search_budget * ANNEALING_MOVES_PER_SECOND),
            deadline=started + 0.85 * time_limit,
        )
        polished = tabu_search(
            problem,
            annealed.groups,
            rng,
            budget=int(0.03 * search_budget * EVALUATIONS_PER_SECOND),
            deadline=started + 0.88 * time_limit,
        )
        result = min((result, annealed, polished), key=lambda res: res.cost)
    groups = result.groups
    index_visits: dict[int, dict[int, int]] = {}
    for past in history:
        for table in past.tables:
            for pid in table.seats:
                if pid in index:
                    seen = index_visits.setdefault(index[pid], {})
                    seen[table.number - 1] = seen.get(table.number - 1, 0) + 1
    groups = polish_returns(
        problem,
        groups,
        rng,
        history_visits=index_visits,
        target=0 if history or fixed or sitting else n * max(0, rounds - tables_per_round),
        budget=int(0.1 * time_limit * ANNEALING_MOVES_PER_SECOND),
        deadline=started + 0.88 * time_limit,
    )

    wind_history: dict[int, list[int]] = {}
    visits: dict[int, dict[int, int]] = {}
    for past in history:
        for table in past.tables:
            for seat, pid in enumerate(table.seats):
                if pid in index:
                    wind_history.setdefault(index[pid], [0, 0, 0, 0])[seat] += 1
                    seen = visits.setdefault(index[pid], {})
                    seen[table.number - 1] = seen.get(table.number - 1, 0) + 1
    ordered = order_seats(groups, wind_history or None)
    pinned_groups: list[dict[int, int]] = []
    for r, tables in enumerate(ordered):
        pg: dict[int, int] = {}
        for k, table_ids in enumerate(tables):
            for member in table_ids:
                if member in pins[r]:
                    pg[k] = pins[r][member]
        pinned_groups.append(pg)
    history_visits = {p: dict(v) for p, v in visits.items()}
    identity = [list(range(len(tables))) for tables in ordered]
    numbers = number_tables(ordered, pinned_groups, visits, rng)
    if _returns(ordered, identity, index_visits) <= _returns(ordered, numbers, index_visits):
        # The search's own numbering (the group's place in its round) is at least as good.
        numbers = identity
    reassign_rounds(ordered, numbers, pinned_groups, history_visits, rng)
    bound = 0
    if not history and not fixed and sitting == 0:
        bound = n * max(0, rounds - tables_per_round)
    improve_numbers(
        ordered,
        numbers,
        pinned_groups,
        history_visits,
        rng,
        target=bound,
        steps=int(time_limit * 150_000 / (tables_per_round + 4)),
        deadline=max(time.perf_counter() + 0.02 * time_limit, started + time_limit * 0.9),
    )

    planned: list[RoundSeating] = []
    for r, tables in enumerate(ordered):
        seated = sorted(
            (
                TableSeating(number=numbers[r][k] + 1, seats=tuple(roster[p].id for p in table))  # type: ignore[arg-type]
                for k, table in enumerate(tables)
            ),
            key=lambda t: t.number,
        )
        planned.append(RoundSeating(tables=tuple(seated), sit_outs=tuple(sit_outs[r])))
    constraints = SeatingConstraints(fixed_tables=dict(fixed), apart=frozenset(apart), kept_apart=pairs)
    plan = SeatingPlan(
        players=tuple(p.id for p in roster),
        rounds=tuple(planned),
        quality=quality_report([*history, *planned], apart=apart, kept_apart=pairs),
        history=tuple(history),
        substitutes=tuple(substitutes),
        seed=seed,
        optimal=result.reached_bound,
        constraints=constraints,
    )
    return plan


def _kept_apart_pairs(
    kept_apart: Iterable[Collection[str]], index: Mapping[str, int]
) -> frozenset[frozenset[str]]:
    """The organiser's pairs as unordered pairs of seated ids; a pair naming someone not in this plan is
    refused (the caller leaves out withdrawn players), as is a player paired with themself."""
    pairs: set[frozenset[str]] = set()
    for pair in kept_apart:
        ids = list(pair)
        if len(ids) != 2 or ids[0] == ids[1]:
            raise SeatingError(f"A kept-apart pair needs two different players: {ids}.", "invalid_pair")
        for pid in ids:
            if pid not in index:
                raise SeatingError(f"Unknown player {pid!r} in a kept-apart pair.", "unknown_player")
        pairs.add(frozenset(ids))
    return frozenset(pairs)


def _returns(
    groups: list[list[list[int]]], numbers: list[list[int]], history: dict[int, dict[int, int]]
) -> int:
    seen: dict[int, set[int]] = {p: {k for k, c in v.items() if c} for p, v in history.items()}
    returns = 0
    for r, tables in enumerate(groups):
        for k, table in enumerate(tables):
            for p in table:
                visited = seen.setdefault(p, set())
                returns += numbers[r][k] in visited
                visited.add(numbers[r][k])
    return returns


def ids_key(pid: str) -> tuple[int, int | str]:
    """Sort key putting numeric ids in numeric order ("2" before "10"), then the rest by text."""
    return (0, int(pid)) if pid.isdigit() else (1, pid)


def _start(
    problem: SearchProblem,
    rounds: int,
    rng: random.Random,
    *,
    plain: bool,
    started: float,
    time_limit: float,
) -> tuple[list[list[list[int]]], float]:
    """Starting groups (an exact construction when one fits the plain case, else a greedy fill), and the
    share of the time limit left for the search."""
    greedy = initial_groups(problem, rng)
    if not plain:
        return greedy, 1.0
    n = problem.n
    share = 1.0
    options: list[constructions.Rounds] = []
    stored = designs.stored_rounds(n, rounds)
    if stored is not None:
        options.append(stored)
    for build in (
        constructions.transversal_classes,
        designs.design_rounds,
        constructions.transversal_group_classes,
        constructions.affine_classes,
        lambda m: constructions.binary_quotient_classes(m, random.Random(rng.random())),  # noqa: S311
        lambda m: constructions.binary_spread_classes(m, random.Random(rng.random())),  # noqa: S311
    ):
        found = build(n)
        if found:
            options.append(found)
    enough = [o for o in options if len(o) >= rounds]
    shape = constructions.cyclic_shape(n, rounds)
    if not enough and 3 * rounds <= n - 1 and 5 * rounds > n and shape is not None and shape[3] > 0:
        # Dense case without a classical design: look for a cyclic one with 40% of the budget.
        found = constructions.cyclic_classes(
            n,
            rounds,
            random.Random(rng.random()),  # noqa: S311
            max_steps=int(time_limit * 200),
            deadline=started + 0.45 * time_limit,
        )
        if found:
            enough.append(found)
        share = 0.6
    candidates: list[list[list[list[int]]]] = []
    if enough:
        candidates.append(enough[0][:rounds])
    elif options:
        best = max(options, key=len)
        candidates.append([best[r % len(best)] for r in range(rounds)])
    relabel = list(range(n))
    rng.shuffle(relabel)
    relabelled = [greedy] + [
        [[[relabel[p] for p in table] for table in tables] for tables in cand] for cand in candidates
    ]
    if problem.extra is not None:
        # Players kept apart: mend each construction's clashes before comparing it with the greedy start.
        relabelled[1:] = [repair_clashes(problem, g) for g in relabelled[1:]]
    return min(relabelled, key=lambda g: total_cost(problem, g)), share


def swap_players(plan: SeatingPlan, round_index: int, a: str, b: str) -> SeatingPlan:
    """Exchange players ``a`` and ``b`` in round ``round_index`` (0-based, of ``plan.rounds``), seats kept.

    Either may be sitting out that round, then the other takes the seat. Raises ``SeatingError`` (codes:
    ``round_out_of_range``, ``same_player``, ``unknown_player``, ``breaks_fixed_table``,
    ``breaks_apart``) and leaves the plan unchanged; otherwise returns a new plan with a new quality report.
    """
    if not 0 <= round_index < len(plan.rounds):
        raise SeatingError(
            f"Round {round_index + 1} is not in this plan (1 to {len(plan.rounds)}).", "round_out_of_range"
        )
    if a == b:
        raise SeatingError("A player cannot be swapped with themselves.", "same_player")
    seating = plan.rounds[round_index]
    for pid in (a, b):
        if seating.table_of(pid) is None and pid not in seating.sit_outs:
            raise SeatingError(f"Player {pid} is not in round {round_index + 1}.", "unknown_player")
    constraints = plan.constraints or SeatingConstraints()

    def moved(table: TableSeating) -> TableSeating:
        return TableSeating(
            number=table.number,
            seats=tuple(b if p == a else a if p == b else p for p in table.seats),  # type: ignore[arg-type]
        )

    tables = tuple(moved(t) for t in seating.tables)
    sit_outs = tuple(b if p == a else a if p == b else p for p in seating.sit_outs)
    new_round = RoundSeating(tables=tables, sit_outs=sit_outs)
    for pid in (a, b):
        number = constraints.fixed_tables.get(pid)
        table = new_round.table_of(pid)
        if number is not None and (table is None or table.number != number):
            raise SeatingError(f"Player {pid} has a fixed seat at table {number}.", "breaks_fixed_table")

    def clashes(r: RoundSeating) -> int:
        return sum(
            1
            for t in r.tables
            for i, p in enumerate(t.seats)
            for q in t.seats[i + 1 :]
            if frozenset((p, q)) in constraints.apart
        )

    if clashes(new_round) > clashes(seating):
        raise SeatingError(
            "This swap seats teammates (or club mates, or a kept-apart pair) together, which the plan keeps "
            "apart.",
            "breaks_apart",
        )
    rounds = (*plan.rounds[:round_index], new_round, *plan.rounds[round_index + 1 :])
    return replace(
        plan,
        rounds=rounds,
        quality=quality_report(
            [*plan.history, *rounds], apart=constraints.apart, kept_apart=constraints.kept_apart
        ),
        optimal=False,
    )


def reseat_from(
    plan: SeatingPlan,
    from_round: int,
    players: Sequence[SeatingPlayer],
    *,
    seed: int | None = None,
    time_limit: float = 10.0,
    substitute_policy: SubstitutePolicy | str = SubstitutePolicy.NONE,
    fixed_tables: Mapping[str, int] | None = None,
    swiss_scores: Mapping[str, float] | None = None,
    avoid_same_club: bool = False,
    kept_apart: Iterable[Collection[str]] = (),
) -> SeatingPlan:
    """Re-seat rounds ``from_round``.. of ``plan`` for a new list of ``players`` (late arrivals, drops).

    Rounds before ``from_round`` are kept as played and count as history (pairs, winds, table numbers),
    so newcomers are mixed in and nobody meets an earlier opponent again if that can be avoided.
    Returns a plan with the same history and all rounds, the kept ones unchanged.
    """
    if not 0 <= from_round < len(plan.rounds):
        raise SeatingError(
            f"Round {from_round + 1} is not in this plan (1 to {len(plan.rounds)}).", "round_out_of_range"
        )
    kept = plan.rounds[:from_round]
    fresh = plan_seating(
        players,
        len(plan.rounds) - from_round,
        seed=plan.seed if seed is None else seed,
        time_limit=time_limit,
        history=(*plan.history, *kept),
        substitute_policy=substitute_policy,
        fixed_tables=fixed_tables,
        swiss_scores=swiss_scores,
        avoid_same_club=avoid_same_club,
        kept_apart=kept_apart,
    )
    rounds = (*kept, *fresh.rounds)
    constraints = fresh.constraints or SeatingConstraints()
    return replace(
        fresh,
        rounds=rounds,
        history=plan.history,
        quality=quality_report(
            [*plan.history, *rounds], apart=constraints.apart, kept_apart=constraints.kept_apart
        ),
    )
