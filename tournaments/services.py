"""Every write to events, players and seating goes through a function here, in a transaction,
attributed to ``acting_user`` and written to the audit log."""

from __future__ import annotations

import csv
import io
import logging
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext

from players import countries
from players.folding import fold
from players.models import Player
from scoring.rules import registry
from scoring.rules.errors import HandInputError
from scoring.rules.settings import lookup, with_value
from tournaments import event_settings, results, spreadsheets
from tournaments.addresses import address_from_name
from tournaments.audit import AuditAction, User, acting, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.event_settings import settings_problems
from tournaments.field_limits import check_length
from tournaments.messages import rule_sentence, text_message
from tournaments.models import (
    WINDS,
    EventRole,
    Registration,
    Role,
    Round,
    Seat,
    SeatingJob,
    Table,
    Tournament,
)

MAX_SESSIONS = 50


@dataclass(frozen=True)
class EventDetails:
    name: str
    slug: str = ""
    rules: str = registry.DEFAULT
    start_date: date | None = None
    end_date: date | None = None
    num_sessions: int = 4
    hands_per_session: int | None = 16
    session_minutes: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)


def _check_event_details(details: EventDetails) -> None:
    if not details.name.strip():
        raise ServiceError(gettext("The event needs a name."), code="name_required")
    check_length(Tournament, "name", details.name.strip(), label=gettext("The event's name"))
    check_length(Tournament, "slug", details.slug, label=gettext("The web address"))
    if details.rules not in registry.codes():
        raise ServiceError(
            gettext("Unknown rule set %(rules)s.") % {"rules": repr(details.rules)}, code="bad_rules"
        )
    if not 1 <= details.num_sessions <= MAX_SESSIONS:
        raise ServiceError(
            gettext("Sessions must be between 1 and %(max_sessions)s.") % {"max_sessions": MAX_SESSIONS},
            code="bad_sessions",
        )
    if details.hands_per_session is None and details.session_minutes is None:
        raise ServiceError(
            gettext("Set hands per session or a time limit per session."), code="session_length"
        )
    if details.hands_per_session is not None and not 1 <= details.hands_per_session <= 64:
        raise ServiceError(gettext("Hands per session must be between 1 and 64."), code="bad_hands")
    if details.rules in registry.codes():
        problem = registry.rule_set_class(details.rules)().hands_per_session_problem(
            details.hands_per_session
        )
        if problem:
            raise ServiceError(rule_sentence(problem), code="bad_hands")
    if details.start_date and details.end_date and details.end_date < details.start_date:
        raise ServiceError(gettext("The event cannot end before it starts."), code="bad_dates")


@transaction.atomic
def create_tournament(details: EventDetails, *, acting_user: User) -> Tournament:
    """Create an event with its sessions; the creator becomes its organiser."""
    _check_event_details(details)
    slug = details.slug or address_from_name(details.name.strip())
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(
            gettext("An event with the address %(slug)s already exists.") % {"slug": repr(slug)},
            code="slug_taken",
        )
    creator = acting(acting_user)
    settings = {**registry.rule_set_class(details.rules).default_settings(), **details.settings}
    problems = settings_problems(details.rules, settings)
    if problems:
        raise ServiceError(
            gettext("Settings: %(problems)s.") % {"problems": text_message(problems[0])}, code="bad_settings"
        )
    tournament = Tournament.objects.create(
        name=details.name.strip(),
        slug=slug,
        rules=details.rules,
        start_date=details.start_date,
        end_date=details.end_date,
        num_sessions=details.num_sessions,
        hands_per_session=details.hands_per_session,
        session_minutes=details.session_minutes,
        settings=settings,
        created_by=creator,
    )
    Round.objects.bulk_create(
        Round(tournament=tournament, number=n) for n in range(1, details.num_sessions + 1)
    )
    if creator is not None:
        EventRole.objects.create(tournament=tournament, user=creator, role=Role.ORGANISER)
    audit(tournament, acting_user, AuditAction.CREATE_EVENT, f"Created {tournament.name}", slug=slug)
    return tournament


@transaction.atomic
def grant_role(tournament: Tournament, user: AbstractBaseUser, role: str, *, acting_user: User) -> None:
    EventRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    audit(tournament, acting_user, AuditAction.GRANT_ROLE, f"{user} is {role}", user=str(user), role=role)


@transaction.atomic
def revoke_role(event_role: EventRole, *, acting_user: User) -> None:
    """Take a role back (logged); an event always keeps at least one organiser."""
    tournament = event_role.tournament
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    organisers = EventRole.objects.filter(tournament=tournament, role=Role.ORGANISER)
    if event_role.role == Role.ORGANISER and organisers.count() <= 1:
        raise ServiceError(
            gettext("An event needs at least one organiser: grant the role to someone else first."),
            code="last_organiser",
        )
    deleted, _ = EventRole.objects.filter(pk=event_role.pk).delete()
    if deleted:
        audit(
            tournament,
            acting_user,
            AuditAction.REVOKE_ROLE,
            f"{event_role.user} is no longer {event_role.role}",
            user=str(event_role.user),
            role=event_role.role,
        )


# --- players -------------------------------------------------------------------------------------

COUNTRY_RE = re.compile(r"^[A-Z]{2}$")
EMA_ID_RE = re.compile(r"^\d{8}$")


@dataclass(frozen=True)
class PlayerRow:
    name: str
    country: str = ""
    ema_id: str = ""
    team: str = ""
    code: str = ""
    family_name: str = ""
    given_name: str = ""


CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
MAX_IMPORT_ROWS = 5000
MAX_IMPORT_COLUMNS = 20
MAX_FIELD = 1000


def clean_player_row(row: PlayerRow, *, country_names: bool = False) -> PlayerRow:
    """Normalise one player's details, or raise a ServiceError saying what is wrong (the first problem of
    ``player_row_problems``).

    The country is an ISO 3166 code; with ``country_names`` (the desk and player lists) a typed name
    such as "Portugal" is mapped to its code, never truncated."""
    cleaned, problems = player_row_problems(row, country_names=country_names)
    if problems:
        raise problems[0]
    return cleaned


def player_row_problems(
    row: PlayerRow, *, country_names: bool = False
) -> tuple[PlayerRow, list[ServiceError]]:
    """One player's details normalised, and every problem with them (one per field at most, in the order
    of the fields). A field with a problem is left empty in the normalised row, so the others can still be
    compared (a row with a bad country and a repeated EMA number reports both)."""
    problems: list[ServiceError] = []
    raw = {
        "name": row.name,
        "country": row.country,
        "ema_id": row.ema_id,
        "team": row.team,
        "family_name": row.family_name,
        "given_name": row.given_name,
        "code": row.code,
    }
    labels = {
        "name": "name",
        "country": "country",
        "ema_id": "EMA id",
        "team": "team",
        "family_name": "family name",
        "given_name": "given name",
    }
    values: dict[str, str] = {}
    for key, value in raw.items():
        if key in labels and CONTROL_CHARACTERS.search(value):
            problems.append(
                ServiceError(
                    gettext("%(label)s contains a control character") % {"label": labels[key]},
                    code="control_character",
                )
            )
            values[key] = ""
            continue
        try:
            values[key] = _clean_field(key, value, country_names=country_names)
        except ServiceError as error:
            problems.append(error)
            values[key] = ""
    problems.sort(key=lambda error: error.code != "control_character")  # as before: those come first
    return PlayerRow(**values), problems


def _clean_field(key: str, value: str, *, country_names: bool) -> str:
    """One field of a player's details normalised, or a ServiceError."""
    if key == "name":
        name = " ".join(value.split())
        if not name:
            raise ServiceError(gettext("name is missing"), code="name_required")
        check_length(Player, "name", name, label=gettext("name"))
        return name
    if key in ("family_name", "given_name"):
        text = " ".join(value.split())
        label = gettext("family name") if key == "family_name" else gettext("given name")
        check_length(Player, key, text, label=label)
        return text
    if key == "country":
        return _clean_country(value, country_names=country_names)
    if key == "ema_id":
        ema_id = value.strip()
        if ema_id and not EMA_ID_RE.match(ema_id):
            raise ServiceError(
                gettext("EMA id %(ema_id)s is not 8 digits") % {"ema_id": repr(value)}, code="bad_ema_id"
            )
        return ema_id
    text = value.strip()
    check_length(Registration, key, text, label=gettext("team") if key == "team" else gettext("player id"))
    return text


def _clean_country(value: str, *, country_names: bool) -> str:
    country = value.strip().upper()
    if country_names:
        mapped = countries.to_code(value)
        if mapped is None:
            raise ServiceError(
                gettext(
                    "country %(country)s is not a country we know: choose one from the list (a name "
                    "such as Portugal or an ISO code such as PT)"
                )
                % {"country": repr(value.strip())},
                code="bad_country",
            )
        return mapped
    if country and not (COUNTRY_RE.match(country) and countries.is_code(country)):
        raise ServiceError(
            gettext("country %(country)s is not a two-letter code such as PT") % {"country": repr(value)},
            code="bad_country",
        )
    return country


def _next_code(tournament: Tournament) -> str:
    used = set(tournament.registrations.values_list("code", flat=True))
    number = len(used) + 1
    while f"p{number}" in used:
        number += 1
    return f"p{number}"


def add_registration(tournament: Tournament, row: PlayerRow) -> Registration:
    """Register a cleaned row (the same person is found again by EMA number); inside a transaction."""
    player = None
    if row.ema_id:
        player = Player.objects.filter(ema_id=row.ema_id).first()
    if player is None:
        player = Player.objects.create(
            name=row.name,
            country=row.country,
            ema_id=row.ema_id,
            family_name=row.family_name,
            given_name=row.given_name,
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        if player.name != row.name:  # found by the EMA number: say whose it is
            raise ServiceError(
                gettext("EMA id %(ema_id)s is already registered in this event (%(name)s)")
                % {"ema_id": row.ema_id, "name": player.name},
                code="already_registered",
            )
        raise ServiceError(
            gettext("%(name)s is already registered") % {"name": row.name}, code="already_registered"
        )
    code = row.code or _next_code(tournament)
    if Registration.objects.filter(tournament=tournament, code=code).exists():
        raise ServiceError(
            gettext("player id %(code)s is already used in this event") % {"code": repr(code)},
            code="code_taken",
        )
    return Registration.objects.create(tournament=tournament, player=player, code=code, team=row.team)


@transaction.atomic
def register_player(tournament: Tournament, row: PlayerRow, *, acting_user: User) -> Registration:
    registration = add_registration(tournament, clean_player_row(row, country_names=True))
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        AuditAction.REGISTER,
        f"Registered {registration.player.name}",
        code=registration.code,
    )
    return registration


@dataclass
class ImportReport:
    created: list[Registration] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


HEADER_ALIASES = {
    "name": "name",
    "player": "name",
    "country": "country",
    "ema_id": "ema_id",
    "ema id": "ema_id",
    "ema": "ema_id",
    "team": "team",
    "club": "team",
    "family_name": "family_name",
    "family name": "family_name",
    "surname": "family_name",
    "last name": "family_name",
    "given_name": "given_name",
    "given name": "given_name",
    "given names": "given_name",
    "first name": "given_name",
}


def read_rows(content: bytes, filename: str, *, what: str = "players") -> list[list[str]]:
    """The cells of a CSV or XLSX file, read safely: the stated dimension of a sheet is not trusted, rows
    and columns are capped, every cell is cut to ``MAX_FIELD`` characters (``what`` names the rows)."""
    if filename.lower().endswith(".xlsx"):
        workbook = spreadsheets.open_workbook(content)  # its unpacked size checked first (issue 22)
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # the stated dimension may claim a million rows (STYLE.md pitfall 13)
        raw_rows: list[list[str]] = []
        for row in sheet.iter_rows(values_only=True, max_col=MAX_IMPORT_COLUMNS):
            if len(raw_rows) > MAX_IMPORT_ROWS:
                workbook.close()
                raise ServiceError(
                    gettext(
                        "The file has more than %(max_import_rows)s rows; import at most "
                        "%(max_import_rows)s %(what)s at once."
                    )
                    % {"max_import_rows": MAX_IMPORT_ROWS, "what": what},
                    code="too_many_rows",
                )
            raw_rows.append(["" if cell is None else str(cell)[:MAX_FIELD] for cell in row])
        workbook.close()
    else:
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ServiceError(
                gettext("The file is not UTF-8 text; save it as CSV UTF-8 or XLSX."), code="bad_file"
            ) from None
        try:
            dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        raw_rows = []
        try:
            for row in csv.reader(io.StringIO(text), dialect):
                if len(raw_rows) > MAX_IMPORT_ROWS:
                    raise ServiceError(
                        gettext(
                            "The file has more than %(max_import_rows)s rows; import at most "
                            "%(max_import_rows)s %(what)s at once."
                        )
                        % {"max_import_rows": MAX_IMPORT_ROWS, "what": what},
                        code="too_many_rows",
                    )
                raw_rows.append([cell[:MAX_FIELD] for cell in row[:MAX_IMPORT_COLUMNS]])
        except csv.Error as error:
            raise ServiceError(
                gettext("The file could not be read as CSV (row %(value)s: %(error)s).")
                % {"value": len(raw_rows) + 1, "error": error},
                code="bad_file",
            ) from None
    return raw_rows


def read_player_table(content: bytes, filename: str) -> list[dict[str, str]]:
    """Rows of a CSV or XLSX player list as dicts keyed by normalised header names."""
    raw_rows = read_rows(content, filename)
    raw_rows = [row for row in raw_rows if any(cell.strip() for cell in row)]
    if not raw_rows:
        raise ServiceError(gettext("The file has no rows."), code="empty_file")
    header = [HEADER_ALIASES.get(cell.strip().lower(), cell.strip().lower()) for cell in raw_rows[0]]
    if "name" not in header:
        raise ServiceError(
            gettext("The first row must be a header with at least a 'name' column."), code="no_header"
        )
    return [dict(zip(header, (cell.strip() for cell in row), strict=False)) for row in raw_rows[1:]]


@dataclass(frozen=True)
class RowProblem:
    """One problem of one row of a player list (``line`` is the row's number in the file, the header
    being row 1)."""

    line: int
    message: str


def _rows_text(lines: Iterable[int]) -> str:
    return ", ".join(str(line) for line in lines)


def check_player_rows(
    tournament: Tournament, rows: list[dict[str, str]]
) -> tuple[list[PlayerRow], list[str]]:
    """Every row of a player list cleaned, and every problem of every row in one pass, each with its row
    number: what is wrong with a field (the desk's checks), an EMA number or a name (ignoring case and
    accents) repeated within the file, and an EMA number or a name already registered in the event."""
    problems: list[RowProblem] = []
    cleaned: list[tuple[int, PlayerRow]] = []
    for line, data in enumerate(rows, start=2):
        row, errors = player_row_problems(
            PlayerRow(
                name=data.get("name", ""),
                country=data.get("country", ""),
                ema_id=data.get("ema_id", ""),
                team=data.get("team", ""),
                family_name=data.get("family_name", ""),
                given_name=data.get("given_name", ""),
            ),
            country_names=True,
        )
        problems.extend(
            RowProblem(line, gettext("Row %(line)s: %(problem)s.") % {"line": line, "problem": error.message})
            for error in errors
        )
        cleaned.append((line, row))
    lines_of_ema: dict[str, list[int]] = {}
    lines_of_name: dict[str, list[int]] = {}
    for line, row in cleaned:
        if row.ema_id:
            lines_of_ema.setdefault(row.ema_id, []).append(line)
        if row.name:
            lines_of_name.setdefault(fold(row.name), []).append(line)
    registered = list(tournament.registrations.select_related("player").order_by("id"))
    by_ema = {r.player.ema_id: r for r in registered if r.player.ema_id}
    by_name: dict[str, Registration] = {}
    for registration in registered:
        by_name.setdefault(fold(registration.player.name), registration)
    for line, row in cleaned:
        same_ema = (
            [other for other in lines_of_ema.get(row.ema_id, []) if other != line] if row.ema_id else []
        )
        if same_ema:
            problems.append(
                RowProblem(
                    line,
                    gettext(
                        "Row %(line)s: EMA id %(ema_id)s is also on row %(rows)s (one number, one person)."
                    )
                    % {"line": line, "ema_id": row.ema_id, "rows": _rows_text(same_ema)},
                )
            )
        same_name = [
            other
            for other in lines_of_name.get(fold(row.name), [])
            if other != line and other not in same_ema
        ]
        if row.name and same_name:
            problems.append(
                RowProblem(
                    line,
                    gettext(
                        "Row %(line)s: %(name)s is also on row %(rows)s (the same name, ignoring case and accents)."
                    )
                    % {"line": line, "name": row.name, "rows": _rows_text(same_name)},
                )
            )
        holder = by_ema.get(row.ema_id) if row.ema_id else None
        if holder is not None:
            problems.append(
                RowProblem(
                    line,
                    gettext(
                        "Row %(line)s: EMA id %(ema_id)s is already registered in this event (%(name)s, %(code)s)."
                    )
                    % {"line": line, "ema_id": row.ema_id, "name": holder.player.name, "code": holder.code},
                )
            )
        namesake = by_name.get(fold(row.name)) if row.name else None
        if namesake is not None and namesake is not holder:
            problems.append(
                RowProblem(
                    line,
                    gettext(
                        "Row %(line)s: %(name)s is already registered in this event (%(registered)s, %(code)s)."
                    )
                    % {
                        "line": line,
                        "name": row.name,
                        "registered": namesake.player.name,
                        "code": namesake.code,
                    },
                )
            )
    problems.sort(key=lambda problem: problem.line)  # stable: a row's problems stay in the order found
    return [row for _, row in cleaned], [problem.message for problem in problems]


class _RowRefusedError(Exception):
    """Leaves the import's savepoint when a row is refused while writing (nothing is kept)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@transaction.atomic
def import_players(
    tournament: Tournament, content: bytes, filename: str, *, acting_user: User
) -> ImportReport:
    """Register every player of a CSV/XLSX list, or none: every problem of every row is reported with its
    row number (``check_player_rows``), on the first upload."""
    report = ImportReport()
    rows = read_player_table(content, filename)
    cleaned, report.errors = check_player_rows(tournament, rows)
    if report.errors:
        return report
    used = set(tournament.registrations.values_list("code", flat=True))
    number = len(used)
    try:
        with transaction.atomic():
            for line, row in enumerate(cleaned, start=2):
                number += 1
                while f"p{number}" in used:
                    number += 1
                try:
                    report.created.append(add_registration(tournament, replace(row, code=f"p{number}")))
                except ServiceError as error:  # registered meanwhile, by someone at the desk
                    raise _RowRefusedError(
                        gettext("Row %(line)s: %(problem)s.") % {"line": line, "problem": error.message}
                    ) from None
    except _RowRefusedError as refused:
        return ImportReport(errors=[refused.message])
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        AuditAction.IMPORT_PLAYERS,
        f"Imported {len(cleaned)} players",
        count=len(cleaned),
    )
    return report


@transaction.atomic
def set_checked_in(registration: Registration, checked_in: bool, *, acting_user: User) -> None:
    Registration.objects.filter(pk=registration.pk).update(checked_in=checked_in)
    registration.checked_in = checked_in
    audit(
        registration.tournament,
        acting_user,
        AuditAction.CHECK_IN if checked_in else AuditAction.CHECK_OUT,
        f"{registration.player.name} {'checked in' if checked_in else 'not checked in'}",
    )


# --- seating -------------------------------------------------------------------------------------


def round_has_results(round_: Round) -> bool:
    return results.source().round_has_results(round_)


def seating_players(tournament: Tournament) -> list[Registration]:
    """Who is seated: the checked-in players, or everyone when nobody has been checked in yet
    (substitutes are added by the engine when the event's policy asks for them); never a withdrawn
    player."""
    registrations = list(
        tournament.registrations.filter(is_substitute=False, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )
    checked_in = [r for r in registrations if r.checked_in]
    return checked_in or registrations


def _substitute(tournament: Tournament, code: str) -> Registration:
    """The substitute registration for an engine id such as ``sub-1`` (made on first use)."""
    existing = tournament.registrations.filter(code=code).first()
    if existing is not None:
        return existing
    number = code.removeprefix("sub-").rstrip("'")
    player = Player.objects.create(name=f"Substitute {number}")
    return Registration.objects.create(tournament=tournament, player=player, code=code, is_substitute=True)


def _store_round(round_: Round, seating: Any, by_code: dict[str, Registration]) -> list[Table]:
    round_.tables.all().delete()
    tables = []
    for table_plan in seating.tables:
        table = Table.objects.create(round=round_, number=table_plan.number)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, registration=by_code[code], wind=wind)
            for wind, code in zip(WINDS, table_plan.seats, strict=True)
        )
        tables.append(table)
    round_.seated_at = timezone.now()
    round_.save(update_fields=["seated_at"])
    return tables


def _engine_error(error: Exception) -> ServiceError:
    from tournaments.seating import SeatingError

    assert isinstance(error, SeatingError)
    message = error.message if hasattr(error, "message") else str(error)
    if error.code == "not_multiple_of_four":
        message += " Register or check in substitutes, or choose a substitute policy in the event settings."
    return ServiceError(message, code=error.code)


def generate_seating(round_: Round, *, acting_user: User, seed: int = 0) -> list[Table]:
    """Seat one session after the sessions already seated, with the seating engine (fewest repeated
    opponents, balanced winds, teammates apart; Swiss by current standings when the event asks).

    The plan is worked out outside any transaction and stored in a short locked one that checks again
    that nothing was entered at the session meanwhile (``tournaments.reseating``)."""
    from tournaments import reseating, seating_bridge

    tournament = round_.tournament
    swiss = None
    if seating_bridge.settings_of(tournament)["swiss"]:
        swiss = results.source().swiss_scores(tournament)
    proposal = reseating.propose(
        tournament, round_.number, count=1, seed=seed + round_.number, swiss_scores=swiss
    )
    return reseating.store(proposal, acting_user=acting_user)


def seat_remaining(tournament: Tournament, from_number: int, *, acting_user: User, seed: int = 0) -> int:
    """Seat every session from ``from_number`` to the last in one plan, keeping the sessions before it
    as history (after late arrivals or drops, call it again from the next session with nothing entered).
    Planned outside any transaction, stored in a short locked one that checks again."""
    from tournaments import reseating

    proposal = reseating.propose(tournament, from_number, seed=seed)
    reseating.store(proposal, acting_user=acting_user)
    return len(proposal.rounds)


@transaction.atomic
def swap_seats(round_: Round, code_a: str, code_b: str, *, acting_user: User) -> None:
    """Exchange two players' seats in an unplayed session (each takes the other's table and wind)."""
    from tournaments.reseating import entered_at

    found = entered_at([round_])
    if found is not None:
        raise ServiceError(
            gettext(
                "Session %(number)s already has %(split)s; fix seats after play with the seat "
                "correction, which moves the hands too."
            )
            % {"number": round_.number, "split": found.split(" in session")[0]},
            code="round_has_results",
        )
    if code_a == code_b:
        raise ServiceError(gettext("Choose two different players."), code="same_player")
    seats = {
        s.registration.code: s
        for s in Seat.objects.filter(round=round_).select_related("registration__player", "table")
    }
    missing = [code for code in (code_a, code_b) if code not in seats]
    if missing:
        raise ServiceError(
            gettext("Player %(missing)s has no seat in session %(number)s.")
            % {"missing": missing[0], "number": round_.number},
            code="not_seated",
        )
    first, second = seats[code_a], seats[code_b]
    _check_swap(first, second, seats.values())
    # Each takes the other's seat; delete then re-create, as one player may hold one seat per session.
    Seat.objects.filter(pk__in=[first.pk, second.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=second.table_id, round=round_, registration=first.registration, wind=second.wind),
            Seat(table_id=first.table_id, round=round_, registration=second.registration, wind=first.wind),
        ]
    )
    bump_standings(round_.tournament)
    audit(
        round_.tournament,
        acting_user,
        AuditAction.SWAP_SEATS,
        f"Session {round_.number}: swapped {code_a} and {code_b}",
        round=round_.number,
        players=[code_a, code_b],
    )


def _check_swap(first: Seat, second: Seat, seats: Iterable[Seat]) -> None:
    """A swap may not move a player off their fixed table nor put teammates at one table."""
    tables = {first.table_id: first.table, second.table_id: second.table}
    for moving, target in ((first, second), (second, first)):
        fixed = moving.registration.fixed_table
        if fixed is not None and tables[target.table_id].number != fixed:
            raise ServiceError(
                gettext("%(registration)s must stay at table %(fixed)s (fixed table).")
                % {"registration": moving.registration, "fixed": fixed},
                code="breaks_fixed_table",
            )
    if first.table_id == second.table_id:
        return
    for moving, target in ((first, second), (second, first)):
        team = moving.registration.team
        if not team:
            continue
        mates = [
            s.registration
            for s in seats
            if s.table_id == target.table_id and s.pk != target.pk and s.registration.team == team
        ]
        if mates:
            raise ServiceError(
                gettext("%(registration)s would sit with teammate %(mates)s (%(team)s).")
                % {"registration": moving.registration, "mates": mates[0], "team": team},
                code="breaks_apart",
            )


@transaction.atomic
def set_fixed_table(registration: Registration, table: int | None, *, acting_user: User) -> None:
    Registration.objects.filter(pk=registration.pk).update(fixed_table=table)
    registration.fixed_table = table
    audit(
        registration.tournament,
        acting_user,
        AuditAction.FIXED_TABLE,
        f"{registration} fixed to table {table}",
    )


@transaction.atomic
def set_totals_only(table: Table, allowed: bool, *, acting_user: User) -> None:
    Table.objects.filter(pk=table.pk).update(totals_only=allowed)
    table.totals_only = allowed
    audit(
        table.round.tournament,
        acting_user,
        AuditAction.TOTALS_ONLY,
        f"Session {table.round.number} table {table.number}: totals only {'allowed' if allowed else 'off'}",
    )


# --- settings ------------------------------------------------------------------------------------


@transaction.atomic
def update_settings(tournament: Tournament, changes: dict[str, Any], *, acting_user: User) -> Tournament:
    """Change settings by dotted key (``{"seating.time_limit": 8}``), checked against the event's schema
    (:mod:`tournaments.event_settings`). The event's row is locked so two organisers' edits do not
    overwrite each other; settings that rescore results cannot change once results are entered."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    new = dict(locked.settings)
    for key, value in changes.items():
        setting = event_settings.field(locked.rules, key)
        if setting is None:
            raise ServiceError(
                gettext("%(key)s is not a setting of a %(label)s event.")
                % {"key": key, "label": locked.rule_set.label_in(get_language())},
                code="not_a_setting",
            )
        if (
            setting.locked_after_results
            and lookup(locked.settings, key) != value
            and round_results_exist(locked)
        ):
            raise ServiceError(
                gettext("Results have been entered; %(label)s can no longer change.")
                % {"label": setting.label.lower()},
                code="has_results",
            )
        new = with_value(new, key, value)
    problems = settings_problems(locked.rules, new)
    if problems:
        raise ServiceError(rule_sentence(problems[0]), code="bad_settings")
    tournament.settings = new
    if new == locked.settings:
        return tournament
    locked.settings = new
    locked.save(update_fields=["settings"])
    bump_standings(locked)
    summary = ", ".join(
        f"{key} = {value if len(str(value)) < 40 else '(file)'}" for key, value in changes.items()
    )
    audit(locked, acting_user, AuditAction.SETTINGS, f"Settings: {summary}", keys=sorted(changes))
    return tournament


def set_seating_options(
    tournament: Tournament, *, substitute_policy: str, swiss: bool, time_limit: float, acting_user: User
) -> None:
    update_settings(
        tournament,
        {
            "seating.substitute_policy": substitute_policy,
            "seating.swiss": swiss,
            "seating.time_limit": time_limit,
        },
        acting_user=acting_user,
    )


def load_event_card(tournament: Tournament, content: bytes, *, acting_user: User) -> str:
    """Load the year's card (organisers own it; the app ships only made-up samples) from a JSON file."""
    import json

    rules = tournament.rule_set
    if not rules.card_max_bytes:
        raise ServiceError(gettext("These rules have no card to load."), code="no_card")
    if len(content) > rules.card_max_bytes:
        raise ServiceError(
            gettext("The card file has %(count)s bytes; at most %(max_card_bytes)s are accepted.")
            % {"count": format(len(content), ","), "max_card_bytes": format(rules.card_max_bytes, ",")},
            code="bad_card",
        )
    try:
        data = json.loads(content.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ServiceError(gettext("The card file is not UTF-8 text."), code="bad_card") from None
    except RecursionError:
        raise ServiceError(
            gettext("The card file nests lists or objects too deeply."), code="bad_card"
        ) from None
    except ValueError as error:  # bad JSON, or a number of more than 4,300 digits
        raise ServiceError(
            gettext("The card file is not valid JSON (%(error)s).") % {"error": str(error)[:200]},
            code="bad_card",
        ) from None
    try:
        card = rules.load_card(data)
    except HandInputError as error:
        raise ServiceError(
            gettext("The card file has a problem: %(message)s") % {"message": error.message}, code="bad_card"
        ) from None
    update_settings(tournament, {"card": data}, acting_user=acting_user)
    return card.name


def round_results_exist(tournament: Tournament) -> bool:
    return any(round_has_results(round_) for round_ in tournament.rounds.all())


# --- seating in the background -------------------------------------------------------------------

JOB_GRACE_SECONDS = 60  # a job still "running" this long past its time limit died with its process


def start_seating_job(
    round_: Round, *, whole_plan: bool, seed: int = 0, acting_user: User, background: bool = True
) -> SeatingJob:
    """Seat a session (or it and all later ones) in the background; the session page polls the job.

    With ``BACKGROUND_WORKER`` on (production) the job waits in the database for the worker process
    (``manage.py run_worker``, ``tournaments/worker.py``); otherwise a thread of this process runs it.

    Checks what can be checked at once (results already entered, a job already running) so the
    organiser hears of it immediately; the engine's own refusals end the job as failed with its message.
    """
    from django.conf import settings

    from tournaments import seating_bridge

    worker_process = settings.BACKGROUND_WORKER
    tournament = round_.tournament
    if round_has_results(round_):
        raise ServiceError(
            gettext("Session %(number)s already has results; its seating can no longer be changed.")
            % {"number": round_.number},
            code="round_has_results",
        )
    running = current_seating_job(tournament)
    if running is not None and running.status in (SeatingJob.Status.QUEUED, SeatingJob.Status.RUNNING):
        raise ServiceError(
            gettext("A seating plan is already being worked out for this event."), code="job_running"
        )
    job = SeatingJob.objects.create(
        tournament=tournament,
        from_round=round_.number,
        whole_plan=whole_plan,
        seed=seed,
        time_limit=seating_bridge.settings_of(tournament)["time_limit"],
        started_by=acting(acting_user),
        status=SeatingJob.Status.QUEUED if background and worker_process else SeatingJob.Status.RUNNING,
    )
    if job.status == SeatingJob.Status.QUEUED:
        return job
    if background:
        thread = threading.Thread(
            target=run_seating_job, args=(job.pk,), name=f"seating-job-{job.pk}", daemon=True
        )
        transaction.on_commit(thread.start)
    else:
        run_seating_job(job.pk)
        job.refresh_from_db()
    return job


def run_seating_job(job_id: int, *, worker: str = "") -> None:
    """Run one job to its end and record how it ended (the thread's own database connection is closed).

    ``worker`` names the worker process that claimed it: the end is recorded only while the job is still
    that worker's (one that lost it, its heartbeat stale, records nothing)."""
    from django.db import connection

    mine = SeatingJob.objects.filter(pk=job_id, worker=worker)
    try:
        job = SeatingJob.objects.select_related("tournament", "started_by").get(pk=job_id)
        round_ = job.tournament.rounds.get(number=job.from_round)
        try:
            if job.whole_plan:
                count = seat_remaining(
                    job.tournament, job.from_round, acting_user=job.started_by, seed=job.seed
                )
                message = f"Sessions {job.from_round} to {job.from_round + count - 1} seated."
            else:
                tables = generate_seating(round_, acting_user=job.started_by, seed=job.seed)
                message = f"Session {job.from_round} seated at {len(tables)} tables."
            status = SeatingJob.Status.DONE
        except ServiceError as error:
            message, status = error.message, SeatingJob.Status.FAILED
        mine.update(status=status, message=message[:300], finished_at=timezone.now())
    except Exception:  # the job must end, whatever happened; the log keeps the details
        logging.getLogger(__name__).exception("seating job %s failed", job_id)
        mine.update(
            status=SeatingJob.Status.FAILED,
            message="The seating could not be worked out.",
            finished_at=timezone.now(),
        )
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()


def current_seating_job(tournament: Tournament) -> SeatingJob | None:
    """The event's latest job; one left "running" by a dead process is marked failed (a worker process's
    job only once its heartbeat has stopped for that long: another worker would have taken it over)."""
    job = tournament.seating_jobs.first()
    if job is not None and job.status == SeatingJob.Status.RUNNING:
        age = (timezone.now() - (job.heartbeat_at or job.started_at)).total_seconds()
        if age > job.time_limit + JOB_GRACE_SECONDS:
            SeatingJob.objects.filter(pk=job.pk).update(
                status=SeatingJob.Status.FAILED, message="The seating stopped unexpectedly; start it again."
            )
            job.refresh_from_db()
    return job
