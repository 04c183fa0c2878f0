"""An event's web address (slug) made from its name, for names in any script.

Django's ``slugify`` drops every letter that is not ASCII ("Ünïcødé" → "unicde", "上海麻将公开赛" → "").
The name is transliterated first with ``anyascii`` (ISC licence, tables for every script): accents go
with their letter ("Ünïcødé Open" → "unicode-open"), and each Chinese character becomes a pinyin syllable
of its own ("上海麻将公开赛" → "shang-hai-ma-jiang-gong-kai-sai"). When nothing Latin is left (emoji,
symbols only) the address is generated: "event-" and eight random hex digits."""

from __future__ import annotations

import secrets
import unicodedata

from anyascii import anyascii
from django.utils.text import slugify

from tournaments.field_limits import max_length
from tournaments.models import Tournament


def _spaced(name: str) -> str:
    """The name with a space around each CJK ideograph, so its syllables stay apart once transliterated."""
    return "".join(
        f" {char} " if unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH") else char
        for char in name
    )


def address_from_name(name: str) -> str:
    """The event's address made from ``name``: transliterated, or generated when nothing is left."""
    slug = slugify(anyascii(_spaced(name)))[: max_length(Tournament, "slug")].strip("-")
    return slug or f"event-{secrets.token_hex(4)}"
