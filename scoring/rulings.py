"""Rulings and appeals: penalties from the rule set's catalogue, "may not win this hand", loss of rank and
disqualification, and appeals as MCR rule 94 describes them (Sloper, seeds/003_2541481d343502a5.txt,
rules 76-94, lines 2350-2405).

Every write here takes the table's row lock first (``services._lock_table``), so what it reads to decide
(how often a player was penalised before, whether an appeal is already decided) cannot change under it,
and a repeated or simultaneous post changes nothing twice.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language, gettext

from scoring import services
from scoring.models import (
    REASONS_LENGTH,
    Appeal,
    AppealDecision,
    AppealStatus,
    AppealSubject,
    DecidedBy,
    Hand,
    LateArrival,
    PaidTo,
    Penalty,
)
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord
from scoring.rules.rulings import UNRANKED, Ruling
from tournaments import desk, event_settings
from tournaments.access import can_decide_appeals
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.citations import cite
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length, max_length
from tournaments.models import EventRole, Registration, Role, Table, Tournament

APPEAL_DEADLINE_MINUTES = services.APPEAL_DEADLINE_MINUTES
"""MCR rule 94a (book 003 line 2405): "The appeal must be submitted within 30 minutes of the judgment" (one figure,
``scoring.services``, for the page's appeals and the imported ones)."""


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
    seat = services.wind_at_table(table, registration, hand_number=hand_number)
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


@transaction.atomic
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
) -> Penalty:
    """Record a ruling from the rule set's catalogue against a player at this table: its points worked
    out (the escalating scale of MCR 79, 80 and 83 counted over the event under the table's lock; 5 per
    revealed tile for 85e), a "may not win" ruling tied to its hand (MCR 78, 81, 82, 84, 86, 87, 90, 91;
    an NMJL dead hand), loss of rank and disqualification (MCR 77e-f, 89).

    ``expected_position`` is the number of penalties the page showed: a form posted twice, or by two
    referees at once, is refused the second time instead of recording the ruling twice."""
    check_length(Penalty, "reason", reason, label=gettext("The reason"))
    table = services._lock_table(table)
    tournament = table.round.tournament
    ruling = catalogue_ruling(tournament, key)
    wind = services.wind_at_table(table, registration)  # the seat's player or its substitute (issue 16)
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
        raise services._service_error(error) from None
    if ruling.paid_to == PaidTo.PLAYER:
        services.check_receiver(table, wind, paid_to_player, ruling.citation)
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
    where = f" in {tournament.words.hand} {hand_number}" if ruling.needs_hand else ""
    services._after_write(
        table,
        acting_user,
        AuditAction.PENALTY,
        f"{registration}: {ruling.label}{where}, {points} points ({ruling.citation})",
        penalty=penalty.pk,
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
            # a ruling naming the substitute who played that seat (issue 16)
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
        from scoring.templatetags.rules_words import rules_text

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


# --- appeals -------------------------------------------------------------------------------------------


def _target(ruling: Penalty | LateArrival | Hand) -> dict[str, Any]:
    if isinstance(ruling, Penalty):
        return {"subject": AppealSubject.PENALTY, "penalty": ruling}
    if isinstance(ruling, LateArrival):
        return {"subject": AppealSubject.LATENESS, "late_arrival": ruling}
    return {"subject": AppealSubject.HAND, "hand_number": ruling.number}


def appeal_fee(tournament: Tournament) -> int:
    """The fee an appeal must come with (rule 94d), the event setting ``appeals.fee``; its default is the
    book's (MCR: US$200, Sloper line 2409)."""
    return event_settings.appeal_fee(tournament)


def minutes_since(moment: datetime, now: datetime | None = None) -> int:
    """Whole minutes, rounded up, from ``moment`` to ``now`` on the server's clock."""
    seconds = ((now or timezone.now()) - moment).total_seconds()
    return max(0, math.ceil(seconds / 60))


@transaction.atomic
def file_appeal(
    ruling: Penalty | LateArrival | Hand,
    *,
    statement: str,
    acting_user: User,
    appellant: Registration | None = None,
    signed_by: str = "",
    fee_received: bool = False,
    now: datetime | None = None,
) -> Appeal:
    """File a written appeal against any ruling (rule 94): a penalty, a lateness or forfeit, or a
    decision on a hand. The deadline (94a, 30 minutes) runs from the ruling's stored time on the
    server's clock; the statement in writing (94b) and signed (94c), the event's fee paid (94d).
    A repeated post of the same appeal returns the one already filed."""
    check_length(Appeal, "signed_by", signed_by.strip(), label=gettext("Signed by"))
    table = services._lock_table(ruling.table)
    tournament = table.round.tournament
    rules = tournament.rule_set  # its own book's rule numbers, or none cited
    # The current version of the ruling: a superseded one is not what stands.
    current = type(ruling)._default_manager.get(
        **{name: getattr(ruling, name) for name in ruling.identity}, is_current=True
    )
    if current.voided:
        raise ServiceError(
            gettext("That ruling was withdrawn; there is nothing to appeal."), code="ruling_withdrawn"
        )
    statement = statement.strip()
    if not statement:
        raise ServiceError(
            cite(
                rules,
                "appeal_statement",
                gettext("An appeal must be made in writing: enter the statement (%(rule)s)."),
                gettext("An appeal must be made in writing: enter the statement."),
            ),
            code="no_statement",
        )
    if not signed_by.strip():
        raise ServiceError(
            cite(
                rules,
                "appeal_signed",
                gettext("Name who signed the appeal: the player and/or the team leader (%(rule)s)."),
                gettext("Name who signed the appeal: the player and/or the team leader."),
            ),
            code="not_signed",
        )
    fee = appeal_fee(tournament)
    if fee and not fee_received:
        raise ServiceError(
            cite(
                rules,
                "appeal_fee",
                gettext(
                    "The appeal fee of %(fee)s must accompany the appeal (%(rule)s); tick that it was received."
                ),
                gettext("The appeal fee of %(fee)s must accompany the appeal; tick that it was received."),
                fee=fee,
            ),
            code="fee_not_paid",
        )
    if appellant is not None and not table.seats.filter(registration=appellant).exists():
        raise ServiceError(
            gettext("%(appellant)s does not sit at this table.") % {"appellant": appellant},
            code="not_at_table",
        )
    target = _target(current)
    existing = (
        Appeal.objects.filter(table=table, statement=statement, **target)
        .prefetch_related("decisions")
        .first()
    )
    if existing is not None:
        return existing
    minutes = minutes_since(current.created_at, now)
    if minutes > APPEAL_DEADLINE_MINUTES:
        raise ServiceError(
            cite(
                rules,
                "appeal_deadline",
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the "
                    "ruling (%(rule)s); this ruling was made %(minutes)s minutes ago, at "
                    "%(localtime)s."
                ),
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the "
                    "ruling; this ruling was made %(minutes)s minutes ago, at %(localtime)s."
                ),
                appeal_deadline_minutes=APPEAL_DEADLINE_MINUTES,
                minutes=minutes,
                localtime=format(timezone.localtime(current.created_at), "%H:%M"),
            ),
            code="appeal_too_late",
        )
    appeal = Appeal.objects.create(
        table=table,
        ruled_by=current.entered_by,
        ruling_at=current.created_at,
        appellant=appellant,
        signed_by=signed_by.strip(),
        fee=fee,
        filed_minutes_after=minutes,
        statement=statement,
        filed_by=acting(acting_user),
        **target,
    )
    audit(
        tournament,
        acting_user,
        AuditAction.APPEAL,
        f"Session {table.round.number} table {table.number}: appeal against "
        f"{AppealSubject(appeal.subject).label.lower()} ({describe_ruling(appeal)})",
        appeal=appeal.pk,
    )
    return appeal


def describe_ruling(appeal: Appeal) -> str:
    if appeal.penalty is not None:
        penalty = appeal.penalty
        points = f"{penalty.points} points" if penalty.points else penalty.get_outcome_display().lower()
        return f"{penalty.registration}: {points}, {penalty.rule} {penalty.reason}".strip()
    if appeal.late_arrival is not None:
        return f"{appeal.late_arrival.registration} late {appeal.late_arrival.minutes} min"
    word = appeal.table.round.tournament.words.hand if appeal.table else "hand"
    return f"{word} {appeal.hand_number}"


def penalty_line(penalty: Penalty, rules: Any) -> str:
    """A penalty's one line in the page's language: who, the points or the outcome, citation and reason
    (the appeals page, the register and the referee's appeal page)."""
    from scoring.templatetags.rules_words import rules_text

    points = (
        gettext("%(points)s points") % {"points": penalty.points}
        if penalty.points
        else penalty.get_outcome_display().lower()
    )
    rule, reason = rules_text(penalty.rule, rules), rules_text(penalty.reason, rules)
    return f"{penalty.registration}: {points}, {rule} {reason}".strip()


def late_line(late: LateArrival) -> str:
    """A lateness ruling's one line in the page's language."""
    return gettext("%(name)s late %(minutes)s min") % {"name": late.registration, "minutes": late.minutes}


def ruling_line(appeal: Appeal) -> str:
    """:func:`describe_ruling` in the page's language, for the appeals page and the register (the audit
    log keeps the English)."""
    rules = appeal.table.round.tournament.rule_set if appeal.table else None
    if appeal.penalty is not None:
        return penalty_line(appeal.penalty, rules)
    if appeal.late_arrival is not None:
        return late_line(appeal.late_arrival)
    word = rules.word("hand", get_language()) if rules is not None else ""
    return (gettext("%(hand)s %(number)s") % {"hand": word, "number": appeal.hand_number}).strip()


def decider_role(user: User, tournament: Tournament) -> str:
    """Whether ``user`` decides as the chief referee or as the appeals committee (the organisers)."""
    roles = set(
        EventRole.objects.filter(tournament=tournament, user=acting(user)).values_list("role", flat=True)
    )
    return DecidedBy.CHIEF_REFEREE if Role.CHIEF_REFEREE in roles else DecidedBy.COMMITTEE


@transaction.atomic
def decide_appeal(
    appeal: Appeal, status: str, *, reasons: str, acting_user: User, revise: bool = False
) -> AppealDecision:
    """Decide an appeal as the chief referee or the appeals committee, with the reasons (rule 94),
    never as the referee whose ruling is appealed. A decision is made once: the same decision posted
    again returns it unchanged; a different one is refused unless ``revise`` is asked for, and then it
    is a new, logged version with its own reasons."""
    if appeal.table is None:
        raise ServiceError(gettext("This appeal names no table."), code="bad_appeal")
    table = services._lock_table(appeal.table)
    tournament = table.round.tournament
    appeal = Appeal.objects.select_related("penalty", "late_arrival").get(pk=appeal.pk)
    if status not in (AppealStatus.UPHELD, AppealStatus.DENIED):
        raise ServiceError(gettext("An appeal is decided as granted or rejected."), code="bad_status")
    user = acting(acting_user)
    if user is None or not can_decide_appeals(user, tournament):
        raise ServiceError(
            cite(
                tournament.rule_set,
                "appeal",
                gettext("Only the chief referee or the appeals committee decides an appeal (%(rule)s)."),
                gettext("Only the chief referee or the appeals committee decides an appeal."),
            ),
            code="not_allowed",
        )
    if appeal.ruled_by_id is not None and appeal.ruled_by_id == user.pk:
        raise ServiceError(
            gettext(
                "You made the ruling under appeal; the chief referee or the appeals committee must decide it."
            ),
            code="own_ruling",
        )
    current = appeal.decisions.in_force().first()
    if current is not None and not revise:
        if current.status == status:
            return current
        raise ServiceError(
            gettext(
                "This appeal was already decided (%(get_status_display)s) by %(value)s; a change "
                "is a new decision: use 'change the decision'."
            )
            % {
                "get_status_display": current.get_status_display().lower(),
                "value": current.entered_by or "someone",
            },
            code="already_decided",
        )
    reasons = reasons.strip()
    if not reasons:
        raise ServiceError(gettext("Give the reasons for the decision."), code="no_reasons")
    if current is not None and current.status == status and current.reasons == reasons:
        return current
    decision = AppealDecision.supersede(
        appeal=appeal,
        status=status,
        reasons=reasons[:REASONS_LENGTH],
        decided_as=decider_role(user, tournament),
        acting_user=acting_user,
    )
    fee = (
        f"; fee {appeal.fee} {'returned' if status == AppealStatus.UPHELD else 'forfeited'}"
        if appeal.fee
        else ""
    )
    services._after_write(
        table,
        acting_user,
        AuditAction.DECIDE_APPEAL,
        f"appeal {appeal.pk} {status}{' (changed)' if current is not None else ''}{fee}",
        appeal=appeal.pk,
        version=decision.version,
    )
    if appeal.penalty is not None and appeal.penalty.outcome in WITHDRAWS:
        # Upheld: the disqualification is cancelled and the player reinstated; a change back to denied
        # withdraws them again.
        sync_disqualification(appeal.penalty.registration, acting_user=acting_user)
    return decision


def register(tournament: Tournament) -> list[dict[str, Any]]:
    """The appeals register, session by session: every ruling (penalties, warnings, lateness), the
    appeals against them and each decision's versions, with who made each."""
    appeals = (
        Appeal.objects.filter(table__round__tournament=tournament)
        .select_related(
            "table__round",
            "penalty__registration__player",
            "late_arrival__registration__player",
            "appellant__player",
            "ruled_by",
            "filed_by",
        )
        .prefetch_related("decisions__entered_by")
        .order_by("created_at", "pk")
    )
    by_target: dict[tuple[str, int], list[Appeal]] = {}
    rows: list[dict[str, Any]] = []
    for appeal in appeals:
        key = ("penalty", appeal.penalty_id) if appeal.penalty_id else ("late", appeal.late_arrival_id or 0)
        if appeal.subject == AppealSubject.HAND:
            rows.append({"kind": "hand", "table": appeal.table, "ruling": None, "appeals": [appeal]})
        else:
            by_target.setdefault(key, []).append(appeal)
    penalties = (
        Penalty.objects.current()
        .filter(table__round__tournament=tournament)
        .select_related("table__round", "registration__player", "entered_by", "paid_to_player__player")
        .order_by("table__round__number", "table__number", "position")
    )
    for penalty in penalties:
        rows.append(
            {
                "kind": "penalty",
                "table": penalty.table,
                "ruling": penalty,
                "appeals": by_target.get(("penalty", penalty.pk), []),
            }
        )
    lates = (
        LateArrival.objects.in_force()
        .filter(table__round__tournament=tournament)
        .select_related("table__round", "registration__player", "entered_by")
        .order_by("table__round__number", "table__number")
    )
    for late in lates:
        rows.append(
            {
                "kind": "late",
                "table": late.table,
                "ruling": late,
                "appeals": by_target.get(("late", late.pk), []),
            }
        )
    rows.sort(key=lambda row: (row["table"].round.number, row["table"].number, row["kind"] == "hand"))
    return rows


def event_appeals(tournament: Tournament) -> list[Appeal]:
    """Every appeal of the event, oldest first, for the chief referee's page."""
    appeals = (
        Appeal.objects.filter(table__round__tournament=tournament)
        .select_related(
            "table__round", "penalty__registration__player", "late_arrival__registration__player", "ruled_by"
        )
        .prefetch_related("decisions")
        .order_by("created_at")
    )
    return list(appeals)
