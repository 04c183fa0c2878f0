"""Simulated referees playing a rehearsal through (``manage.py play_rehearsal``): each session is seated (the
organiser's seating service), every table gets plausible hands through the referees' own service
(``entry.record_hand``, checked by the rule set as a typed hand is), a second referee confirms (or the players
sign, or a blind second entry agrees, as the event's settings ask), and the session's seating and results are
published. Only a rehearsal copy may be played (``tournaments.services.rehearsals``): a real event is refused.

The hands are those the load benchmark's referees post (``bench/entry_load.py``: a discard or a self-drawn win
of 8 points and more), with now and then a draw; for a rule set whose hand has another shape, the first shape
its own check accepts is used (a classical hand's scores, an NMJL game's value), so no rule set is named here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord, RuleSet
from scoring.services import confirmation, pins
from scoring.services.entry import HandEntry, check_hand, record_hand, set_table_finished
from scoring.services.queries import hand_record, is_confirmed, played_hands, table_with_results
from tournaments.audit import User
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Role, Round, SeatingJob, Table, Tournament
from tournaments.release import publish_session
from tournaments.services import events, rehearsals, seating_jobs
from tournaments.services.seating import round_has_results

# A session with a time limit and no hand limit: this many hands, then the table is marked complete.
HANDS_WITHOUT_LIMIT = 8
DRAW_SHARE = 0.06  # about one hand in sixteen is a draw (bench/make_event.py)


@dataclass
class Played:
    """What the simulated referees did."""

    sessions: list[int]
    tables: int = 0
    hands: int = 0


def _fan(rng: random.Random) -> int:
    """A winning hand's points: 8 and up, mostly 8-16 (as the benchmark's referees and generated events)."""
    return min(8 + int(rng.expovariate(1 / 4)), 88)


def _shapes(rules: RuleSet, rng: random.Random, previous: list[HandRecord]) -> Iterator[HandEntry]:
    """Candidate hands, most common shape first; the rule set's own check picks the first it accepts."""
    winner, discarder = rng.sample(WINDS, 2)
    if rng.random() < 0.33:
        discarder = ""  # self-drawn
    if rng.random() < DRAW_SHARE:
        yield HandEntry(winner=None)
        yield HandEntry(winner=None, data={**rules.next_hand_initial(previous), "scores": _scores(rng, None)})
        yield HandEntry(winner=None, data={"won_by": "wall"})
    yield HandEntry(winner=winner, discarder=discarder or None, fan=_fan(rng))
    yield HandEntry(winner=winner, data={**rules.next_hand_initial(previous), "scores": _scores(rng, winner)})
    how = "discard" if discarder else "self_pick"
    yield HandEntry(
        winner=winner,
        discarder=discarder or None,
        data={"won_by": how, "value": rng.choice([25, 25, 30, 50])},
    )
    yield HandEntry(winner=None, data={"won_by": "wall"})


def _scores(rng: random.Random, winner: str | None) -> dict[str, int]:
    scores = {wind: rng.choice([0, 2, 4, 8, 12]) for wind in WINDS}
    if winner is not None:
        scores[winner] = rng.choice([20, 30, 40, 60])
    return scores


def _record(entry: HandEntry) -> HandRecord:
    return HandRecord(winner=entry.winner, discarder=entry.discarder, fan=entry.fan, data=entry.data or {})


def plausible_hand(rules: RuleSet, rng: random.Random, previous: list[HandRecord]) -> HandEntry:
    """A hand the rule set accepts, as a referee would type it."""
    for entry in _shapes(rules, rng, previous):
        try:
            check_hand(rules, _record(entry))
        except HandInputError:
            continue
        return entry
    raise ServiceError(gettext("No simulated hand fits this event's rules."), code="no_simulated_hand")


def simulated_referees(rehearsal: Tournament, *, acting_user: User) -> list[AbstractBaseUser]:
    """The rehearsal's simulated referees (logins without a password, deleted with the rehearsal)."""
    people: list[AbstractBaseUser] = []
    for name in rehearsals.simulated_referee_names(rehearsal):
        user, made = get_user_model().objects.get_or_create(username=name)
        if not made and user.has_usable_password():  # a person's own login, not one made for the rehearsal
            raise ServiceError(
                gettext("The login %(name)s belongs to someone: the simulated referees cannot use it.")
                % {"name": name},
                code="referee_name_taken",
            )
        if made:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            events.grant_role(rehearsal, user, Role.REFEREE, acting_user=acting_user)
        people.append(user)
    return people


def _seat(round_: Round, seed: int, acting_user: User) -> None:
    """Seat the session as the organiser's page does (the engine runs here, not in the background)."""
    if round_.tables.exists():
        return
    job = seating_jobs.start_seating_job(
        round_, whole_plan=False, seed=seed, acting_user=acting_user, background=False
    )
    if job.status != SeatingJob.Status.DONE:
        raise ServiceError(
            gettext("Session %(number)s could not be seated: %(problem)s")
            % {"number": round_.number, "problem": job.message},
            code="not_seated",
        )


class Referees(Protocol):
    """How the simulated referees reach the site: the services in this process (:class:`InProcess`), or
    the pages of a running server with the load benchmark's browser (``scoring.simulated_browsers``)."""

    def add_hand(
        self, table: Table, entry: HandEntry, record: HandRecord, number: int, referee: AbstractBaseUser
    ) -> None:
        """Enter hand ``number`` (``record`` is ``entry`` as the rule set checked it)."""

    def finish(self, table: Table, referee: AbstractBaseUser) -> None:
        """Mark the table complete (a session without a hand limit)."""

    def confirm(self, table: Table, referee: AbstractBaseUser) -> None:
        """Confirm the table's result as a second referee."""


class InProcess:
    """The referees' own services, called here (what the pages call)."""

    def add_hand(
        self, table: Table, entry: HandEntry, record: HandRecord, number: int, referee: AbstractBaseUser
    ) -> None:
        record_hand(table, entry, acting_user=referee, expected_number=number)

    def finish(self, table: Table, referee: AbstractBaseUser) -> None:
        set_table_finished(table, True, acting_user=referee)

    def confirm(self, table: Table, referee: AbstractBaseUser) -> None:
        confirmation.confirm(table, acting_user=referee)


def _enter_hands(table: Table, rng: random.Random, referee: AbstractBaseUser, referees: Referees) -> int:
    """Hands until the session's limit (or a few, then marked complete); returns how many were entered."""
    tournament = table.round.tournament
    rules = tournament.rule_set
    limit = rules.hands_allowed(tournament.hands_per_session)
    previous = [hand_record(hand) for hand in played_hands(table_with_results(table))]
    wanted = limit if limit is not None else HANDS_WITHOUT_LIMIT
    entered = 0
    while len(previous) < wanted:
        entry = plausible_hand(rules, rng, previous)
        record = check_hand(rules, _record(entry))
        referees.add_hand(table, entry, record, len(previous) + 1, referee)
        previous.append(record)
        entered += 1
    if limit is None or len(previous) < limit:
        referees.finish(table, referee)
    return entered


def _confirm(table: Table, referee: AbstractBaseUser, referees: Referees) -> None:
    """As the event asks: the players sign (rule 72), a blind second entry agrees, or a second referee."""
    tournament = table.round.tournament
    if confirmation.players_sign(tournament) and not confirmation.referees_confirm(tournament):
        for seat in table.seats.select_related("registration"):
            if not is_confirmed(table, fresh=True):
                pins.sign_as_player(table, seat.registration)
        return
    if confirmation.blind_entry_on(tournament):
        rows, totals = confirmation.first_entry(table_with_results(table))
        confirmation.record_blind_entry(table, totals, rows, acting_user=referee)
        return
    referees.confirm(table, referee)


def play_session(
    round_: Round,
    rng: random.Random,
    people: list[AbstractBaseUser],
    *,
    acting_user: User,
    referees: Referees | None = None,
) -> tuple[int, int]:
    """Seat, play, confirm and publish one session; returns (tables played, hands entered)."""
    referees = referees or InProcess()
    _seat(round_, rng.randrange(1 << 16), acting_user)
    tables = played = 0
    for table in Table.objects.filter(round=round_).select_related("round__tournament").order_by("number"):
        if is_confirmed(table, fresh=True):
            continue
        first, second = rng.sample(people, 2)
        played += _enter_hands(table, rng, first, referees)
        _confirm(table, second, referees)
        tables += 1
    for part in ("seating", "results"):
        publish_session(round_, part, True, acting_user=acting_user)
    return tables, played


def play_rehearsal(
    rehearsal: Tournament,
    *,
    sessions: int | None = None,
    seed: int = 0,
    acting_user: User = None,
    progress: Callable[[str], None] | None = None,
    referees: Referees | None = None,
) -> Played:
    """Play the rehearsal's next ``sessions`` sessions not yet published (all of them by default)."""
    rehearsals.refuse_real(rehearsal, gettext("playing with simulated referees"))
    rng = random.Random(seed)  # noqa: S311 -- seeded, reproducible simulated hands, not cryptography
    people = simulated_referees(rehearsal, acting_user=acting_user)
    waiting = [
        round_
        for round_ in Round.objects.filter(tournament=rehearsal).order_by("number")
        if round_.results_published_at is None or not round_has_results(round_)
    ]
    played = Played(sessions=[])
    for round_ in waiting[:sessions] if sessions is not None else waiting:
        tables, hands = play_session(round_, rng, people, acting_user=acting_user, referees=referees)
        played.sessions.append(round_.number)
        played.tables += tables
        played.hands += hands
        if progress is not None:
            progress(f"session {round_.number}: {tables} tables, {hands} hands")
    rehearsals.played_through(
        rehearsal,
        f"Played by simulated referees: sessions {', '.join(map(str, played.sessions)) or 'none'}, "
        f"{played.tables} tables, {played.hands} hands",
        acting_user=acting_user,
    )
    return played
