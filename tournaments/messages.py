"""The rule engines' refusals in the reader's language.

Rule code is plain Python: a :class:`~scoring.rules.errors.RuleError` carries a stable ``code``, its English
template (marked with ``gettext_noop`` so that ``makemessages`` collects it) and the parameters that fill it. This is
the one place where such an error becomes text for a page: the template is looked up in the gettext
catalogue of the active language and filled in. Anything the catalogue lacks reads in English, as before.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext

from scoring.rules import registry, vocabulary
from scoring.rules.errors import RuleError, Text, cut


def rules_words(english: str) -> str:
    """A rule set's own text (a ruling's label or citation, quoted in a refusal) in the active language,
    from the rule sets' ``translations``; any other text stays as it is."""
    language = vocabulary.language_of(get_language())
    for rule_set in registry.RULE_SETS.values():
        own = rule_set.translations.get(language, {})
        if english in own:
            return own[english]
    return vocabulary.COMMON_WORDS.get(language, {}).get(english, english)


def tile_name_in(code: str, english: str) -> str:
    """A tile's name in the active language, from its code; the engine's English name otherwise."""
    language = vocabulary.language_of(get_language())
    return english if language == vocabulary.ENGLISH else vocabulary.tile_label(code, language)


def _localised(value: Any, name: str = "") -> Any:
    if isinstance(value, RuleError):
        return rule_message(value)
    if isinstance(value, Text):
        return text_message(value)
    if name in ("label", "rule") and isinstance(value, str):
        return rules_words(value)
    return value


def _render(template: str, params: Any, english: str) -> str:
    if not template:
        return english
    translated = gettext(template)
    try:
        values = {name: _localised(v, name) for name, v in (params or {}).items()}
        if isinstance(values.get("tile2"), str) and isinstance(values.get("tile"), str):
            values["tile2"] = tile_name_in(values["tile"], values["tile2"])  # "1m" named: "一万"
        return cut(translated % values if params else translated)
    except (KeyError, ValueError, TypeError):  # a translation that does not fit: the English is right
        return english


def rule_message(error: RuleError) -> str:
    """``error`` as a sentence fragment in the active language (an error quoted inside another one, such
    as the problem with one declared set, is translated too)."""
    return _render(error.template, error.params, error.message)


def text_message(text: str) -> str:
    """A rule engine's :class:`~scoring.rules.errors.Text` (such as a settings problem) in the active
    language; any other string is returned as it is."""
    if isinstance(text, Text):
        return _render(text.template, text.params, str(text))
    return text


def rule_sentence(error: RuleError | str) -> str:
    """``error`` as a sentence for a page: capitalised, with a full stop (a Chinese one in Chinese)."""
    message = rule_message(error) if isinstance(error, RuleError) else text_message(error)
    if not message:
        return message
    message = message[0].upper() + message[1:]
    stop = gettext("%(sentence)s.") % {"sentence": ""}  # "。" in Chinese
    return message if message.endswith((".", "。", "！", "？")) else message + stop
