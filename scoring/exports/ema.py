"""The EMA results file (the columns of the EMA's MERS results sheet, as Mahjong Tournament Suite
writes it): one row per ranked player with Place, EMA number, Last name, First name, Country, Table
points and Score.

Checked before it is written: every counted session (one with any result) must be there for every
ranked player, and the players' scores must sum to what penalties and lateness took out of the game
(hands always sum to zero). Either problem stops the export, named. Players without an EMA number are
named as warnings and exported with the number left empty. Only rule sets with table points have an
EMA results file; any other event gets a clear refusal.

Full names whatever the event's public name policy (``public.names``, ``tournaments.public_names``): the
federation rates players by name and EMA number, so the file is for the organiser to send, never a public
download.

Players out of the ranking by a ruling (loss of rank, MCR 77e; disqualification, 77f and 89: Sloper,
seeds/003_2541481d343502a5.txt, lines 2358-2359 and 2392) are left out of the file and named in the
check's warnings instead. Our reading of what the EMA expects: the MERS base rank of a player is worked
out from their Place and the number of players in the results (players beaten, that is the number of
players minus the place, divided by the number of players minus one: the EMA's "Basics for ranking
system", mahjong-europe.org/ranking/Basicsranking.html),
so Place must be a number, 1 to N, for every row, and a player without a rank has no row to be in (the
ranked players close up, as in the standings). Their scores still count in the sum checks.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language, gettext, gettext_lazy, gettext_noop

from scoring.exports.base import CSV, XLSX, Export, PrintError, safe_text
from scoring.exports.data import registrations, table_result
from scoring.exports.workbook import SheetWriter
from scoring.services.queries import is_confirmed, tables_with_results
from scoring.standings import UNRANKED_LABELS
from scoring.standings_cache import cached_standings_rows
from tournaments.models import Tournament
from tournaments.release import counted_rounds

# standings.UNRANKED_LABELS (pure, no Django), marked here for the catalogue.
_UNRANKED_WORDS = (gettext_noop("loss of rank"), gettext_noop("disqualified"), gettext_noop("not ranked"))

EMA_COLUMNS = ["Place", "EMA number", "Last name", "First name", "Country", "Table points", "Score"]


def split_name(name: str) -> tuple[str, str]:
    """(last, first): "Last, First" as typed, else the last word is the last name ("Ana Silva" gives
    ("Silva", "Ana")); a one-word name is all last name."""
    if "," in name:
        last, first = name.split(",", 1)
        return last.strip(), first.strip()
    parts = name.split()
    if len(parts) < 2:
        return name.strip(), ""
    return parts[-1], " ".join(parts[:-1])


def ema_names(name: str, family_name: str = "", given_name: str = "") -> tuple[str, str]:
    """(last, first) for the EMA file: the player's family and given names when the organiser gave them
    ("de Vries" / "Jan", "陈" / "波"), else the display name split as well as can be (``split_name``). A given
    name without a family name is not enough to fill the Last name column, so the split is used then too."""
    if family_name:
        return family_name, given_name
    return split_name(name)


def _number(value: Any) -> Any:
    value = float(value)
    return int(value) if value.is_integer() else value


@dataclass
class EMACheck:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_table_points(tournament: Tournament) -> None:
    """An EMA file needs table points: refuse at once for rules that have none. A rehearsal copy
    (``tournaments.services.rehearsals``) is refused too: its results were never played, the federation
    must never rate them."""
    if tournament.is_rehearsal:
        raise PrintError(
            gettext("This is a rehearsal: its results are not real and never go to the EMA."),
            code="rehearsal",
        )
    rules = tournament.rule_set
    if not rules.uses_table_points:
        label = rules.label_in(get_language())
        raise PrintError(
            gettext(
                "An EMA results file needs table points (MCR); this event plays %(rules)s, which has none."
            )
            % {"rules": label},
            code="no_table_points",
        )


def ema_check(tournament: Tournament) -> EMACheck:
    """The rows of the EMA file and what is wrong with them (raises PrintError when the event's rules
    have no table points)."""
    rules = tournament.rule_set
    check_table_points(tournament)
    check = EMACheck()
    tables = tables_with_results(tournament)
    people = registrations(tournament)
    counted: set[int] = set()
    total_scores = 0
    seat_scores: list[tuple[str, bool, int]] = []  # (player, substitute, score) at counted tables
    expected = 0
    provisional: list[str] = []
    for table in tables:
        result = table_result(table)
        if result is None:
            continue
        if not is_confirmed(table):
            provisional.append(
                gettext("session %(session)s table %(table)s")
                % {"session": table.round.number, "table": table.number}
            )
            continue  # only confirmed results go to the federation
        counted.add(table.round.number)
        total_scores += sum(result.scores.values())
        seat_scores.extend(  # substitutes and withdrawn players are not ranked: see below
            (seat.registration.code, seat.registration.is_substitute, result.scores[seat.wind])
            for seat in table.seats.all()
        )
        for penalty in table.penalties.all():
            if penalty.points and not penalty.cancelled and penalty.paid_to == "none":
                expected -= penalty.points
        for item in table.late_arrivals.all():
            if not item.cancelled:  # an upheld appeal cancels the lateness (rule 94)
                expected -= rules.late_points(item.minutes) or 0
    if provisional:
        check.problems.append(
            gettext(
                "%(count)s table(s) have results not yet confirmed (%(tables)s); confirm them before exporting"
                " to the EMA."
            )
            % {
                "count": len(provisional),
                "tables": ", ".join(provisional[:10]) + (", ..." if len(provisional) > 10 else ""),
            }
        )
    if not counted:
        check.problems.append(gettext("No session has any confirmed result yet."))
    hidden = sorted(counted - counted_rounds(tournament))
    if hidden:
        check.problems.append(
            gettext(
                "Session %(sessions)s is not in the public standings (its results are a draft, or the"
                " standings are frozen before it): publish its results and unfreeze the standings before"
                " exporting to the EMA."
            )
            % {"sessions": ", ".join(map(str, hidden))}
        )
        return check
    rows = cached_standings_rows(tournament)
    ranked_total = 0
    for row in rows:
        person = people[row["player"]]
        name = person.player.name
        if row["rank"] is None:
            why = gettext(UNRANKED_LABELS.get(str(row.get("status")), "not ranked"))
            check.warnings.append(
                gettext("%(name)s (%(code)s) is %(why)s: left out of the EMA file (no place).")
                % {"name": name, "code": row["player"], "why": why}
            )
            continue
        have = {s["round"] for s in row["sessions"]}
        missing = sorted(counted - have)
        if missing:
            check.problems.append(
                gettext("%(name)s (%(code)s) has no result for session %(sessions)s.")
                % {"name": name, "code": row["player"], "sessions": ", ".join(map(str, missing))}
            )
        if not person.player.ema_id:
            check.warnings.append(
                gettext("%(name)s (%(code)s) has no EMA number; it is left empty.")
                % {"name": name, "code": row["player"]}
            )
        ranked_total += row["score"]
        last, first = ema_names(name, person.player.family_name, person.player.given_name)
        check.rows.append(
            [
                row["rank"],
                person.player.ema_id,
                last,
                first,
                person.player.country,
                _number(row["table_points"]),
                row["score"],
            ]
        )
    if total_scores != expected:
        check.problems.append(
            gettext(
                "The tables' scores sum to %(total)s, but penalties and lateness account for %(expected)s."
            )
            % {"total": total_scores, "expected": expected}
        )
    ranked = {row["player"] for row in rows if row["rank"] is not None}
    substitutes = sum(score for _, substitute, score in seat_scores if substitute)
    left_out = sum(score for code, sub, score in seat_scores if not sub and code not in ranked)
    if ranked_total + substitutes + left_out != total_scores:
        check.problems.append(
            gettext(
                "The ranked players' scores sum to %(ranked)s (substitutes %(substitutes)s, players left out"
                " %(left_out)s), the tables' to %(total)s."
            )
            % {
                "ranked": ranked_total,
                "substitutes": substitutes,
                "left_out": left_out,
                "total": total_scores,
            }
        )
    return check


class EMAResults(Export):
    def __init__(self, tournament: Tournament, base_url: str = "", paper: str = "a4") -> None:
        self.tournament = tournament

    uses_paper = False

    def filename(self) -> str:
        return f"{self.tournament.slug}-ema-results.{self.extension}"

    def check(self) -> None:
        check_table_points(self.tournament)

    def checked_rows(self) -> list[list[Any]]:
        check = ema_check(self.tournament)
        if not check.ok:
            raise PrintError(
                gettext("The EMA results file was not made: %(problems)s")
                % {"problems": " ".join(check.problems)},
                code="ema_check_failed",
            )
        return check.rows


class EMAResultsXLSX(EMAResults):
    content_type = XLSX
    extension = "xlsx"
    label = gettext_lazy("EMA results (XLSX)")
    background = True  # 1.2 s on a 400 x 10 event (docs/prints.md)

    def content(self) -> bytes:

        rows = self.checked_rows()
        writer = SheetWriter()
        sheet = writer.sheet("Results", EMA_COLUMNS, widths={1: 14, 2: 22, 3: 22})
        for row in rows:
            sheet.row(row)
        return writer.save()


class EMAResultsCSV(EMAResults):
    content_type = CSV
    extension = "csv"
    label = gettext_lazy("EMA results (CSV)")

    def content(self) -> bytes:
        rows = self.checked_rows()
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(EMA_COLUMNS)
        for row in rows:
            writer.writerow([safe_text(v) if isinstance(v, str) else v for v in row])
        return buffer.getvalue().encode("utf-8")
