"""The event as a workbook for the federation and the organisers: totals, one sheet per session, every
hand, penalties, lateness and appeals. Numbers are numbers, headers frozen, columns sized, and every
text cell is stored as text (a name starting with ``=`` never becomes a formula, as openpyxl would store
it)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop

from scoring.exports.base import XLSX, Export, PrintError
from scoring.exports.data import check_event_seated, registrations, standings_status, table_result
from scoring.models import Appeal, AppealSubject
from scoring.services.confirmation import table_state
from scoring.services.queries import hand_record, played_hands, tables_with_results
from scoring.standings import rank_text
from scoring.standings_cache import cached_standings_rows
from scoring.templatetags.rules_words import paid_to_label
from tournaments.models import WINDS, Tournament

MAX_SHEET_TITLE = 31


class Sheet:
    def __init__(self, worksheet: Any) -> None:
        self.worksheet = worksheet

    def row(self, values: Iterable[Any]) -> None:
        """Append a row: numbers as numbers, empty strings as empty cells, and every string as text
        (openpyxl would store one starting with ``=`` as a formula; only those need a typed cell,
        the rest are appended as plain values, which is several times faster)."""
        from openpyxl.cell import WriteOnlyCell

        cells: list[Any] = []
        for value in values:
            if value is None or value == "":
                cells.append(None)
            elif isinstance(value, str):
                if value.startswith("="):
                    cell = WriteOnlyCell(self.worksheet, value=value)
                    cell.data_type = "s"  # text stays text, never a formula
                    cells.append(cell)
                else:
                    cells.append(value)
            elif isinstance(value, float) and value.is_integer():
                cells.append(int(value))
            else:
                cells.append(value)
        self.worksheet.append(cells)


class SheetWriter:
    """A write-only workbook (fast, small in memory) of sheets with a bold frozen header row."""

    def __init__(self) -> None:
        from openpyxl import Workbook

        self.workbook = Workbook(write_only=True)

    def sheet(self, title: str, header: list[str], widths: Mapping[int, float] | None = None) -> Sheet:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font
        from openpyxl.utils import get_column_letter

        worksheet = self.workbook.create_sheet(title[:MAX_SHEET_TITLE])
        for index, name in enumerate(header):
            width = (widths or {}).get(index, max(10, min(len(name) + 2, 40)))
            worksheet.column_dimensions[get_column_letter(index + 1)].width = width
        worksheet.freeze_panes = "A2"
        bold = Font(bold=True)
        cells = []
        for name in header:
            cell = WriteOnlyCell(worksheet, value=name)
            cell.font = bold
            cell.data_type = "s"
            cells.append(cell)
        worksheet.append(cells)
        return Sheet(worksheet)

    def save(self) -> bytes:
        buffer = io.BytesIO()
        self.workbook.save(buffer)
        return buffer.getvalue()


def _number(value: Any) -> Any:
    return float(value) if value is not None and not isinstance(value, int) else value


class EventWorkbook(Export):
    """Totals, a sheet per session (each seated player's result), every hand, penalties, lateness and
    appeals."""

    content_type = XLSX
    extension = "xlsx"
    label = gettext_lazy("Workbook (XLSX): totals, sessions, every hand, penalties, appeals")
    background = True  # 3.3 s on a 400 x 10 event (docs/prints.md)
    uses_paper = False
    NOT_SEATED = gettext_noop("The event has no seated session yet: there is nothing to put in a workbook.")

    def __init__(self, tournament: Tournament, base_url: str = "", paper: str = "a4") -> None:
        self.tournament = tournament

    def filename(self) -> str:
        return f"{self.tournament.slug}-results.xlsx"

    def check(self) -> None:
        check_event_seated(self.tournament, gettext(self.NOT_SEATED))

    def content(self) -> bytes:
        tournament = self.tournament
        rules = tournament.rule_set
        tp = rules.uses_table_points
        people = registrations(tournament)
        by_pk = {r.pk: r for r in people.values()}
        tables = tables_with_results(tournament)
        if not tables:
            raise PrintError(gettext(self.NOT_SEATED), code="not_seated")
        rows = cached_standings_rows(tournament)
        rounds = sorted({t.round.number for t in tables})
        status = standings_status(tournament, tables)
        writer = SheetWriter()

        head = ["Rank", "Player id", "Name", "Country", "EMA number", "Team"]
        head += ["Table points", "Score"] if tp else ["Score"]
        for number in rounds:
            head += [f"S{number} TP", f"S{number} score"] if tp else [f"S{number} score"]
        totals = writer.sheet("Totals", head, widths={2: 28, 5: 18})
        for row in rows:
            person = people.get(row["player"])
            line: list[Any] = [
                rank_text(row),
                row["player"],
                row["name"],
                person.player.country if person else "",
                person.player.ema_id if person else "",
                person.team if person else "",
            ]
            line += [row["table_points"], row["score"]] if tp else [row["score"]]
            by_round = {s["round"]: s for s in row["sessions"]}
            for number in rounds:
                session = by_round.get(number)
                if tp:
                    line += [session["table_points"], session["score"]] if session else ["", ""]
                else:
                    line += [session["score"]] if session else [""]
            totals.row(line)
        totals.row([])
        totals.row([f"Standings {status.text}"])

        word = rules.words.hand.capitalize()
        hands_sheet = writer.sheet(
            f"{rules.words.hands.capitalize()}",
            ["Session", "Table", word, "Result", "Winner", "Discarder", "Basic points"]
            + [f"{w} points" for w in WINDS]
            + [f"{w} player" for w in WINDS],
            widths={3: 30, 4: 24, 5: 24},
        )
        penalties = writer.sheet(
            "Penalties",
            ["Session", "Table", "Player id", "Name", "Points", "Paid to", "Rule", "Reason", "Cancelled"],
            widths={3: 24, 7: 36},
        )
        lateness = writer.sheet(
            "Lateness", ["Session", "Table", "Player id", "Name", "Minutes late"], {3: 24}
        )
        appeals = writer.sheet(
            "Appeals",
            [
                "Session",
                "Table",
                "Player id",
                "Name",
                "Penalty points",
                "Rule",
                "Filed (min after)",
                "Statement",
                "Decision",
                "Reasons",
            ],
            widths={3: 24, 7: 36, 9: 36},
        )
        session_sheets = {
            number: writer.sheet(
                f"Session {number}",
                ["Table", "Seat", "Player id", "Name", "Score"]
                + (["Table points"] if tp else [])
                + ["Penalty points", "Minutes late", "State"],
                widths={3: 28},
            )
            for number in rounds
        }
        # Sheets appear in the order made; move the session sheets right after the totals.
        book = writer.workbook
        order = [totals.worksheet] + [s.worksheet for s in session_sheets.values()]
        order += [hands_sheet.worksheet, penalties.worksheet, lateness.worksheet, appeals.worksheet]
        book._sheets = order

        hand_appeals: dict[int, list[Appeal]] = {}
        for appeal in Appeal.objects.filter(
            table__round__tournament=self.tournament, subject=AppealSubject.HAND
        ).prefetch_related("decisions"):
            hand_appeals.setdefault(appeal.table_id or 0, []).append(appeal)
        for table in tables:
            number = table.round.number
            seats = {seat.wind: seat.registration for seat in table.seats.all()}
            code_at = {w: r.code for w, r in seats.items()}
            name_at = {w: r.player.name for w, r in seats.items()}
            result = table_result(table)
            pens = list(table.penalties.all())
            late = {
                item.registration_id: item.minutes for item in table.late_arrivals.all() if not item.cancelled
            }
            state = table_state(table)
            for wind in WINDS:
                reg = seats.get(wind)
                if reg is None:
                    continue
                pen_points = sum(p.points for p in pens if p.registration_id == reg.pk and not p.cancelled)
                line = [table.number, wind, reg.code, reg.player.name]
                line.append(result.scores[wind] if result else "")
                if tp:
                    line.append(_number(result.table_points[wind]) if result and result.table_points else "")
                line += [pen_points, late.get(reg.pk, ""), state]
                session_sheets[number].row(line)
            for hand in played_hands(table):
                record = hand_record(hand)
                delta = rules.points(record)
                hands_sheet.row(
                    [
                        number,
                        table.number,
                        hand.number,
                        rules.describe(record),
                        name_at.get(record.winner, "") if record.winner else "",
                        name_at.get(record.discarder, "") if record.discarder else "",
                        record.fan if record.fan is not None else record.data.get("value", ""),
                        *(delta[w] for w in WINDS),
                        *(code_at.get(w, "") for w in WINDS),
                    ]
                )
            for penalty in pens:
                reg = by_pk[penalty.registration_id]
                penalties.row(
                    [
                        number,
                        table.number,
                        reg.code,
                        reg.player.name,
                        penalty.points,
                        paid_to_label(penalty.paid_to, rules),  # the rule set's own citation
                        penalty.rule,
                        penalty.reason,
                        "yes" if penalty.cancelled else "",
                    ]
                )
                for appeal in penalty.appeals.all():
                    decision = appeal.decision
                    appeals.row(
                        [
                            number,
                            table.number,
                            reg.code,
                            reg.player.name,
                            penalty.points,
                            penalty.rule,
                            appeal.filed_minutes_after,
                            appeal.statement,
                            str(appeal.get_status_display()),
                            decision.reasons if decision else "",
                        ]
                    )
            for item in table.late_arrivals.all():
                reg = by_pk[item.registration_id]
                lateness.row([number, table.number, reg.code, reg.player.name, item.minutes])
                for appeal in item.appeals.all():  # rule 94: any ruling can be appealed
                    decision = appeal.decision
                    appeals.row(
                        [
                            number,
                            table.number,
                            reg.code,
                            reg.player.name,
                            rules.late_points(item.minutes),
                            f"late {item.minutes} min",
                            appeal.filed_minutes_after,
                            appeal.statement,
                            str(appeal.get_status_display()),
                            decision.reasons if decision else "",
                        ]
                    )
            for appeal in hand_appeals.get(table.pk, []):
                decision = appeal.decision
                appeals.row(
                    [
                        number,
                        table.number,
                        "",
                        "",
                        "",
                        f"{rules.words.hand} {appeal.hand_number}",
                        appeal.filed_minutes_after,
                        appeal.statement,
                        str(appeal.get_status_display()),
                        decision.reasons if decision else "",
                    ]
                )
        return writer.save()
