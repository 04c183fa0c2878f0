"""An uploaded XLSX workbook opened safely.

An XLSX file is a zip archive, and openpyxl unpacks parts of it whole when the workbook opens (every shared
string, even in read-only mode): a 0.4 MB file holding one deflated 400 MB shared string took 0.9 GB. So
:func:`open_workbook`, the one place an uploaded workbook is opened (the player import and the seating
upload read it through :func:`read_rows`), reads the archive's directory first and refuses, before
openpyxl sees a byte, a file that is not a zip archive or that would unpack to more than the limits below.

The sizes checked are those the archive's directory states; Python's ``zipfile`` (which openpyxl reads
through) never returns more than the stated size of a member, so a member that lies about its size
cannot unpack to more.

The limits are far above any real upload: a list of 5,000 players (:data:`MAX_IMPORT_ROWS`) or a
seating of 50 sessions unpacks to a few megabytes in a handful of parts.
"""

from __future__ import annotations

import csv
import io
import zipfile
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from tournaments.errors import ServiceError

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook

MB = 1_000_000
MAX_UNPACKED_BYTES = 20 * MB
"""All the parts of the archive together, unpacked."""
MAX_PART_BYTES = 10 * MB
"""Any one part unpacked (the shared strings, one sheet)."""
MAX_PARTS = 1000
"""Parts in the archive (a workbook with one sheet has about ten)."""
MAX_IMPORT_ROWS = 5000
"""Rows read from an uploaded CSV or XLSX file (a player list, a seating)."""
MAX_IMPORT_COLUMNS = 20
MAX_FIELD = 1000
"""Characters kept of one cell."""


def _megabytes(size: int) -> str:
    return f"{size / MB:,.0f}" if size >= 10 * MB else f"{size / MB:,.1f}"


def check_workbook_archive(content: bytes) -> None:
    """Refuse (a ServiceError, code ``bad_file`` or ``too_large``) a workbook that is not a zip archive
    or that would unpack to more than this site reads; nothing is decompressed."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise ServiceError(
            gettext(
                "This is not an XLSX workbook (an .xlsx file is a zip archive). Save it from your "
                "spreadsheet as XLSX, or as CSV UTF-8."
            ),
            code="bad_file",
        ) from None
    if len(parts) > MAX_PARTS:
        raise ServiceError(
            gettext(
                "The spreadsheet holds %(parts)s parts, more than the %(max_parts)s this site reads. "
                "Save it again as XLSX or CSV with only the sheet to import."
            )
            % {"parts": f"{len(parts):,}", "max_parts": f"{MAX_PARTS:,}"},
            code="too_large",
        )
    total = sum(part.file_size for part in parts)
    if total > MAX_UNPACKED_BYTES:
        raise ServiceError(
            gettext("The spreadsheet unpacks to %(size)s MB, more than the %(limit)s MB this site reads.")
            % {"size": _megabytes(total), "limit": _megabytes(MAX_UNPACKED_BYTES)},
            code="too_large",
        )
    for part in parts:
        if part.file_size > MAX_PART_BYTES:
            raise ServiceError(
                gettext(
                    "A part of the spreadsheet (%(part)s) unpacks to %(size)s MB, more than the "
                    "%(limit)s MB this site reads for one part."
                )
                % {
                    "part": part.filename[:80],
                    "size": _megabytes(part.file_size),
                    "limit": _megabytes(MAX_PART_BYTES),
                },
                code="too_large",
            )


def open_workbook(content: bytes) -> Workbook:
    """The uploaded workbook, checked (:func:`check_workbook_archive`) and then opened read-only with
    the cells' values; a file openpyxl cannot read is a ServiceError (code ``bad_file``). The caller
    must still call ``reset_dimensions()`` on a sheet and cap rows and columns: read-only mode trusts
    the sheet's stated dimension, and a 5 KB file can claim a million rows."""
    check_workbook_archive(content)
    import openpyxl

    try:
        return openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many types for a broken file
        raise ServiceError(
            gettext("This is not a readable XLSX workbook (%(name)s).") % {"name": error.__class__.__name__},
            code="bad_file",
        ) from None


def read_rows(content: bytes, filename: str, *, what: str = "players") -> list[list[str]]:
    """The cells of a CSV or XLSX file, read safely: the stated dimension of a sheet is not trusted, rows
    and columns are capped, every cell is cut to ``MAX_FIELD`` characters (``what`` names the rows)."""
    if filename.lower().endswith(".xlsx"):
        workbook = open_workbook(content)  # its unpacked size checked first
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # the stated dimension may claim a million rows
        raw_rows: list[list[str]] = []
        for row in sheet.iter_rows(values_only=True, max_col=MAX_IMPORT_COLUMNS):
            if len(raw_rows) > MAX_IMPORT_ROWS:
                workbook.close()
                raise ServiceError(
                    gettext(
                        "The file has more than %(max_import_rows)s rows; import at most "
                        "%(max_import_rows)s %(what)s at once."
                    )
                    % {"max_import_rows": MAX_IMPORT_ROWS, "what": what},
                    code="too_many_rows",
                )
            raw_rows.append(["" if cell is None else str(cell)[:MAX_FIELD] for cell in row])
        workbook.close()
    else:
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ServiceError(
                gettext("The file is not UTF-8 text; save it as CSV UTF-8 or XLSX."), code="bad_file"
            ) from None
        try:
            dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        raw_rows = []
        try:
            for row in csv.reader(io.StringIO(text), dialect):
                if len(raw_rows) > MAX_IMPORT_ROWS:
                    raise ServiceError(
                        gettext(
                            "The file has more than %(max_import_rows)s rows; import at most "
                            "%(max_import_rows)s %(what)s at once."
                        )
                        % {"max_import_rows": MAX_IMPORT_ROWS, "what": what},
                        code="too_many_rows",
                    )
                raw_rows.append([cell[:MAX_FIELD] for cell in row[:MAX_IMPORT_COLUMNS]])
        except csv.Error as error:
            raise ServiceError(
                gettext("The file could not be read as CSV (row %(value)s: %(error)s).")
                % {"value": len(raw_rows) + 1, "error": error},
                code="bad_file",
            ) from None
    return raw_rows
