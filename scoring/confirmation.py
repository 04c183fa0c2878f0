"""Transition: confirmation is ``scoring.services.confirmation`` and the PINs ``scoring.services.pins``;
this old path re-exports them until the callers import from there."""

from scoring.services.confirmation import *  # noqa: F403
from scoring.services.pins import *  # noqa: F403
