"""Seating an event while it runs, without ever losing anything that was entered.

A plan is worked out **outside any transaction** (the search takes seconds, and a long transaction blocks
every other writer on SQLite) into a :class:`Proposal`, which the organiser may look
at first (its quality against the counting bound, the tables before and after). It is stored by
:func:`store` in a short transaction that locks the event and the tables of the sessions it replaces and
checks again, under those locks, that:

- nothing was entered at those tables meanwhile: hands, totals, penalties, lateness, appeals,
  confirmations, or any other row that points at a table (the check asks the database for every model
  referring to ``Table``, so a result kind added later is protected too);
- the sessions kept as history and the players to seat are still those the plan was made for.

Otherwise nothing is stored and the organiser is told why. Sessions with anything entered are history:
they are never replaced, only followed (``seating.entered_at``, ``seating.check_replaceable``).

Seating one session (:func:`generate_seating`) or the rest of the event (:func:`seat_remaining`) without
a preview is the same proposal stored at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils.translation import gettext

from tournaments import results
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.seating import (
    LowerBound,
    QualityReport,
    RoundSeating,
    SeatingError,
    TableSeating,
    lower_bound,
    quality_report,
)
from tournaments.services import seating_bridge
from tournaments.services.finals import check_not_final
from tournaments.services.kept_apart import code_pairs
from tournaments.services.seating import (
    check_replaceable,
    engine_error,
    entered_at,
    seating_players,
    store_round,
    substitute,
)

TOKEN_SALT = "tournaments.reseating"  # noqa: S105 (a namespace for signatures, not a secret)
TOKEN_MAX_AGE = 3600  # a previewed plan may be stored within the hour


@dataclass(frozen=True)
class Proposal:
    """A plan for sessions ``first`` .. ``first + len(rounds) - 1``, not stored yet."""

    tournament_id: int
    first: int
    rounds: tuple[RoundSeating, ...]
    substitutes: tuple[str, ...]
    history_key: str
    players_key: str
    quality: QualityReport
    bound: LowerBound | None
    tables_before: int
    players: int
    seed: int = 0

    @property
    def last(self) -> int:
        return self.first + len(self.rounds) - 1

    @property
    def tables_after(self) -> int:
        return len(self.rounds[0].tables) if self.rounds else 0

    def token(self) -> str:
        """The plan, signed, for the preview page's form: storing it needs no second search."""
        return signing.dumps(
            {
                "t": self.tournament_id,
                "f": self.first,
                "r": [[list(table.seats) for table in r.tables] for r in self.rounds],
                "o": [list(r.sit_outs) for r in self.rounds],
                "s": list(self.substitutes),
                "h": self.history_key,
                "p": self.players_key,
                "tb": self.tables_before,
                "seed": self.seed,
            },
            salt=TOKEN_SALT,
            compress=True,
        )


def from_token(tournament: Tournament, token: str) -> Proposal:
    """The proposal a preview page carried, or a refusal when it was altered, is old or is another event's."""
    try:
        data = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_MAX_AGE)
    except signing.SignatureExpired:
        raise ServiceError(
            gettext("The preview is more than an hour old; preview the plan again."), code="stale"
        ) from None
    except signing.BadSignature:
        raise ServiceError(
            gettext("The plan was altered or is incomplete; preview it again."), code="bad_plan"
        ) from None
    if data.get("t") != tournament.pk:
        raise ServiceError(gettext("That plan belongs to another event."), code="bad_plan")
    rounds = tuple(
        RoundSeating(
            tables=tuple(
                TableSeating(number=n, seats=tuple(seats)) for n, seats in enumerate(tables, start=1)
            ),
            sit_outs=tuple(outs),
        )
        for tables, outs in zip(data["r"], data["o"], strict=True)
    )
    history = history_of(tournament, data["f"])
    players = len({code for r in rounds for t in r.tables for code in t.seats})
    return Proposal(
        tournament_id=tournament.pk,
        first=data["f"],
        rounds=rounds,
        substitutes=tuple(data["s"]),
        history_key=data["h"],
        players_key=data["p"],
        quality=quality_report([*history, *rounds], kept_apart=code_pairs(tournament)),
        bound=bound(players, len(history) + len(rounds)),
        tables_before=data["tb"],
        players=players,
        seed=data["seed"],
    )


def history_of(tournament: Tournament, first: int) -> list[RoundSeating]:
    return list(seating_bridge.seated_rounds(tournament, before=first).values())


def _key(items: Sequence[Any]) -> str:
    return hashlib.sha256(repr(list(items)).encode()).hexdigest()[:32]


def _history_key(tournament: Tournament, first: int) -> str:
    """A digest of every seat in the sessions before ``first`` (the plan's history)."""
    return _key(
        sorted(
            Seat.objects.filter(round__tournament=tournament, round__number__lt=first).values_list(
                "round__number", "table__number", "wind", "registration__code"
            )
        )
    )


def _players_key(codes: Sequence[str]) -> str:
    return _key(sorted(codes))


def bound(players: int, rounds: int) -> LowerBound | None:
    """The counting bound for the whole event as planned (exact when every session seats the same
    players; with drops or late arrivals it is indicative)."""
    if players < 4 or rounds < 1:
        return None
    return lower_bound(players - players % 4, rounds)


def replaceable_from(tournament: Tournament) -> int | None:
    """The first session after the last one with anything entered (None when every session has some)."""
    rounds = list(tournament.rounds.order_by("number"))
    start = 0
    for index, round_ in enumerate(rounds):
        if entered_at([round_]) is not None:
            start = index + 1
    return rounds[start].number if start < len(rounds) else None


# --- planning (no transaction) ---------------------------------------------------------------------


def propose(
    tournament: Tournament,
    first: int,
    *,
    count: int | None = None,
    seed: int = 0,
    swiss_scores: dict[str, float] | None = None,
    time_limit: float | None = None,
) -> Proposal:
    """Work out a plan for ``count`` sessions from ``first`` (all the remaining ones by default) after
    the sessions before it, for the players seated now; nothing is written."""
    rounds = list(tournament.rounds.filter(number__gte=first).order_by("number"))
    if count is not None:
        rounds = rounds[:count]
    if not rounds or rounds[0].number != first:
        raise ServiceError(gettext("There is no session %(first)s.") % {"first": first}, code="no_round")
    check_replaceable(rounds)
    check_not_final(tournament, rounds)
    registrations = seating_players(tournament)
    if not registrations:
        raise ServiceError(gettext("Register players before seating a session."), code="no_players")
    history_key = _history_key(tournament, first)
    try:
        plan = seating_bridge.plan_rounds(
            tournament,
            registrations,
            rounds[0],
            len(rounds),
            seed=seed,
            swiss_scores=swiss_scores,
            time_limit=time_limit,
        )
    except SeatingError as error:
        raise engine_error(error) from None
    seated_before = Table.objects.filter(round=rounds[0]).count()
    if not seated_before:
        previous = (
            tournament.rounds.filter(number__lt=first, tables__isnull=False).order_by("-number").first()
        )
        seated_before = previous.tables.count() if previous is not None else 0
    players = len(plan.players)
    return Proposal(
        tournament_id=tournament.pk,
        first=first,
        rounds=plan.rounds,
        substitutes=plan.substitutes,
        history_key=history_key,
        players_key=_players_key([r.code for r in registrations]),
        quality=plan.quality,
        bound=bound(players, len(plan.history) + len(plan.rounds)),
        tables_before=seated_before,
        players=players,
        seed=seed,
    )


# --- storing (one short locked transaction) ---------------------------------------------------------


def store(proposal: Proposal, *, acting_user: User) -> list[Table]:
    """Store a proposal, replacing the seating of its sessions, or refuse with nothing changed.

    The event's row and the replaced sessions' tables are locked first (a referee saving a hand holds
    its table's lock, so the check below sees every result committed before), then everything is checked
    again; the search is not repeated."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=proposal.tournament_id)
        check_open(tournament)
        numbers = range(proposal.first, proposal.last + 1)
        rounds = list(tournament.rounds.filter(number__in=numbers).order_by("number"))
        if len(rounds) != len(proposal.rounds):
            raise ServiceError(gettext("The event's sessions changed; preview the plan again."), code="stale")
        list(Table.objects.select_for_update().filter(round__in=rounds).values_list("pk", flat=True))
        check_replaceable(rounds)
        check_not_final(tournament, rounds)
        if _history_key(tournament, proposal.first) != proposal.history_key:
            raise ServiceError(
                gettext(
                    "The seating before session %(first)s changed since this plan was made; preview it again."
                )
                % {"first": proposal.first},
                code="stale",
            )
        codes = [r.code for r in seating_players(tournament)]
        if _players_key(codes) != proposal.players_key:
            raise ServiceError(
                gettext(
                    "Players were checked in, withdrawn or added since this plan was made; preview it again."
                ),
                code="stale",
            )
        by_code = {r.code: r for r in tournament.registrations.all()}
        for code in proposal.substitutes:
            by_code[code] = substitute(tournament, code)
        tables: list[Table] = []
        for round_, seating in zip(rounds, proposal.rounds, strict=True):
            tables.extend(store_round(round_, seating, by_code))
        bump_standings(tournament)
        quality = proposal.quality
        if len(rounds) == 1:
            audit(
                tournament,
                acting_user,
                AuditAction.SEAT_ROUND,
                f"Seated session {proposal.first} at {proposal.tables_after} tables",
                tables=proposal.tables_after,
                repeated_pairs=quality.repeated_pairs,
                worst_pair=quality.worst_pair,
            )
        else:
            audit(
                tournament,
                acting_user,
                AuditAction.SEAT_REMAINING,
                f"Seated sessions {proposal.first}-{proposal.last} at {proposal.tables_after} tables: "
                f"{quality.repeated_pairs} repeated pairs, worst pair {quality.worst_pair}",
                tables=proposal.tables_after,
                repeated_pairs=quality.repeated_pairs,
                worst_pair=quality.worst_pair,
            )
    return tables


# --- seating a session, or the rest of the event ----------------------------------------------------


def generate_seating(round_: Round, *, acting_user: User, seed: int = 0) -> list[Table]:
    """Seat one session after the sessions already seated, with the seating engine (fewest repeated
    opponents, balanced winds, teammates apart; Swiss by current standings when the event asks).

    The plan is worked out outside any transaction and stored in a short locked one that checks again
    that nothing was entered at the session meanwhile (:func:`store`)."""
    tournament = round_.tournament
    swiss = None
    if seating_bridge.settings_of(tournament)["swiss"]:
        swiss = results.source().swiss_scores(tournament)
    proposal = propose(tournament, round_.number, count=1, seed=seed + round_.number, swiss_scores=swiss)
    return store(proposal, acting_user=acting_user)


def seat_remaining(tournament: Tournament, from_number: int, *, acting_user: User, seed: int = 0) -> int:
    """Seat every session from ``from_number`` to the last in one plan, keeping the sessions before it
    as history (after late arrivals or drops, call it again from the next session with nothing entered).
    Planned outside any transaction, stored in a short locked one that checks again."""
    proposal = propose(tournament, from_number, seed=seed)
    store(proposal, acting_user=acting_user)
    return len(proposal.rounds)
