"""The privacy notice a player is shown when registered (at the desk, by an import, or by their own entry),
and its version: each registration and entry records the version and the time (``docs/privacy.md``).

Change ``CONSENT_TEXT`` only together with a new ``CONSENT_VERSION``, so each stored version still names
the words the player saw."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy

CONSENT_VERSION = "2026-11"
CONSENT_TEXT = gettext_lazy(
    "The organiser keeps your name, country, EMA number and team (and, if you register yourself, your email "
    "address) to run this event: seating, results and the EMA results file. Your name and results are shown "
    "on the event's public pages and prints. Ask the organiser for a copy of your data or to have your name "
    "replaced by a pseudonym; your results then stay in the standings under that pseudonym."
)


@dataclass(frozen=True)
class Consent:
    """Which version of the notice a player was shown, and when."""

    version: str
    at: datetime

    @classmethod
    def now(cls) -> Consent:
        """The current notice, shown now."""
        return cls(CONSENT_VERSION, timezone.now())
