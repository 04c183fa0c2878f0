from typing import TYPE_CHECKING

from django.contrib import admin

from players.models import Player

if TYPE_CHECKING:
    # ModelAdmin takes its model as a type argument in django-stubs only, not at run time.
    PlayerModelAdmin = admin.ModelAdmin[Player]
else:
    PlayerModelAdmin = admin.ModelAdmin


@admin.register(Player)
class PlayerAdmin(PlayerModelAdmin):
    list_display = ["name", "country", "ema_id"]
    search_fields = ["name", "ema_id"]
