"""Rule-set words in the page's language: templates ask the event's rule set, never a name list of their own.

``{{ name|fan_name:tournament.rule_set }}``, ``{{ "5s"|tile_name }}``, ``{{ "E"|wind_name }}``,
``{{ tournament.rule_set|rules_word:"hands" }}``, ``{{ tournament.rule_set|rules_label }}``.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import get_language, gettext, gettext_noop, pgettext_lazy

from scoring.rules import vocabulary
from scoring.rules.ruleset import RuleSet
from scoring.rules.tiles import TILE_CODES

register = template.Library()
WARNING = " (warning)"

# The MCR calculator's words for a hand's shape and a fan's sets (scoring/rules/mcr/calculator.py and
# decompose.py: plain Python, English), for the tile picker's breakdown.
HAND_SHAPES = (
    gettext_noop("four sets and a pair"),
    gettext_noop("knitted straight"),
    gettext_noop("seven pairs"),
    gettext_noop("thirteen orphans"),
    gettext_noop("honors and knitted tiles"),
)
FAN_NOTES = (
    gettext_noop("whole hand"),
    gettext_noop("no melded sets, self-drawn"),
    gettext_noop("no melded sets, won by discard"),
)
FAN_NOTE_PATTERNS = (
    (re.compile(r"waiting for (\w+) only"), gettext_noop("waiting for %(tile)s only")),
    (re.compile(r"^winning tile (\w+)$"), gettext_noop("winning tile %(tile)s")),
    (re.compile(r"^four (\w+)$"), gettext_noop("four %(tile)s")),
)


@register.filter
def fan_name(name: str, rule_set: RuleSet | None) -> str:
    """A fan's name in the page's language ("Big Four Winds" / "大四喜")."""
    if rule_set is None:
        return name
    return rule_set.fan_label(name, get_language())


@register.filter
def tile_name(code: str, rule_set: RuleSet | None = None) -> str:
    """A tile's name for its picture's alt text ("Five of Bamboo" / "五条")."""
    if rule_set is None:
        return vocabulary.tile_label(code, get_language())
    return rule_set.tile_label(code, get_language())


@register.filter
def wind_name(letter: str, rule_set: RuleSet | None = None) -> str:
    """A wind letter by name ("East" / "东")."""
    if rule_set is None:
        return vocabulary.wind_label(letter, get_language())
    return rule_set.wind_label(letter, get_language())


@register.filter
def rules_word(rule_set: RuleSet | None, english: str) -> str:
    """One of the rule set's words ("hand", "hands") in the page's language."""
    if rule_set is None:
        return english
    return rule_set.word(english, get_language())


@register.filter
def rules_text(english: str, rule_set: RuleSet | None) -> str:
    """A text the rule set knows by its English (a ruling's citation, an NMJL card family) in the page's
    language; any other text, typed by a person, stays as it is."""
    if rule_set is None or not english:
        return english
    language = get_language()
    head, warning = english.removesuffix(WARNING), english.endswith(WARNING)  # rulings.add_ruling's reason
    words = rule_set.word(head, language)
    if words == head:
        return english
    return gettext("%(label)s (warning)") % {"label": words} if warning else words


PAID_TO_WORDS = {
    "each_other": gettext_noop("Paid to each other player"),
    "none": gettext_noop("Deducted only"),
    "player": gettext_noop("Paid to one player"),
}
"""How a penalty is paid (``scoring.models.PaidTo``), without a rule: the rule set cites its own."""


@register.filter
def rule_cited(rule_set: RuleSet | None, key: str) -> str:
    """The rule set's own rule for ``key`` (``RuleSet.rule_reference``) in the page's language, or ""
    when its book has none."""
    if rule_set is None:
        return ""
    return rule_set.rule_reference(key, get_language()) or ""


def with_rule(words: str, rule_set: RuleSet | None, key: str) -> str:
    """``words`` (already in the page's language) followed by the rule set's rule for ``key`` in
    brackets, or alone when its book has no such rule."""
    rule = rule_cited(rule_set, key)
    return gettext("%(label)s (%(rule)s)") % {"label": words, "rule": rule} if rule else words


@register.filter
def paid_to_label(value: str, rule_set: RuleSet | None) -> str:
    """How a penalty is paid, with the rule set's rule for it when its book has one: "Paid to each other
    player (rule 84)" under MCR, "Paid to each other player" under NMJL."""
    if value not in PAID_TO_WORDS:
        return value
    return with_rule(gettext(PAID_TO_WORDS[value]), rule_set, f"paid_to_{value}")


@register.filter
def hand_shape(shape: str) -> str:
    """A hand's shape as the MCR calculator names it ("seven pairs"), in the page's language."""
    return gettext(shape) if shape in HAND_SHAPES else shape


@register.filter
def fan_note(note: str) -> str:
    """What a fan was counted for ("whole hand", "99s (waiting for 9s only)"), in the page's language;
    tile codes stay codes."""
    if note in FAN_NOTES:
        return gettext(note)
    for pattern, words in FAN_NOTE_PATTERNS:
        translated = gettext(words)
        note = pattern.sub(lambda match: translated % {"tile": match.group(1)}, note)  # noqa: B023
    return note


@register.filter
def rules_label(rule_set: RuleSet | None) -> str:
    """The rule set's name in the page's language."""
    return "" if rule_set is None else rule_set.label_in(get_language())


@register.filter
def wind_short(letter: str) -> str:
    """A wind in one sign: "E" in English, "东" in Chinese."""
    return vocabulary.wind_short(letter, get_language())


@register.filter
def meld_name(kind: str) -> str:
    """A declared set's kind in the page's language ("pung" / "刻子")."""
    return vocabulary.meld_label(kind, get_language())


STATES = {
    "not started": pgettext_lazy("table state", "not started"),
    "in play": pgettext_lazy("table state", "in play"),
    "complete": pgettext_lazy("table state", "complete"),
    "confirmed": pgettext_lazy("table state", "confirmed"),
    "provisional": pgettext_lazy("table state", "provisional"),
    "pending": pgettext_lazy("appeal state", "pending"),
    "upheld": pgettext_lazy("appeal state", "appeal granted: ruling withdrawn"),
    "denied": pgettext_lazy("appeal state", "appeal rejected: ruling stands"),
}


@register.filter
def state_label(state: str) -> str:
    """A table's state ("not started", "in play", "complete", ...) or an appeal's ("pending", "upheld",
    "denied") in the page's language."""
    return str(STATES.get(state, state))


@register.simple_tag
def tile_picker_words() -> dict[str, Any]:
    """The tile picker's words in the page's language (static/js/tile-picker.js reads them as JSON):
    each tile's name, the hint for each kind of set, and its messages with {placeholders}."""
    language = get_language()
    return {
        "names": {code: vocabulary.tile_label(code, language) for code in TILE_CODES},
        "hints": {
            "concealed": gettext("Click tiles to add them to the concealed part (without the winning tile)."),
            "chow": gettext(
                "Click the lowest tile of the chow (1 to 7 of a suit): the chow of three is added."
            ),
            "pung": gettext("Click a tile: its pung (three alike) is added as a declared set."),
            "kong": gettext("Click a tile: its exposed kong (four alike) is added."),
            "ckong": gettext("Click a tile: its concealed kong (four alike) is added."),
            "win": gettext("Click the winning tile (it is not part of the concealed tiles above)."),
        },
        "phrases": {
            "unreadable": gettext("Could not read the typed tiles: {error}."),
            "suit_first": gettext("the suit letter {letter} has no numbers before it"),
            "bad_character": gettext("unexpected character {char} (use numbers and m, p, s or z)"),
            "no_suit": gettext("the numbers at the end have no suit letter (m, p, s or z)"),
            "type_first": gettext("type some tiles first, e.g. 123m 456p 11z"),
            "not_scored": gettext(
                "The tiles could not be scored (status {status}); are you still logged in? You can still "
                "type the fan points."
            ),
            "unreachable": gettext("The server could not be reached to score the tiles."),
            "one_win_tile": gettext("The winning tile is one tile, not {count}."),
            "chow_start": gettext(
                "A chow is three consecutive tiles of one suit, so it cannot start on {tile}: "
                "click its lowest tile (1 to 7 of characters, dots or bamboo)."
            ),
            "remove": gettext("Remove {tile}"),
            "remove_set": gettext("Remove the {kind} of {tiles}"),
            "remove_win": gettext("Remove {tile} (winning tile)"),
            "chow": vocabulary.meld_label("chow", language),
            "pung": vocabulary.meld_label("pung", language),
            "concealed_kong": gettext("concealed kong"),
            "exposed_kong": gettext("exposed kong"),
            "none": gettext("none"),
            "not_chosen": gettext("not chosen"),
            "count": gettext("({count} of {needed})"),
            "claim_above": gettext(
                "The tiles score {tiles} fan points (flowers included), not {typed}: a winner may not claim "
                "more (rule 65a); correct the fan points or the tiles before saving."
            ),
            "claim_below": gettext(
                "The tiles score {tiles} fan points (flowers included); {typed} is a lower claim, which "
                "stands if the winner makes it (rule 65b)."
            ),
            "open": gettext("Enter the tiles"),
            "close": gettext("Do not enter the tiles"),
            "saved_note": gettext("the tiles are saved with the hand"),
            "optional_note": gettext("optional: the fans are worked out for you"),
            "pick_tiles": gettext("Pick tiles to see the fans."),
            "draw_no_tiles": gettext("A draw: no tiles are stored."),
        },
    }
