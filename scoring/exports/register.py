"""The chief referee's register: every penalty (warnings and cancelled ones too), every lateness and
every appeal with its decision, session by session."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from scoring.exports.base import Export, PDFDocument, PrintError, Styles, cell, grid_style, markup
from scoring.exports.data import check_event_seated, standings_status
from scoring.rulings import describe_ruling, event_appeals
from scoring.services import tables_with_results
from tournaments.models import Tournament


class RegisterPDF(Export):
    label = gettext_lazy("Penalties and appeals register (PDF)")
    background = True  # 0.9 s on a 400 x 10 event (docs/prints.md)
    NOT_SEATED = "The event has no seated session yet: there is no register to print."

    def __init__(self, tournament: Tournament, base_url: str = "", paper: str = "a4") -> None:
        self.tournament = tournament
        self.paper = paper

    def filename(self) -> str:
        return f"{self.tournament.slug}-penalties-appeals.pdf"

    def check(self) -> None:
        check_event_seated(self.tournament, self.NOT_SEATED)

    def content(self) -> bytes:
        from reportlab.platypus import Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        tables = tables_with_results(self.tournament)
        if not tables:
            raise PrintError(self.NOT_SEATED, code="not_seated")
        rules = self.tournament.rule_set
        doc = PDFDocument(f"{self.tournament.name}: penalties and appeals", self.paper, landscape=True)
        styles = Styles()
        status = standings_status(self.tournament, tables)
        names = {
            seat.registration_id: (seat.registration.code, seat.registration.player.name)
            for table in tables
            for seat in table.seats.all()
        }
        penalty_rows: list[list[Any]] = [
            ["Session", "Table", "Player", "Points", "Paid", "Rule", "Reason", "Entered", "Appeal"]
        ]
        appeal_rows: list[list[Any]] = [
            ["Session", "Table", "Ruling", "Ruled by", "Filed (min)", "Statement", "Decision", "Reasons"]
        ]
        # Every appeal (rule 94): against a penalty, a lateness or a hand's result, with who decided.
        for appeal in event_appeals(self.tournament):
            decision = appeal.decision
            decided = (
                f"{decision.status.capitalize()} by {decision.entered_by or 'import'}"
                f"{f' ({decision.get_decided_as_display().lower()})' if decision.decided_as else ''}"
                if decision
                else "pending"
            )
            appeal_rows.append(
                [
                    str(appeal.table.round.number) if appeal.table else "",
                    str(appeal.table.number) if appeal.table else "",
                    Paragraph(markup(describe_ruling(appeal)), styles.cell),
                    cell(str(appeal.ruled_by or ""), 76, 8),
                    str(appeal.filed_minutes_after),
                    Paragraph(markup(f"{appeal.statement} (signed: {appeal.signed_by or '-'})"), styles.cell),
                    Paragraph(markup(decided), styles.cell),
                    Paragraph(markup(decision.reasons if decision else ""), styles.cell),
                ]
            )
        late_rows: list[list[Any]] = [["Session", "Table", "Player", "Minutes late", "Effect"]]
        for table in tables:
            where = [str(table.round.number), str(table.number)]
            for penalty in table.penalties.all():
                code, name = names.get(penalty.registration_id, ("", ""))
                appeals = list(penalty.appeals.all())
                penalty_rows.append(
                    [
                        *where,
                        cell(f"{name} ({code})", 150, 8),
                        str(penalty.points) if penalty.points else penalty.get_outcome_display().lower(),
                        "each other" if penalty.paid_to == "each_other" else "deducted",
                        penalty.rule,
                        Paragraph(markup(penalty.reason), styles.cell),
                        penalty.created_at.strftime("%Y-%m-%d %H:%M"),
                        ", ".join(str(a.get_status_display()) for a in appeals),
                    ]
                )
            for item in table.late_arrivals.all():
                code, name = names.get(item.registration_id, ("", ""))
                lost = rules.late_points(item.minutes)
                late_rows.append(
                    [
                        *where,
                        cell(f"{name} ({code})", 200, 8),
                        str(item.minutes),
                        "forfeits the session" if lost is None else f"-{lost} points" if lost else "recorded",
                    ]
                )
        width = doc.width
        story: list[Any] = [
            Paragraph(f"{markup(self.tournament.name)}: penalties and appeals register", styles.title),
            Paragraph(markup(f"For the chief referee; results {status.text}."), styles.normal),
        ]
        sections = [
            ("Penalties", penalty_rows, [40, 36, 154, 44, 56, 60, width - 540, 80, 70], (3, 0), (3, -1)),
            ("Appeals", appeal_rows, [40, 36, 134, 80, 50, width - 530, 90, 180], (4, 0), (4, -1)),
            ("Lateness", late_rows, [40, 36, 210, 70, width - 356], (3, 0), (3, -1)),
        ]
        for title, rows, widths, right_from, right_to in sections:
            story += [Spacer(1, 10), Paragraph(title, styles.heading)]
            if len(rows) == 1:
                story.append(Paragraph(f"No {title.lower()} recorded.", styles.normal))
                continue
            grid = Grid(rows, colWidths=widths, repeatRows=1)
            grid.setStyle(
                grid_style(("ALIGN", (0, 0), (1, -1), "RIGHT"), ("ALIGN", right_from, right_to, "RIGHT"))
            )
            story.append(grid)
        return doc.build(story)
