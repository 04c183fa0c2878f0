"""The whole event as JSON (``shared/specs/event-json.md``): export, all-or-nothing import, standings.

``import_event`` checks the whole document first and reports every problem with its path in the
document; it writes nothing unless the document is entirely valid.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from django.db import transaction

from players.models import Player
from scoring import services
from scoring.models import (
    REASONS_LENGTH,
    STATEMENT_LENGTH,
    Appeal,
    AppealStatus,
    AppealSubject,
    Confirmation,
    ConfirmedBy,
    Hand,
    LateArrival,
    PaidTo,
    Penalty,
    TableTotals,
)
from scoring.rules import registry
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import HandRecord, RuleSet
from scoring.services import hand_record, played_hands, tables_with_results
from scoring.substitutions import DEFAULT_POLICY, policy
from tournaments import takeovers
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.event_settings import settings_problems
from tournaments.field_limits import max_length, too_long
from tournaments.models import WINDS, Registration, Round, Seat, Substitution, Table, Tournament
from tournaments.release import publish_everything
from tournaments.services import PlayerRow, add_registration, clean_player_row

FORMAT = "mahjong-event/1"
ID_LENGTH = max_length(Registration, "code")
ID_RE = re.compile(rf"^[A-Za-z0-9_.'-]{{1,{ID_LENGTH}}}$")
MAX_ROUND = 50
MAX_TABLE = 500
MAX_DOCUMENT_BYTES = 50_000_000
MAX_NESTING = 16  # an event document nests 11 levels at most (doc, rounds, table, hands, tiles, melds...)
TILE_CODES = ("bad_tiles", "claim_above_tiles", "below_minimum")
SLUG_LENGTH = max_length(Tournament, "slug")
SLUG_RE = re.compile(rf"^[-a-zA-Z0-9_]{{1,{SLUG_LENGTH}}}$")
PENALTY_TEXTS = ("rule", "reason", "kind")
"""A penalty's texts in the event JSON, each as long as its column of ``Penalty`` at most."""


class EventImportError(Exception):
    """Every problem found in a document, each as "path: what is wrong"."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


# --- export --------------------------------------------------------------------------------------


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
    settings: dict[str, Any] = dict(tournament.settings)
    settings["sessions"] = tournament.num_sessions
    if tournament.hands_per_session is not None:
        settings["hands_per_session"] = tournament.hands_per_session
    if tournament.session_minutes is not None:
        settings["session_minutes"] = tournament.session_minutes
    tables_by_round: dict[int, list[Table]] = {}
    for table in tables_with_results(tournament):
        tables_by_round.setdefault(table.round.number, []).append(table)
    rounds = []
    appeals = []
    hand_appeals: dict[int, list[Appeal]] = {}
    for appeal in (
        Appeal.objects.filter(table__round__tournament=tournament, subject=AppealSubject.HAND)
        .prefetch_related("decisions")
        .order_by("pk")
    ):
        hand_appeals.setdefault(appeal.table_id or 0, []).append(appeal)
    for round_ in tournament.rounds.order_by("number"):
        tables = []
        for table in tables_by_round.get(round_.number, []):
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
            if has_results and not services.is_confirmed(table):
                entry["confirmed"] = (
                    False  # results entered but not final (a table with none has nothing to confirm)
                )
            penalties = list(table.penalties.all())
            # The format has no substitutions (docs/seating.md): a penalty naming a substitute is written
            # under the seat's player, where it counts by default (export_warnings says so).
            stood_in = {
                pk: code_at[wind] for pk, wind in takeovers.substitute_winds(table.seats.all()).items()
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
            # Appeals against lateness and against a hand's result (docs/rulings.md): "late" names the
            # player, "hand" the hand's number, instead of "penalty".
            for late in table.late_arrivals.all():
                for appeal in sorted(late.appeals.all(), key=lambda a: a.pk):
                    appeals.append(
                        _appeal_doc(round_.number, table.number, appeal, late=code_of[late.registration_id])
                    )
            for appeal in hand_appeals.get(table.pk, []):
                appeals.append(_appeal_doc(round_.number, table.number, appeal, hand=appeal.hand_number))
            for index, penalty in enumerate(penalties):
                for appeal in sorted(penalty.appeals.all(), key=lambda a: a.pk):
                    appeals.append(_appeal_doc(round_.number, table.number, appeal, penalty=index))
            tables.append(entry)
        rounds.append({"number": round_.number, "tables": tables})
    return {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "rules": tournament.rules,
            "settings": settings,
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


def _names_doc(player: Player) -> dict[str, str]:
    """A player's family and given names, written only when set (an event without them exports as before)."""
    names = {"family_name": player.family_name, "given_name": player.given_name}
    return {key: value for key, value in names.items() if value}


# --- import: validation --------------------------------------------------------------------------


@dataclass
class _Checker:
    problems: list[str]

    def add(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def length(self, path: str, model: Any, field: str, text: str) -> None:
        """Report a text longer than the model field it is stored in (``field_limits``)."""
        limit = too_long(model, field, text)
        if limit is not None:
            self.add(path, f"must be at most {limit} characters (it has {len(text)})")

    def objects(self, value: Any, path: str, *, missing: str = "must be a list") -> list[tuple[str, Mapping]]:
        """The objects of a list in the document, each with its path; anything else is reported."""
        if not isinstance(value, list):
            self.add(path, missing)
            return []
        found = []
        for index, item in enumerate(value):
            if isinstance(item, Mapping):
                found.append((f"{path}[{index}]", item))
            else:
                self.add(f"{path}[{index}]", "must be an object")
        return found


RULING_OUTCOMES = ("points", "warning", "forced_discard", "no_win", "loss_of_rank", "disqualification")
"""``scoring.rules.rulings.OUTCOMES``: what a penalty's optional ``outcome`` may say (docs/rulings.md)."""


def _appeal_doc(round_number: int, table_number: int, appeal: Appeal, **target: Any) -> dict[str, Any]:
    return {
        "round": round_number,
        "table": table_number,
        **target,
        "status": appeal.status,
        "filed_minutes_after": appeal.filed_minutes_after,
        **_appeal_words(appeal),
    }


APPEAL_TEXTS = {
    "statement": STATEMENT_LENGTH,
    "signed_by": max_length(Appeal, "signed_by"),
    "reasons": REASONS_LENGTH,
}
"""Optional texts of an appeal in the event JSON (rule 94b-c and the decision's reasons), with their limits:
the signature's column, and for the two unlimited columns (TextField) the appeal pages' own limits."""


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


def _appeal_target(table: Table, doc: Mapping[str, Any], registrations: Mapping[str, Any]) -> dict[str, Any]:
    """What an imported appeal is against: a penalty (by index), a lateness (by player) or a hand."""
    if "late" in doc:
        late = LateArrival.objects.current().get(table=table, registration=registrations[doc["late"]])
        return {
            "table": table,
            "subject": AppealSubject.LATENESS,
            "late_arrival": late,
            "appellant": late.registration,
            "ruling_at": late.created_at,
        }
    if "hand" in doc:
        hand = Hand.objects.current().get(table=table, number=doc["hand"])
        return {
            "table": table,
            "subject": AppealSubject.HAND,
            "hand_number": hand.number,
            "ruling_at": hand.created_at,
        }
    penalty = table.penalties.order_by("position")[doc["penalty"]]
    return {
        "table": table,
        "penalty": penalty,
        "appellant": penalty.registration,
        "ruling_at": penalty.created_at,
    }


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


def _scalar(value: Any) -> Any:
    """A value usable as a key (a list where an id belongs is simply not found)."""
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def _depth(value: Any, limit: int) -> int:
    """How deep lists and objects nest, stopping once past ``limit``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _too_long_number(text: str) -> int:
    if len(text) - text.startswith("-") > 30:
        raise ValueError(f"a number with {len(text)} digits")
    return int(text)


def read_document(raw: bytes | str) -> Any:
    """An event document read safely: a size limit, numbers of at most 30 digits, nesting that Python's
    parser survives; anything else is an :class:`EventImportError` with a clear message."""
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise EventImportError([f"$: the document is larger than {MAX_DOCUMENT_BYTES // 1_000_000} MB"])
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        return json.loads(text, parse_int=_too_long_number)
    except UnicodeDecodeError as error:
        raise EventImportError([f"$: not UTF-8 text ({error})"]) from None
    except RecursionError:
        raise EventImportError(
            [f"$: lists and objects nest too deep (at most {MAX_NESTING} levels)"]
        ) from None
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        raise EventImportError([f"$: not valid JSON ({error})"]) from None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_event(doc: Any) -> list[str]:
    """Every problem in the document (empty when it can be imported)."""
    check = _Checker([])
    if not isinstance(doc, Mapping):
        return ["$: the document must be a JSON object"]
    if _depth(doc, MAX_NESTING) > MAX_NESTING:
        return [f"$: lists and objects nest deeper than {MAX_NESTING} levels; no event document does"]
    if doc.get("format") != FORMAT:
        check.add("format", f"must be {FORMAT!r}")
    tournament = doc.get("tournament")
    hands_limit: int | None = None
    if not isinstance(tournament, Mapping):
        check.add("tournament", "missing or not an object")
    else:
        if not isinstance(tournament.get("name"), str) or not tournament["name"].strip():
            check.add("tournament.name", "missing")
        else:
            check.length("tournament.name", Tournament, "name", tournament["name"].strip())
        if not isinstance(tournament.get("slug"), str) or not SLUG_RE.match(tournament["slug"]):
            check.add("tournament.slug", f"must be letters, digits, '-' or '_' (at most {SLUG_LENGTH})")
        rules = tournament.get("rules")
        if not isinstance(rules, str) or rules not in registry.codes():
            check.add("tournament.rules", f"must be one of {', '.join(registry.codes())}")
        settings = tournament.get("settings", {})
        if not isinstance(settings, Mapping):
            check.add("tournament.settings", "must be an object")
        else:
            for key in ("hands_per_session", "session_minutes", "sessions"):
                if key in settings and not (_is_int(settings[key]) and 1 <= settings[key] <= 1000):
                    check.add(f"tournament.settings.{key}", "must be a positive whole number")
            hands_limit = (
                settings.get("hands_per_session") if _is_int(settings.get("hands_per_session")) else None
            )
            if "hands_per_session" not in settings and "session_minutes" not in settings:
                hands_limit = 16  # rule 74: a complete game is sixteen hands
    event_rules = None
    rules_code = tournament.get("rules") if isinstance(tournament, Mapping) else None
    if isinstance(tournament, Mapping) and isinstance(rules_code, str) and rules_code in registry.codes():
        settings_doc = tournament.get("settings", {})
        if isinstance(settings_doc, Mapping):
            problems = settings_problems(rules_code, settings_doc, structural=True)
            for problem in problems:
                check.add("tournament.settings", problem)
            if not problems:
                event_rules = registry.rule_set(rules_code, settings_doc)
                raw_per_session = settings_doc.get("hands_per_session")
                per_session = raw_per_session if _is_int(raw_per_session) else None
                too_many = event_rules.hands_per_session_problem(per_session)
                if too_many:
                    check.add("tournament.settings.hands_per_session", too_many)
                if event_rules.hands_allowed(per_session) is not None:
                    hands_limit = event_rules.hands_allowed(per_session)
    ids: set[str] = set()
    for path, player in check.objects(doc.get("players"), "players", missing="missing or not a list"):
        pid = player.get("id")
        if not isinstance(pid, str) or not pid.strip():
            check.add(f"{path}.id", "missing")
        elif not ID_RE.match(pid):
            check.add(
                f"{path}.id",
                f"must be 1 to {ID_LENGTH} letters, digits, '-', '_' or '.' (it appears in web addresses)",
            )
        elif pid in ids:
            check.add(f"{path}.id", f"{pid!r} is used twice")
        else:
            ids.add(pid)
        for key in ("family_name", "given_name"):  # optional: as the federation lists the person
            if key in player and not isinstance(player[key], str | None):
                check.add(f"{path}.{key}", "must be text")
        try:
            clean_player_row(_player_row(player))
        except ServiceError as error:
            check.add(path, error.message)
    round_numbers: set[int] = set()
    penalties_at: dict[tuple[int, int], int] = {}
    late_at: dict[tuple[int, int], set[Any]] = {}
    hands_at: dict[tuple[int, int], int] = {}
    for rpath, round_ in check.objects(doc.get("rounds", []), "rounds"):
        number = round_.get("number")
        if not _is_int(number) or not 1 <= number <= MAX_ROUND:
            check.add(f"{rpath}.number", f"must be a whole number from 1 to {MAX_ROUND}")
            continue
        if number in round_numbers:
            check.add(f"{rpath}.number", f"round {number} appears twice")
        round_numbers.add(number)
        seated: set[str] = set()
        table_numbers: set[int] = set()
        for tpath, table in check.objects(round_.get("tables", []), f"{rpath}.tables"):
            tnumber = table.get("number")
            if not _is_int(tnumber) or not 1 <= tnumber <= MAX_TABLE:
                check.add(f"{tpath}.number", f"must be a whole number from 1 to {MAX_TABLE}")
            elif tnumber in table_numbers:
                check.add(f"{tpath}.number", f"table {tnumber} appears twice in this round")
            else:
                table_numbers.add(tnumber)
            seats = table.get("seats")
            if not isinstance(seats, Mapping) or set(seats) != set(WINDS):
                check.add(f"{tpath}.seats", "must give a player for each of E, S, W, N")
                continue
            bad_seat = False
            for wind in WINDS:
                pid = seats[wind]
                if not isinstance(pid, str) or pid not in ids:
                    check.add(f"{tpath}.seats.{wind}", f"unknown player {pid!r}")
                    bad_seat = True
                elif pid in seated:
                    check.add(f"{tpath}.seats.{wind}", f"player {pid!r} is seated twice in round {number}")
                    bad_seat = True
                if isinstance(pid, str):
                    seated.add(pid)
            if bad_seat:
                continue
            wind_of = {pid: wind for wind, pid in seats.items()}
            _check_table_results(check, tpath, table, wind_of, hands_limit, event_rules)
            if _is_int(tnumber):
                listed = table.get("penalties", [])
                penalties_at[number, tnumber] = len(listed) if isinstance(listed, list) else 0
                late = table.get("late", [])
                late_at[number, tnumber] = (
                    {_scalar(item.get("player")) for item in late if isinstance(item, Mapping)}
                    if isinstance(late, list)
                    else set()
                )
                hands = table.get("hands", [])
                hands_at[number, tnumber] = len(hands) if isinstance(hands, list) else 0
    for apath, appeal in check.objects(doc.get("appeals", []), "appeals"):
        at: tuple[Any, Any] = (_scalar(appeal.get("round")), _scalar(appeal.get("table")))
        if at not in penalties_at:
            check.add(apath, f"there is no table {at[1]!r} in round {at[0]!r}")
            continue
        targets = [key for key in ("penalty", "late", "hand") if key in appeal]
        if len(targets) > 1:
            check.add(apath, "names one ruling: a penalty, a lateness (late) or a hand, not several")
        elif "late" in appeal:
            if not isinstance(appeal["late"], str) or appeal["late"] not in late_at[at]:
                check.add(f"{apath}.late", "must be a player listed late at that table")
        elif "hand" in appeal:
            if not _is_int(appeal["hand"]) or not 1 <= appeal["hand"] <= hands_at[at]:
                check.add(f"{apath}.hand", f"must be the number of one of that table's {hands_at[at]} hands")
        else:
            index = appeal.get("penalty")
            if not _is_int(index) or not 0 <= index < penalties_at[at]:
                check.add(
                    f"{apath}.penalty",
                    f"must be the index of one of that table's {penalties_at[at]} penalties",
                )
        if appeal.get("status") not in AppealStatus.values:
            check.add(f"{apath}.status", f"must be one of {', '.join(AppealStatus.values)}")
        minutes = appeal.get("filed_minutes_after", 0)
        if not _is_int(minutes) or minutes < 0:
            check.add(f"{apath}.filed_minutes_after", "must be a whole number of minutes")
        else:
            try:
                services.check_appeal_deadline(minutes, event_rules)
            except ServiceError as error:
                check.add(f"{apath}.filed_minutes_after", error.message)
        for key, limit in APPEAL_TEXTS.items():
            if key in appeal and (not isinstance(appeal[key], str) or len(appeal[key]) > limit):
                check.add(f"{apath}.{key}", f"must be text of at most {limit} characters")
        if "fee" in appeal and (not _is_int(appeal["fee"]) or not 0 <= appeal["fee"] <= 100_000):
            check.add(f"{apath}.fee", "must be a whole number from 0 to 100000")
    return check.problems


def _player_row(player: Mapping[str, Any]) -> PlayerRow:
    def text(key: str) -> str:
        value = player.get(key, "")
        return value if isinstance(value, str) else ("" if value is None else str(value))

    return PlayerRow(
        name=text("name"),
        country=text("country"),
        ema_id=text("ema_id"),
        team=text("team"),
        family_name=text("family_name"),
        given_name=text("given_name"),
    )


def hand_record_from_doc(hand: Mapping[str, Any], wind_of: Mapping[str, str], rules: RuleSet) -> HandRecord:
    """A hand of the event JSON (player ids) checked as the pages check one (``services.check_hand``)."""
    return services.check_hand(rules, rules.hand_from_doc(hand, wind_of), hand.get("tiles"))


def _check_table_results(
    check: _Checker,
    tpath: str,
    table: Mapping[str, Any],
    wind_of: Mapping[str, str],
    hands_limit: int | None,
    event_rules: RuleSet | None,
) -> None:
    if "totals" in table and "hands" in table:
        check.add(tpath, "give either hands or totals, not both")
    if not isinstance(table.get("confirmed", True), bool):
        check.add(f"{tpath}.confirmed", "must be true or false")
    if "totals" in table:
        totals = table["totals"]
        if not isinstance(totals, Mapping) or set(totals) != set(wind_of):
            check.add(f"{tpath}.totals", "must give a score for each of the four seated players")
        elif not all(_is_int(v) for v in totals.values()):
            check.add(f"{tpath}.totals", "scores must be whole numbers")
        elif sum(totals.values()) != 0:
            check.add(f"{tpath}.totals", f"must sum to zero; they sum to {sum(totals.values())}")
    hands = table.get("hands", [])
    if isinstance(hands, list) and hands_limit is not None and len(hands) > hands_limit:
        check.add(f"{tpath}.hands", f"{len(hands)} hands, but the session allows {hands_limit}")
    for hpath, hand in check.objects(hands, f"{tpath}.hands"):
        if event_rules is None:
            continue
        try:
            hand_record_from_doc(hand, wind_of, event_rules)
        except HandInputError as error:
            check.add(f"{hpath}.tiles" if error.code in TILE_CODES else hpath, error.message)
    for ppath, penalty in check.objects(table.get("penalties", []), f"{tpath}.penalties"):
        if _scalar(penalty.get("player")) not in wind_of:
            check.add(f"{ppath}.player", f"{penalty.get('player')!r} does not sit at this table")
        paid_to = _scalar(penalty.get("paid_to", "none"))
        if paid_to in wind_of:  # a player id: paid to that one opponent (rule 85e)
            if paid_to == penalty.get("player"):
                check.add(f"{ppath}.paid_to", "a player cannot pay a penalty to themselves")
            paid_to = PaidTo.PLAYER.value
        if not _is_int(penalty.get("points")) or penalty["points"] < 0:
            check.add(f"{ppath}.points", "must be a positive whole number (0 records a warning)")
        elif paid_to not in (PaidTo.EACH_OTHER, PaidTo.NONE, PaidTo.PLAYER):
            check.add(f"{ppath}.paid_to", "must be 'each_other', 'none' or the id of a player at this table")
        else:
            try:
                services.check_penalty(penalty["points"], paid_to)
            except ServiceError as error:
                check.add(ppath, error.message)
        if "outcome" in penalty and penalty["outcome"] not in RULING_OUTCOMES:
            check.add(f"{ppath}.outcome", f"must be one of {', '.join(RULING_OUTCOMES)}")
        if "hand" in penalty and (not _is_int(penalty["hand"]) or not 1 <= penalty["hand"] <= 1000):
            check.add(f"{ppath}.hand", "must be the number of the hand the ruling bars a win in (1 to 1000)")
        if "kind" in penalty and not isinstance(penalty["kind"], str):
            check.add(f"{ppath}.kind", "must be a catalogue key")
        for key in PENALTY_TEXTS:
            if key in penalty:
                check.length(f"{ppath}.{key}", Penalty, key, str(penalty[key]))
    late_players: set[str] = set()
    for lpath, item in check.objects(table.get("late", []), f"{tpath}.late"):
        if _scalar(item.get("player")) not in wind_of:
            check.add(f"{lpath}.player", f"{item.get('player')!r} does not sit at this table")
        elif item["player"] in late_players:
            check.add(f"{lpath}.player", "is listed late twice")
        else:
            late_players.add(item["player"])
        if not _is_int(item.get("minutes")) or item["minutes"] < 0:
            check.add(f"{lpath}.minutes", "must be a whole number of minutes")


# --- import: writing -----------------------------------------------------------------------------


@transaction.atomic
def import_event(doc: Any, *, replace: bool = False, acting_user: User = None) -> Tournament:
    """Create the event of ``doc`` (or replace the one with its slug), or raise EventImportError."""
    problems = validate_event(doc)
    if not problems:
        slug = doc["tournament"]["slug"]
        existing = Tournament.objects.filter(slug=slug).first()
        if existing is not None and not replace:
            problems.append(
                f"tournament.slug: an event {slug!r} already exists (use --replace to replace it)"
            )
    if problems:
        raise EventImportError(problems)
    if existing is not None:
        _delete_event(existing)
    info = doc["tournament"]
    settings = dict(info.get("settings", {}))
    hands_per_session = settings.pop("hands_per_session", None)
    session_minutes = settings.pop("session_minutes", None)
    if hands_per_session is None and session_minutes is None:
        hands_per_session = 16
    rounds_doc = sorted(doc.get("rounds", []), key=lambda r: r["number"])
    sessions = settings.pop("sessions", max([r["number"] for r in rounds_doc], default=1))
    tournament = Tournament.objects.create(
        name=info["name"].strip(),
        slug=info["slug"],
        rules=info["rules"],
        num_sessions=max(sessions, max([r["number"] for r in rounds_doc], default=1)),
        hands_per_session=hands_per_session,
        session_minutes=session_minutes,
        settings=settings,
    )
    registrations: dict[str, Registration] = {}
    for player in doc["players"]:
        row = clean_player_row(_player_row(player))
        registrations[player["id"]] = add_registration(
            tournament, dataclasses.replace(row, code=player["id"])
        )
    rounds = {
        n: Round.objects.create(tournament=tournament, number=n)
        for n in range(1, tournament.num_sessions + 1)
    }
    table_index: dict[tuple[int, int], Table] = {}
    for round_doc in rounds_doc:
        round_ = rounds[round_doc["number"]]
        for table_doc in round_doc.get("tables", []):
            table = _import_table(round_, table_doc, registrations, acting_user)
            table_index[round_.number, table.number] = table
        if round_doc.get("tables"):
            from django.utils import timezone

            round_.seated_at = timezone.now()
            round_.save(update_fields=["seated_at"])
    for appeal_doc in doc.get("appeals", []):
        appeal = Appeal.objects.create(
            **_appeal_target(
                table_index[appeal_doc["round"], appeal_doc["table"]], appeal_doc, registrations
            ),
            filed_minutes_after=appeal_doc.get("filed_minutes_after", 0),
            statement=appeal_doc.get("statement", ""),
            signed_by=appeal_doc.get("signed_by", ""),
            fee=appeal_doc.get("fee", 0),
        )
        if appeal_doc["status"] != AppealStatus.PENDING:
            services.store_decision(
                appeal, appeal_doc["status"], reasons=appeal_doc.get("reasons", ""), acting_user=acting_user
            )
    from scoring.rulings import withdraw_disqualified

    withdraw_disqualified(tournament, acting_user=acting_user)  # MCR 77f, 89: not seated again
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        AuditAction.IMPORT_EVENT,
        f"Imported {tournament.name}",
        replaced=existing is not None,
    )
    # The document has no release state: an imported event is public with every session (issue 13).
    return publish_everything(tournament, acting_user=acting_user)


def _import_table(
    round_: Round, table_doc: Mapping[str, Any], registrations: Mapping[str, Registration], acting_user: User
) -> Table:
    """One table of the document, written by the same service functions as the referee's pages."""
    table = Table.objects.create(
        round=round_,
        number=table_doc["number"],
        totals_only=bool(table_doc.get("totals_only") or "totals" in table_doc),
    )
    wind_of = {}
    for wind in WINDS:
        pid = table_doc["seats"][wind]
        Seat.objects.create(table=table, round=round_, registration=registrations[pid], wind=wind)
        wind_of[pid] = wind
    if "totals" in table_doc:
        TableTotals.supersede(
            table=table,
            scores={wind_of[pid]: score for pid, score in table_doc["totals"].items()},
            acting_user=acting_user,
        )
    rules = round_.tournament.rule_set
    services.store_new_table_hands(
        table,
        [
            (hand_record_from_doc(hand, wind_of, rules), hand.get("tiles"))
            for hand in table_doc.get("hands", [])
        ],
        acting_user=acting_user,
    )
    has_results = bool(table_doc.get("hands")) or "totals" in table_doc
    if has_results and table_doc.get("confirmed", True):
        Confirmation.supersede(table=table, how=ConfirmedBy.IMPORT, acting_user=acting_user)
    for penalty in table_doc.get("penalties", []):
        paid_to = penalty.get("paid_to", PaidTo.NONE)
        receiver = registrations[paid_to] if paid_to in wind_of else None
        services.store_penalty(
            table,
            registrations[penalty["player"]],
            penalty["points"],
            paid_to=PaidTo.PLAYER if receiver is not None else paid_to,
            paid_to_player=receiver,
            rule=str(penalty.get("rule", "")),
            reason=str(penalty.get("reason", "")),
            acting_user=acting_user,
            outcome=penalty.get("outcome"),
            kind=str(penalty.get("kind", "")),
            hand_number=penalty.get("hand"),
        )
    for late in table_doc.get("late", []):
        services.store_late(table, registrations[late["player"]], late["minutes"], acting_user=acting_user)
    return table


def _delete_event(tournament: Tournament) -> None:
    """Remove an event and everything under it (registrations are RESTRICTed, so they go with it)."""
    tournament.delete()
