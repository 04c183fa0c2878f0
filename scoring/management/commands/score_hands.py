"""python manage.py score_hands --rules RULES [FILE]: score hands as shared/specs/scoring-json.md says.

One JSON object or a list in, one JSON list out; a bad hand gets ``{"error": ...}`` in its place and the
others are still scored. Exit 0 for readable JSON, 2 when the input is not JSON.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand

from scoring.rules import registry
from scoring.rules.errors import RuleError

RULES = registry.codes()


def scorer_for(rules: str) -> Callable[[Any], dict[str, Any]]:
    """The pure engine's entry point for a rule set (its class says which)."""
    return registry.rule_set_class(rules).score_request


def score_all(items: list[Any], rules: str) -> list[dict[str, Any]]:
    score = scorer_for(rules)
    results = []
    for item in items:
        try:
            results.append(score(item))
        except RuleError as error:
            results.append({"error": error.message})
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            # A shape the engine did not foresee: still a per-hand error, never a traceback.
            results.append({"error": f"this hand could not be read ({error.__class__.__name__}: {error})"})
    return results


class Command(BaseCommand):
    help = "Score hands given as JSON (a single object or a list) and print a JSON list of results."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rules", required=True, choices=RULES)
        parser.add_argument("file", nargs="?", default="-", help="JSON file (default: standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                text = sys.stdin.read()
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    text = handle.read()
            data = json.loads(text)
        except OSError as error:
            self.stderr.write(json.dumps({"error": f"cannot read {options['file']}: {error.strerror}"}))
            sys.exit(2)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            self.stderr.write(json.dumps({"error": f"the input is not valid JSON: {error}"}))
            sys.exit(2)
        items = data if isinstance(data, list) else [data]
        self.stdout.write(json.dumps(score_all(items, options["rules"]), ensure_ascii=False))
