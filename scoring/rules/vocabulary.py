"""Names of tiles, winds and dragons in the languages the site speaks (English, Simplified Chinese).

The rule engines speak in codes ("5s", "E"); pages, PDFs and the tile picker's text alternatives name them
in the reader's language through the rule set's class (:meth:`scoring.rules.ruleset.RuleSet.tile_label`).
A language this module does not know reads English. Pure Python, no Django.
"""

from __future__ import annotations

ENGLISH = "en"
CHINESE = "zh-hans"
LANGUAGES = (ENGLISH, CHINESE)

COMMON_WORDS = {
    CHINESE: {
        "hand": "盘",
        "hands": "盘",
        "game": "局",
        "games": "局",
        "session": "轮",
        "round": "轮",
        "Recorded for the record; these rules set no points for lateness.": "仅作记录；本规则不对迟到罚分。",
        "Warning": "警告",
        "Loss of rank": "取消名次",
        "Disqualification": "取消资格",
        "Tournament rules": "比赛规则",  # a ruling's citation (rulings.Ruling)
    },
}
"""The rule sets' words for their units of play (``RuleSet.words``) in other languages."""

_NUMBERS = {
    ENGLISH: ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"),
    CHINESE: ("一", "二", "三", "四", "五", "六", "七", "八", "九"),
}
_SUITS = {
    ENGLISH: {"m": "Characters", "p": "Dots", "s": "Bamboo"},
    CHINESE: {"m": "万", "p": "筒", "s": "条"},
}
_HONOURS = {
    ENGLISH: (
        "East Wind",
        "South Wind",
        "West Wind",
        "North Wind",
        "White Dragon",
        "Green Dragon",
        "Red Dragon",
    ),
    CHINESE: ("东风", "南风", "西风", "北风", "白板", "发财", "红中"),
}
_WINDS = {
    ENGLISH: {"E": "East", "S": "South", "W": "West", "N": "North"},
    CHINESE: {"E": "东", "S": "南", "W": "西", "N": "北"},
}
_MELDS = {
    ENGLISH: {"chow": "chow", "pung": "pung", "kong": "kong"},
    CHINESE: {"chow": "顺子", "pung": "刻子", "kong": "杠子"},
}
_OTHER_TILES = {
    ENGLISH: {"f": "Flower", "j": "Joker"},
    CHINESE: {"f": "花牌", "j": "百搭"},
}


def language_of(code: str | None) -> str:
    """The site language a language code falls back to: Simplified Chinese for ``zh-hans``, else English."""
    code = (code or "").lower().replace("_", "-")
    if code.startswith(CHINESE) or code in {"zh", "zh-cn", "zh-sg"}:
        return CHINESE
    return ENGLISH


def tile_label(code: str, language: str | None = ENGLISH) -> str:
    """A tile code of ``shared/specs/scoring-json.md`` by name: "5s" is "Five of Bamboo" / "五条".

    An unknown code is returned as it is (a page shows what was typed rather than failing)."""
    lang = language_of(language)
    if not isinstance(code, str):
        return str(code)
    if code in _OTHER_TILES[lang]:
        return _OTHER_TILES[lang][code]
    if len(code) != 2 or not code[0].isdigit():
        return code
    number, suit = int(code[0]), code[1]
    if suit in _SUITS[lang] and 1 <= number <= 9:
        if lang == CHINESE:
            return _NUMBERS[lang][number - 1] + _SUITS[lang][suit]
        return f"{_NUMBERS[lang][number - 1]} of {_SUITS[lang][suit]}"
    if suit == "z" and 1 <= number <= 7:
        return _HONOURS[lang][number - 1]
    return code


def wind_label(letter: str, language: str | None = ENGLISH) -> str:
    """A seat or round wind ("E", "S", "W", "N") by name: "East" / "东"; anything else as it is."""
    return _WINDS[language_of(language)].get(letter, letter)


def wind_short(letter: str, language: str | None = ENGLISH) -> str:
    """A wind as one sign for tight columns: the letter in English ("E"), the character in Chinese ("东")."""
    if language_of(language) == CHINESE:
        return _WINDS[CHINESE].get(letter, letter)
    return letter


def meld_label(kind: str, language: str | None = ENGLISH) -> str:
    """A declared set's kind ("chow", "pung", "kong") by name: "pung" / "刻子"; anything else as it is."""
    return _MELDS[language_of(language)].get(kind, kind)
