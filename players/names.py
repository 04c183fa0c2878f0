"""Comparing names as people mean them: "García", "garcia" and "GARCIA " are the same name."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents or extra spaces, for duplicate checks and the desk's search."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())
