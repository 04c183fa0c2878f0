"""Appeals against a ruling, as MCR rule 94 describes them (Sloper, shared/seeds/003_2541481d343502a5.txt,
rule 94, lines 2404-2411): filed in writing within 30 minutes, signed, with the event's fee; decided by
the chief referee or the appeals committee, with reasons. The rulings themselves are
``services.rulings``.

Filing and deciding go through the write kernel (``services.kernel.table_write``): a decision changes the
table's result (an upheld penalty no longer counts); filing an appeal changes no result and is written
with ``changes_result=False`` (locked and logged; the confirmation stands).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, gettext

from scoring.models import (
    REASONS_LENGTH,
    Appeal,
    AppealDecision,
    AppealStatus,
    AppealSubject,
    DecidedBy,
    Hand,
    LateArrival,
    Penalty,
)
from scoring.rules.ruleset import RuleSet
from scoring.services.kernel import table_write
from scoring.services.rulings import WITHDRAWS, sync_disqualification
from scoring.templatetags.rules_words import rules_text
from tournaments import event_settings
from tournaments.access import can_decide_appeals
from tournaments.audit import AuditAction, User, acting
from tournaments.citations import cite
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import EventRole, Registration, Role, Tournament

APPEAL_DEADLINE_MINUTES = 30  # MCR rule 94a (seeds/003_2541481d343502a5.txt, line 2405)


def check_appeal_deadline(minutes_after: int, rule_set: RuleSet | None) -> None:
    """MCR rule 94a: an appeal must be submitted within 30 minutes of the judgment; the refusal cites
    ``rule_set``'s own rule, or none when its book has none (or the rules are not known)."""
    if minutes_after > APPEAL_DEADLINE_MINUTES:
        raise ServiceError(
            cite(
                rule_set,
                "appeal_deadline",
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the "
                    "judgment (%(rule)s)."
                ),
                gettext(
                    "An appeal must be filed within %(appeal_deadline_minutes)s minutes of the judgment."
                ),
                appeal_deadline_minutes=APPEAL_DEADLINE_MINUTES,
            ),
            code="appeal_too_late",
        )


def store_decision(appeal: Appeal, status: str, *, reasons: str = "", acting_user: User) -> AppealDecision:
    if status not in (AppealStatus.UPHELD, AppealStatus.DENIED):
        raise ServiceError(gettext("An appeal is decided as granted or rejected."), code="bad_status")
    return AppealDecision.supersede(appeal=appeal, status=status, reasons=reasons, acting_user=acting_user)


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
    with table_write(
        ruling.table, acting_user=acting_user, action=AuditAction.APPEAL, changes_result=False
    ) as write:
        table = write.table
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
                    gettext(
                        "The appeal fee of %(fee)s must accompany the appeal; tick that it was received."
                    ),
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
            write.unchanged()
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
        write.done(
            f"appeal against {AppealSubject(appeal.subject).label.lower()} ({describe_ruling(appeal)})",
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


def decide_appeal(
    appeal: Appeal, status: str, *, reasons: str, acting_user: User, revise: bool = False
) -> AppealDecision:
    """Decide an appeal as the chief referee or the appeals committee, with the reasons (rule 94),
    never as the referee whose ruling is appealed. A decision is made once: the same decision posted
    again returns it unchanged; a different one is refused unless ``revise`` is asked for, and then it
    is a new, logged version with its own reasons."""
    if appeal.table is None:
        raise ServiceError(gettext("This appeal names no table."), code="bad_appeal")
    with table_write(appeal.table, acting_user=acting_user, action=AuditAction.DECIDE_APPEAL) as write:
        table = write.table
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
                write.unchanged()
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
            write.unchanged()
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
        write.done(
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
