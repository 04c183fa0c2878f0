"""Results as versioned records: a correction adds a version and marks the old one superseded.

Nothing here is edited in place by the services: every write says who made it and when, and the
audit log keeps the story (Tabbycat's versioned ballot submissions are the model).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models import WIND_CHOICES, Registration, Table


class Hand(models.Model):
    """One hand at a table. ``winner``/``discarder`` are seats at the start of the session."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    voided = models.BooleanField(default=False, help_text="This version deletes the hand")
    winner = models.CharField(max_length=1, choices=WIND_CHOICES, blank=True)
    discarder = models.CharField(max_length=1, choices=WIND_CHOICES, blank=True)
    fan = models.PositiveIntegerField(null=True, blank=True)
    tiles = models.JSONField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True, help_text="Rule-set specific details (NMJL, classical)")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number", "version"], name="unique_hand_version"),
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=models.Q(is_current=True),
                name="one_current_version_per_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number} v{self.version}"

    @property
    def is_draw(self) -> bool:
        return not self.winner


class TableTotals(models.Model):
    """Session totals reported instead of hands, when the organiser allows it for the table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="totals_versions")
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    scores = models.JSONField(help_text='Score per starting seat, e.g. {"E": 52, "S": -20, ...}')
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="unique_totals_version"),
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(is_current=True), name="one_current_totals_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} totals v{self.version}"


class PaidTo(models.TextChoices):
    EACH_OTHER = "each_other", "Paid to each other player (rule 84)"
    NONE = "none", "Deducted only (rules 79, 80, 83, 88)"


class Penalty(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="penalties")
    points = models.PositiveIntegerField()
    paid_to = models.CharField(max_length=12, choices=PaidTo.choices, default=PaidTo.NONE)
    rule = models.CharField(max_length=40, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order within the table's penalties")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.registration}: {self.points} ({self.rule})"

    @property
    def cancelled(self) -> bool:
        return any(appeal.status == AppealStatus.UPHELD for appeal in self.appeals.all())


class LateArrival(models.Model):
    """Lateness at a session: MCR rule 88 turns the minutes into points or a forfeit."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="late_arrivals")
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="late_arrivals")
    minutes = models.PositiveSmallIntegerField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "registration"], name="one_lateness_per_player_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration} late {self.minutes} min"


class AppealStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    UPHELD = "upheld", "Upheld (penalty cancelled)"
    DENIED = "denied", "Denied"


class Appeal(models.Model):
    """An appeal against a penalty (MCR rule 94: in writing, within 30 minutes of the judgment)."""

    penalty = models.ForeignKey(Penalty, on_delete=models.CASCADE, related_name="appeals")
    status = models.CharField(max_length=10, choices=AppealStatus.choices, default=AppealStatus.PENDING)
    filed_minutes_after = models.PositiveSmallIntegerField(default=0)
    statement = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Appeal {self.pk} ({self.status})"
