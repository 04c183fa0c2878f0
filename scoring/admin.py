"""Results are read-only in the admin: corrections go through the referee pages as new versions."""

from django.contrib import admin

from scoring.models import Appeal, AppealDecision, Confirmation, Hand, LateArrival, Penalty, TableTotals
from tournaments.admin import ReadOnlyAdmin


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "number",
        "version",
        "is_current",
        "voided",
        "winner",
        "discarder",
        "fan",
        "entered_by",
    ]
    list_filter = ["table__round__tournament", "is_current"]


@admin.register(TableTotals, Penalty, LateArrival, Appeal, AppealDecision, Confirmation)
class ResultAdmin(ReadOnlyAdmin):
    pass
