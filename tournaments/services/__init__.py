"""Every write to events, players and seating goes through a service here, in a transaction, attributed
to ``acting_user`` and written to the audit log; one module per use case:

- ``events``: an event, its roles and settings;
- ``registrations``: players registered one by one, checked in, or imported from a list;
- ``seating`` (who is seated, a session's tables, what was entered at them, swaps and fixed tables),
  ``reseating`` (a plan proposed and stored), ``seating_upload`` (a prepared seating),
  ``seating_jobs`` (in the background), ``seating_bridge`` (rows to the pure engine and back),
  ``substitutions`` (who played a seat after a substitute came in).

Transition: the names the single ``tournaments/services.py`` had are re-exported here, so
``from tournaments.services import X`` and ``services.X`` keep working; new code imports the module.
"""

from tournaments.errors import ServiceError
from tournaments.services.events import (
    MAX_SESSIONS,
    EventDetails,
    create_tournament,
    grant_role,
    load_event_card,
    revoke_role,
    set_seating_options,
    set_totals_only,
    update_settings,
)
from tournaments.services.registrations import (
    CONTROL_CHARACTERS,
    COUNTRY_RE,
    EMA_ID_RE,
    HEADER_ALIASES,
    ImportReport,
    PlayerRow,
    RowProblem,
    add_registration,
    check_player_rows,
    clean_player_row,
    import_players,
    player_row_problems,
    read_player_table,
    register_player,
    set_checked_in,
)
from tournaments.services.reseating import generate_seating, seat_remaining
from tournaments.services.seating import (
    round_has_results,
    round_results_exist,
    seating_players,
    set_fixed_table,
    swap_seats,
)
from tournaments.services.seating_jobs import (
    JOB_GRACE_SECONDS,
    current_seating_job,
    run_seating_job,
    start_seating_job,
)
from tournaments.spreadsheets import MAX_FIELD, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS, read_rows

__all__ = [
    "CONTROL_CHARACTERS",
    "COUNTRY_RE",
    "EMA_ID_RE",
    "HEADER_ALIASES",
    "JOB_GRACE_SECONDS",
    "MAX_FIELD",
    "MAX_IMPORT_COLUMNS",
    "MAX_IMPORT_ROWS",
    "MAX_SESSIONS",
    "EventDetails",
    "ImportReport",
    "PlayerRow",
    "RowProblem",
    "ServiceError",
    "add_registration",
    "check_player_rows",
    "clean_player_row",
    "create_tournament",
    "current_seating_job",
    "generate_seating",
    "grant_role",
    "import_players",
    "load_event_card",
    "player_row_problems",
    "read_player_table",
    "read_rows",
    "register_player",
    "revoke_role",
    "round_has_results",
    "round_results_exist",
    "run_seating_job",
    "seat_remaining",
    "seating_players",
    "set_checked_in",
    "set_fixed_table",
    "set_seating_options",
    "set_totals_only",
    "start_seating_job",
    "swap_seats",
    "update_settings",
]
