"""Checking a whole event document before anything is written (``shared/specs/event-json.md``): every
problem, each with its path in the document, in the document's order.

Hands, penalties and appeals are checked by the same service checks as the referee's pages
(``entry.check_hand``, ``check_penalty``, ``check_appeal_deadline``), so a document is refused
exactly where a page would refuse the same entry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.interchange.documents import (
    APPEAL_TEXTS,
    FORMAT,
    ID_LENGTH,
    ID_RE,
    MAX_NESTING,
    MAX_ROUND,
    MAX_TABLE,
    PENALTY_TEXTS,
    RULING_OUTCOMES,
    SLUG_LENGTH,
    SLUG_RE,
    TILE_CODES,
    Checker,
    depth,
    hand_record_from_doc,
    is_int,
    player_row,
    scalar,
)
from scoring.models import AppealStatus, PaidTo, Penalty
from scoring.rules import registry
from scoring.rules.errors import HandInputError
from scoring.rules.ruleset import RuleSet
from scoring.services import appeals, penalties
from tournaments.errors import ServiceError
from tournaments.event_settings import settings_problems
from tournaments.models import WINDS, Tournament
from tournaments.services.registrations import clean_player_row
from tournaments.venue_time import zone_problem


@dataclass
class _Event:
    """What the rounds are checked against: the players' ids, the hands a session allows and the event's
    rules (``None`` when its rules or settings are wrong: then its hands are not checked)."""

    ids: set[str]
    hands_limit: int | None
    event_rules: RuleSet | None


@dataclass
class _Round:
    """One round being checked: its number, and who and which table numbers were seen in it so far."""

    number: int
    seated: set[str] = field(default_factory=set)
    table_numbers: set[int] = field(default_factory=set)


@dataclass
class _Rulings:
    """What each table (by round and table number) lists, for the appeals that name one of its rulings."""

    penalties_at: dict[tuple[int, int], int] = field(default_factory=dict)
    late_at: dict[tuple[int, int], set[Any]] = field(default_factory=dict)
    hands_at: dict[tuple[int, int], int] = field(default_factory=dict)

    def record(self, at: tuple[int, int], table: Mapping[str, Any]) -> None:
        listed = table.get("penalties", [])
        self.penalties_at[at] = len(listed) if isinstance(listed, list) else 0
        late = table.get("late", [])
        self.late_at[at] = (
            {scalar(item.get("player")) for item in late if isinstance(item, Mapping)}
            if isinstance(late, list)
            else set()
        )
        hands = table.get("hands", [])
        self.hands_at[at] = len(hands) if isinstance(hands, list) else 0


def validate_event(doc: Any) -> list[str]:
    """Every problem in the document (empty when it can be imported)."""
    check = Checker([])
    if not isinstance(doc, Mapping):
        return ["$: the document must be a JSON object"]
    if depth(doc, MAX_NESTING) > MAX_NESTING:
        return [f"$: lists and objects nest deeper than {MAX_NESTING} levels; no event document does"]
    if doc.get("format") != FORMAT:
        check.add("format", f"must be {FORMAT!r}")
    tournament = doc.get("tournament")
    hands_limit = _check_tournament(check, tournament)
    event_rules, hands_limit = _check_rules(check, tournament, hands_limit)
    event = _Event(_check_players(check, doc.get("players")), hands_limit, event_rules)
    rulings = _Rulings()
    round_numbers: set[int] = set()
    for rpath, round_ in check.objects(doc.get("rounds", []), "rounds"):
        number = round_.get("number")
        if not is_int(number) or not 1 <= number <= MAX_ROUND:
            check.add(f"{rpath}.number", f"must be a whole number from 1 to {MAX_ROUND}")
            continue
        if number in round_numbers:
            check.add(f"{rpath}.number", f"round {number} appears twice")
        round_numbers.add(number)
        at_round = _Round(number)
        for tpath, table in check.objects(round_.get("tables", []), f"{rpath}.tables"):
            _check_table(check, tpath, table, at_round, event, rulings)
    for apath, appeal in check.objects(doc.get("appeals", []), "appeals"):
        _check_appeal(check, apath, appeal, rulings, event_rules)
    return check.problems


def _check_tournament(check: Checker, tournament: Any) -> int | None:
    """The event's name, slug, rules and the settings every rule set shares; the hands a session allows
    as far as these say (rule 74: sixteen when neither a count nor a time is given)."""
    if not isinstance(tournament, Mapping):
        check.add("tournament", "missing or not an object")
        return None
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
        return None
    for key in ("hands_per_session", "session_minutes", "sessions"):
        if key in settings and not (is_int(settings[key]) and 1 <= settings[key] <= 1000):
            check.add(f"tournament.settings.{key}", "must be a positive whole number")
    if "time_zone" in settings:
        zone = settings["time_zone"]
        problem = zone_problem(zone) if isinstance(zone, str) else "must be a time zone name"
        if problem:
            check.add("tournament.settings.time_zone", problem)
    if "hands_per_session" not in settings and "session_minutes" not in settings:
        return 16  # rule 74: a complete game is sixteen hands
    return settings.get("hands_per_session") if is_int(settings.get("hands_per_session")) else None


def _check_rules(
    check: Checker, tournament: Any, hands_limit: int | None
) -> tuple[RuleSet | None, int | None]:
    """The event's rule set with its settings checked by the rule set's own schema, and the hands a
    session allows under it; no rule set when the rules or the settings are wrong."""
    rules_code = tournament.get("rules") if isinstance(tournament, Mapping) else None
    if not (
        isinstance(tournament, Mapping) and isinstance(rules_code, str) and rules_code in registry.codes()
    ):
        return None, hands_limit
    settings_doc = tournament.get("settings", {})
    if not isinstance(settings_doc, Mapping):
        return None, hands_limit
    problems = settings_problems(rules_code, settings_doc, structural=True)
    for problem in problems:
        check.add("tournament.settings", problem)
    if problems:
        return None, hands_limit
    event_rules = registry.rule_set(rules_code, settings_doc)
    raw_per_session = settings_doc.get("hands_per_session")
    per_session = raw_per_session if is_int(raw_per_session) else None
    too_many = event_rules.hands_per_session_problem(per_session)
    if too_many:
        check.add("tournament.settings.hands_per_session", too_many)
    if event_rules.hands_allowed(per_session) is not None:
        hands_limit = event_rules.hands_allowed(per_session)
    return event_rules, hands_limit


def _check_players(check: Checker, players: Any) -> set[str]:
    """The players, checked as the registration desk checks a row; their ids (each once)."""
    ids: set[str] = set()
    for path, player in check.objects(players, "players", missing="missing or not a list"):
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
            clean_player_row(player_row(player))
        except ServiceError as error:
            check.add(path, error.message)
    return ids


def _check_table(
    check: Checker, tpath: str, table: Mapping[str, Any], round_: _Round, event: _Event, rulings: _Rulings
) -> None:
    """A table of a round: its number, its seats, then (when all four are seated) its results."""
    tnumber = table.get("number")
    if not is_int(tnumber) or not 1 <= tnumber <= MAX_TABLE:
        check.add(f"{tpath}.number", f"must be a whole number from 1 to {MAX_TABLE}")
    elif tnumber in round_.table_numbers:
        check.add(f"{tpath}.number", f"table {tnumber} appears twice in this round")
    else:
        round_.table_numbers.add(tnumber)
    wind_of = _check_seats(check, tpath, table.get("seats"), round_, event.ids)
    if wind_of is None:
        return
    _check_table_results(check, tpath, table, wind_of, event.hands_limit, event.event_rules)
    if is_int(tnumber):
        rulings.record((round_.number, tnumber), table)


def _check_seats(
    check: Checker, tpath: str, seats: Any, round_: _Round, ids: set[str]
) -> dict[str, str] | None:
    """Each wind's player, known and seated once in the round: the wind of each player id, or ``None``
    when a seat is wrong (the table's results are then not checked)."""
    if not isinstance(seats, Mapping) or set(seats) != set(WINDS):
        check.add(f"{tpath}.seats", "must give a player for each of E, S, W, N")
        return None
    bad_seat = False
    for wind in WINDS:
        pid = seats[wind]
        if not isinstance(pid, str) or pid not in ids:
            check.add(f"{tpath}.seats.{wind}", f"unknown player {pid!r}")
            bad_seat = True
        elif pid in round_.seated:
            check.add(f"{tpath}.seats.{wind}", f"player {pid!r} is seated twice in round {round_.number}")
            bad_seat = True
        if isinstance(pid, str):
            round_.seated.add(pid)
    if bad_seat:
        return None
    return {pid: wind for wind, pid in seats.items()}


def _check_table_results(
    check: Checker,
    tpath: str,
    table: Mapping[str, Any],
    wind_of: Mapping[str, str],
    hands_limit: int | None,
    event_rules: RuleSet | None,
) -> None:
    """A seated table's hands or totals, penalties and lateness."""
    if "totals" in table and "hands" in table:
        check.add(tpath, "give either hands or totals, not both")
    if not isinstance(table.get("confirmed", True), bool):
        check.add(f"{tpath}.confirmed", "must be true or false")
    if "totals" in table:
        _check_totals(check, f"{tpath}.totals", table["totals"], wind_of)
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
        _check_penalty(check, ppath, penalty, wind_of)
    _check_late(check, tpath, table.get("late", []), wind_of)


def _check_totals(check: Checker, path: str, totals: Any, wind_of: Mapping[str, str]) -> None:
    """A totals-only table's scores: one for each seated player, whole numbers summing to zero."""
    if not isinstance(totals, Mapping) or set(totals) != set(wind_of):
        check.add(path, "must give a score for each of the four seated players")
    elif not all(is_int(v) for v in totals.values()):
        check.add(path, "scores must be whole numbers")
    elif sum(totals.values()) != 0:
        check.add(path, f"must sum to zero; they sum to {sum(totals.values())}")


def _check_penalty(
    check: Checker, ppath: str, penalty: Mapping[str, Any], wind_of: Mapping[str, str]
) -> None:
    """A penalty: who, how many points to whom (``penalties.check_penalty``), and the ruling's optional keys."""
    if scalar(penalty.get("player")) not in wind_of:
        check.add(f"{ppath}.player", f"{penalty.get('player')!r} does not sit at this table")
    paid_to = scalar(penalty.get("paid_to", "none"))
    if paid_to in wind_of:  # a player id: paid to that one opponent (rule 85e)
        if paid_to == penalty.get("player"):
            check.add(f"{ppath}.paid_to", "a player cannot pay a penalty to themselves")
        paid_to = PaidTo.PLAYER.value
    if not is_int(penalty.get("points")) or penalty["points"] < 0:
        check.add(f"{ppath}.points", "must be a positive whole number (0 records a warning)")
    elif paid_to not in (PaidTo.EACH_OTHER, PaidTo.NONE, PaidTo.PLAYER):
        check.add(f"{ppath}.paid_to", "must be 'each_other', 'none' or the id of a player at this table")
    else:
        try:
            penalties.check_penalty(penalty["points"], paid_to)
        except ServiceError as error:
            check.add(ppath, error.message)
    _check_ruling_keys(check, ppath, penalty)


def _check_ruling_keys(check: Checker, ppath: str, penalty: Mapping[str, Any]) -> None:
    """A ruling's optional keys (docs/rulings.md) and the penalty's texts against their columns."""
    if "outcome" in penalty and penalty["outcome"] not in RULING_OUTCOMES:
        check.add(f"{ppath}.outcome", f"must be one of {', '.join(RULING_OUTCOMES)}")
    if "hand" in penalty and (not is_int(penalty["hand"]) or not 1 <= penalty["hand"] <= 1000):
        check.add(f"{ppath}.hand", "must be the number of the hand the ruling bars a win in (1 to 1000)")
    if "kind" in penalty and not isinstance(penalty["kind"], str):
        check.add(f"{ppath}.kind", "must be a catalogue key")
    for key in PENALTY_TEXTS:
        if key in penalty:
            check.length(f"{ppath}.{key}", Penalty, key, str(penalty[key]))


def _check_late(check: Checker, tpath: str, late: Any, wind_of: Mapping[str, str]) -> None:
    """The table's late arrivals: players of the table, each once, with whole minutes."""
    late_players: set[str] = set()
    for lpath, item in check.objects(late, f"{tpath}.late"):
        if scalar(item.get("player")) not in wind_of:
            check.add(f"{lpath}.player", f"{item.get('player')!r} does not sit at this table")
        elif item["player"] in late_players:
            check.add(f"{lpath}.player", "is listed late twice")
        else:
            late_players.add(item["player"])
        if not is_int(item.get("minutes")) or item["minutes"] < 0:
            check.add(f"{lpath}.minutes", "must be a whole number of minutes")


def _check_appeal(
    check: Checker, apath: str, appeal: Mapping[str, Any], rulings: _Rulings, event_rules: RuleSet | None
) -> None:
    """An appeal: the ruling it names at a table of the document, then its status, time, texts and fee."""
    at: tuple[Any, Any] = (scalar(appeal.get("round")), scalar(appeal.get("table")))
    if at not in rulings.penalties_at:
        check.add(apath, f"there is no table {at[1]!r} in round {at[0]!r}")
        return
    _check_appeal_target(check, apath, appeal, at, rulings)
    if appeal.get("status") not in AppealStatus.values:
        check.add(f"{apath}.status", f"must be one of {', '.join(AppealStatus.values)}")
    minutes = appeal.get("filed_minutes_after", 0)
    if not is_int(minutes) or minutes < 0:
        check.add(f"{apath}.filed_minutes_after", "must be a whole number of minutes")
    else:
        try:
            appeals.check_appeal_deadline(minutes, event_rules)
        except ServiceError as error:
            check.add(f"{apath}.filed_minutes_after", error.message)
    for key, limit in APPEAL_TEXTS.items():
        if key in appeal and (not isinstance(appeal[key], str) or len(appeal[key]) > limit):
            check.add(f"{apath}.{key}", f"must be text of at most {limit} characters")
    if "fee" in appeal and (not is_int(appeal["fee"]) or not 0 <= appeal["fee"] <= 100_000):
        check.add(f"{apath}.fee", "must be a whole number from 0 to 100000")


def _check_appeal_target(
    check: Checker, apath: str, appeal: Mapping[str, Any], at: tuple[Any, Any], rulings: _Rulings
) -> None:
    """The one ruling an appeal names: a penalty by index, a lateness by player or a hand by number."""
    targets = [key for key in ("penalty", "late", "hand") if key in appeal]
    if len(targets) > 1:
        check.add(apath, "names one ruling: a penalty, a lateness (late) or a hand, not several")
    elif "late" in appeal:
        if not isinstance(appeal["late"], str) or appeal["late"] not in rulings.late_at[at]:
            check.add(f"{apath}.late", "must be a player listed late at that table")
    elif "hand" in appeal:
        if not is_int(appeal["hand"]) or not 1 <= appeal["hand"] <= rulings.hands_at[at]:
            check.add(
                f"{apath}.hand", f"must be the number of one of that table's {rulings.hands_at[at]} hands"
            )
    else:
        index = appeal.get("penalty")
        if not is_int(index) or not 0 <= index < rulings.penalties_at[at]:
            check.add(
                f"{apath}.penalty",
                f"must be the index of one of that table's {rulings.penalties_at[at]} penalties",
            )
