"""The rule sets an event can use: one line per rule set, from its code to its class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.classical.ruleset import BabcockRuleSet, Chinese1920sRuleSet, FosterRuleSet
from scoring.rules.errors import HandInputError
from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.nmjl.ruleset import NMJLRuleSet
from scoring.rules.ruleset import RuleSet

RULE_SETS: dict[str, type[RuleSet]] = {
    cls.code: cls for cls in (MCRRuleSet, NMJLRuleSet, BabcockRuleSet, Chinese1920sRuleSet, FosterRuleSet)
}
DEFAULT = MCRRuleSet.code


def codes() -> tuple[str, ...]:
    return tuple(RULE_SETS)


def choices() -> list[tuple[str, str]]:
    """(code, label) pairs for forms and the model field."""
    return [(code, cls.label) for code, cls in RULE_SETS.items()]


def rule_set_class(code: str) -> type[RuleSet]:
    try:
        return RULE_SETS[code]
    except (KeyError, TypeError):
        raise HandInputError(f"unknown rule set {code!r}", code="unknown_rules") from None


def rule_set(code: str, settings: Mapping[str, Any] | None = None) -> RuleSet:
    """The rules of an event of rule set ``code`` with its ``settings``."""
    return rule_set_class(code)(settings)
