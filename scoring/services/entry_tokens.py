"""Each entry stored once however often it is sent: the referee's page gives every hand, totals, penalty and
lateness form a token (a UUID); an entry kept on a phone while the hall's Wi-Fi was down is posted again with
it (``static/js/offline-entry.js``), perhaps several times after lost answers. The services check the token
under the table's lock (``services.kernel.table_write``), so a replay racing its first post waits for it and
finds it, and keep it with what they stored."""

from __future__ import annotations

from uuid import UUID

from django.utils.translation import gettext

from scoring.models import EntryToken
from tournaments.errors import ServiceError
from tournaments.models import Table


class AlreadyStored(Exception):  # noqa: N818 (not an error: the answer to a replayed post)
    """The entry posted with this token was stored before: nothing is added again, and the page says it
    is saved. ``number``: the hand's number for a hand."""

    def __init__(self, kind: str, number: int) -> None:
        super().__init__(kind, number)
        self.kind = kind
        self.number = number


def check_token(table: Table, token: UUID | None) -> None:
    """Raise :class:`AlreadyStored` when ``token`` came with an entry stored at ``table`` (call it with the
    table's lock held)."""
    if token is None:
        return
    stored = EntryToken.objects.filter(token=token).first()
    if stored is None:
        return
    if stored.table_id != table.pk:
        raise ServiceError(
            gettext("This entry belongs to another table; nothing was added."), code="token_reused"
        )
    raise AlreadyStored(stored.kind, stored.number)


def keep_token(table: Table, token: UUID | None, kind: str, number: int) -> None:
    """Remember that ``token`` stored this entry (in the entry's transaction)."""
    if token is not None:
        EntryToken.objects.create(token=token, table=table, kind=kind, number=number)
