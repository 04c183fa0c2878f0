"""Exports as classes returning ``(filename, content_type, bytes)``; one view or command serves any."""

from __future__ import annotations

import csv
import io
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from scoring.standings_cache import standings_rows
from tournaments.models import Tournament

CJK_FONT_PATHS = (
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc"),
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(value: str) -> str:
    """Keep text typed by users from being read as a spreadsheet formula (CSV injection)."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _points(value: float) -> str:
    return f"{value:g}"


class StandingsExport:
    extension = ""
    content_type = ""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.rows = standings_rows(tournament)
        self.table_points = tournament.uses_table_points

    def header(self) -> list[str]:
        head = ["Rank", "Player id", "Name"]
        if self.table_points:
            head.append("Table points")
        head.append("Score")
        rounds = sorted({s["round"] for row in self.rows for s in row["sessions"]})
        for number in rounds:
            if self.table_points:
                head.append(f"S{number} TP")
            head.append(f"S{number} score")
        self.rounds = rounds
        return head

    def body(self) -> list[list[Any]]:
        lines = []
        for row in self.rows:
            line: list[Any] = [row["rank"], row["player"], row["name"]]
            if self.table_points:
                line.append(row["table_points"])
            line.append(row["score"])
            by_round = {s["round"]: s for s in row["sessions"]}
            for number in self.rounds:
                session = by_round.get(number)
                if self.table_points:
                    line.append(session["table_points"] if session else "")
                line.append(session["score"] if session else "")
            lines.append(line)
        return lines

    def filename(self) -> str:
        return f"{self.tournament.slug}-standings.{self.extension}"

    def render(self) -> tuple[str, str, bytes]:
        return self.filename(), self.content_type, self.content()

    def content(self) -> bytes:
        raise NotImplementedError


class StandingsCSV(StandingsExport):
    extension = "csv"
    content_type = "text/csv; charset=utf-8"

    def content(self) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(self.header())
        for line in self.body():
            writer.writerow([safe_text(v) if isinstance(v, str) else _cell(v) for v in line])
        return buffer.getvalue().encode("utf-8")


def _cell(value: Any) -> Any:
    return _points(value) if isinstance(value, float) else value


class StandingsXLSX(StandingsExport):
    extension = "xlsx"
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    def content(self) -> bytes:
        from openpyxl import Workbook
        from openpyxl.styles import Font

        workbook = Workbook()
        sheet = workbook.active
        sheet.title = "Standings"
        sheet.append(self.header())
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for line in self.body():
            sheet.append([None if v == "" else v for v in line])
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # a name starting with "=" stays text, never a formula
        sheet.freeze_panes = "A2"
        sheet.column_dimensions["C"].width = 28
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()


@cache
def pdf_font() -> str:
    """A font with CJK glyphs when the system has one (Debian fonts-wqy-zenhei), else Helvetica."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in CJK_FONT_PATHS:
        if path.exists():
            pdfmetrics.registerFont(TTFont("WQY", str(path), subfontIndex=0))
            return "WQY"
    return "Helvetica"


class StandingsPDF(StandingsExport):
    extension = "pdf"
    content_type = "application/pdf"

    def content(self) -> bytes:
        from reportlab.lib import colors
        from reportlab.lib.pagesizes import A4, landscape
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

        font = pdf_font()
        buffer = io.BytesIO()
        document = SimpleDocTemplate(
            buffer,
            pagesize=landscape(A4),
            title=f"{self.tournament.name}: standings",
            leftMargin=30,
            rightMargin=30,
        )
        styles = getSampleStyleSheet()
        styles["Title"].fontName = font
        data = [self.header()] + [[_cell(v) for v in line] for line in self.body()]
        table = Table(data, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), font),
                    ("FONTSIZE", (0, 0), (-1, -1), 8),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#20603d")),
                    ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#eef4ef")]),
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ]
            )
        )
        document.build(
            [Paragraph(f"{escape(self.tournament.name)}: standings", styles["Title"]), Spacer(1, 8), table]
        )
        return buffer.getvalue()


STANDINGS_EXPORTS: dict[str, type[StandingsExport]] = {
    "csv": StandingsCSV,
    "xlsx": StandingsXLSX,
    "pdf": StandingsPDF,
}


class ScoresheetsPDF:
    """One printed scoresheet per table of a session: the seats, a row per hand with the seat winds of
    MCR rule 75 (or a row per game), totals, signatures (rule 72) and a QR code to the table's entry page."""

    content_type = "application/pdf"

    def __init__(self, round_: Any, base_url: str) -> None:
        self.round = round_
        self.tournament = round_.tournament
        self.base_url = base_url.rstrip("/")

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.round.number}-scoresheets.pdf"

    def render(self) -> tuple[str, str, bytes]:
        return self.filename(), self.content_type, self.content()

    def content(self) -> bytes:
        from django.urls import reverse
        from reportlab.graphics.barcode.qr import QrCodeWidget
        from reportlab.graphics.shapes import Drawing
        from reportlab.lib import colors
        from reportlab.lib.pagesizes import A4
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

        from tournaments.models import WINDS

        font = pdf_font()
        styles = getSampleStyleSheet()
        for name in ("Title", "Normal", "Heading2"):
            styles[name].fontName = font
        buffer = io.BytesIO()
        document = SimpleDocTemplate(
            buffer, pagesize=A4, title=f"{self.tournament.name}: session {self.round.number} scoresheets"
        )
        hands = self.tournament.hands_per_session or 16
        rules = self.tournament.rule_set
        story: list[Any] = []
        tables = self.round.tables.prefetch_related("seats__registration__player").order_by("number")
        for index, table in enumerate(tables):
            seats = {seat.wind: seat.registration.player.name for seat in table.seats.all()}
            url = self.base_url + reverse(
                "referee:table", args=[self.tournament.slug, self.round.number, table.number]
            )
            qr = QrCodeWidget(url)
            x1, y1, x2, y2 = qr.getBounds()
            size = 70
            drawing = Drawing(size, size, transform=[size / (x2 - x1), 0, 0, size / (y2 - y1), 0, 0])
            drawing.add(qr)
            heading = Table(
                [
                    [
                        Paragraph(
                            f"{escape(self.tournament.name)}<br/>Session {self.round.number}, table {table.number}",
                            styles["Title"],
                        ),
                        drawing,
                    ]
                ],
                colWidths=[420, 80],
            )
            story.append(heading)
            story.append(Paragraph(f"Enter results: {escape(url)}", styles["Normal"]))
            story.append(Spacer(1, 8))
            header = [rules.words.hand.capitalize()] + [f"{w}: {seats.get(w, '')}" for w in WINDS]
            rows = [header]
            for number in range(hands):
                label = str(number + 1)
                winds = rules.printed_winds(number)
                if winds is not None:
                    label += f" ({winds.prevalent})"
                    rows.append([label] + [f"[{winds.seats[w]}]" for w in WINDS])
                else:
                    rows.append([label] + [""] * 4)
            rows.append(["Total"] + [""] * 4)
            rows.append(["Signature"] + [""] * 4)
            grid = Table(rows, colWidths=[60, 110, 110, 110, 110], repeatRows=1)
            grid.setStyle(
                TableStyle(
                    [
                        ("FONTNAME", (0, 0), (-1, -1), font),
                        ("FONTSIZE", (0, 0), (-1, -1), 8),
                        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#20603d")),
                        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                        ("TEXTCOLOR", (1, 1), (-1, -3), colors.grey),
                        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                        ("ROWBACKGROUNDS", (0, 1), (-1, -3), [colors.white, colors.HexColor("#eef4ef")]),
                        ("BOTTOMPADDING", (0, 1), (-1, -1), 7),
                    ]
                )
            )
            story.append(grid)
            if rules.scoresheet_note:
                story.append(Spacer(1, 6))
                story.append(Paragraph(escape(rules.scoresheet_note), styles["Normal"]))
            if index < len(tables) - 1:
                story.append(PageBreak())
        if not story:
            story.append(Paragraph(f"Session {self.round.number} is not seated yet.", styles["Normal"]))
        document.build(story)
        return buffer.getvalue()
