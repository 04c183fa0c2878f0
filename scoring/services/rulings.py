"""Rulings: penalties from the rule set's catalogue, "may not win this hand", loss of rank and
disqualification (Sloper, shared/seeds/003_2541481d343502a5.txt, rules 76-93, from line 2350). Appeals
against them are ``services.appeals``.

Every write here goes through the write kernel (``services.kernel.table_write``), which takes the
table's row lock first, so what it reads to decide (how often a player was penalised before) cannot
change under it, and a repeated or simultaneous post changes nothing twice.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Q
from django.utils.translation import get_language, gettext

from scoring.models import EntryToken, PaidTo, Penalty
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord
from scoring.rules.rulings import UNRANKED, Ruling
from scoring.services.entry_tokens import check_token, keep_token
from scoring.services.kernel import service_error, table_write
from scoring.services.penalties import check_receiver, wind_at_table
from scoring.templatetags.rules_words import rules_text
from tournaments import desk
from tournaments.audit import AuditAction, User
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length, max_length
from tournaments.models import Registration, Table, Tournament

# --- penalties -----------------------------------------------------------------------------------------


def catalogue_ruling(tournament: Tournament, key: str) -> Ruling:
    ruling = next((r for r in tournament.rule_set.penalty_catalogue() if r.key == key), None)
    if ruling is None:
        raise ServiceError(gettext("Choose a penalty from the list."), code="bad_penalty")
    return ruling


def _in_force(penalties: Any) -> list[Penalty]:
    return [p for p in penalties if not p.cancelled]


def occurrence(table: Table, registration: Registration, ruling: Ruling) -> int:
    """How many times this player has now been penalised under this rule in the event, this one
    included (rules 79, 80, 83: "each repeat violation"; counting over the whole event is this app's
    reading). Call it with the table's lock held: a player sits at one table per session, so two
    referees pressing at once are serialised and neither misses the other's penalty."""
    earlier = (
        Penalty.objects.in_force()
        .filter(
            registration=registration,
            rule=ruling.citation[:40],
            table__round__tournament=table.round.tournament,
        )
        .prefetch_related("appeals__decisions")
    )
    return 1 + len(_in_force(earlier))


def _hand_for(
    table: Table, registration: Registration, ruling: Ruling, hand_number: int | None
) -> int | None:
    """The hand a ruling that bars a win applies to: the one named, or the hand in play (the next one
    to be entered) when none is named; refused when that player is already entered as its winner."""
    if not ruling.needs_hand:
        return None
    word = table.round.tournament.words.hand
    played = table.hands.in_force().count()
    if hand_number is None:
        hand_number = played + 1
    if (
        isinstance(hand_number, bool)
        or not isinstance(hand_number, int)
        or not 1 <= hand_number <= played + 1
    ):
        raise ServiceError(
            gettext(
                "Say in which %(word)s the ruling was made (1 to %(value)s): the player may not win that one."
            )
            % {"word": word, "value": played + 1},
            code="bad_hand_number",
        )
    # The person must have been playing the seat in that hand (a substitute from their first hand).
    seat = wind_at_table(table, registration, hand_number=hand_number)
    if table.hands.in_force().filter(number=hand_number, winner=seat).exists():
        raise ServiceError(
            gettext(
                "%(registration)s won %(word)s %(hand_number)s as entered: correct that result "
                "first, then record the ruling."
            )
            % {"registration": registration, "word": word, "hand_number": hand_number},
            code="barred_winner_entered",
        )
    return hand_number


def add_ruling(
    table: Table,
    registration: Registration,
    key: str,
    *,
    acting_user: User,
    hand_number: int | None = None,
    tiles: int | None = None,
    paid_to_player: Registration | None = None,
    reason: str = "",
    expected_position: int | None = None,
    token: UUID | None = None,
) -> Penalty:
    """Record a ruling from the rule set's catalogue against a player at this table: its points worked
    out (the escalating scale of MCR 79, 80 and 83 counted over the event under the table's lock; 5 per
    revealed tile for 85e), a "may not win" ruling tied to its hand (MCR 78, 81, 82, 84, 86, 87, 90, 91;
    an NMJL dead hand), loss of rank and disqualification (MCR 77e-f, 89).

    ``expected_position`` is the number of penalties the page showed: a form posted twice, or by two
    referees at once, is refused the second time instead of recording the ruling twice."""
    check_length(Penalty, "reason", reason, label=gettext("The reason"))
    with table_write(table, acting_user=acting_user, action=AuditAction.PENALTY) as write:
        table = write.table
        check_token(table, token)  # a replay: stored once (services.entry_tokens)
        tournament = table.round.tournament
        ruling = catalogue_ruling(tournament, key)
        # The seat's player or the substitute playing it (services.seat_changes).
        wind = wind_at_table(table, registration)
        listed = table.penalties.current().count()
        if expected_position is not None and expected_position != listed:
            raise ServiceError(
                gettext(
                    "Another ruling was recorded at this table since the page was shown (or this one "
                    "was sent twice); nothing was added. Check the list and record it again if it is "
                    "still needed."
                ),
                code="already_recorded",
            )
        hand_number = _hand_for(table, registration, ruling, hand_number)
        try:
            points = ruling.points_for(occurrence(table, registration, ruling), tiles)
        except HandInputError as error:
            raise service_error(error) from None
        if ruling.paid_to == PaidTo.PLAYER:
            check_receiver(table, wind, paid_to_player, ruling.citation)
        penalty = Penalty.supersede(
            table=table,
            position=listed,
            registration=registration,
            points=points,
            paid_to=ruling.paid_to,
            paid_to_player=paid_to_player if ruling.paid_to == PaidTo.PLAYER else None,
            rule=ruling.citation[: max_length(Penalty, "rule")],  # the catalogue's words, not typed
            reason=reason
            or (ruling.label if points or ruling.outcome != "points" else f"{ruling.label} (warning)")[
                : max_length(Penalty, "reason")
            ],
            kind=ruling.key,
            outcome=ruling.outcome if points or ruling.outcome != "points" else "warning",
            bars_win=ruling.bars_win,
            hand_number=hand_number,
            acting_user=acting_user,
        )
        keep_token(table, token, EntryToken.Kind.PENALTY, penalty.pk)
        where = f" in {tournament.words.hand} {hand_number}" if ruling.needs_hand else ""
        write.done(
            f"{registration}: {ruling.label}{where}, {points} points ({ruling.citation})", penalty=penalty.pk
        )
        if penalty.outcome in WITHDRAWS:
            sync_disqualification(registration, acting_user=acting_user)
    return penalty


WITHDRAWS = ("disqualification",)
"""Outcomes that also withdraw the player's registration (no longer seated in later sessions).

Sloper, seeds/003_2541481d343502a5.txt: rule 77f (line 2359) is "Disqualification from present and/or
future tournaments" and rule 89 (line 2392) "may be disqualified from the competition": the player is out
of the present competition, so a disqualification withdraws the registration at the desk
(``tournaments.desk.set_withdrawn``, logged) in the same transaction. Rule 77e (line 2358), "Loss of
competitive rank", takes away the rank only: nothing in rules 76-93 stops the player playing on, so the
player keeps their seat in later sessions (their results count for their opponents) and is listed
unranked."""


def _disqualifications(registration: Registration) -> list[Penalty]:
    """The player's disqualifications in force (current, not withdrawn, not cancelled on appeal)."""
    return _in_force(
        Penalty.objects.in_force()
        .filter(registration=registration, outcome__in=WITHDRAWS)
        .prefetch_related("appeals__decisions")
    )


def unranked_players(tournament: Tournament) -> set[str]:
    """Codes of the players out of the ranking by a ruling in force (loss of rank, MCR 77e;
    disqualification, 77f and 89): left out of the side rankings as out of the standings."""
    rulings_ = (
        Penalty.objects.in_force()
        .filter(table__round__tournament=tournament, outcome__in=UNRANKED)
        .prefetch_related("appeals__decisions")
    )
    return {p.registration.code for p in _in_force(rulings_.select_related("registration"))}


def disqualification(registration: Registration) -> str:
    """The rule and session of the player's first disqualification in force, or "" (MCR 77f, 89)."""
    in_force = _disqualifications(registration)
    return f"{in_force[0].rule}, session {in_force[0].table.round.number}" if in_force else ""


def _current_session(registration: Registration) -> int:
    """The session of the player's latest disqualification (the one being played when it was made)."""
    return max(p.table.round.number for p in _disqualifications(registration))


def sync_disqualification(registration: Registration, *, acting_user: User) -> None:
    """Withdraw a player with a disqualification in force (MCR 77f, 89); reinstate one whose every
    disqualification was cancelled on appeal (rule 94), unless the desk had withdrawn the player before
    the first disqualification (then the player stays withdrawn, as the desk left them). Call with the
    table's lock held, inside the ruling's or the decision's transaction."""
    registration = Registration.objects.get(pk=registration.pk)
    if _disqualifications(registration):
        # A later session seated before the ruling still has the player: the log says so (re-seat it).
        later = [n for n in desk.later_seatings(registration) if n > _current_session(registration)]
        desk.set_withdrawn(
            registration,
            True,
            acting_user=acting_user,
            reason=f"disqualified ({disqualification(registration)})"
            + (f"; still seated in session {', '.join(map(str, later))}: re-seat it" if later else ""),
        )
        return
    if registration.withdrawn_at is None:
        return
    ever = Penalty.objects.filter(registration=registration, outcome__in=WITHDRAWS).order_by("created_at")
    first = ever.values_list("created_at", flat=True).first()
    if first is not None and registration.withdrawn_at >= first:
        desk.set_withdrawn(
            registration, False, acting_user=acting_user, reason="disqualification cancelled on appeal"
        )


def check_win_allowed(table: Table, number: int, record: HandRecord) -> None:
    """Refuse a win by a player ruled unable to win this hand (MCR 77d "death", 78, 81, 82, 84a-d/f-h,
    85c, 85e, 86, 87, 90, 91: "prohibited from declaring hu for the duration of the current hand"; an
    NMJL dead hand). Called by the hand services with the table's lock held."""
    if not record.winner:
        return
    barring = (
        Penalty.objects.in_force()
        .filter(
            Q(registration__seats__table=table, registration__seats__wind=record.winner)
            # a ruling naming the substitute who played that seat (services.seat_changes)
            | Q(
                registration__substitutions__seat__table=table,
                registration__substitutions__seat__wind=record.winner,
            ),
            table=table,
            hand_number=number,
            bars_win=True,
        )
        .prefetch_related("appeals__decisions")
    )
    for penalty in _in_force(barring):
        rules = table.round.tournament.rule_set
        word = rules.word("hand", get_language())
        raise ServiceError(
            gettext(
                "The %(winner)s player may not win %(word)s %(number)s: %(value)s (%(rule)s). "
                "Nothing was saved."
            )
            % {
                "winner": record.winner,
                "word": word,
                "number": number,
                "value": rules_text(penalty.reason or penalty.rule, rules),
                "rule": rules_text(penalty.rule, rules),
            },
            code="winner_barred",
        )


def withdraw_disqualified(tournament: Tournament, *, acting_user: User) -> None:
    """Withdraw every player with a disqualification in force (MCR 77f, 89), for an imported event: the
    document has no withdrawals, and a disqualified player must not be seated in a later session."""
    players = (
        Penalty.objects.in_force()
        .filter(table__round__tournament=tournament, outcome__in=WITHDRAWS)
        .values_list("registration_id", flat=True)
        .distinct()
    )
    for registration in Registration.objects.filter(pk__in=list(players), withdrawn_at=None):
        sync_disqualification(registration, acting_user=acting_user)


def add_catalogue_penalty(
    table: Table, registration: Registration, key: str, *, reason: str = "", acting_user: User, **details: Any
) -> Penalty:
    """A ruling from the rule set's catalogue (:func:`add_ruling`, which works out its points under the
    table's lock)."""
    return add_ruling(table, registration, key, reason=reason, acting_user=acting_user, **details)
