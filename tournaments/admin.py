"""Admin for inspection; day-to-day changes go through the organiser and referee pages (services)."""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from tournaments import results
from tournaments.archive import set_archived
from tournaments.models import AuditEntry, EventRole, Registration, Round, Seat, Table, Tournament

if TYPE_CHECKING:
    # ModelAdmin takes its model as a type argument in django-stubs only, not at run time.
    AnyModelAdmin = admin.ModelAdmin[Model]
    TournamentModelAdmin = admin.ModelAdmin[Tournament]
    RegistrationModelAdmin = admin.ModelAdmin[Registration]
    EventRoleModelAdmin = admin.ModelAdmin[EventRole]
else:
    AnyModelAdmin = TournamentModelAdmin = RegistrationModelAdmin = EventRoleModelAdmin = admin.ModelAdmin


class ReadOnlyAdmin(AnyModelAdmin):
    """Results, the structure they hang on and the audit log are never changed or deleted here: a
    superuser's click must not destroy what the services keep as versions."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(TournamentModelAdmin):
    list_display = ["name", "slug", "rules", "start_date", "num_sessions", "archived_at"]
    search_fields = ["name", "slug"]
    readonly_fields = ["archived_at"]
    actions = ["archive"]

    @admin.action(
        description="Archive the selected events (kept read-only; an event with results is never deleted)"
    )
    def archive(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            set_archived(tournament, True, acting_user=request.user)
        self.message_user(request, f"{queryset.count()} event(s) archived.")

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        """An event with results is kept (its audit log outlives it in any case)."""
        if obj is not None and any(results.source().round_has_results(r) for r in obj.rounds.all()):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Registration)
class RegistrationAdmin(RegistrationModelAdmin):
    list_display = ["player", "tournament", "code", "team", "checked_in"]
    list_filter = ["tournament", "checked_in"]
    search_fields = ["player__name", "code"]


@admin.register(EventRole)
class EventRoleAdmin(EventRoleModelAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = ["role", "tournament"]


@admin.register(Round, Table, Seat)
class StructureAdmin(ReadOnlyAdmin):
    pass


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "actor", "action", "summary"]
    list_filter = ["tournament", "action"]
