"""The seating engine's domain error."""

from __future__ import annotations


class SeatingError(ValueError):
    """A request the engine refuses; ``code`` is stable for callers and tests, the message is for people."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message
