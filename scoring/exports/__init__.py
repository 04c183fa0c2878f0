"""Prints and exports as classes returning ``(filename, content_type, bytes)``; one view or command
serves any of them (docs/prints.md).

- per session (``SESSION_PRINTS``, built with ``(round_, base_url, paper)``): scoresheets or
  scorecards, seat slips, table cards, seating lists;
- per event (``EVENT_PRINTS``, built with ``(tournament, base_url, paper)``): standings PDF,
  penalties and appeals register, workbook, EMA results (XLSX and CSV);
- the standings downloads (``STANDINGS_EXPORTS``: csv, xlsx, pdf).

A print that cannot be made raises :class:`PrintError` before any byte is written.
"""

from __future__ import annotations

from scoring.exports.base import Export, PrintError, pdf_font, safe_text
from scoring.exports.ema import EMAResultsCSV, EMAResultsXLSX, ema_check
from scoring.exports.hall import SeatingListsPDF, SeatSlipsPDF, TableCardsPDF
from scoring.exports.register import RegisterPDF
from scoring.exports.sheets import ScoresheetsPDF
from scoring.exports.standings import (
    STANDINGS_EXPORTS,
    StandingsCSV,
    StandingsExport,
    StandingsPDF,
    StandingsXLSX,
)
from scoring.exports.workbook import EventWorkbook

SESSION_PRINTS: dict[str, type[Export]] = {
    "scoresheets": ScoresheetsPDF,
    "seat-slips": SeatSlipsPDF,
    "table-cards": TableCardsPDF,
    "seating-lists": SeatingListsPDF,
}

EVENT_PRINTS: dict[str, type[Export]] = {
    "standings": StandingsPDF,
    "register": RegisterPDF,
    "workbook": EventWorkbook,
    "ema": EMAResultsXLSX,
    "ema-csv": EMAResultsCSV,
}

__all__ = [
    "EVENT_PRINTS",
    "SESSION_PRINTS",
    "STANDINGS_EXPORTS",
    "EMAResultsCSV",
    "EMAResultsXLSX",
    "EventWorkbook",
    "Export",
    "PrintError",
    "RegisterPDF",
    "ScoresheetsPDF",
    "SeatSlipsPDF",
    "SeatingListsPDF",
    "StandingsCSV",
    "StandingsExport",
    "StandingsPDF",
    "StandingsXLSX",
    "TableCardsPDF",
    "ema_check",
    "pdf_font",
    "safe_text",
]
