"""Every write of a result goes through a service here, one module per use case: checked by the event's
rule set, written through the one write kernel (``kernel.table_write``: in a transaction under the
table's lock, as a new version, attributed and audited, the confirmation withdrawn, the versions bumped).

- ``kernel``: the write kernel; ``queries``: reading results; ``entry``: hands, totals, complete tables;
- ``penalties``: penalties and lateness; ``rulings``: the rule set's rulings; ``appeals``: appeals;
- ``confirmation``: confirming a result; ``pins``: players' PINs and signatures;
- ``seat_changes``: seats fixed after play and substitutions; ``standings``: the event's standings.

Transition: the names below are re-exported so that ``from scoring.services import record_hand`` keeps
working until callers import from the module that defines them.
"""

from scoring.services.appeals import APPEAL_DEADLINE_MINUTES, check_appeal_deadline, store_decision
from scoring.services.confirmation import confirm_table, confirmed_by, entered_by, table_state
from scoring.services.entry import (
    HandEntry,
    check_hand,
    correct_hand,
    record_hand,
    record_totals,
    set_table_finished,
    store_hand,
    store_new_table_hands,
    void_last_hand,
)
from scoring.services.kernel import ENTRY_ACTIONS, lock_table, table_write, tables_write
from scoring.services.penalties import (
    MAX_PENALTY,
    add_penalty,
    check_penalty,
    check_receiver,
    record_late,
    store_late,
    store_penalty,
    wind_at_table,
)
from scoring.services.queries import (
    current_hands,
    describe_hand,
    event_rules,
    hand_record,
    hands_first_entered,
    is_confirmed,
    played_hands,
    result_prefetches,
    running_scores,
    score_table,
    seat_prefetches,
    table_with_results,
    tables_with_results,
)
from scoring.services.rulings import add_catalogue_penalty
from scoring.services.standings import ScoringResults, confirmed_tables, event_standings, session_result

__all__ = [
    "APPEAL_DEADLINE_MINUTES",
    "ENTRY_ACTIONS",
    "MAX_PENALTY",
    "HandEntry",
    "ScoringResults",
    "add_catalogue_penalty",
    "add_penalty",
    "check_appeal_deadline",
    "check_hand",
    "check_penalty",
    "check_receiver",
    "confirm_table",
    "confirmed_by",
    "confirmed_tables",
    "correct_hand",
    "current_hands",
    "describe_hand",
    "entered_by",
    "event_rules",
    "event_standings",
    "hand_record",
    "hands_first_entered",
    "is_confirmed",
    "lock_table",
    "played_hands",
    "record_hand",
    "record_late",
    "record_totals",
    "result_prefetches",
    "running_scores",
    "score_table",
    "seat_prefetches",
    "session_result",
    "set_table_finished",
    "store_decision",
    "store_hand",
    "store_late",
    "store_new_table_hands",
    "store_penalty",
    "table_state",
    "table_with_results",
    "table_write",
    "tables_with_results",
    "tables_write",
    "void_last_hand",
    "wind_at_table",
]
