"""Countries are ISO 3166-1 alpha-2 codes (pycountry's list); what people type is mapped to one.

"Portugal", "portugal", "PRT" and "PT" all become "PT"; a name is matched ignoring case and accents,
against the ISO name, the common name and the official name, plus a few everyday names ISO does not
use (UK, Great Britain, Russia, Turkey...). Anything else is refused, never truncated."""

from __future__ import annotations

import gettext
from functools import cache

import pycountry

from players.folding import fold

# Everyday names people type that are not among ISO 3166's names.
ALIASES = {
    "uk": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "russia": "RU",
    "turkey": "TR",
    "korea": "KR",
    "holland": "NL",
    "the netherlands": "NL",
    "macau": "MO",
    "iran": "IR",
    "syria": "SY",
    "laos": "LA",
    "moldova": "MD",
    "bolivia": "BO",
    "venezuela": "VE",
    "tanzania": "TZ",
    "vatican": "VA",
    "czech": "CZ",
    "america": "US",
    "usa": "US",
    "china": "CN",
    "mainland china": "CN",
}


# Names in these languages are understood too ("España", "Deutschland", "中国"): pycountry's translations.
LANGUAGES = ("es", "fr", "de", "it", "pt", "nl", "pl", "cs", "hu", "sv", "fi", "da", "zh_CN", "zh_TW", "ja")


@cache
def _by_name() -> dict[str, str]:
    translations = [
        gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[language], fallback=True)
        for language in LANGUAGES
    ]
    names: dict[str, str] = {}
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name", "alpha_3"):
            value = getattr(country, attribute, None)
            if value:
                names.setdefault(fold(value), country.alpha_2)
                for translation in translations:
                    names.setdefault(fold(translation.gettext(value)), country.alpha_2)
    for alias, code in ALIASES.items():
        names.setdefault(alias, code)
    return names


@cache
def choices() -> list[tuple[str, str]]:
    """(code, name) of every ISO 3166 country, by name: the picker's list."""
    return sorted(
        ((c.alpha_2, getattr(c, "common_name", None) or c.name) for c in pycountry.countries),
        key=lambda item: fold(item[1]),
    )


def name_of(code: str) -> str:
    """The country's usual name, or the code itself when it is not an ISO code."""
    return dict(choices()).get(code, code)


def to_code(text: str) -> str | None:
    """The ISO alpha-2 code for a typed code or name, "" for nothing typed, None when unknown.

    The picker's own values ("PT · Portugal") are understood too."""
    typed = " ".join(text.split())
    if not typed:
        return ""
    if "·" in typed:
        typed = typed.split("·", 1)[0].strip()
    if fold(typed) in ALIASES:
        return ALIASES[fold(typed)]
    if len(typed) == 2 and typed.isascii() and typed.isalpha():
        code = typed.upper()
        return code if pycountry.countries.get(alpha_2=code) is not None else None
    return _by_name().get(fold(typed))


def is_code(code: str) -> bool:
    """A valid ISO 3166 alpha-2 code (upper case)."""
    return len(code) == 2 and pycountry.countries.get(alpha_2=code) is not None
