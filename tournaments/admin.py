"""Admin for inspection; day-to-day changes go through the organiser and referee pages (services)."""

from django.contrib import admin

from tournaments import results
from tournaments.archive import set_archived
from tournaments.models import AuditEntry, EventRole, Registration, Round, Seat, Table, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    """Results, the structure they hang on and the audit log are never changed or deleted here: a
    superuser's click must not destroy what the services keep as versions."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "rules", "start_date", "num_sessions", "archived_at"]
    search_fields = ["name", "slug"]
    readonly_fields = ["archived_at"]
    actions = ["archive"]

    @admin.action(
        description="Archive the selected events (kept read-only; an event with results is never deleted)"
    )
    def archive(self, request, queryset) -> None:
        for tournament in queryset:
            set_archived(tournament, True, acting_user=request.user)
        self.message_user(request, f"{queryset.count()} event(s) archived.")

    def has_delete_permission(self, request, obj=None) -> bool:
        """An event with results is kept (its audit log outlives it in any case)."""
        if obj is not None and any(results.source().round_has_results(r) for r in obj.rounds.all()):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "code", "team", "checked_in"]
    list_filter = ["tournament", "checked_in"]
    search_fields = ["player__name", "code"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = ["role", "tournament"]


@admin.register(Round, Table, Seat)
class StructureAdmin(ReadOnlyAdmin):
    pass


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "actor", "action", "summary"]
    list_filter = ["tournament", "action"]
