"""Transition: rulings and appeals are ``scoring.services.rulings`` and ``scoring.services.appeals``;
this old path re-exports them until the callers import from there."""

from scoring.services.appeals import *  # noqa: F403
from scoring.services.rulings import *  # noqa: F403
