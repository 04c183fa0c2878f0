"""What every print and export shares: the export class shape, paper sizes, the CJK font, safe text for
spreadsheets and for reportlab (whose ``Paragraph`` reads its text as markup), QR codes, page frames.

Every export is a class whose ``render()`` returns ``(filename, content_type, bytes)``; it raises
:class:`PrintError` (with a ``code``) before anything is made when a print cannot be made, so a caller
never gets half a file.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from datetime import tzinfo
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext

from tournaments.errors import ServiceError

if TYPE_CHECKING:  # django-stubs-ext is a development dependency
    from django_stubs_ext import StrOrPromise

CJK_FONT_PATHS = (
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc"),
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
GREEN = "#20603d"
PALE = "#eef4ef"


class PrintError(ServiceError):
    """A print that cannot be made (a session not seated, an export the rules do not have); the message
    names what is missing. Views answer it with status 409, the command with its message."""


def safe_text(value: str) -> str:
    """Keep text typed by users from being read as a spreadsheet formula (CSV injection)."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def points_text(value: float) -> str:
    return f"{value:g}"


def markup(value: Any) -> str:
    """User-typed text for a reportlab ``Paragraph``: escaped, so ``<img src=...>`` or an unclosed
    ``<b>`` prints literally instead of being read as markup (reportlab parses a Paragraph's text, and
    ``<img>`` reads files); characters the CJK font lacks (ź, Ć, ặ ...) are set in the fallback font."""
    text = str(value)
    if not needs_fallback(text):
        return escape(text)
    fallback = fallback_font()
    covered = _coverage(pdf_font())
    runs: list[str] = []
    current, run = None, ""
    for char in text:
        font = pdf_font() if ord(char) in covered or ord(char) < 128 else fallback
        if font != current and run:
            runs.append(_run(run, current))
            run = ""
        current = font
        run += char
    if run:
        runs.append(_run(run, current))
    return "".join(runs)


def _run(text: str, font: str | None) -> str:
    return escape(text) if font == pdf_font() else f'<font name="{font}">{escape(text)}</font>'


FALLBACK_FONT_PATHS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),)


@cache
def fallback_font() -> str:
    """A font for the Latin, Greek, Cyrillic and Vietnamese letters the CJK font lacks (DejaVu Sans)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in FALLBACK_FONT_PATHS:
        if path.exists():
            pdfmetrics.registerFont(TTFont("DejaVu", str(path)))
            return "DejaVu"
    return pdf_font()


@cache
def _coverage(font: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    face = getattr(pdfmetrics.getFont(font), "face", None)
    mapping = getattr(face, "charToGlyph", None)
    return frozenset(mapping) if mapping else frozenset(range(256))


def needs_fallback(text: str) -> bool:
    covered = _coverage(pdf_font())
    return any(ord(char) > 127 and ord(char) not in covered for char in text)


def cell(text: str, width: float, size: float) -> Any:
    """A table cell of user text cut to ``width``: a plain string (never parsed as markup), or, when
    the text needs the fallback font, an escaped ``Paragraph`` that mixes the two fonts."""
    text = fit(text, width, size)
    if not needs_fallback(text):
        return text
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    return Paragraph(
        markup(text), ParagraphStyle("cell", fontName=pdf_font(), fontSize=size, leading=size * 1.2)
    )


@cache
def pdf_font() -> str:
    """A font with CJK glyphs when the system has one (Debian fonts-wqy-zenhei), else Helvetica.
    Registered once per process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in CJK_FONT_PATHS:
        if path.exists():
            pdfmetrics.registerFont(TTFont("WQY", str(path), subfontIndex=0))
            return "WQY"
    return "Helvetica"


def page_size(paper: str = "a4") -> tuple[float, float]:
    """``a4`` or ``letter`` (US Letter); anything else is refused with a message."""
    from reportlab.lib.pagesizes import A4, LETTER

    sizes: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
    if paper not in sizes:
        raise PrintError(
            gettext("Paper must be a4 or letter, not %(paper)s.") % {"paper": repr(paper)[:40]},
            code="bad_paper",
        )
    return sizes[paper]


def fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` points in the print font at ``size``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    font = pdf_font()
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


QR_MASK = 2  # any of the eight masks is a valid QR code; fixing one skips reportlab's slow search


@cache
def _generator(degree: int) -> tuple[int, ...]:
    """The Reed-Solomon generator polynomial of ``degree`` over GF(256), highest power first."""
    from reportlab.graphics.barcode.qrencoder import EXP_TABLE, LOG_TABLE

    poly = [1]
    for i in range(degree):
        grown = [*poly, 0]
        for j, coefficient in enumerate(poly):
            if coefficient:
                grown[j + 1] ^= EXP_TABLE[(LOG_TABLE[coefficient] + i) % 255]
        poly = grown
    return tuple(poly)


def _error_correction(data: list[int], degree: int) -> list[int]:
    from reportlab.graphics.barcode.qrencoder import EXP_TABLE, LOG_TABLE

    generator = _generator(degree)
    logs = [LOG_TABLE[g] if g else None for g in generator]
    remainder = [*data, *([0] * degree)]
    for i in range(len(data)):
        coefficient = remainder[i]
        if coefficient:
            lead = LOG_TABLE[coefficient]
            for j in range(1, degree + 1):
                if logs[j] is not None:
                    remainder[i + j] ^= EXP_TABLE[(lead + logs[j]) % 255]
    return remainder[len(data) :]


def qr_modules(url: str) -> list[list[bool]]:
    """The dark modules of a QR code for ``url`` (level M, the smallest version that holds it).

    reportlab's encoder with two shortcuts that keep the code valid: a fixed mask (any of the eight is
    allowed; reportlab tries all eight) and a table-driven Reed-Solomon step (reportlab's polynomial
    arithmetic takes ~30 ms a code, which a sheet per table of a 100-table session cannot afford)."""
    from itertools import chain, zip_longest

    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(url)
    code.version = code.calculate_version()
    blocks = qrencoder.QRRSBlock.getRSBlocks(code.version, code.errorCorrectLevel)
    buffer = qrencoder.QRBitBuffer()
    for data in code.dataList:
        data.write(buffer, code.version)
    capacity = sum(block.dataCount for block in blocks) * 8
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pads = (qrencoder.QRCode.PAD0, qrencoder.QRCode.PAD1)
    index = 0
    while buffer.getLengthInBits() < capacity:
        buffer.put(pads[index % 2], 8)
        index += 1
    offset, data_blocks, ec_blocks = 0, [], []
    for block in blocks:
        chunk = list(buffer.buffer[offset : offset + block.dataCount])
        offset += block.dataCount
        data_blocks.append(chunk)
        ec_blocks.append(_error_correction(chunk, block.totalCount - block.dataCount))
    code.dataCache = [
        d
        for group in chain(zip_longest(*data_blocks), zip_longest(*ec_blocks))
        for d in group
        if d is not None
    ]
    code.makeImpl(False, QR_MASK)
    return [[bool(m) for m in row] for row in code.modules]


def qr_drawing(url: str, size: float) -> Any:
    """A QR code flowable ``size`` points square: each run of dark modules in a row is one rectangle
    drawn straight on the canvas (reportlab's widget draws a shape per run and is ten times slower)."""
    from reportlab.platypus import Flowable

    modules = qr_modules(url)

    class QR(Flowable):  # type: ignore[misc]  # reportlab ships no type hints: Flowable is Any
        def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
            return size, size

        def draw(self) -> None:
            count = len(modules) + 8  # a quiet zone of four modules around
            box = size / count
            canvas = self.canv
            canvas.setFillColorRGB(0, 0, 0)
            path = canvas.beginPath()
            for r, row in enumerate(modules):
                c = 0
                while c < len(row):
                    if row[c]:
                        start = c
                        while c < len(row) and row[c]:
                            c += 1
                        path.rect((start + 4) * box, size - (r + 5) * box, (c - start) * box, box)
                    else:
                        c += 1
            canvas.drawPath(path, stroke=0, fill=1)

    return QR()


def made_at(zone: tzinfo | None = None) -> str:
    """When a print or download was made, in the venue's clock (``Tournament.zone``, given by every caller
    about an event: prints are made in the worker, outside any request's zone) with the zone's name."""
    return timezone.localtime(timezone.now(), zone).strftime("%Y-%m-%d %H:%M %Z").strip()


class Styles:
    """Paragraph styles in the print font (built per document; reportlab styles are mutable)."""

    def __init__(self) -> None:
        from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet

        font = pdf_font()
        sample = getSampleStyleSheet()
        self.title = ParagraphStyle("t", parent=sample["Title"], fontName=font, fontSize=16, leading=19)
        self.heading = ParagraphStyle("h", parent=sample["Heading2"], fontName=font, fontSize=12, leading=15)
        self.normal = ParagraphStyle("n", parent=sample["Normal"], fontName=font, fontSize=9, leading=11)
        self.small = ParagraphStyle("s", parent=self.normal, fontSize=7, leading=8.5)
        self.cell = ParagraphStyle("c", parent=self.normal, fontSize=8, leading=9.5)


class PDFDocument:
    """A platypus document with a footer on every page (what it is, when it was made, page number)."""

    def __init__(
        self,
        title: str,
        paper: str = "a4",
        *,
        landscape: bool = False,
        margin: float = 28,
        zone: tzinfo | None = None,
    ) -> None:
        from reportlab.lib.pagesizes import landscape as turn

        size = page_size(paper)
        self.pagesize = turn(size) if landscape else size
        self.title = title
        self.margin = margin
        self.footer = gettext("%(title)s · made %(at)s") % {"title": title, "at": made_at(zone)}

    @property
    def width(self) -> float:
        """The frame's width inside its 6-point padding."""
        return self.pagesize[0] - 2 * self.margin - 12

    @property
    def height(self) -> float:
        return self.pagesize[1] - 2 * self.margin - 12 - 12

    def build(self, story: Sequence[Any], on_page: Callable[[Any, Any], None] | None = None) -> bytes:
        from reportlab.platypus import SimpleDocTemplate

        buffer = io.BytesIO()
        document = SimpleDocTemplate(
            buffer,
            pagesize=self.pagesize,
            title=self.title,
            leftMargin=self.margin,
            rightMargin=self.margin,
            topMargin=self.margin,
            bottomMargin=self.margin + 12,
        )
        font = pdf_font()
        footer = self.footer

        def decorate(canvas: Any, doc: Any) -> None:
            canvas.saveState()
            canvas.setFont(font, 7)
            canvas.setFillColorRGB(0.4, 0.4, 0.4)
            canvas.drawString(doc.leftMargin, doc.bottomMargin - 14, fit(footer, doc.width - 60, 7))
            canvas.drawRightString(
                doc.leftMargin + doc.width,
                doc.bottomMargin - 14,
                gettext("page %(number)s") % {"number": doc.page},
            )
            canvas.restoreState()
            if on_page is not None:
                on_page(canvas, doc)

        document.build(list(story), onFirstPage=decorate, onLaterPages=decorate)
        return buffer.getvalue()


def grid_style(*extra: tuple[Any, ...], header_rows: int = 1, size: float = 8) -> Any:
    """The house table style: green header, thin grid, the print font."""
    from reportlab.lib import colors
    from reportlab.platypus import TableStyle

    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), pdf_font()),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]
    if header_rows:
        commands += [
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor(GREEN)),
            ("TEXTCOLOR", (0, 0), (-1, header_rows - 1), colors.white),
        ]
    return TableStyle([*commands, *extra])


class Export:
    """The shape of every export: ``render()`` gives ``(filename, content_type, bytes)``."""

    content_type = PDF
    extension = "pdf"
    label: StrOrPromise = ""  # what the organiser's prints page calls it, in the page's language
    # Made by the background worker (scoring.export_jobs) rather than in the request: the prints that
    # take over ~0.5 s of CPU on a 400 x 10 event (docs/prints.md).
    background = False
    uses_base_url = False  # QR codes: the file depends on the site's address
    uses_paper = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Each print takes what it prints (a session or an event), the site's address and the paper."""

    def check(self) -> None:
        """Cheap refusals (raising PrintError) made before a job is queued; ``content()`` checks fully."""

    def prepare(self, acting_user: Any) -> None:
        """Writes the print needs, made in the request by the user who asked (before the event version
        is read, so the job's version is the one it is made from)."""

    def filename(self) -> str:
        raise NotImplementedError

    def content(self) -> bytes:
        raise NotImplementedError

    def render(self) -> tuple[str, str, bytes]:
        content = self.content()  # raises PrintError before any file exists
        return self.filename(), self.content_type, content
