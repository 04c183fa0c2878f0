"""Messages that cite the event's own rule (``RuleSet.rule_reference``): a rule set whose book has no
such rule says the same thing without a citation, never another book's number."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import get_language

if TYPE_CHECKING:
    from scoring.rules.ruleset import RuleSet


def cite(rule_set: RuleSet | None, key: str, cited: str, uncited: str, **values: object) -> str:
    """``cited`` (already translated, with ``%(rule)s`` where the rule goes) with the rule set's rule for
    ``key`` in the current language, or ``uncited`` when its book has none; ``values`` fill both."""
    rule = None if rule_set is None else rule_set.rule_reference(key, get_language())
    return (cited if rule else uncited) % {"rule": rule, **values}
