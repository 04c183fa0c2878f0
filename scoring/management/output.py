"""What the commands that print a document share (``export_event``, ``player_data``; ``standings`` takes
the same option): ``--output FILE`` writes the file, else the document goes to standard output."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand


def add_output(parser: Any) -> None:
    """The ``--output``/``-o`` option."""
    parser.add_argument("--output", "-o", help="file to write (default: standard output)")


def json_text(data: Any, *, sort_keys: bool = False, default: Callable[[Any], Any] | None = None) -> str:
    """A document as the commands print it: indented, UTF-8 as is (names in their own script), one
    final newline."""
    return json.dumps(data, indent=2, sort_keys=sort_keys, ensure_ascii=False, default=default) + "\n"


def write_text(command: BaseCommand, text: str, output: str | None) -> None:
    """Write ``text`` to the file ``output`` (UTF-8), or to the command's standard output."""
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        command.stdout.write(text, ending="")
