"""A prepared seating uploaded as CSV or XLSX: one row per table, columns session, table, E, S,
W, N, each seat a player's code or name.

Everything is checked before anything is stored, and each problem is reported with its row: an unknown
or ambiguous player, a player seated twice in a session, a table without exactly four players, a table
number given twice, a session that does not exist or already has something entered (history is never
replaced). A file without problems comes back with its quality report (over the sessions before it and
the uploaded ones) for the organiser to look at; storing it is a second step, in one short locked
transaction that checks again (``tournaments.services.reseating``). The file is read with the player
import's safe reader (``tournaments.spreadsheets.read_rows``: row and column caps, the sheet's stated
dimension not trusted).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from django.core import signing
from django.db import transaction
from django.utils.translation import gettext

from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Registration, Table, Tournament
from tournaments.seating import LowerBound, QualityReport, RoundSeating, TableSeating, quality_report
from tournaments.services import reseating, seating_bridge
from tournaments.services.kept_apart import code_pairs
from tournaments.services.seating import check_replaceable, entered_at, seating_players, store_round
from tournaments.spreadsheets import read_rows

TOKEN_SALT = "tournaments.seating_upload"  # noqa: S105 (a namespace for signatures, not a secret)
HEADERS = {
    "session": "session",
    "round": "session",
    "table": "table",
    "e": "E",
    "east": "E",
    "s": "S",
    "south": "S",
    "w": "W",
    "west": "W",
    "n": "N",
    "north": "N",
}


@dataclass
class UploadReport:
    """What the file says and what is wrong with it; ``rounds`` is filled only when nothing is."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rounds: dict[int, RoundSeating] = field(default_factory=dict)
    quality: QualityReport | None = None
    bound: LowerBound | None = None
    tournament_id: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.rounds)

    def token(self) -> str:
        return signing.dumps(
            {
                "t": self.tournament_id,
                "r": {str(n): [[t.number, list(t.seats)] for t in r.tables] for n, r in self.rounds.items()},
            },
            salt=TOKEN_SALT,
            compress=True,
        )


def _folded(text: str) -> str:
    """A name compared without case, accents or extra spaces ("José  Núñez" = "jose nunez")."""
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _number(text: str) -> int | None:
    text = text.strip()
    try:
        value = float(text) if "." in text else int(text)
    except ValueError:
        return None
    if value != int(value) or not 1 <= int(value) <= 999:
        return None
    return int(value)


def check_upload(tournament: Tournament, content: bytes, filename: str) -> UploadReport:
    """Read and check an uploaded seating; nothing is stored."""
    report = UploadReport(tournament_id=tournament.pk)
    rows = [row for row in read_rows(content, filename, what="tables") if any(c.strip() for c in row)]
    if not rows:
        raise ServiceError(gettext("The file has no rows."), code="empty_file")
    header = [HEADERS.get(cell.strip().lower(), "") for cell in rows[0]]
    missing = [name for name in ("session", "table", *WINDS) if name not in header]
    if missing:
        raise ServiceError(
            gettext(
                "The first row must be a header with the columns session, table, E, S, W, N "
                "(missing: %(missing)s)."
            )
            % {"missing": ", ".join(missing)},
            code="no_header",
        )
    column = {name: header.index(name) for name in ("session", "table", *WINDS)}
    registrations = list(tournament.registrations.select_related("player"))
    by_code = {r.code: r for r in registrations}
    by_name: dict[str, list[Registration]] = {}
    for registration in registrations:
        by_name.setdefault(_folded(registration.player.name), []).append(registration)
    rounds = {r.number: r for r in tournament.rounds.all()}
    history_checked: dict[int, str | None] = {}
    seated: dict[tuple[int, str], int] = {}
    tables: dict[int, dict[int, tuple[str, str, str, str]]] = {}
    table_rows: dict[tuple[int, int], int] = {}
    for line, row in enumerate(rows[1:], start=2):
        cells = {name: (row[i].strip() if i < len(row) else "") for name, i in column.items()}
        problems: list[str] = []
        session = _number(cells["session"])
        table = _number(cells["table"])
        if session is None or session not in rounds:
            problems.append(
                gettext("session %(session)s is not a session of this event")
                % {"session": repr(cells["session"])}
            )
        elif session not in history_checked:
            history_checked[session] = entered_at([rounds[session]])
        if session is not None and history_checked.get(session):
            problems.append(
                gettext("session %(session)s already has %(what)s; its seating is kept")
                % {"session": session, "what": str(history_checked[session]).split(" in session")[0]}
            )
        if table is None:
            problems.append(
                gettext("table %(table)s is not a table number (1 to 999)") % {"table": repr(cells["table"])}
            )
        elif session is not None and (session, table) in table_rows:
            problems.append(
                gettext("table %(table)s of session %(session)s is also on row %(row)s")
                % {"table": table, "session": session, "row": table_rows[session, table]}
            )
        else:
            table_rows[session or 0, table] = line
        filled = [w for w in WINDS if cells[w]]
        if len(filled) != 4:
            problems.append(
                gettext("the table has %(count)s players, not 4 (empty: %(empty)s)")
                % {"count": len(filled), "empty": ", ".join(w for w in WINDS if not cells[w])}
            )
        codes: list[str] = []
        for wind in filled:
            value = cells[wind]
            found = by_code.get(value)
            if found is None:
                named = by_name.get(_folded(value), [])
                if len(named) > 1:
                    problems.append(
                        gettext("%(wind)s: %(value)s names %(count)s players; use the player code")
                        % {"wind": wind, "value": repr(value), "count": len(named)}
                    )
                    continue
                found = named[0] if named else None
            if found is None:
                problems.append(
                    gettext("%(wind)s: %(value)s is not a player of this event")
                    % {"wind": wind, "value": repr(value)}
                )
                continue
            if session is not None:
                earlier = seated.get((session, found.code))
                if earlier is not None:
                    problems.append(
                        gettext(
                            "%(wind)s: %(name)s is already seated in session %(session)s (row %(earlier)s)"
                        )
                        % {"wind": wind, "name": found.player.name, "session": session, "earlier": earlier}
                    )
                    continue
                seated[session, found.code] = line
            codes.append(found.code)
        if problems:
            report.problems.extend(
                gettext("Row %(line)s: %(problem)s.") % {"line": line, "problem": problem}
                for problem in problems
            )
            continue
        assert session is not None and table is not None
        tables.setdefault(session, {})[table] = (codes[0], codes[1], codes[2], codes[3])
    if report.problems:
        return report
    if not tables:
        report.problems.append(gettext("The file has no tables."))
        return report
    playing = {r.code for r in seating_players(tournament)}
    for session, by_number in sorted(tables.items()):
        report.rounds[session] = RoundSeating(
            tables=tuple(TableSeating(number=n, seats=seats) for n, seats in sorted(by_number.items()))
        )
        absent = playing - {code for seats in by_number.values() for code in seats}
        if absent:
            names = sorted(by_code[c].player.name for c in absent)
            report.notes.append(
                gettext("Session %(session)s seats nobody for %(count)s players: %(names)s.")
                % {"session": session, "count": len(absent), "names": ", ".join(names[:10])}
            )
    _score(tournament, report)
    return report


def _score(tournament: Tournament, report: UploadReport) -> None:
    first = min(report.rounds)
    history = reseating.history_of(tournament, first)
    seated = seating_bridge.seated_rounds(tournament)
    later = {n: r for n, r in seated.items() if n >= first}
    later.update(report.rounds)
    every = [*history, *(later[n] for n in sorted(later))]
    report.quality = quality_report(every, kept_apart=code_pairs(tournament))
    players = len({code for r in every for t in r.tables for code in t.seats})
    report.bound = reseating.bound(players, len(every))


def from_token(tournament: Tournament, token: str) -> UploadReport:
    try:
        data = signing.loads(token, salt=TOKEN_SALT, max_age=reseating.TOKEN_MAX_AGE)
    except signing.BadSignature:
        raise ServiceError(
            gettext("The checked seating was altered or is old; upload it again."), code="bad_plan"
        ) from None
    if data.get("t") != tournament.pk:
        raise ServiceError(gettext("That seating belongs to another event."), code="bad_plan")
    report = UploadReport(tournament_id=tournament.pk)
    for number, tables in data["r"].items():
        report.rounds[int(number)] = RoundSeating(
            tables=tuple(TableSeating(number=n, seats=tuple(seats)) for n, seats in tables)
        )
    _score(tournament, report)
    return report


def store_upload(tournament: Tournament, report: UploadReport, *, acting_user: User) -> list[Table]:
    """Store a checked seating in one short transaction that locks the event and the sessions' tables
    and checks again that nothing was entered there meanwhile."""
    if not report.ok:
        raise ServiceError(
            gettext("The seating has problems; fix the file and upload it again."), code="bad_plan"
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_open(locked)
        rounds = list(locked.rounds.filter(number__in=list(report.rounds)).order_by("number"))
        list(Table.objects.select_for_update().filter(round__in=rounds).values_list("pk", flat=True))
        check_replaceable(rounds)
        by_code = {r.code: r for r in locked.registrations.all()}
        missing = sorted(
            {c for r in report.rounds.values() for t in r.tables for c in t.seats} - set(by_code)
        )
        if missing:
            raise ServiceError(
                gettext("Player %(missing)s is no longer registered; upload again.")
                % {"missing": missing[0]},
                code="stale",
            )
        stored: list[Table] = []
        for round_ in rounds:
            stored.extend(store_round(round_, report.rounds[round_.number], by_code))
        bump_standings(locked)
        quality = report.quality
        audit(
            locked,
            acting_user,
            AuditAction.UPLOAD_SEATING,
            f"Uploaded seating for sessions {', '.join(str(r.number) for r in rounds)}"
            + (
                f": {quality.repeated_pairs} repeated pairs, worst pair {quality.worst_pair}"
                if quality
                else ""
            ),
            sessions=[r.number for r in rounds],
        )
    return stored
