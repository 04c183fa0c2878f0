"""Event -> document: the whole event as the event JSON (``shared/specs/event-json.md``), and what that
format cannot say (``export_warnings``)."""

from __future__ import annotations

from typing import Any

from players.models import Player
from scoring.interchange.documents import FORMAT
from scoring.models import Appeal, AppealSubject, PaidTo, Penalty
from scoring.rules.ruleset import RuleSet
from scoring.services import queries
from scoring.services.queries import hand_record, played_hands, tables_with_results
from scoring.substitutions import DEFAULT_POLICY, policy
from tournaments.models import WINDS, Substitution, Table, Tournament
from tournaments.services import substitutions as seat_substitutions
from tournaments.venue_time import default_time_zone


def export_warnings(tournament: Tournament) -> list[str]:
    """What the event JSON cannot say (the format has no place for it; docs/seating.md): each
    mid-session substitution. The hands stay under the seat's player (as the seat's results), a
    penalty naming the substitute is written under the seat's player, and who took over from which
    hand is lost; the standings read back the same under the default substitute policy ("seat")."""
    warnings = []
    for item in (
        Substitution.objects.filter(seat__round__tournament=tournament)
        .select_related("seat__round", "seat__table", "seat__registration__player", "substitute__player")
        .order_by("seat__round__number", "seat__table__number", "from_hand")
    ):
        warnings.append(
            f"Session {item.seat.round.number} table {item.seat.table.number}: from hand {item.from_hand} "
            f"{item.substitute} ({item.substitute.code}) played {item.seat.wind} for {item.seat.registration} "
            f"({item.seat.registration.code}). The event JSON has no place for substitutions: the seat's "
            "hands and any penalty of the substitute are written under the seat's player."
        )
    if warnings and policy(tournament.settings) != DEFAULT_POLICY:
        warnings.append(
            "The event counts a substituted seat by hands played: an imported copy has no substitution, "
            "so it counts the whole seat for the seat's player and its standings differ."
        )
    return warnings


def export_event(tournament: Tournament) -> dict[str, Any]:
    """The event as a JSON-ready dict in the spec's format, in a stable order."""
    rules = tournament.rule_set
    registrations = list(tournament.registrations.select_related("player").order_by("id"))
    code_of = {r.pk: r.code for r in registrations}
    tables_by_round: dict[int, list[Table]] = {}
    for table in tables_with_results(tournament):
        tables_by_round.setdefault(table.round.number, []).append(table)
    rounds = []
    appeals: list[dict[str, Any]] = []
    hand_appeals = _hand_appeals(tournament)
    for round_ in tournament.rounds.order_by("number"):
        tables = []
        for table in tables_by_round.get(round_.number, []):
            penalties = list(table.penalties.all())
            tables.append(_table_doc(table, penalties, rules, code_of))
            appeals.extend(_table_appeals(table, penalties, hand_appeals.get(table.pk, []), code_of))
        rounds.append({"number": round_.number, "tables": tables})
    return {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "rules": tournament.rules,
            "settings": _settings_doc(tournament),
        },
        "players": [
            {
                "id": r.code,
                "name": r.player.name,
                **_names_doc(r.player),
                "country": r.player.country,
                "ema_id": r.player.ema_id,
                "team": r.team,
            }
            for r in registrations
        ],
        "rounds": rounds,
        "appeals": appeals,
    }


def _settings_doc(tournament: Tournament) -> dict[str, Any]:
    """The event's settings with its length (the model's own columns, which the document keeps there)."""
    settings: dict[str, Any] = dict(tournament.settings)
    settings["sessions"] = tournament.num_sessions
    if tournament.time_zone != default_time_zone():  # absent keys take the defaults (event-json.md)
        settings["time_zone"] = tournament.time_zone  # the venue's clock, as the organiser set it
    if tournament.hands_per_session is not None:
        settings["hands_per_session"] = tournament.hands_per_session
    if tournament.session_minutes is not None:
        settings["session_minutes"] = tournament.session_minutes
    return settings


def _hand_appeals(tournament: Tournament) -> dict[int, list[Appeal]]:
    """The appeals against a hand's result, by table (they name no ruling object to hang them on)."""
    hand_appeals: dict[int, list[Appeal]] = {}
    for appeal in (
        Appeal.objects.filter(table__round__tournament=tournament, subject=AppealSubject.HAND)
        .prefetch_related("decisions")
        .order_by("pk")
    ):
        hand_appeals.setdefault(appeal.table_id or 0, []).append(appeal)
    return hand_appeals


def _table_doc(
    table: Table, penalties: list[Penalty], rules: RuleSet, code_of: dict[int, str]
) -> dict[str, Any]:
    """One table of a round: its seats, its hands or totals, and its penalties and lateness."""
    code_at = {seat.wind: code_of[seat.registration_id] for seat in table.seats.all()}
    entry: dict[str, Any] = {
        "number": table.number,
        "seats": {w: code_at[w] for w in WINDS if w in code_at},
    }
    totals = next((t for t in table.totals_versions.all() if t.is_current), None)
    if totals is not None:
        entry["totals"] = {code_at[w]: totals.scores[w] for w in WINDS}
    else:
        entry["hands"] = [
            rules.hand_to_doc(hand_record(hand), hand.tiles, code_at) for hand in played_hands(table)
        ]
    if table.totals_only:
        entry["totals_only"] = True
    has_results = bool(entry.get("hands")) or "totals" in entry
    if has_results and not queries.is_confirmed(table):
        entry["confirmed"] = False  # results entered but not final (a table with none has nothing to confirm)
    # The format has no substitutions (docs/seating.md): a penalty naming a substitute is written
    # under the seat's player, where it counts by default (export_warnings says so).
    stood_in = {
        pk: code_at[wind] for pk, wind in seat_substitutions.substitute_winds(table.seats.all()).items()
    }
    entry["penalties"] = [
        {
            "player": stood_in.get(p.registration_id) or code_of[p.registration_id],
            "points": p.points,
            "paid_to": stood_in.get(p.paid_to_player_id) or code_of[p.paid_to_player_id]
            if p.paid_to == PaidTo.PLAYER and p.paid_to_player_id
            else p.paid_to,
            "rule": p.rule,
            "reason": p.reason,
            **_ruling_doc(p),
        }
        for p in penalties
    ]
    entry["late"] = [
        {"player": code_of[late.registration_id], "minutes": late.minutes}
        for late in sorted(table.late_arrivals.all(), key=lambda item: code_of[item.registration_id])
    ]
    return entry


def _table_appeals(
    table: Table, penalties: list[Penalty], hand_appeals: list[Appeal], code_of: dict[int, str]
) -> list[dict[str, Any]]:
    """A table's appeals: against lateness and against a hand's result (docs/rulings.md: "late" names the
    player, "hand" the hand's number, instead of "penalty"), then against its penalties by index."""
    round_number = table.round.number
    appeals = []
    for late in table.late_arrivals.all():
        for appeal in sorted(late.appeals.all(), key=lambda a: a.pk):
            appeals.append(
                _appeal_doc(round_number, table.number, appeal, late=code_of[late.registration_id])
            )
    for appeal in hand_appeals:
        appeals.append(_appeal_doc(round_number, table.number, appeal, hand=appeal.hand_number))
    for index, penalty in enumerate(penalties):
        for appeal in sorted(penalty.appeals.all(), key=lambda a: a.pk):
            appeals.append(_appeal_doc(round_number, table.number, appeal, penalty=index))
    return appeals


def _names_doc(player: Player) -> dict[str, str]:
    """A player's family and given names, written only when set (an event without them exports as before)."""
    names = {"family_name": player.family_name, "given_name": player.given_name}
    return {key: value for key, value in names.items() if value}


def _appeal_doc(round_number: int, table_number: int, appeal: Appeal, **target: Any) -> dict[str, Any]:
    return {
        "round": round_number,
        "table": table_number,
        **target,
        "status": appeal.status,
        "filed_minutes_after": appeal.filed_minutes_after,
        **_appeal_words(appeal),
    }


def _appeal_words(appeal: Appeal) -> dict[str, Any]:
    """What was written (rule 94b-d): written only when there is something, so older exports stay as they were."""
    decision = appeal.decision
    words = {
        "statement": appeal.statement,
        "signed_by": appeal.signed_by,
        "reasons": decision.reasons if decision is not None else "",
    }
    doc: dict[str, Any] = {key: value for key, value in words.items() if value}
    if appeal.fee:
        doc["fee"] = appeal.fee
    return doc


def _ruling_doc(penalty: Penalty) -> dict[str, Any]:
    """A ruling's optional keys (docs/rulings.md): written only when they say more than the points, so an
    event with plain penalties exports as before."""
    doc: dict[str, Any] = {}
    if penalty.outcome not in ("points", "warning"):
        doc["outcome"] = penalty.outcome
    if penalty.kind:
        doc["kind"] = penalty.kind
    if penalty.bars_win and penalty.hand_number:
        doc["hand"] = penalty.hand_number
    return doc
