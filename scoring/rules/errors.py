"""Errors raised by the pure rule engines.

Every engine raises :class:`HandInputError` for input it cannot score; the message is shown to the
user as it is (in ``score_hands`` output as ``{"error": message}`` and in the web pages), so it must
say what is wrong in plain words.
"""

from __future__ import annotations

MAX_MESSAGE = 500  # a message quoting hostile input (a list of long strings) is cut to this length


class RuleError(Exception):
    """Base of all rule-engine errors; ``code`` is stable for tests and callers."""

    code = "rule_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class HandInputError(RuleError):
    """The hand (or outcome) given cannot be scored as it stands."""

    code = "bad_hand"
