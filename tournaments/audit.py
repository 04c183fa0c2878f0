"""The bottom of the Django layers: who did what (the audit log) and "the standings changed".

Both ``tournaments`` and ``scoring`` write through these, so the layers above never import each other
for them. Actions are an enumeration so the log can be filtered and read reliably.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.db.models import F

from tournaments.models import AuditEntry, Round, Table, Tournament

User = AbstractBaseUser | AnonymousUser | None


class AuditAction(models.TextChoices):
    CREATE_EVENT = "create_event", "Event created"
    GRANT_ROLE = "grant_role", "Role granted"
    CREATE_STAFF_ACCOUNT = "create_staff_account", "Staff account created"
    NEW_STAFF_LINK = "new_staff_link", "New set-password link"
    PUBLISH_EVENT = "publish_event", "Event published"
    UNPUBLISH_EVENT = "unpublish_event", "Event back to draft"
    PUBLISH_SESSION = "publish_session", "Session published"
    UNPUBLISH_SESSION = "unpublish_session", "Session back to draft"
    FREEZE_STANDINGS = "freeze_standings", "Standings frozen"
    REVOKE_ROLE = "revoke_role", "Role revoked"
    SETTINGS = "settings", "Settings changed"
    REGISTER = "register", "Player registered"
    EDIT_PLAYER = "edit_player", "Player edited"
    WITHDRAW = "withdraw", "Player withdrawn"
    REINSTATE = "reinstate", "Player reinstated"
    IMPORT_PLAYERS = "import_players", "Players imported"
    CHECK_IN = "check_in", "Checked in"
    CHECK_OUT = "check_out", "Check-in undone"
    SELF_CHECK_IN_WINDOW = "self_check_in_window", "Self check-in opened or closed"
    KIOSK_ON = "kiosk_on", "Check-in kiosk turned on"
    SEAT_ROUND = "seat_round", "Session seated"
    SEAT_REMAINING = "seat_remaining", "Sessions seated"
    SWAP_SEATS = "swap_seats", "Seats swapped"
    SUBSTITUTION = "substitution", "Substitute took over a seat"
    FIX_SEATS = "fix_seats", "Seats corrected after play"
    UPLOAD_SEATING = "upload_seating", "Seating uploaded"
    SEATING_OPTIONS = "seating_options", "Seating options"
    FIXED_TABLE = "fixed_table", "Fixed table"
    TOTALS_ONLY = "totals_only", "Totals only"
    # The stored values keep the rule sets' names older entries were written with.
    SCORING_SCHEME = "nmjl_scheme", "Scoring scheme"
    CARD = "nmjl_card", "Card loaded"
    SETTLEMENT = "classical_settlement", "Settlement options"
    TIE_BREAK = "tie_break", "Tie policy"
    RECORD_HAND = "record_hand", "Hand entered"
    CORRECT_HAND = "correct_hand", "Hand corrected"
    VOID_HAND = "void_hand", "Hand deleted"
    RECORD_TOTALS = "record_totals", "Totals entered"
    FINISH_TABLE = "finish_table", "Table complete"
    REOPEN_TABLE = "reopen_table", "Table reopened"
    PENALTY = "penalty", "Penalty"
    LATE = "late", "Lateness"
    APPEAL = "appeal", "Appeal filed"
    DECIDE_APPEAL = "decide_appeal", "Appeal decided"
    IMPORT_EVENT = "import_event", "Event imported"
    CONFIRM_TABLE = "confirm_table", "Table confirmed"
    UNCONFIRM_TABLE = "unconfirm_table", "Confirmation withdrawn"
    ARCHIVE_EVENT = "archive_event", "Event archived"
    UNARCHIVE_EVENT = "unarchive_event", "Event taken out of the archive"
    CLOCK_START = "clock_start", "Clock started"
    CLOCK_PAUSE = "clock_pause", "Clock paused"
    CLOCK_RESUME = "clock_resume", "Clock resumed"
    CLOCK_EXTEND = "clock_extend", "Clock extended"
    CLOCK_TABLE_EXTRA = "clock_table_extra", "Extra time for a table"
    SIGN_TABLE = "sign_table", "Signed with PIN"
    ISSUE_PINS = "issue_pins", "PINs issued"
    REISSUE_PIN = "reissue_pin", "PIN reissued"
    REISSUE_SESSION_PINS = "reissue_session_pins", "Session's PINs reissued"
    PIN_LOCKOUT = "pin_lockout", "Too many wrong PINs"
    BLIND_ENTRY = "blind_entry", "Blind second entry"
    DISPUTE_TABLE = "dispute_table", "Player disagrees with the result"
    SETTLE_DISPUTE = "settle_dispute", "Disagreement settled"
    REFEREE_CALL = "referee_call", "Referee called"
    TAKE_CALL = "take_call", "Referee call taken"
    CLOSE_CALL = "close_call", "Referee call closed"
    MERGE_PLAYERS = "merge_players", "Player records merged"
    UNDO_MERGE_PLAYERS = "undo_merge_players", "Player merge undone"
    ENTRY_WINDOW = "entry_window", "Registration by the players opened or closed"
    ENTRY = "entry", "Entry received"
    ENTRY_MOVED_UP = "entry_moved_up", "Entry moved up from the waiting list"
    APPROVE_ENTRY = "approve_entry", "Entry approved"
    REFUSE_ENTRY = "refuse_entry", "Entry refused"
    WITHDRAW_ENTRY = "withdraw_entry", "Entry withdrawn"
    ENTRY_FEE = "entry_fee", "Entry fee paid"
    DRAW_LOTS = "draw_lots", "Lots drawn for ties"
    TIME_ZONE = "time_zone", "Time zone changed"
    ANONYMISE_PLAYER = "anonymise_player", "Player's data replaced by a pseudonym"
    KEEP_APART = "keep_apart", "Pair kept apart in the seating"
    UNKEEP_APART = "unkeep_apart", "Kept-apart pair removed"
    KIOSK_OFF = "kiosk_off", "Check-in kiosk turned off"
    FINALS_CUT = "finals_cut", "Cut to the final made"
    FINALS_UNDONE = "finals_undone", "Cut to the final undone"
    REHEARSAL_COPY = "rehearsal_copy", "Rehearsal copy made"
    REHEARSAL_PLAYED = "rehearsal_played", "Rehearsal played by simulated referees"
    REHEARSAL_DELETE = "rehearsal_delete", "Rehearsal copy thrown away"
    FINALS_RESEATED = "finals_reseated", "Final session seated by the final standings"
    FINALS_RESEAT_UNDONE = "finals_reseat_undone", "Final session's seating undone"


def acting(user: User) -> Any:
    """The user to store as the one who acted (``None`` for anonymous or system writes)."""
    return user if user is not None and user.is_authenticated else None


def audit(
    tournament: Tournament,
    actor: User,
    action: AuditAction,
    summary: str,
    *,
    public_pages: bool = True,
    **data: Any,
) -> None:
    """One row in the event's audit log (call it inside the write's transaction). ``public_pages=False``
    for a change the public pages other than the session's live results do not show (a hand entered at an
    unconfirmed table: ``bump_entry``), so a hall of phones keeps its pages."""
    AuditEntry.objects.create(
        tournament=tournament,
        event_slug=tournament.slug,
        actor=acting(actor),
        action=AuditAction(action).value,
        summary=summary[:300],
        data=data,
    )
    if public_pages:
        bump_public(tournament)


def bump_public(tournament: Tournament) -> None:
    """Every public page of the event is out of date (``tournaments.public_read`` keys them on
    ``public_version``): called in the writing transaction, so no reader sees the new rows under the old
    version once it commits."""
    Tournament.objects.filter(pk=tournament.pk).update(public_version=F("public_version") + 1)


def bump_standings(tournament: Tournament, *, public: bool = True) -> None:
    """Mark the event's standings as changed: the provisional standings follow ``standings_version``;
    ``public=False`` for entry at an unconfirmed table (only its session's live results page changes,
    ``bump_entry``), else every public page is out of date too (``public_version``)."""
    changes: dict[str, Any] = {"standings_version": F("standings_version") + 1}
    if public:
        changes["public_version"] = F("public_version") + 1
    Tournament.objects.filter(pk=tournament.pk).update(**changes)


def bump_entry(table: Table) -> None:
    """A result was entered at one of the session's tables: its public results page is out of date, and
    in it this table's card (the others are drawn from the cache: ``scoring.views_public``)."""
    Round.objects.filter(pk=table.round_id).update(entry_version=F("entry_version") + 1)
    Table.objects.filter(pk=table.pk).update(results_version=F("results_version") + 1)
