"""The chief referee's register: every penalty (warnings and cancelled ones too), every lateness and
every appeal with its decision, session by session."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop

from scoring.exports.base import Export, PDFDocument, PrintError, Styles, cell, grid_style, markup
from scoring.exports.data import check_event_seated, standings_status
from scoring.services.appeals import event_appeals, ruling_line
from scoring.services.queries import tables_with_results
from scoring.templatetags.rules_words import rules_text
from tournaments.models import Tournament
from tournaments.venue_time import venue_time


class RegisterPDF(Export):
    label = gettext_lazy("Penalties and appeals register (PDF)")
    background = True  # 0.9 s on a 400 x 10 event (docs/prints.md)
    NOT_SEATED = gettext_noop("The event has no seated session yet: there is no register to print.")

    def __init__(self, tournament: Tournament, base_url: str = "", paper: str = "a4") -> None:
        self.tournament = tournament
        self.paper = paper

    def filename(self) -> str:
        return f"{self.tournament.slug}-penalties-appeals.pdf"

    def check(self) -> None:
        check_event_seated(self.tournament, gettext(self.NOT_SEATED))

    def content(self) -> bytes:
        from reportlab.platypus import Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        tables = tables_with_results(self.tournament)
        if not tables:
            raise PrintError(gettext(self.NOT_SEATED), code="not_seated")
        rules = self.tournament.rule_set
        doc = PDFDocument(
            gettext("%(event)s: penalties and appeals") % {"event": self.tournament.name},
            self.paper,
            zone=self.tournament.zone,
            landscape=True,
        )
        styles = Styles()
        status = standings_status(self.tournament, tables)
        names = {
            seat.registration_id: (seat.registration.code, seat.registration.player.name)
            for table in tables
            for seat in table.seats.all()
        }
        session, table_word, player = gettext("Session"), gettext("Table"), gettext("Player")
        penalty_rows: list[list[Any]] = [
            [
                session,
                table_word,
                player,
                gettext("Points"),
                gettext("Paid"),
                gettext("Rule"),
                gettext("Reason"),
                gettext("Entered"),
                gettext("Appeal"),
            ]
        ]
        appeal_rows: list[list[Any]] = [
            [
                session,
                table_word,
                gettext("Ruling"),
                gettext("Ruled by"),
                gettext("Filed (min)"),
                gettext("Statement"),
                gettext("Decision"),
                gettext("Reasons"),
            ]
        ]
        # Every appeal (rule 94): against a penalty, a lateness or a hand's result, with who decided.
        for appeal in event_appeals(self.tournament):
            decision = appeal.decision
            if decision:
                who = decision.entered_by or gettext("import")
                decided = (
                    gettext("Appeal granted: ruling withdrawn; decided by %(who)s") % {"who": who}
                    if decision.status == "upheld"
                    else gettext("Appeal rejected: ruling stands; decided by %(who)s") % {"who": who}
                    if decision.status == "denied"
                    else f"{decision.status.capitalize()} {who}"
                ) + (f" ({decision.get_decided_as_display().lower()})" if decision.decided_as else "")
            else:
                decided = gettext("pending")
            appeal_rows.append(
                [
                    str(appeal.table.round.number) if appeal.table else "",
                    str(appeal.table.number) if appeal.table else "",
                    Paragraph(markup(ruling_line(appeal)), styles.cell),
                    cell(str(appeal.ruled_by or ""), 76, 8),
                    str(appeal.filed_minutes_after),
                    Paragraph(
                        markup(
                            gettext("%(statement)s (signed: %(signed_by)s)")
                            % {"statement": appeal.statement, "signed_by": appeal.signed_by or "-"}
                        ),
                        styles.cell,
                    ),
                    Paragraph(markup(decided), styles.cell),
                    Paragraph(markup(decision.reasons if decision else ""), styles.cell),
                ]
            )
        late_rows: list[list[Any]] = [
            [session, table_word, player, gettext("Minutes late"), gettext("Effect")]
        ]
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
                        {"each_other": gettext("each other"), "player": gettext("to one player")}.get(
                            penalty.paid_to, gettext("deducted")
                        ),
                        rules_text(penalty.rule, rules),
                        Paragraph(markup(rules_text(penalty.reason, rules)), styles.cell),
                        venue_time(penalty.created_at, self.tournament).strftime("%Y-%m-%d %H:%M"),
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
                        gettext("forfeits the session")
                        if lost is None
                        else gettext("%(points)s points") % {"points": -lost}
                        if lost
                        else gettext("recorded"),
                    ]
                )
        width = doc.width
        story: list[Any] = [
            Paragraph(
                markup(
                    gettext("%(event)s: penalties and appeals register") % {"event": self.tournament.name}
                ),
                styles.title,
            ),
            Paragraph(
                markup(gettext("For the chief referee; results %(status)s.") % {"status": status.text}),
                styles.normal,
            ),
        ]
        sections = [
            (
                gettext("Penalties"),
                gettext("No penalties recorded."),
                penalty_rows,
                [40, 36, 154, 44, 56, 60, width - 540, 80, 70],
                (3, 0),
                (3, -1),
            ),
            (
                gettext("Appeals"),
                gettext("No appeals recorded."),
                appeal_rows,
                [40, 36, 134, 80, 50, width - 530, 90, 180],
                (4, 0),
                (4, -1),
            ),
            (
                gettext("Lateness"),
                gettext("No lateness recorded."),
                late_rows,
                [40, 36, 210, 70, width - 356],
                (3, 0),
                (3, -1),
            ),
        ]
        for title, empty, rows, widths, right_from, right_to in sections:
            story += [Spacer(1, 10), Paragraph(markup(title), styles.heading)]
            if len(rows) == 1:
                story.append(Paragraph(markup(empty), styles.normal))
                continue
            grid = Grid(rows, colWidths=widths, repeatRows=1)
            grid.setStyle(
                grid_style(("ALIGN", (0, 0), (1, -1), "RIGHT"), ("ALIGN", right_from, right_to, "RIGHT"))
            )
            story.append(grid)
        return doc.build(story)
