"""Events and their structure: Tournament, Registration, Round (a session), Table and Seat."""

from __future__ import annotations

import json
from datetime import tzinfo
from functools import lru_cache

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from players.models import Player
from scoring.rules import registry
from scoring.rules.ruleset import RuleSet, Vocabulary
from tournaments.jobs import MAX_ATTEMPTS, Job
from tournaments.venue_time import MAX_LENGTH as ZONE_MAX_LENGTH
from tournaments.venue_time import default_time_zone, validate_time_zone, zone_named

WINDS = ("E", "S", "W", "N")
WIND_CHOICES = [("E", "East"), ("S", "South"), ("W", "West"), ("N", "North")]


@lru_cache(maxsize=64)
def _rule_set(code: str, settings_json: str) -> RuleSet:
    """Rule sets are built once per rule set and settings: pages score many tables of one event, each
    with its own copy of the tournament row, and an NMJL card is costly to load."""
    return registry.rule_set(code, json.loads(settings_json))


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    rules = models.CharField(max_length=20, choices=registry.choices, default=registry.DEFAULT)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    num_sessions = models.PositiveSmallIntegerField("sessions", default=4)
    hands_per_session = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="MCR rule 74: a full game is 16 hands; leave empty for a time limit"
    )
    session_minutes = models.PositiveSmallIntegerField(
        "time limit per session (minutes)", null=True, blank=True
    )
    settings = models.JSONField(default=dict, blank=True)
    standings_version = models.PositiveIntegerField(default=0, editable=False)
    public_version = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Bumped by every change a public page shows, except entry at an unconfirmed table "
        "(Round.entry_version): the public pages are stored under it (tournaments/public_read.py)",
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(
        null=True, blank=True, help_text="Draft (nothing public) until the organiser publishes the event"
    )
    standings_frozen_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The public standings stay after this session until the prize-giving"
    )
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="An archived event is kept read-only: its results stay, nothing changes",
    )
    self_check_in_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Players may check themselves in (their own page, the kiosk) until then; empty: closed",
    )
    time_zone = models.CharField(
        max_length=ZONE_MAX_LENGTH,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text="The venue's clock (an IANA name): every time shown for the event is in it "
        "(tournaments/venue_time.py)",
    )
    rehearsal_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rehearsals",
        help_text="A rehearsal copy of that event (tournaments/services/rehearsals.py): never published, "
        "never in a player's history or the EMA file; empty for a real event",
    )

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> tzinfo:
        """The venue's time zone (``time_zone`` read as a zone)."""
        return zone_named(self.time_zone)

    @property
    def rule_set(self) -> RuleSet:
        """The event's rules with its settings: everything that differs between rule sets is asked here.

        Kept on the instance for as long as its rules and settings object stay the same (the services
        assign a new settings dict on every change), so a page scoring a hundred tables does not
        serialise the settings, an NMJL card included, for every table."""
        kept: tuple[str, object, RuleSet] | None = self.__dict__.get("_rule_set_kept")
        if kept is not None and kept[0] == self.rules and kept[1] is self.settings:
            return kept[2]
        rule_set = _rule_set(self.rules, json.dumps(self.settings, sort_keys=True))
        self.__dict__["_rule_set_kept"] = (self.rules, self.settings, rule_set)
        return rule_set

    @property
    def is_rehearsal(self) -> bool:
        """A copy to play through before the day: nothing of it is ever public (``tournaments.access``)."""
        return self.rehearsal_of_id is not None

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def self_check_in_open(self) -> bool:
        """Players may check themselves in now (the window the organiser opened has not ended)."""
        return self.self_check_in_until is not None and timezone.now() < self.self_check_in_until

    @property
    def uses_table_points(self) -> bool:
        return self.rule_set.uses_table_points

    @property
    def words(self) -> Vocabulary:
        return self.rule_set.words


PUBLIC_NAME_CHOICES = [
    ("", gettext_lazy("As the event shows names")),
    ("initial", gettext_lazy("Given name and family initial")),
    ("code", gettext_lazy("Player id only")),
]


class Registration(models.Model):
    """A player entered in one event; ``code`` is the player's id in the event's JSON (e.g. "p1")."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    code = models.CharField(max_length=40)
    team = models.CharField(max_length=120, blank=True)
    checked_in = models.BooleanField(default=False)
    is_substitute = models.BooleanField(
        default=False, help_text="Fills a seat when the players are not a multiple of four; not ranked"
    )
    fixed_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Always seat this player at this table number (accessibility)"
    )
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="Withdrawn: kept in history, no longer seated or ranked"
    )
    # The privacy notice shown at registration (tournaments/consent.py): empty for an imported event's
    # history, which carries none.
    consent_version = models.CharField(max_length=20, blank=True)
    consent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    public_name = models.CharField(
        max_length=10,
        blank=True,
        choices=PUBLIC_NAME_CHOICES,
        help_text="The player's own choice of public name: it only narrows the event's (tournaments.public_names)",
    )

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_registration_per_player"),
            models.UniqueConstraint(fields=["tournament", "code"], name="unique_registration_code"),
        ]

    def __str__(self) -> str:
        return self.player.name

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Role(models.TextChoices):
    ORGANISER = "organiser", gettext_lazy("Organiser")
    REFEREE = "referee", gettext_lazy("Referee")
    CHIEF_REFEREE = "chief_referee", gettext_lazy("Chief referee (decides appeals, rule 94)")
    SCORER = "scorer", gettext_lazy("Scorer (enters and confirms results)")


class EventRole(models.Model):
    """Who may do what in one event: organisers run it, referees enter results."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="unique_event_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.tournament}"


class Round(models.Model):
    """One session of play (MCR: a game, rule 74); called a round in the JSON interchange."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    seated_at = models.DateTimeField(null=True, blank=True)
    seating_published_at = models.DateTimeField(
        null=True, blank=True, help_text="The seating is public from then on (draft before)"
    )
    results_published_at = models.DateTimeField(
        null=True, blank=True, help_text="The results count in the public pages from then on (draft before)"
    )
    entry_version = models.PositiveIntegerField(
        default=0, editable=False, help_text="Bumped by every result entered at the session's tables"
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return gettext("Session %(number)s") % {"number": self.number}  # in the page's language


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    totals_only = models.BooleanField(
        default=False, help_text="The organiser allows this table to report session totals only"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    results_version = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Bumped with the session's entry_version by every result entered at this table: the "
        "public results page draws again only the cards of the tables that changed",
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Seat(models.Model):
    """Where a player sits at the start of the session; rotation within it follows the rules."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="seats")
    wind = models.CharField(max_length=1, choices=WIND_CHOICES)

    class Meta:
        ordering = ["table__number", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["table", "wind"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["round", "registration"], name="one_seat_per_player_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} {self.wind} at {self.table}"


class Substitution(models.Model):
    """From hand ``from_hand`` of the session on, ``substitute`` plays ``seat`` in place of the seat's
    player, who fell ill or had to leave. Hands before it stay with the player who played them; how the
    session counts in the standings follows the event's "substitute policy" (``scoring.substitutions``)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="substitutions")
    substitute = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="substitutions")
    from_hand = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["from_hand"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "from_hand"], name="one_substitution_per_seat_and_hand")
        ]

    def __str__(self) -> str:
        return f"{self.substitute} for {self.seat.registration} from hand {self.from_hand}"


class KeptApart(models.Model):
    """Two players of one event the seating keeps apart (family, couples), like teammates but as a pair:
    ``first`` is the registration with the lower key, so a pair is stored once whichever way it is named
    (``tournaments.services.kept_apart``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="kept_apart")
    first = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="one_kept_apart_pair"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="kept_apart_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} apart from {self.second}"


class AuditEntry(models.Model):
    """Who changed what, when: one row per service write."""

    tournament = models.ForeignKey(
        Tournament, null=True, on_delete=models.SET_NULL, related_name="audit_entries"
    )
    event_slug = models.CharField(max_length=80, blank=True, help_text="Kept when the event is deleted")
    actor = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return self.summary


class SeatingJob(Job):
    """A seating plan being worked out in the background, so the organiser's page stays usable and can
    show how far it has got (the engine may search for several seconds). Its state and its claim by a
    worker are every job's (``tournaments.jobs.Job``)."""

    GAVE_UP = f"The seating stopped unexpectedly {MAX_ATTEMPTS} times; start it again."
    LOST = "The seating stopped unexpectedly; start it again."
    BROKEN = "The seating could not be worked out."

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seating_jobs")
    from_round = models.PositiveSmallIntegerField()
    whole_plan = models.BooleanField(default=False, help_text="Seat every later session too")
    seed = models.PositiveIntegerField(default=0)
    time_limit = models.FloatField()

    def __str__(self) -> str:
        return f"Seating from session {self.from_round} ({self.status})"


class SessionClock(models.Model):
    """A session's clock as the organiser runs it (MCR rule 74f: a session may have a time limit).

    Stored as moments, never as a ticking number: the time left is worked out from them whenever it is
    read (``tournaments.clock``), so every page and every worker agrees. Every change is a service call
    with an audit entry (``tournaments.clock``); ``version`` counts the changes."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveSmallIntegerField(help_text="The session's planned length")
    started_at = models.DateTimeField()
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Set while the clock is paused")
    paused_seconds = models.PositiveIntegerField(default=0, help_text="Earlier pauses, in total")
    extra_seconds = models.PositiveIntegerField(default=0, help_text="Extensions for every table")
    table_extra = models.JSONField(
        default=dict, blank=True, help_text="Extra seconds for single tables, by table number"
    )
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"Clock of {self.round}"


class RefereeCall(models.Model):
    """A table calls a referee (a claim to settle, wrong tiles, a question of time): one open call per table,
    taken by the referee who goes there ("Kim is coming") and closed once settled. Services:
    ``tournaments.services.calls``."""

    class Reason(models.TextChoices):
        CLAIM = "claim", gettext_lazy("claim")
        WRONG_TILES = "wrong_tiles", gettext_lazy("wrong tiles")
        TIMING = "timing", gettext_lazy("timing")
        OTHER = "other", gettext_lazy("other")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    reason = models.CharField(max_length=20, choices=Reason.choices, blank=True)
    called_by_registration = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player who called from their own page",
    )
    called_by_user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The staff member who called from the referee's table page",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(closed_at=None), name="one_open_call_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} calls a referee"


class EntryWindow(models.Model):
    """Registration by the players (``/e/<event>/register/``): open while ``opened`` and before
    ``closes_at``, with ``capacity`` places; entries beyond it wait (``tournaments.services.entries``)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="entry_window")
    opened = models.BooleanField(default=True)
    capacity = models.PositiveSmallIntegerField()
    closes_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Registration for {self.tournament} ({self.capacity} places)"


class EntryStatus(models.TextChoices):
    APPLIED = "applied", gettext_lazy("Applied")
    WAITING = "waiting", gettext_lazy("Waiting list")
    APPROVED = "approved", gettext_lazy("Approved")
    REFUSED = "refused", gettext_lazy("Refused")
    WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")


class Entry(models.Model):
    """A player's own registration request, in order of arrival (``position``: first come, first served).
    Approved, it becomes a ``Registration`` through the desk's registration service."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=EntryStatus.choices, default=EntryStatus.APPLIED)
    family_name = models.CharField(max_length=120)
    given_name = models.CharField(max_length=120)
    country = models.CharField(max_length=2, blank=True)
    ema_id = models.CharField("EMA id", max_length=20, blank=True)
    team = models.CharField(max_length=120, blank=True)
    email = models.EmailField(max_length=254)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        help_text="The site's earlier player with this EMA number, recognised when the entry arrived",
    )
    registration = models.OneToOneField(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="entry"
    )
    fee_paid = models.BooleanField(default=False)
    # The privacy notice the entry form showed (tournaments/consent.py).
    consent_version = models.CharField(max_length=20, blank=True)
    consent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "position"], name="unique_entry_position")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.given_name} {self.family_name}".strip()
