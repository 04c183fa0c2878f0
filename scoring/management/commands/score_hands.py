"""python manage.py score_hands --rules RULES [FILE]: score hands as shared/specs/scoring-json.md says.

One JSON object or a list in, one JSON list out; a bad hand gets ``{"error": ...}`` in its place and the
others are still scored. Exit 0 for readable JSON, 2 when the input is not JSON. Hostile input
meets the limits of ``scoring.rules.limits``: at most ``MAX_INPUT_BYTES`` are read and ``MAX_ITEMS``
requests scored (else exit 2); each request is checked for depth, sizes and number ranges before scoring.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from django.core.management.base import BaseCommand

from scoring.rules import registry
from scoring.rules.errors import RuleError
from scoring.rules.limits import MAX_INPUT_BYTES, UnreadableInputError, check_document_value, load_json

RULES = registry.codes()


def scorer_for(rules: str) -> Callable[[Any], dict[str, Any]]:
    """The pure engine's entry point for a rule set (its class says which)."""
    return registry.rule_set_class(rules).score_request


def score_all(items: list[Any], rules: str) -> list[dict[str, Any]]:
    score = scorer_for(rules)
    results = []
    for item in items:
        try:
            check_document_value(item)
            results.append(score(item))
        except RuleError as error:
            results.append({"error": error.message})
        except Exception as error:  # never a traceback (scoring-json.md)
            # A shape the engine did not foresee: still a per-hand error, never a traceback.
            results.append({"error": f"this hand could not be read ({error.__class__.__name__})"})
    return results


def read_input(name: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The raw input, standard input for ``-``: at most ``limit`` bytes and one more to tell it is too big."""
    if name == "-":
        stream: BinaryIO | None = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream (tests give io.StringIO)
            return sys.stdin.read(limit + 1).encode("utf-8", "surrogatepass")
        return stream.read(limit + 1)
    with open(name, "rb") as handle:
        return handle.read(limit + 1)


class Command(BaseCommand):
    help = "Score hands given as JSON (a single object or a list) and print a JSON list of results."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rules", required=True, choices=RULES)
        parser.add_argument("file", nargs="?", default="-", help="JSON file (default: standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            items = load_json(read_input(options["file"]))
        except OSError as error:
            self.stderr.write(json.dumps({"error": f"cannot read {options['file']}: {error.strerror}"}))
            sys.exit(2)
        except UnreadableInputError as error:
            self.stderr.write(json.dumps({"error": error.message}))
            sys.exit(2)
        self.stdout.write(json.dumps(score_all(items, options["rules"]), ensure_ascii=False))
