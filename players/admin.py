from django.contrib import admin

from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "country", "ema_id"]
    search_fields = ["name", "ema_id"]
