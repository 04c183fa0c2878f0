"""Registrations: one player's details checked and registered (the desk, the event JSON), checking in,
and a CSV/XLSX player list imported all or nothing. Every write is in a transaction, attributed to
``acting_user`` and written to the audit log."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from players import countries
from players.folding import fold
from players.models import Player
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.consent import Consent
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import PUBLIC_NAME_CHOICES, Registration, Tournament
from tournaments.spreadsheets import read_rows

COUNTRY_RE = re.compile(r"^[A-Z]{2}$")
EMA_ID_RE = re.compile(r"^\d{8}$")


@dataclass(frozen=True)
class PlayerRow:
    """One player's details as typed at the desk or read from a list (cleaned by ``clean_player_row``)."""

    name: str
    country: str = ""
    ema_id: str = ""
    team: str = ""
    code: str = ""
    family_name: str = ""
    given_name: str = ""
    public_name: str = ""
    """The player's own narrowing of the event's public names ("", "initial", "code": tournaments.public_names)."""


CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


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
        "public_name": row.public_name,
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
    if key == "public_name":
        if value not in dict(PUBLIC_NAME_CHOICES):
            raise ServiceError(gettext("Unknown public name choice"), code="bad_public_name")
        return value
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


def add_registration(
    tournament: Tournament, row: PlayerRow, *, consent: Consent | None = None
) -> Registration:
    """Register a cleaned row (the same person is found again by EMA number); inside a transaction.
    ``consent``: the privacy notice the player was shown (none for an imported event's history)."""
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
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        code=code,
        team=row.team,
        public_name=row.public_name,
        consent_version=consent.version if consent else "",
        consent_at=consent.at if consent else None,
    )


@transaction.atomic
def register_player(tournament: Tournament, row: PlayerRow, *, acting_user: User) -> Registration:
    """Register one player from the desk's details (a typed country name is mapped to its code)."""
    registration = add_registration(
        tournament, clean_player_row(row, country_names=True), consent=Consent.now()
    )
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
    """What an import registered, or every problem that kept it from registering anyone."""

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
    consent = Consent.now()  # the organiser showed the notice when collecting the list (docs/privacy.md)
    try:
        with transaction.atomic():
            for line, row in enumerate(cleaned, start=2):
                number += 1
                while f"p{number}" in used:
                    number += 1
                try:
                    report.created.append(
                        add_registration(tournament, replace(row, code=f"p{number}"), consent=consent)
                    )
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
def set_checked_in(
    registration: Registration, checked_in: bool, *, acting_user: User, by_player: str = ""
) -> None:
    """Mark a player present or not: once anyone is checked in, only those present are seated.
    ``by_player`` ("phone", "kiosk"): the player checked themselves in there; the entry names their
    registration, as nobody's login acted (``tournaments.desk.self_check_in``)."""
    Registration.objects.filter(pk=registration.pk).update(checked_in=checked_in)
    registration.checked_in = checked_in
    summary = f"{registration.player.name} {'checked in' if checked_in else 'not checked in'}"
    data: dict[str, Any] = {}
    if by_player:
        summary += f" by themselves ({by_player})"
        data = {"code": registration.code, "by_player": by_player}
    audit(
        registration.tournament,
        acting_user,
        AuditAction.CHECK_IN if checked_in else AuditAction.CHECK_OUT,
        summary,
        **data,
    )
