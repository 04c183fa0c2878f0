from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from players.models import Player, PlayerMerge

if TYPE_CHECKING:
    # ModelAdmin takes its model as a type argument in django-stubs only, not at run time.
    PlayerModelAdmin = admin.ModelAdmin[Player]
else:
    PlayerModelAdmin = admin.ModelAdmin


@admin.register(Player)
class PlayerAdmin(PlayerModelAdmin):
    list_display = ["name", "country", "ema_id"]
    search_fields = ["name", "ema_id"]


if TYPE_CHECKING:
    PlayerMergeModelAdmin = admin.ModelAdmin[PlayerMerge]
else:
    PlayerMergeModelAdmin = admin.ModelAdmin


@admin.register(PlayerMerge)
class PlayerMergeAdmin(PlayerMergeModelAdmin):
    """Read only: a merge is made and undone on the organiser's page (``tournaments/views_players.py``),
    which moves the rows and logs it in every event; an edit here would lose what an undo puts back."""

    list_display = ["merged", "kept", "created_at", "created_by", "undone_at"]
    readonly_fields = [
        "kept",
        "merged",
        "moved",
        "details",
        "created_by",
        "created_at",
        "undone_at",
        "undone_by",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PlayerMerge | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: PlayerMerge | None = None) -> bool:
        return False
