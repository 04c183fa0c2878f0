"""The tie-breaks an organiser may order after the rule book's own ranking (no Django here).

MCR rule 73 (Sloper, seeds/003_2541481d343502a5.txt line 2322) ranks by table points, then score, and
lets players equal in both share the rank; other rule sets rank by score. An event may then name further
tie-breaks, in its order, in the setting ``tie_break_order``; what is left equal after all of them still
shares the rank. ``scoring.standings`` applies them; this module only names them and checks the setting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.rules.errors import Text, gettext_noop
from scoring.rules.settings import Setting

HEAD_TO_HEAD = "head_to_head"
BEST_SESSION = "best_session"
FIRST_PLACES = "first_places"
HANDS_WON = "hands_won"
FEWEST_PENALTIES = "fewest_penalties"
LOTS = "lots"

TIE_BREAK_CHOICES: tuple[tuple[str, str], ...] = (
    (HEAD_TO_HEAD, gettext_noop("head-to-head")),
    (BEST_SESSION, gettext_noop("best session")),
    (FIRST_PLACES, gettext_noop("most first places")),
    (HANDS_WON, gettext_noop("most hands won")),
    (FEWEST_PENALTIES, gettext_noop("fewest penalty points")),
    (LOTS, gettext_noop("the draw of lots")),
)
"""Every tie-break an organiser may choose, with the words the standings use ("ahead on head-to-head")."""

TIE_BREAK_KEYS: tuple[str, ...] = tuple(key for key, _ in TIE_BREAK_CHOICES)


def parse_order(value: Any) -> list[str]:
    """The organiser's typed order ("head_to_head, lots") as the stored list."""
    if isinstance(value, str):
        return [part for part in value.replace(",", " ").split() if part]
    return list(value) if isinstance(value, list | tuple) else value


def _order_text(value: Any) -> str:
    return ", ".join(value) if isinstance(value, list | tuple) else str(value or "")


def order_problem(value: Any) -> str | None:
    """What is wrong with a stored order: a list of known tie-breaks, each named once."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return Text(gettext_noop("must be a list of tie-breaks"))
    unknown = [item for item in value if item not in TIE_BREAK_KEYS]
    if unknown or len(set(value)) != len(value):
        return Text(
            gettext_noop("must name each of %(choices)s at most once"),
            choices=", ".join(TIE_BREAK_KEYS),
        )
    return None


def lots_problem(value: Any) -> str | None:
    """The stored draw of lots: the player ids in the order drawn, each once."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return Text(gettext_noop("must be a list of player ids"))
    if len(set(value)) != len(value):
        return Text(gettext_noop("must name each player once"))
    return None


TIES = gettext_noop("Ties in the standings")

TIE_BREAK_ORDER_SETTING = Setting(
    key="tie_break_order",
    label=gettext_noop("Tie-breaks after the rule book's ranking, in order"),
    kind="any",
    default=[],
    optional=True,
    help=gettext_noop(
        "Comma-separated, first decides first: head_to_head (among the tied players, at the tables where "
        "they met), best_session, first_places, hands_won, fewest_penalties, lots (the recorded draw). "
        "Players still equal share the rank. Empty: they share it."
    ),
    group=TIES,
    check=order_problem,
    to_form=_order_text,
    from_form=parse_order,
)

TIE_BREAK_LOTS_SETTING = Setting(
    key="tie_break_lots",
    label=gettext_noop("The draw of lots"),
    kind="any",
    default=None,
    optional=True,
    check=lots_problem,
)
"""Written once by the draw service (``tournaments.services.tie_lots``), audited; not a form field."""

TIE_BREAK_SETTINGS: tuple[Setting, ...] = (TIE_BREAK_ORDER_SETTING, TIE_BREAK_LOTS_SETTING)


def order_of(settings: dict[str, Any], legacy: str = "shared") -> tuple[str, ...]:
    """The event's tie-breaks in order; the older ``tie_break`` "wins" reads as "most hands won"."""
    value = settings.get("tie_break_order") or []
    order = tuple(value) if order_problem(list(value)) is None else ()
    if legacy == "wins" and HANDS_WON not in order:
        order = (HANDS_WON, *order)
    return order


def lots_of(settings: dict[str, Any]) -> dict[str, int]:
    """Player id -> place in the recorded draw (1 first); empty when nobody has drawn."""
    value: Sequence[str] = settings.get("tie_break_lots") or []
    return {code: place for place, code in enumerate(value, start=1)}
