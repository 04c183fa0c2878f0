"""The standings as CSV, XLSX and PDF (the public page's downloads and the ``standings`` command)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.exports.base import (
    CSV,
    PALE,
    PDF,
    XLSX,
    Export,
    PDFDocument,
    Styles,
    cell,
    grid_style,
    markup,
    points_text,
    safe_text,
)
from scoring.exports.data import public_standings_status, registrations, team_standings
from scoring.exports.workbook import SheetWriter
from scoring.standings import rank_text
from scoring.standings_cache import cached_standings_rows, decided_text
from tournaments.event_settings import team_best
from tournaments.models import Tournament
from tournaments.public_names import public_names, public_rows


class StandingsExport(Export):
    extension = ""
    content_type = ""

    def __init__(self, tournament: Tournament, base_url: str = "", paper: str = "a4") -> None:
        self.tournament = tournament
        self.paper = paper
        # Public names (tournaments.public_names): these are the public page's downloads and the print
        # posted in the hall.
        self.names = public_names(tournament)
        self.rows = public_rows(tournament, cached_standings_rows(tournament))
        self.table_points = tournament.uses_table_points
        self.rounds = sorted({s["round"] for row in self.rows for s in row["sessions"]})

    def header(self) -> list[str]:
        head = ["Rank", "Player id", "Name"]
        if self.table_points:
            head.append("Table points")
        head.append("Score")
        for number in self.rounds:
            if self.table_points:
                head.append(f"S{number} TP")
            head.append(f"S{number} score")
        head.append("Tie-break")
        return head

    def body(self) -> list[list[Any]]:
        lines = []
        for row in self.rows:
            line: list[Any] = [rank_text(row), row["player"], row["name"]]
            if self.table_points:
                line.append(row["table_points"])
            line.append(row["score"])
            by_round = {s["round"]: s for s in row["sessions"]}
            for number in self.rounds:
                session = by_round.get(number)
                if self.table_points:
                    line.append(session["table_points"] if session else "")
                line.append(session["score"] if session else "")
            # What decided the place against its neighbours ("ahead on head-to-head"), as the page and
            # the PDF say it (scoring.standings_cache.decided_text); empty when the main ranking did.
            line.append(decided_text(row))
            lines.append(line)
        return lines

    def filename(self) -> str:
        return f"{self.tournament.slug}-standings.{self.extension}"


def _cell(value: Any) -> Any:
    return points_text(value) if isinstance(value, float) else value


class StandingsCSV(StandingsExport):
    extension = "csv"
    content_type = CSV

    def content(self) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(self.header())
        for line in self.body():
            writer.writerow([safe_text(v) if isinstance(v, str) else _cell(v) for v in line])
        return buffer.getvalue().encode("utf-8")


class StandingsXLSX(StandingsExport):
    extension = "xlsx"
    content_type = XLSX

    def content(self) -> bytes:

        writer = SheetWriter()
        sheet = writer.sheet("Standings", self.header(), widths={2: 28})
        for line in self.body():
            sheet.row(line)
        return writer.save()


class StandingsPDF(StandingsExport):
    """Players ranked with country and EMA number, numbers right-aligned, a line saying after which
    session the standings are and whether they are final; team standings when the event has teams."""

    extension = "pdf"
    content_type = PDF
    label = gettext_lazy("Standings (PDF)")

    SESSION_WIDTH = 44.0
    """Points: a session's column holds a number such as "-123" or "12.5" and a header "S12 TP"."""
    NAME_WIDTH = 170.0
    """Points: the name column's least width; it takes whatever the session columns leave."""

    def column_widths(self, available: float) -> list[float]:
        """Rank, name, country, EMA number, [table points], score, then one narrow column per session:
        the sessions get a fixed width (narrower only when there are so many that the name would fall
        below ``NAME_WIDTH``), and the name column takes the rest of the page."""
        fixed = [34.0, 46.0, 64.0] + ([58.0] if self.table_points else []) + [48.0]
        sessions = len(self.rounds)
        session_width = self.SESSION_WIDTH
        if sessions and available - sum(fixed) - sessions * session_width < self.NAME_WIDTH:
            session_width = max((available - sum(fixed) - self.NAME_WIDTH) / sessions, 0)
        name = max(available - sum(fixed) - sessions * session_width, self.NAME_WIDTH)
        return [fixed[0], name, *fixed[1:], *[session_width] * sessions]

    @staticmethod
    def _name_cell(row: dict[str, Any], width: float, styles: Styles) -> Any:
        """The name, and under it what decided the place when a tie-break did ("ahead on
        head-to-head", MCR rule 73's "shared": ``scoring.standings_cache.decided_text``)."""
        name = cell(row["name"], width, 8)
        reason = decided_text(row)
        if not reason:
            return name
        from reportlab.platypus import Paragraph

        if isinstance(name, str):
            name = Paragraph(markup(name), styles.cell)
        return [name, Paragraph(markup(reason), styles.small)]

    def content(self) -> bytes:
        from reportlab.lib import colors
        from reportlab.platypus import Paragraph, Spacer, Table

        people = registrations(self.tournament)
        status = public_standings_status(self.tournament)
        styles = Styles()
        doc = PDFDocument(
            gettext("%(name)s: standings") % {"name": self.tournament.name},
            self.paper,
            zone=self.tournament.zone,
            landscape=True,
        )
        many = len(self.rounds) > 6
        head = [gettext("Rank"), gettext("Name"), gettext("Country"), gettext("EMA number")]
        if self.table_points:
            head.append(gettext("Table points"))
        head.append(gettext("Score"))
        per_session = gettext("TP") if self.table_points else gettext("score")
        head += [f"S{n} {per_session}" if not many else f"S{n}" for n in self.rounds]
        numbers_from = 4
        widths = self.column_widths(doc.width)
        data: list[list[Any]] = [head]
        for row in self.rows:
            person = people.get(row["player"])
            line: list[Any] = [
                str(rank_text(row)),
                self._name_cell(row, widths[1] - 4, styles),
                person.player.country if person else "",
                person.player.ema_id
                if person and self.names.get(row["player"]) == person.player.name
                else "",
            ]
            if self.table_points:
                line.append(points_text(row["table_points"]))
            line.append(str(row["score"]))
            by_round = {s["round"]: s for s in row["sessions"]}
            key = "table_points" if self.table_points else "score"
            line += [_cell(by_round[n][key]) if n in by_round else "" for n in self.rounds]
            data.append([v if i == 1 else str(v) for i, v in enumerate(line)])
        table = Table(data, colWidths=widths, repeatRows=1)
        table.setStyle(
            grid_style(
                ("ALIGN", (numbers_from, 0), (-1, -1), "RIGHT"),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor(PALE)]),
            )
        )
        story: list[Any] = [
            Paragraph(gettext("%(name)s: standings") % {"name": markup(self.tournament.name)}, styles.title),
            Paragraph(markup(gettext("Standings %(status)s.") % {"status": status.text}), styles.normal),
            Spacer(1, 8),
            table,
        ]
        teams = team_standings(
            self.rows,
            {code: r.team for code, r in people.items()},
            self.table_points,
            best=team_best(self.tournament),
        )
        if teams:
            team_head = [gettext("Rank"), gettext("Team"), gettext("Members")]
            if self.table_points:
                team_head.append(gettext("Table points"))
            team_head.append(gettext("Score"))
            team_data: list[list[Any]] = [team_head]
            for team in teams:
                members = ", ".join(team.members)
                if team.incomplete:
                    mark = gettext("incomplete: %(played)s of %(needed)s members played") % {
                        "played": len(team.members),
                        "needed": team.needed,
                    }
                    members += f" ({mark})"
                line = [
                    "–" if team.rank is None else str(team.rank),
                    cell(team.team, 146, 8),
                    Paragraph(markup(members), styles.cell),
                ]
                if self.table_points:
                    line.append(points_text(float(team.table_points or 0)))
                line.append(str(team.score))
                team_data.append(line)
            member_width = doc.width - 34 - 150 - (58 if self.table_points else 0) - 48
            team_table = Table(
                team_data,
                colWidths=[34, 150, member_width] + ([58] if self.table_points else []) + [48],
                repeatRows=1,
            )
            team_table.setStyle(
                grid_style(("ALIGN", (3, 0), (-1, -1), "RIGHT"), ("ALIGN", (0, 0), (0, -1), "RIGHT"))
            )
            what = (
                gettext("Sum of the members' table points, then score; equal teams share a rank.")
                if self.table_points
                else gettext("Sum of the members' score; equal teams share a rank.")
            )
            story += [
                Spacer(1, 14),
                Paragraph(gettext("Teams"), styles.heading),
                Paragraph(what, styles.normal),
                Spacer(1, 4),
                team_table,
            ]
        return doc.build(story)


STANDINGS_EXPORTS: dict[str, type[StandingsExport]] = {
    "csv": StandingsCSV,
    "xlsx": StandingsXLSX,
    "pdf": StandingsPDF,
}
