"""Rule-set words in the page's language: templates ask the event's rule set, never a name list of their own.

``{{ name|fan_name:tournament.rule_set }}``, ``{{ "5s"|tile_name }}``, ``{{ "E"|wind_name }}``,
``{{ tournament.rule_set|rules_word:"hands" }}``, ``{{ tournament.rule_set|rules_label }}``.
"""

from __future__ import annotations

from django import template
from django.utils.translation import get_language, pgettext_lazy

from scoring.rules import vocabulary
from scoring.rules.ruleset import RuleSet

register = template.Library()


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
}


@register.filter
def state_label(state: str) -> str:
    """A table's state ("not started", "in play", "complete", ...) in the page's language."""
    return str(STATES.get(state, state))
