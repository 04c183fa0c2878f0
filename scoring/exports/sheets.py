"""Score sheets for the tables of one session, one page per table, as the referees fill them in.

Two layouts, chosen by what the event's rule set says (never by its name):

- a **scoresheet** when the rule set prints seat winds hand by hand (``printed_winds``, MCR rules 74-75):
  the four players by starting seat with their seat in each wind round (rule 75), a row per hand
  (prevalent wind, dealer, winner, discarder or self-drawn, basic points, each seat's points with its
  seat wind marked, running totals), penalties and lateness, totals, table points (rule 71) and a
  signature box per player (rule 72);
- a **scorecard** otherwise (NMJL: a round of four games): the seat winds per game (``winds``, rule 116),
  a row per game (winner, how it ended, discarder, hand or value, jokerless, each seat's points),
  lateness, totals and signatures.

Rows are filled in when the hands are already entered, blank boxes otherwise; the rows grow to fill
the page. Each page has the QR code of the table's entry page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language, gettext, gettext_lazy

from scoring.exports.base import (
    GREEN,
    PALE,
    Export,
    PDFDocument,
    Styles,
    cell,
    grid_style,
    markup,
    pdf_font,
    points_text,
    qr_drawing,
)
from scoring.exports.data import check_seated, seated_tables, seats_by_wind, table_result
from scoring.rules import vocabulary
from scoring.rules.ruleset import HandRecord, RuleSet, Winds
from scoring.services.queries import hand_record, played_hands
from scoring.templatetags.rules_words import rules_text
from tournaments.models import WINDS, Round, Table
from tournaments.services import substitutions as seat_substitutions

BLANK = HandRecord(winner=None)


def _round_name(index: int) -> str:
    """The printed name of wind round ``index`` (0-3) in the active language: "East round" / "东圈"."""
    wind = vocabulary.wind_label(WINDS[index], get_language())
    return gettext("%(wind)s round") % {"wind": wind}


def _wind(letter: str) -> str:
    return vocabulary.wind_label(letter, get_language())


def seat_winds(rules: RuleSet, index: int, records: Sequence[HandRecord]) -> Winds | None:
    """Each starting seat's wind in hand ``index``: the printed winds when the rule set has them, else
    its rotation after the hands entered (placeholders standing in for the hands not played yet)."""
    printed = rules.printed_winds(index)
    if printed is not None:
        return printed
    previous = list(records[:index]) + [BLANK] * max(0, index - len(records))
    return rules.winds(previous)


def dealer_of(winds: Winds | None) -> str | None:
    if winds is None:
        return None
    return next((start for start, wind in winds.seats.items() if wind == "E"), None)


class ScoresheetsPDF(Export):
    """One printed scoresheet (or scorecard) per table of a session."""

    label = gettext_lazy("Scoresheets / scorecards (one page per table)")
    background = True  # 1.8 s for 100 tables (docs/prints.md)
    uses_base_url = True

    def __init__(self, round_: Round, base_url: str = "", paper: str = "a4") -> None:
        self.round = round_
        self.tournament = round_.tournament
        self.base_url = base_url.rstrip("/")
        self.paper = paper

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.round.number}-scoresheets.pdf"

    def check(self) -> None:
        check_seated(self.round)

    def entry_url(self, table: Table) -> str:
        from django.urls import reverse

        return self.base_url + reverse(
            "referee:table", args=[self.tournament.slug, self.round.number, table.number]
        )

    def content(self) -> bytes:
        from reportlab.platypus import PageBreak

        tables = seated_tables(self.round)
        rules = self.tournament.rule_set
        scoresheet = rules.printed_winds(0) is not None
        word = gettext("scoresheets") if scoresheet else gettext("scorecards")
        self.doc = PDFDocument(
            gettext("%(name)s: session %(number)s %(what)s")
            % {"name": self.tournament.name, "number": self.round.number, "what": word},
            self.paper,
            zone=self.tournament.zone,
        )
        self.styles = Styles()
        story: list[Any] = []
        for index, table in enumerate(tables):
            if index:
                story.append(PageBreak())
            story += self.scoresheet(table, rules) if scoresheet else self.scorecard(table, rules)
        return self.doc.build(story)

    # --- parts of a page ---------------------------------------------------------------------------

    def heading(self, table: Table, kind: str) -> list[Any]:
        from reportlab.platypus import Paragraph
        from reportlab.platypus import Table as Grid

        url = self.entry_url(table)
        title = Paragraph(
            f"{markup(self.tournament.name)}<br/>"
            + gettext("Session %(number)s · Table %(table)s")
            % {"number": self.round.number, "table": table.number}
            + f" <font size=10>({kind})</font>",
            self.styles.title,
        )
        note = Paragraph(gettext("Enter results: %(url)s") % {"url": markup(url)}, self.styles.small)
        grid = Grid([[[title, note], qr_drawing(url, 66)]], colWidths=[self.doc.width - 72, 72])
        grid.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (0, 0), 0)])
        return [grid]

    def signatures(self, names: dict[str, str]) -> Any:
        from reportlab.platypus import Table as Grid

        width = self.doc.width / 4
        grid = Grid(
            [
                [cell(f"{w} · {names.get(w, '')}", width - 8, 8) for w in WINDS],
                ["", "", "", ""],
            ],
            colWidths=[width] * 4,
            rowHeights=[13, 30],
        )
        grid.setStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), self.font),
                ("FONTSIZE", (0, 0), (-1, -1), 8),
                ("BOX", (0, 0), (-1, -1), 0.5, "black"),
                ("INNERGRID", (0, 0), (-1, -1), 0.25, "grey"),
                ("BACKGROUND", (0, 0), (-1, 0), PALE),
            ]
        )
        return grid

    def stand_ins(self, table: Table, space: float) -> Any:
        """The substitutes who took over a seat: "from hand 5: Bo for Ana", in small type
        under the players, or just the space when there is none."""
        from reportlab.platypus import Paragraph, Spacer

        lines = [
            gettext("from hand %(number)s: %(substitute)s for %(player)s")
            % {
                "number": item.from_hand,
                "substitute": item.substitute.player.name,
                "player": seat.registration.player.name,
            }
            for seat in sorted(table.seats.all(), key=lambda s: WINDS.index(s.wind))
            for item in seat_substitutions.of_seat(seat)
        ]
        if not lines:
            return Spacer(1, space)
        return Paragraph(markup(" · ".join(lines)), self.styles.small)

    @property
    def font(self) -> str:

        return pdf_font()

    def players(self, table: Table, rules: RuleSet, rounds: int) -> Any:
        """Players by starting seat, with their seat in each wind round (MCR rule 75: at the first hand
        of a round its dealer sits East, so the seat winds of that hand are the seats)."""
        from reportlab.platypus import Table as Grid

        seats = seats_by_wind(table)
        head = [gettext("Start"), gettext("Player"), gettext("Code")] + [
            _round_name(q) if q < 4 else gettext("Round %(number)s") % {"number": q + 1}
            for q in range(rounds)
        ]
        name_width = self.doc.width - 40 - 50 - 62 * rounds
        data = [head]
        for wind in WINDS:
            reg = seats.get(wind)
            line = [
                _wind(wind),
                cell(reg.player.name if reg else "", name_width - 6, 9),
                reg.code if reg else "",
            ]
            for q in range(rounds):
                winds = rules.printed_winds(4 * q)
                line.append(_wind(winds.seats[wind]) if winds else "")
            data.append(line)
        grid = Grid(data, colWidths=[40, name_width, 50] + [62] * rounds)
        grid.setStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), self.font),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("FONTSIZE", (0, 0), (-1, 0), 7),
                ("BACKGROUND", (0, 0), (-1, 0), GREEN),
                ("TEXTCOLOR", (0, 0), (-1, 0), "white"),
                ("GRID", (0, 0), (-1, -1), 0.25, "grey"),
                ("ALIGN", (3, 0), (-1, -1), "CENTER"),
            ]
        )
        return grid

    def fill_rows(self, fixed: list[Any], rows: int, low: float, high: float) -> float:
        """The row height that makes ``rows`` rows fill what ``fixed`` leaves of the page."""
        height: float = self.doc.height  # reportlab ships no type hints
        used: float = sum(f.wrap(self.doc.width, height)[1] for f in fixed)
        return max(low, min(high, (height - used - 4) / rows))

    # --- the MCR scoresheet ------------------------------------------------------------------------

    def scoresheet(self, table: Table, rules: RuleSet) -> list[Any]:
        from reportlab.lib import colors
        from reportlab.platypus import Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        seats = seats_by_wind(table)
        names = {w: r.player.name for w, r in seats.items()}
        hands = played_hands(table)
        records = [hand_record(h) for h in hands]
        count = max(self.tournament.hands_per_session or 16, len(hands))
        rounds = min(4, -(-count // 4))
        result = table_result(table)
        width = self.doc.width
        fixed_widths = [16, 26, 62, 62, 66, 30]
        seat_width = (width - sum(fixed_widths)) / 8
        widths = fixed_widths + [seat_width] * 8
        name_w = 52
        header = [
            [
                "#",
                gettext("Wind"),
                gettext("Dealer"),
                gettext("Winner"),
                gettext("Discarder\nor self-drawn"),
                gettext("Basic"),
                gettext("Points this hand (by starting seat)"),
                "",
                "",
                "",
                gettext("Running total"),
                "",
                "",
                "",
            ],
            ["", "", "", "", "", "", *WINDS, *WINDS],
        ]
        data: list[list[Any]] = [*header]
        style: list[tuple[Any, ...]] = [
            ("SPAN", (6, 0), (9, 0)),
            ("SPAN", (10, 0), (13, 0)),
            *[("SPAN", (c, 0), (c, 1)) for c in range(6)],
            ("FONTSIZE", (0, 0), (-1, 1), 7),
            ("LEADING", (0, 0), (-1, 1), 8),
            ("ALIGN", (0, 0), (-1, 1), "CENTER"),
            ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor(GREEN)),
            ("TEXTCOLOR", (0, 0), (-1, 1), colors.white),
            ("ALIGN", (5, 2), (-1, -1), "RIGHT"),
            ("LINEAFTER", (5, 0), (5, -1), 1, colors.black),
            ("LINEAFTER", (9, 0), (9, -1), 1, colors.black),
        ]
        running = dict.fromkeys(WINDS, 0)
        for index in range(count):
            winds = seat_winds(rules, index, records)
            dealer = dealer_of(winds)
            row_no = len(data)
            line: list[Any] = [
                str(index + 1),
                _wind(winds.prevalent) if winds and winds.prevalent else "",
                cell(f"{dealer} {names.get(dealer, '')}", name_w, 7) if dealer else "",
            ]
            if index < len(records):
                record = records[index]
                delta = rules.points(record)
                for w in WINDS:
                    running[w] += delta[w]
                if record.winner:
                    line += [
                        cell(f"{record.winner} {names.get(record.winner, '')}", name_w, 7),
                        cell(f"{record.discarder} {names.get(record.discarder, '')}", name_w, 7)
                        if record.discarder
                        else gettext("self-drawn"),
                        str(record.fan),
                    ]
                else:
                    line += [gettext("draw"), "", ""]
                line += [str(delta[w]) for w in WINDS] + [str(running[w]) for w in WINDS]
            else:
                # blank boxes, each seat's wind in this hand marked in grey
                line += ["", "", ""]
                line += [f"[{winds.seats[w]}]" if winds else "" for w in WINDS] + [""] * 4
                style.append(("TEXTCOLOR", (6, row_no), (9, row_no), colors.grey))
                style.append(("FONTSIZE", (6, row_no), (9, row_no), 6))
                style.append(("VALIGN", (6, row_no), (9, row_no), "TOP"))
            if index % 4 == 3:
                style.append(("LINEBELOW", (0, row_no), (-1, row_no), 0.8, colors.black))
            data.append(line)
        hand_rows = count
        # penalties: the entered ones, then room for more
        penalties = list(table.penalties.all())
        # a penalty may name a substitute: it counts at the seat they took over
        stand_ins = {
            item.substitute_id: (seat.wind, item.substitute)
            for seat in table.seats.all()
            for item in seat_substitutions.of_seat(seat)
        }
        for penalty in penalties:
            reg = next((r for r in seats.values() if r.pk == penalty.registration_id), None)
            seat = next((w for w, r in seats.items() if r.pk == penalty.registration_id), "")
            if reg is None and penalty.registration_id in stand_ins:
                seat, reg = stand_ins[penalty.registration_id]
            effect = dict.fromkeys(WINDS, 0)
            if penalty.points and not penalty.cancelled:
                if penalty.paid_to == "each_other":
                    for w in WINDS:
                        effect[w] += penalty.points if w != seat else -3 * penalty.points
                else:
                    effect[seat] -= penalty.points
            text = gettext("Penalty %(seat)s %(name)s: %(rule)s %(reason)s") % {
                "seat": seat,
                "name": reg.player.name if reg else "",
                "rule": rules_text(penalty.rule, rules),
                "reason": rules_text(penalty.reason, rules),
            }
            if penalty.cancelled:
                text += " " + gettext("(cancelled on appeal)")
            data.append(
                [cell(text, sum(widths[:6]) - 6, 7), "", "", "", "", ""]
                + [str(effect[w]) if effect[w] else "" for w in WINDS]
                + [""] * 4
            )
            style.append(("SPAN", (0, len(data) - 1), (5, len(data) - 1)))
        for _ in range(max(0, 2 - len(penalties)) or 1):
            data.append([gettext("Penalty: who, rule, points"), "", "", "", "", ""] + [""] * 8)
            style.append(("SPAN", (0, len(data) - 1), (5, len(data) - 1)))
            style.append(("TEXTCOLOR", (0, len(data) - 1), (0, len(data) - 1), colors.grey))
        late = {
            item.registration_id: item.minutes for item in table.late_arrivals.all() if not item.cancelled
        }
        late_line = [gettext("Lateness (minutes late: points)"), "", "", "", "", ""]
        for w in WINDS:
            reg = seats.get(w)
            minutes = late.get(reg.pk) if reg else None
            if minutes:
                lost = rules.late_points(minutes)
                late_line.append(
                    gettext("%(minutes)s min: %(points)s")
                    % {"minutes": minutes, "points": gettext("forfeit") if lost is None else -lost}
                )
            else:
                late_line.append("")
        data.append(late_line + [""] * 4)
        style.append(("SPAN", (0, len(data) - 1), (5, len(data) - 1)))
        style.append(("FONTSIZE", (6, len(data) - 1), (9, len(data) - 1), 6))
        totals_row = len(data)
        data.append(
            [gettext("Total (hands, penalties, lateness)"), "", "", "", "", "", "", "", "", ""]
            + [str(result.scores[w]) if result else "" for w in WINDS]
        )
        tp_row = len(data)
        if rules.uses_table_points:
            data.append(
                [gettext("Table points"), "", "", "", "", "", "", "", "", ""]
                + [
                    points_text(float(result.table_points[w])) if result and result.table_points else ""
                    for w in WINDS
                ]
            )
        for row in range(totals_row, len(data)):
            style += [
                ("SPAN", (0, row), (9, row)),
                ("BACKGROUND", (0, row), (-1, row), colors.HexColor(PALE)),
            ]
        style.append(("FONTSIZE", (10, totals_row), (-1, tp_row), 10))
        extra = len(data) - 2 - hand_rows
        fixed = [
            *self.heading(table, gettext("scoresheet")),
            Spacer(1, 4),
            self.players(table, rules, rounds),
            self.stand_ins(table, 6),
            Spacer(1, 6),
            Paragraph(gettext("Signatures: each player checks the scores and signs"), self.styles.small),
            self.signatures(names),
        ]
        note = (
            Paragraph(markup(rules.word(rules.scoresheet_note, get_language())), self.styles.small)
            if rules.scoresheet_note
            else None
        )
        if note is not None:
            fixed.append(note)
        row_height = self.fill_rows(fixed, hand_rows + extra + 1, 13, 30)
        heights = [12, 12] + [row_height] * (len(data) - 2)
        grid = Grid(data, colWidths=widths, rowHeights=heights)

        grid.setStyle(grid_style(*style, header_rows=0, size=8))
        story = [*fixed[:4], grid, *fixed[4:]]
        return story

    # --- the scorecard (NMJL and the other rule sets) ----------------------------------------------

    def scorecard(self, table: Table, rules: RuleSet) -> list[Any]:
        from reportlab.lib import colors
        from reportlab.platypus import Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        seats = seats_by_wind(table)
        names = {w: r.player.name for w, r in seats.items()}
        hands = played_hands(table)
        records = [hand_record(h) for h in hands]
        count = max(self.tournament.hands_per_session or 4, len(hands))
        word = rules.word("hand", get_language())
        has_card = hasattr(
            type(rules), "card"
        )  # a rule set that plays from a card (NMJL) has jokerless hands
        result = table_result(table)
        winds = [seat_winds(rules, i, records) for i in range(count)]

        # seat winds per game (NMJL rule 116: the pivot moves every second time the dice come to her)
        wind_head = [gettext("Start"), gettext("Player"), gettext("Code")] + [
            f"{word.capitalize()} {i + 1}" for i in range(count)
        ]
        game_w = min(52, (self.doc.width - 40 - 60 - 120) / max(count, 1))
        name_w = self.doc.width - 40 - 60 - game_w * count
        wind_data = [wind_head]
        for w in WINDS:
            reg = seats.get(w)
            wind_data.append(
                [_wind(w), cell(reg.player.name if reg else "", name_w - 6, 9), reg.code if reg else ""]
                + [_wind(x.seats[w]) if x else "" for x in winds]
            )
        wind_grid = Grid(wind_data, colWidths=[40, name_w, 60] + [game_w] * count)
        wind_grid.setStyle(
            grid_style(("ALIGN", (3, 0), (-1, -1), "CENTER"), ("FONTSIZE", (0, 1), (-1, -1), 9), size=7)
        )

        value_head = gettext("Hand or value") if has_card else gettext("Details")
        head = [
            "#",
            gettext("Dealer"),
            gettext("Winner"),
            gettext("How it ended"),
            gettext("Discarder"),
            value_head,
        ]
        fixed_widths = [16, 62, 62, 56, 62, 62 if has_card else 100]
        if has_card:
            head.append(gettext("Jokerless"))
            fixed_widths.append(40)
        seat_col = len(head)
        seat_width = (self.doc.width - sum(fixed_widths)) / 4
        head += [gettext("%(seat)s points") % {"seat": w} for w in WINDS]
        data: list[list[Any]] = [head]
        style: list[tuple[Any, ...]] = [
            ("ALIGN", (seat_col, 1), (-1, -1), "RIGHT"),
            ("FONTSIZE", (0, 0), (-1, 0), 7),
        ]
        for index in range(count):
            dealer = dealer_of(winds[index])
            line: list[Any] = [
                str(index + 1),
                cell(f"{dealer} {names.get(dealer, '')}", 58, 7) if dealer else "",
            ]
            if index < len(records):
                record = records[index]
                details = record.data
                delta = rules.points(record)
                won_by = details.get("won_by")
                how = {
                    "wall": gettext("wall game"),
                    "self_pick": gettext("self-picked"),
                    "discard": gettext("discard"),
                }.get(
                    won_by or "",
                    gettext("discard")
                    if record.discarder
                    else (gettext("self-drawn") if record.winner else gettext("draw")),
                )
                line += [
                    cell(f"{record.winner} {names.get(record.winner, '')}", 58, 7) if record.winner else "—",
                    how,
                    cell(f"{record.discarder} {names.get(record.discarder, '')}", 58, 7)
                    if record.discarder
                    else "",
                ]
                if has_card:
                    value = details.get("hand") or details.get("value") or ""
                    if details.get("hand") and details.get("value"):
                        value = f"{details['hand']} ({details['value']})"
                    line += [cell(str(value), 58, 7), "yes" if details.get("jokerless") else ""]
                else:
                    line.append(cell(rules.describe_in(record, get_language()), 96, 6))
                line += [str(delta[w]) for w in WINDS]
            else:
                line += [""] * (seat_col - 2)
                hand_winds = winds[index]
                line += [f"[{hand_winds.seats[w]}]" if hand_winds else "" for w in WINDS]
                style += [
                    ("TEXTCOLOR", (seat_col, index + 1), (-1, index + 1), colors.grey),
                    ("FONTSIZE", (seat_col, index + 1), (-1, index + 1), 6),
                    ("VALIGN", (seat_col, index + 1), (-1, index + 1), "TOP"),
                ]
            data.append(line)
        late = {
            item.registration_id: item.minutes for item in table.late_arrivals.all() if not item.cancelled
        }
        late_line = [gettext("Late (minutes)")] + [""] * (seat_col - 1)
        for w in WINDS:
            reg = seats.get(w)
            minutes = late.get(reg.pk) if reg else None
            lost = rules.late_points(minutes) if minutes else 0
            late_line.append(
                gettext("%(minutes)s min: %(points)s")
                % {"minutes": minutes, "points": gettext("forfeit") if lost is None else -lost}
                if minutes
                else ""
            )
        data.append(late_line)
        data.append(
            [gettext("Total")]
            + [""] * (seat_col - 1)
            + [str(result.scores[w]) if result else "" for w in WINDS]
        )
        for row in (len(data) - 2, len(data) - 1):
            style += [
                ("SPAN", (0, row), (seat_col - 1, row)),
                ("BACKGROUND", (0, row), (-1, row), colors.HexColor(PALE)),
            ]
        fixed = [
            *self.heading(table, gettext("scorecard")),
            Spacer(1, 4),
            Paragraph(
                gettext("Seat winds per %(word)s (by starting seat)") % {"word": word}, self.styles.small
            ),
            wind_grid,
            self.stand_ins(table, 8),
            Spacer(1, 8),
            Paragraph(gettext("Signatures: each player checks the scores and signs"), self.styles.small),
            self.signatures(names),
        ]
        # the header and the lateness and total rows are fixed; the games share the rest of the page
        row_height = self.fill_rows([*fixed, Spacer(1, 16 + 2 * 28)], count, 14, 110)
        grid = Grid(
            data,
            colWidths=fixed_widths + [seat_width] * 4,
            rowHeights=[16] + [row_height] * count + [28, 28],
        )
        grid.setStyle(grid_style(*style))
        return [*fixed[:5], grid, *fixed[5:]]
