"""A player is a person who may play in many events; what is per event lives in Registration."""

from __future__ import annotations

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
