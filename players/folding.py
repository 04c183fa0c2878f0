"""Names as people type them on a phone: "garcia" finds "García", "OBRIEN" finds "O'Brien", and a
query of odd characters (control characters, emoji, 2,000 characters) finds nothing without an error."""

from __future__ import annotations

import re
import unicodedata

MAX_QUERY = 100
"""A longer query is cut: no name is that long, and the work per query stays small."""

# Letters that do not decompose into a base letter and an accent (NFKD leaves them whole).
_LETTERS = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"})


_ASCII_APOSTROPHES = str.maketrans("", "", "'`")
_ASCII_OTHER = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """``text`` without case, accents or punctuation, for comparing: "Paula Horváth" -> "paula horvath".
    Letters and digits of every script are kept (so "陈" still finds "陈波"); everything else becomes
    a space."""
    if text.isascii():  # most names: the same result, a few times quicker (the search folds every name)
        return " ".join(_ASCII_OTHER.sub(" ", text.lower().translate(_ASCII_APOSTROPHES)).split())
    return _fold_unicode(text)


def _fold_unicode(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold()).translate(
        _LETTERS
    )
    kept = []
    for char in decomposed:
        category = unicodedata.category(char)
        if category.startswith("M"):
            continue  # an accent
        if char in "'’`´":
            continue  # O'Brien, OBrien and O Brien are the same person
        kept.append(char if category[0] in "LN" else " ")
    return " ".join("".join(kept).split())


def query_words(query: str) -> list[str]:
    """The words of a search, folded; empty when nothing searchable was typed."""
    return fold(query[:MAX_QUERY]).split()


def matches(words: list[str], *texts: str) -> bool:
    """Whether every word of the query appears in one of ``texts`` (each folded)."""
    haystack = " ".join(fold(text) for text in texts)
    return bool(words) and all(word in haystack for word in words)
