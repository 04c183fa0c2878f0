"""The whole event as JSON (``shared/specs/event-json.md``): export, all-or-nothing import, standings.

``import_event`` checks the whole document first and reports every problem with its path in the
document; it writes nothing unless the document is entirely valid.

- ``documents``: the format's limits, reading a document safely, the checks the others share;
- ``export``: event -> document (``export_event``, ``export_warnings``);
- ``validate``: every problem of a document (``validate_event``);
- ``load``: document -> event through the service functions (``import_event``).
"""

from scoring.interchange.documents import (
    FORMAT,
    MAX_DOCUMENT_BYTES,
    EventImportError,
    hand_record_from_doc,
    read_document,
)
from scoring.interchange.export import export_event, export_warnings
from scoring.interchange.load import import_event
from scoring.interchange.validate import validate_event

__all__ = [
    "FORMAT",
    "MAX_DOCUMENT_BYTES",
    "EventImportError",
    "export_event",
    "export_warnings",
    "hand_record_from_doc",
    "import_event",
    "read_document",
    "validate_event",
]
