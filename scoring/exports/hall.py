"""Prints for the hall: a seat slip per player, a card per table, seating lists for the wall."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from urllib.parse import urlencode

from django.utils.translation import get_language, gettext, gettext_lazy

from scoring.exports.base import (
    Export,
    PDFDocument,
    Styles,
    cell,
    fit,
    grid_style,
    markup,
    pdf_font,
    qr_drawing,
)
from scoring.exports.data import check_seated, seated_tables
from scoring.rules import vocabulary
from scoring.services.pins import issue_pins
from tournaments.models import WINDS, Round, Seat
from tournaments.public_names import public_names


def _wind(letter: str) -> str:
    """A seat's wind in the active language (the organiser's page's): "East" / "东"."""
    return vocabulary.wind_label(letter, get_language())


class SessionPrint(Export):
    kind = ""

    def __init__(self, round_: Round, base_url: str = "", paper: str = "a4") -> None:
        self.round = round_
        self.tournament = round_.tournament
        self.base_url = base_url.rstrip("/")
        self.paper = paper

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.round.number}-{self.kind}.pdf"

    def check(self) -> None:
        check_seated(self.round)


class SeatSlipsPDF(SessionPrint):
    """A slip per player seated in the session, eight to an A4 page with cut lines: the player's name
    and code, table and seat for every seated session (this one marked), a QR code to the player's
    public page and the player's PIN for signing results (issued now to anyone who has none yet)."""

    kind = "seat-slips"
    label = gettext_lazy("Seat slips (one per player, 8 per page)")
    background = True  # 2.2 s for 400 players (docs/prints.md)
    uses_base_url = True

    def prepare(self, acting_user: Any) -> None:
        """Issue the missing PINs now, in the name of the organiser who asked for the slips."""

        issue_pins(self.tournament, acting_user=acting_user)

    def content(self) -> bytes:
        from django.urls import reverse
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph
        from reportlab.platypus import Table as Grid

        pins = issue_pins(self.tournament, acting_user=None)
        tables = seated_tables(self.round)
        seated = [(table, seat) for table in tables for seat in table.seats.all()]
        shown = public_names(self.tournament)  # shown to the hall: tournaments.public_names
        seated.sort(key=lambda item: (shown[item[1].registration.code].casefold(), item[1].registration.code))
        plan: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
        for registration_id, round_number, table_number, wind in (
            Seat.objects.filter(round__tournament=self.tournament)
            .order_by("round__number")
            .values_list("registration_id", "round__number", "table__number", "wind")
        ):
            plan[registration_id].append((round_number, table_number, wind))
        doc = PDFDocument(
            gettext("%(name)s: session %(number)s seat slips")
            % {"name": self.tournament.name, "number": self.round.number},
            self.paper,
            zone=self.tournament.zone,
            margin=20,
        )
        styles = Styles()
        name_style = ParagraphStyle("name", parent=styles.normal, fontSize=16, leading=20, spaceBefore=2)
        slip_w, slip_h = doc.width / 2, (doc.height - 2) / 4
        slips = []
        for _table, seat in seated:
            reg = seat.registration
            # The player's own page, signing in with the PIN below (scoring/views_player.py); it links to
            # the public player page for anyone holding the slip without the PIN.
            url = (
                self.base_url
                + reverse("public:me", args=[self.tournament.slug])
                + "?"
                + urlencode({"code": reg.code})
            )
            lines = [
                (gettext("Session"), gettext("Table"), gettext("Seat")),
                *[
                    (
                        gettext("%(number)s (this one)") % {"number": n}
                        if n == self.round.number
                        else str(n),
                        str(t),
                        _wind(w),
                    )
                    for n, t, w in plan[reg.pk]
                ],
            ]
            sessions = Grid(
                lines, colWidths=[70, 40, 50], rowHeights=min(14, (slip_h - 110) / max(len(lines), 1))
            )
            sessions.setStyle(grid_style(size=8))
            left = [
                Paragraph(markup(self.tournament.name), styles.small),
                Paragraph(markup(fit(shown[reg.code], slip_w - 110, 16)), name_style),
                Paragraph(
                    gettext("Player code: <b>%(code)s</b>") % {"code": markup(reg.code)}, styles.normal
                ),
                Paragraph(
                    "<b>%s</b>"
                    % (
                        gettext("Session %(number)s: table %(table)s, %(wind)s")
                        % {"number": self.round.number, "table": _table.number, "wind": _wind(seat.wind)}
                    ),
                    styles.normal,
                ),
                sessions,
            ]
            right = [qr_drawing(url, 76), Paragraph(gettext("Scan for your results"), styles.small)]
            inner = Grid(
                [
                    [left, right],
                    [
                        Paragraph(
                            gettext(
                                "PIN <b>%(pin)s</b>: your PIN: sign your table's result with it (rule 72); "
                                "keep it to yourself"
                            )
                            % {"pin": markup(pins[reg.pk])},
                            styles.small,
                        ),
                        "",
                    ],
                ],
                colWidths=[slip_w - 90, 82],
            )
            inner.setStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("SPAN", (0, 1), (1, 1)),
                    ("BOX", (0, 1), (1, 1), 0.5, "grey"),
                ]
            )
            slips.append(inner)
        if len(slips) % 2:
            slips.append("")
        rows = [slips[i : i + 2] for i in range(0, len(slips), 2)]
        grid = Grid(rows, colWidths=[slip_w] * 2, rowHeights=slip_h)
        grid.setStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("GRID", (0, 0), (-1, -1), 0.4, "grey", None, (3, 3)),  # dashed cut lines
            ]
        )
        return doc.build([grid])


class TableCardsPDF(SessionPrint):
    """A card per table (landscape, one page each): the big table number, the session, the four
    names by starting seat."""

    kind = "table-cards"
    label = gettext_lazy("Table cards (one page per table)")

    def content(self) -> bytes:
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import PageBreak, Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        tables = seated_tables(self.round)
        doc = PDFDocument(
            gettext("%(name)s: session %(number)s table cards")
            % {"name": self.tournament.name, "number": self.round.number},
            self.paper,
            zone=self.tournament.zone,
            landscape=True,
        )
        font = pdf_font()
        big = ParagraphStyle("big", fontName=font, fontSize=220, leading=200, alignment=1)
        line = ParagraphStyle("line", fontName=font, fontSize=18, leading=22, alignment=1)
        story: list[Any] = []
        shown = public_names(self.tournament)  # shown to the hall: tournaments.public_names
        for index, table in enumerate(tables):
            if index:
                story.append(PageBreak())
            seats = {seat.wind: seat.registration for seat in table.seats.all()}
            names = Grid(
                [
                    [_wind(w), cell(shown[seats[w].code], doc.width - 210, 24), seats[w].code]
                    for w in WINDS
                    if w in seats
                ],
                colWidths=[90, doc.width - 200, 90],
                rowHeights=46,
            )
            names.setStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), font),
                    ("FONTSIZE", (0, 0), (-1, -1), 24),
                    ("FONTSIZE", (0, 0), (0, -1), 14),
                    ("FONTSIZE", (2, 0), (2, -1), 12),
                    ("LINEBELOW", (0, 0), (-1, -2), 0.25, "grey"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
            story += [
                Paragraph(
                    " · ".join(
                        (
                            markup(self.tournament.name),
                            gettext("Session %(number)s") % {"number": self.round.number},
                        )
                    ),
                    line,
                ),
                Paragraph(
                    gettext("Table %(number)s") % {"number": table.number},
                    ParagraphStyle("label", parent=line, fontSize=24, leading=30),
                ),
                Paragraph(str(table.number), big),
                Spacer(1, 10),
                names,
            ]
        return doc.build(story)


class SeatingListsPDF(SessionPrint):
    """Seating for the wall: by table (the four names by seat), then every player alphabetically with
    table and seat."""

    kind = "seating-lists"
    label = gettext_lazy("Seating lists (by table, and by name)")

    def content(self) -> bytes:
        from reportlab.platypus import PageBreak, Paragraph, Spacer
        from reportlab.platypus import Table as Grid

        tables = seated_tables(self.round)
        doc = PDFDocument(
            gettext("%(name)s: session %(number)s seating")
            % {"name": self.tournament.name, "number": self.round.number},
            self.paper,
            zone=self.tournament.zone,
        )
        styles = Styles()
        name_w = (doc.width - 40) / 4
        by_table = [[gettext("Table"), *(_wind(w) for w in WINDS)]]
        everyone = []
        shown = public_names(self.tournament)  # shown to the hall: tournaments.public_names
        for table in tables:
            seats = {seat.wind: seat.registration for seat in table.seats.all()}
            by_table.append(
                [str(table.number)]
                + [cell(shown[seats[w].code], name_w - 6, 10) if w in seats else "" for w in WINDS]
            )
            everyone += [(shown[reg.code], reg.code, table.number, w) for w, reg in seats.items()]
        everyone.sort(key=lambda item: (item[0].casefold(), item[1]))
        first = Grid(by_table, colWidths=[40] + [name_w] * 4, repeatRows=1)
        first.setStyle(
            grid_style(
                ("FONTSIZE", (0, 1), (-1, -1), 10),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), ["white", "#eef4ef"]),
            )
        )
        second_data = [[gettext("Name"), gettext("Code"), gettext("Table"), gettext("Seat")]] + [
            [cell(name, doc.width - 200, 11), code, str(number), _wind(w)]
            for name, code, number, w in everyone
        ]
        second = Grid(second_data, colWidths=[doc.width - 190, 60, 60, 70], repeatRows=1)
        second.setStyle(
            grid_style(
                ("FONTSIZE", (0, 1), (-1, -1), 11),
                ("ALIGN", (2, 0), (2, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), ["white", "#eef4ef"]),
            )
        )
        title = markup(self.tournament.name)
        return doc.build(
            [
                Paragraph(
                    gettext("%(name)s: session %(number)s, seating by table")
                    % {"name": title, "number": self.round.number},
                    styles.title,
                ),
                Spacer(1, 6),
                first,
                PageBreak(),
                Paragraph(
                    gettext("%(name)s: session %(number)s, players by name")
                    % {"name": title, "number": self.round.number},
                    styles.title,
                ),
                Spacer(1, 6),
                second,
            ]
        )
