"""Errors raised by the pure rule engines.

Every engine raises :class:`HandInputError` for input it cannot score. An error carries a stable
``code``, its English ``template`` (``%(name)s`` placeholders) and the ``params`` that fill it; ``message``
is the English text (``score_hands`` output, the audit log, tests). The pages show it in the reader's
language through ``tournaments/messages.py``, which looks the template up in the gettext catalogue: rule code
stays free of Django, and marks its templates with :func:`gettext_noop` (the name makemessages looks for; this one is plain Python) so that ``makemessages`` collects them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_MESSAGE = 500  # a message quoting hostile input (a list of long strings) is cut to this length


def gettext_noop(template: str) -> str:
    """Mark an English message template for the translation catalogue; returns it unchanged."""
    return template


class Text(str):
    """An English sentence (it *is* that string: compared, joined and logged as before) that keeps its
    template and parameters, so that a page can show it translated (``tournaments/messages.py``)."""

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, **params: Any) -> Text:
        text = super().__new__(cls, template % params if params else template)
        text.template = template
        text.params = params
        return text


def cut(message: str) -> str:
    """A message no longer than :data:`MAX_MESSAGE` (hostile input is quoted in some messages)."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


class RuleError(Exception):
    """Base of all rule-engine errors; ``code`` is stable for tests and callers."""

    code = "rule_error"

    def __init__(self, template: str, *, code: str | None = None, **params: Any) -> None:
        message = cut(template % params if params else template)
        super().__init__(message)
        self.message = message
        self.template = template
        self.params: Mapping[str, Any] = params
        if code is not None:
            self.code = code


class HandInputError(RuleError):
    """The hand (or outcome) given cannot be scored as it stands."""

    code = "bad_hand"
