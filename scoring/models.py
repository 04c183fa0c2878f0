"""Results as versioned records: a correction adds a version and marks the old one superseded.

Nothing here is edited in place: every result (a hand, a table's totals, a penalty, a lateness record,
an appeal's decision) is a :class:`VersionedResult`, written by the services through
:meth:`VersionedResult.supersede`, which says who made the change and keeps every earlier version
(Tabbycat's versioned ballot submissions are the model). The audit log tells the story.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypeVar, cast

from django.conf import settings
from django.db import models
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from tournaments.audit import User, acting
from tournaments.jobs import MAX_ATTEMPTS, Job
from tournaments.models import WIND_CHOICES, Registration, Table, Tournament


def versioned_constraints(identity: list[str], *, versions: str, current: str) -> list[models.BaseConstraint]:
    """The two rules every versioned result keeps: one row per version of a fact, and one current."""
    return [
        models.UniqueConstraint(fields=[*identity, "version"], name=versions),
        models.UniqueConstraint(fields=identity, condition=models.Q(is_current=True), name=current),
    ]


_V = TypeVar("_V", bound="VersionedResult")


class VersionedQuerySet(models.QuerySet[_V]):
    """The two readings of a versioned result. ``in_force()`` is what counts: the current version, unless
    that version withdraws the fact (a deleted hand, a withdrawn signature or confirmation). ``current()``
    also keeps a withdrawing version: for numbering (a penalty's position counts withdrawn ones), for
    refusing a stale correction, and for pages that show a withdrawn fact as withdrawn."""

    def in_force(self) -> Self:
        return self.filter(is_current=True, voided=False)

    def current(self) -> Self:
        return self.filter(is_current=True)


def in_force_q(relation: str) -> models.Q:
    """``in_force()`` through a relation, for an aggregate's ``filter`` (``Count("hands", filter=...)``)."""
    return models.Q(**{f"{relation}__is_current": True, f"{relation}__voided": False})


class VersionedResult(models.Model):
    """A fact that is superseded rather than overwritten. ``identity`` names the fields that say which
    fact a row is a version of (a hand: its table and number). Read the versions in force with
    ``objects.in_force()`` (related managers too: ``table.hands.in_force()``), never by spelling out
    ``is_current``/``voided``: forgetting ``voided`` counts a deleted hand."""

    identity: ClassVar[tuple[str, ...]] = ()

    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    voided = models.BooleanField(default=False, help_text="This version withdraws the fact")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def is_in_force(self) -> bool:
        """``in_force()`` for a row already loaded (a prefetched list)."""
        return self.is_current and not self.voided

    @classmethod
    def supersede(cls: type[_V], *, acting_user: User, first: bool = False, **fields: Any) -> _V:
        """Store a new version of the fact named by the identity fields in ``fields`` (the first when
        there is none yet); the current version, if any, is kept and marked superseded. Call it in a
        transaction that holds the table's lock. ``first``: the caller knows no version exists (a new
        hand numbered above every stored one), which spares a save two queries; the unique version
        constraint still refuses a wrong claim."""
        key = {name: fields[name] for name in cls.identity}
        last = 0
        if not first:
            versions = cls._default_manager.filter(**key)
            last = versions.aggregate(Max("version"))["version__max"] or 0
            versions.filter(is_current=True).update(is_current=False)
        created = cls._default_manager.create(
            version=last + 1, is_current=True, entered_by=acting(acting_user), **fields
        )
        # django-stubs' plugin gives ``type[_V]``'s manager the bound's model (VersionedResult), not ``_V``.
        return cast(_V, created)

    def history(self: _V) -> models.QuerySet[_V]:
        """Every version of this fact, oldest first."""
        versions = (
            type(self)
            ._default_manager.filter(**{name: getattr(self, name) for name in self.identity})
            .order_by("version")
        )
        # As in ``supersede``: the plugin types the manager by the bound's model, not ``_V``.
        return cast("models.QuerySet[_V]", versions)


class Hand(VersionedResult):
    """One hand at a table. ``winner``/``discarder`` are seats at the start of the session."""

    identity = ("table", "number")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=1, choices=WIND_CHOICES, blank=True)
    discarder = models.CharField(max_length=1, choices=WIND_CHOICES, blank=True)
    fan = models.PositiveIntegerField(null=True, blank=True)
    tiles = models.JSONField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True, help_text="Rule-set specific details (NMJL, classical)")

    class Meta:
        ordering = ["number", "version"]
        constraints = versioned_constraints(
            ["table", "number"], versions="unique_hand_version", current="one_current_version_per_hand"
        )

    def __str__(self) -> str:
        return f"{self.table} hand {self.number} v{self.version}"

    @property
    def is_draw(self) -> bool:
        return not self.winner


class EntryToken(models.Model):
    """The token of one entry (a hand, totals, a penalty, a lateness, a blind second entry) as the referee's page sent it: an
    entry kept on a phone while the hall's Wi-Fi was down is posted again with the same token
    (``static/js/offline-entry.js``), perhaps several times, and stored once
    (``scoring/services/entry_tokens.py``)."""

    class Kind(models.TextChoices):  # what the token stored; never shown (no words to translate)
        HAND = "hand"
        TOTALS = "totals"
        PENALTY = "penalty"
        LATE = "late"
        BLIND = "blind"

    token = models.UUIDField(unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="entry_tokens")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    number = models.PositiveIntegerField(
        help_text="The hand's number, the totals' or blind entry's version, the record's id"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.table} {self.kind} {self.number} token {self.token}"


class TableTotals(VersionedResult):
    """Session totals reported instead of hands, when the organiser allows it for the table."""

    identity = ("table",)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="totals_versions")
    scores = models.JSONField(help_text='Score per starting seat, e.g. {"E": 52, "S": -20, ...}')

    class Meta:
        constraints = versioned_constraints(
            ["table"], versions="unique_totals_version", current="one_current_totals_per_table"
        )

    def __str__(self) -> str:
        return f"{self.table} totals v{self.version}"


class PaidTo(models.TextChoices):
    """How a penalty is paid, in words every rule set shares: the pages add the event's own rule
    (``scoring.templatetags.rules_words.paid_to_label``, ``RuleSet.rule_reference``)."""

    EACH_OTHER = "each_other", _("Paid to each other player")
    NONE = "none", _("Deducted only")
    PLAYER = "player", _("Paid to one player")


class RulingOutcome(models.TextChoices):
    """``scoring.rules.rulings.OUTCOMES``, named for the pages."""

    POINTS = "points", _("Points")
    WARNING = "warning", _("Warning")
    FORCED_DISCARD = "forced_discard", _("Forced discard")
    NO_WIN = "no_win", _("May not win this hand")
    LOSS_OF_RANK = "loss_of_rank", _("Loss of rank")
    DISQUALIFICATION = "disqualification", _("Disqualified")


class Penalty(VersionedResult):
    """A penalty at a table; ``position`` is its place in the table's list (its identity)."""

    identity = ("table", "position")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="penalties")
    points = models.PositiveIntegerField()
    paid_to = models.CharField(max_length=12, choices=PaidTo.choices, default=PaidTo.NONE)
    paid_to_player = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="penalties_received",
        help_text="Who receives the points when they are paid to one player",
    )
    rule = models.CharField(max_length=40, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order within the table's penalties")
    kind = models.CharField(max_length=40, blank=True, help_text="The rule set's catalogue key, if any")
    outcome = models.CharField(
        max_length=20,
        choices=RulingOutcome.choices,
        default=RulingOutcome.POINTS,
        help_text="What the ruling does (MCR rule 77 ranks them)",
    )
    bars_win = models.BooleanField(
        default=False, help_text="The player may not win hand ``hand_number`` (MCR 'no hu'; NMJL dead hand)"
    )
    hand_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The hand the ruling was made in"
    )

    class Meta:
        ordering = ["position", "version"]
        constraints = versioned_constraints(
            ["table", "position"],
            versions="unique_penalty_version",
            current="one_current_version_per_penalty",
        )
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.registration}: {self.points} ({self.rule})"

    @property
    def cancelled(self) -> bool:
        """Cancelled by an upheld appeal (prefetch ``appeals__decisions`` for lists)."""
        return any(appeal.status == AppealStatus.UPHELD for appeal in self.appeals.all())


class LateArrival(VersionedResult):
    """Lateness at a session: MCR rule 88 turns the minutes into points or a forfeit."""

    identity = ("table", "registration")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="late_arrivals")
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="late_arrivals")
    minutes = models.PositiveSmallIntegerField()

    class Meta:
        constraints = versioned_constraints(
            ["table", "registration"],
            versions="unique_lateness_version",
            current="one_current_lateness_per_player_per_table",
        )

    def __str__(self) -> str:
        return f"{self.registration} late {self.minutes} min"

    @property
    def cancelled(self) -> bool:
        """Cancelled by an upheld appeal (prefetch ``appeals__decisions`` for lists)."""
        return any(appeal.status == AppealStatus.UPHELD for appeal in self.appeals.all())


class AppealStatus(models.TextChoices):
    """An appeal's state in words that cannot be read both ways ("upheld" could mean the ruling or the
    appeal) and cite no book: the stored values stay."""

    PENDING = "pending", _("Appeal pending")
    UPHELD = "upheld", _("Appeal granted: ruling withdrawn")
    DENIED = "denied", _("Appeal rejected: ruling stands")


APPEAL_STATUS_WORDS = {status: status.label for status in AppealStatus}
"""An appeal's state as the pages say it (the choices' labels)."""


class AppealSubject(models.TextChoices):
    PENALTY = "penalty", _("A penalty or other ruling")
    LATENESS = "lateness", _("Lateness or forfeit")
    HAND = "hand", _("A decision on a hand")


STATEMENT_LENGTH = 5000
"""An appeal's written statement (rule 94b): a text column, limited by the page and the event JSON."""
REASONS_LENGTH = 2000
"""A decision's reasons: a text column, limited by the page and the event JSON."""


class Appeal(models.Model):
    """An appeal against a referee's ruling (MCR rule 94: in writing, signed, within 30 minutes of the
    judgment, with the fee): a penalty, a lateness or forfeit, or a decision on a hand. ``ruling_at`` is
    the ruling's stored time, from which the deadline runs. Its decisions are versions of
    :class:`AppealDecision`; without one it is pending."""

    table = models.ForeignKey(Table, null=True, on_delete=models.CASCADE, related_name="appeals")
    subject = models.CharField(max_length=10, choices=AppealSubject.choices, default=AppealSubject.PENALTY)
    penalty = models.ForeignKey(
        Penalty, null=True, blank=True, on_delete=models.CASCADE, related_name="appeals"
    )
    late_arrival = models.ForeignKey(
        LateArrival, null=True, blank=True, on_delete=models.CASCADE, related_name="appeals"
    )
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who made the ruling appealed against (they may not decide the appeal)",
    )
    ruling_at = models.DateTimeField(null=True, blank=True, help_text="When the ruling was stored")
    appellant = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.RESTRICT, related_name="appeals"
    )
    signed_by = models.CharField(max_length=200, blank=True, help_text="The player and/or team leader (94c)")
    fee = models.PositiveIntegerField(default=0, help_text="The fee paid with the appeal (94d)")
    filed_minutes_after = models.PositiveSmallIntegerField(default=0)
    statement = models.TextField(blank=True)  # at most STATEMENT_LENGTH, on the page and in the event JSON
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Appeal {self.pk} ({self.status})"

    @property
    def decision(self) -> AppealDecision | None:
        """The decision in force (prefetch ``decisions`` for lists)."""
        return next((d for d in self.decisions.all() if d.is_in_force), None)

    @property
    def status(self) -> str:
        decision = self.decision
        return decision.status if decision is not None else AppealStatus.PENDING

    def get_status_display(self) -> str:
        """What the decision does, read one way only ("Appeal granted: ruling withdrawn"), not "upheld"."""
        return str(APPEAL_STATUS_WORDS[AppealStatus(self.status)])


class DecidedBy(models.TextChoices):
    CHIEF_REFEREE = "chief_referee", _("Chief referee")
    COMMITTEE = "committee", _("Appeals committee")


class AppealDecision(VersionedResult):
    """How an appeal was decided, by whom (``entered_by``, as chief referee or appeals committee) and
    why; a later change is a new version."""

    identity = ("appeal",)

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="decisions")
    status = models.CharField(max_length=10, choices=AppealStatus.choices)
    reasons = models.TextField(blank=True)  # at most REASONS_LENGTH, on the page and in the event JSON
    decided_as = models.CharField(max_length=20, choices=DecidedBy.choices, blank=True)

    class Meta:
        ordering = ["version"]
        constraints = versioned_constraints(
            ["appeal"], versions="unique_decision_version", current="one_current_decision_per_appeal"
        )

    def __str__(self) -> str:
        return f"Appeal {self.appeal_id} {self.status} v{self.version}"


class ConfirmedBy(models.TextChoices):
    REFEREE = "referee", _("A second referee or scorer")
    PLAYERS = "players", _("The table's players")
    IMPORT = "import", _("Imported as final")
    BLIND = "blind", _("A second, blind entry that agreed")


class Confirmation(VersionedResult):
    """A table's session result confirmed by a second person (rule 72: each player signs his score;
    Tabbycat's confirmed ballots). Until then the table's result is provisional and counts nowhere
    public. A later change to the table's results withdraws it as a voided version."""

    identity = ("table",)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="confirmations")
    how = models.CharField(max_length=10, choices=ConfirmedBy.choices, default=ConfirmedBy.REFEREE)

    class Meta:
        ordering = ["version"]
        constraints = versioned_constraints(
            ["table"], versions="unique_confirmation_version", current="one_current_confirmation_per_table"
        )

    def __str__(self) -> str:
        return f"{self.table} {'withdrawn' if self.voided else 'confirmed'} v{self.version}"


class PlayerPin(VersionedResult):
    """A player's PIN for one event, printed on the seat slip, with which the player signs the table's
    result (rule 72: each player signs his score). Reissuing it is a new version (the old one stops
    working); ``tournament`` is kept so a PIN is unique among the event's current PINs."""

    identity = ("registration",)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="pins")
    pin = models.CharField(max_length=6)

    class Meta:
        constraints = [
            *versioned_constraints(
                ["registration"], versions="unique_pin_version", current="one_current_pin_per_registration"
            ),
            models.UniqueConstraint(
                fields=["tournament", "pin"], condition=models.Q(is_current=True), name="unique_pin_in_event"
            ),
        ]

    def __str__(self) -> str:
        return f"PIN of {self.registration} v{self.version}"


class Signature(VersionedResult):
    """One player's signature of a table's result with their PIN; withdrawn (a voided version) when
    the table's results change, as the confirmation is."""

    identity = ("table", "registration")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = versioned_constraints(
            ["table", "registration"], versions="unique_signature_version", current="one_current_signature"
        )

    def __str__(self) -> str:
        return f"{self.registration} signed {self.table} v{self.version}"


class PinAttempt(models.Model):
    """A refused PIN (wrong, another table's, already signed, the table already confirmed; at the kiosk, not
    the chosen player's), counted per table or player, per event, per person (the user at the device) and
    per client address within ``pins.PIN_WINDOW``: past a handful, signing is refused until the window has
    passed (guessing is slow). Kept in the database so every worker counts the same tries."""

    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
        help_text="The table being signed; empty for a player signing in on their own phone or at the kiosk",
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        help_text="Empty only for tries refused before the event was recorded",
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        help_text="The player whose PIN was tried (the kiosk asks one player's PIN); empty at a table",
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    address = models.CharField(max_length=45, blank=True, help_text="The client's address, when known")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["tournament", "created_at"], name="pin_attempt_event_recent"),
            models.Index(fields=["address", "created_at"], name="pin_attempt_address_recent"),
        ]

    def __str__(self) -> str:
        return f"Refused PIN at {self.table or self.tournament}"


class TableDispute(models.Model):
    """A player's "I do not agree" with their table's complete result, pressed on their own phone: a
    referee is called, and the table cannot be confirmed (signed or by a referee) until a referee settles
    it (Sloper rule 72: the players sign a score they agree with, shared/seeds/003_2541481d343502a5.txt
    line 2320)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="disputes")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.registration} disagrees with {self.table}"


class BlindEntry(VersionedResult):
    """A second person's entry of a table's result, made without seeing the first (blind double
    entry): ``rows`` are the score sheet's points per starting seat, hand by hand (may be empty),
    ``totals`` the session's totals per seat. A new entry is a new version."""

    identity = ("table",)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="blind_entries")
    rows = models.JSONField(default=list, blank=True)
    totals = models.JSONField(default=dict)

    class Meta:
        constraints = versioned_constraints(
            ["table"], versions="unique_blind_entry_version", current="one_current_blind_entry_per_table"
        )

    def __str__(self) -> str:
        return f"Blind entry for {self.table} v{self.version}"


class ExportJob(Job):
    """A long print or export (workbook, scoresheets, seat slips, register, EMA file) made once by the
    background worker (``scoring.export_jobs``) and kept in the database, so every app server can hand
    out the same file (no shared disk) and a second request for the same event version reuses it. Its
    state and its claim by a worker are every job's (``tournaments.jobs.Job``)."""

    ACTIVE = (*Job.UNFINISHED, Job.Status.DONE)  # a job of these is reused; a failed one is made again
    GAVE_UP = f"Making the file stopped unexpectedly {MAX_ATTEMPTS} times; ask for it again."
    LOST = "Making the file stopped unexpectedly (the server restarted); ask for it again."
    BROKEN = "The file could not be made (an unexpected error, now in the server log); ask for it again."

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(max_length=40)
    round_number = models.PositiveSmallIntegerField(default=0, help_text="0 for an event-wide print")
    paper = models.CharField(max_length=10, blank=True)
    language = models.CharField(max_length=16, blank=True)
    base_url = models.CharField(max_length=200, blank=True, help_text="For prints with QR codes")
    version = models.CharField(max_length=40, help_text="The event version it is made from")
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    content = models.BinaryField(null=True, editable=False)

    class Meta(Job.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "kind", "round_number", "paper", "language", "base_url", "version"],
                condition=models.Q(status__in=["queued", "running", "done"]),
                name="one_live_export_per_version",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.tournament_id} ({self.status})"
