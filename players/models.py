"""A player is a person who may play in many events; what is per event lives in Registration."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Player(models.Model):
    name = models.CharField(max_length=120)
    # As the federation lists them ("de Vries" / "Jan", "García López" / "María José", "陈" / "波"): the EMA
    # results file uses them; empty, the display name is split as well as can be (scoring.exports.ema).
    family_name = models.CharField(max_length=120, blank=True)
    given_name = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 two-letter code, e.g. PT")
    ema_id = models.CharField("EMA id", max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ema_id"], condition=~models.Q(ema_id=""), name="unique_player_ema_id"
            )
        ]

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """Two records of one person made one: ``merged``'s rows (its registrations, and any other row that
    points at a player) now point at ``kept``. What moved is stored here, so undoing the merge puts back
    exactly those rows (``tournaments.services.player_merge``); ``merged`` is kept, empty, for that."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_kept")
    merged = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_into")
    # {"<app_label>.<model>.<field>": [row ids]}: every row that pointed at ``merged`` and was moved.
    moved = models.JSONField(default=dict, blank=True)
    # Details ``kept`` took over from ``merged`` (an EMA number it lacked): {"field": [kept's before, value]}.
    details = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["merged"], condition=models.Q(undone_at=None), name="one_merge_in_force_per_record"
            )
        ]

    def __str__(self) -> str:
        return f"{self.merged} into {self.kept}"
