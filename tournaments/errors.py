"""The one error type services raise: a message for people and a stable ``code`` for code and tests."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message
