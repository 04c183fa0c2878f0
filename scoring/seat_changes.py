"""Transition: seat changes are ``scoring.services.seat_changes``; this old path re-exports them until the
callers import from there."""

from scoring.services.seat_changes import *  # noqa: F403
