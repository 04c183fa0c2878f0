"""A person's data: a copy of everything held about them (``player_data``, GDPR article 15) and erasure
that keeps the tournament (``anonymise_player``, article 17); docs/privacy.md.

A player who asks to be forgotten (GDPR article 17) cannot be deleted: their hands, table points and seats
are part of every other player's standings. ``anonymise_player`` keeps every row and replaces what names
the person (name, family and given names, EMA number, the email address of their entries, the audit log's
copies of these) by a pseudonym, ``Player 7F3A9C``, derived from the record's number with a keyed hash
(Django's ``salted_hmac`` on the ``SECRET_KEY``): the same record always gets the same pseudonym, and
nobody without the key can tell which number it was. Their PINs are deleted (a PIN signs for a person).
Scores, table points and ranks are untouched (``scoring/tests/test_erasure.py`` compares the standings).

It lives in ``scoring`` because the PINs do (``scoring.models.PlayerPin``); the person's record is the
``players.Player`` and everything that points at it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils.crypto import salted_hmac

from players.models import Player, PlayerMerge
from scoring.models import PlayerPin
from scoring.standings_cache import standings_rows
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.models import AuditEntry, Entry, EventRole, KeptApart, Registration, Role, Tournament

PSEUDONYM_SALT = "players.erasure.pseudonym"
NAME_FIELDS = ("name", "family_name", "given_name", "ema_id", "email")


def pseudonym(player_id: int) -> str:
    """``Player`` and six hex digits of a keyed hash of the record's number: stable, not reversible."""
    digest = salted_hmac(PSEUDONYM_SALT, str(player_id)).hexdigest()
    return f"Player {digest[:6].upper()}"


def is_anonymised(player: Player) -> bool:
    return player.name == pseudonym(player.pk)


def records_of(player: Player) -> list[Player]:
    """The person's records: ``player`` and the records merged into it (``PlayerMerge`` keeps them,
    empty, so the merge can be undone; they still hold the person's other spelling)."""
    merged = PlayerMerge.objects.filter(kept=player, undone_at=None).values_list("merged_id", flat=True)
    return [player, *Player.objects.filter(pk__in=list(merged)).order_by("pk")]


def entries_of(players: Iterable[Player]) -> list[Entry]:
    """The person's own registration requests: linked to a record, or approved as one's registration."""
    ids = [player.pk for player in players]
    return list(
        Entry.objects.filter(Q(player_id__in=ids) | Q(registration__player_id__in=ids))
        .select_related("tournament", "registration")
        .distinct()
        .order_by("pk")
    )


def events_of(player: Player) -> list[Tournament]:
    """Every event the person is registered in or entered, drafts and archived events included."""
    records = records_of(player)
    return list(
        Tournament.objects.filter(
            Q(registrations__player__in=records)
            | Q(entries__player__in=records)
            | Q(entries__registration__player__in=records)
        )
        .distinct()
        .order_by("pk")
    )


def may_erase(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """A superuser, or an organiser of every event the person played or entered: erasure rewrites the
    names, the results' owner and the audit log of each of those events, so no organiser may rewrite
    another organiser's event (as for merging two records, ``tournaments.services.player_merge``); a
    person with no event asks one of the site's administrators, who can see every record."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    events = {event.pk for event in events_of(player)}
    organised = set(
        EventRole.objects.filter(user=user.pk, role=Role.ORGANISER, tournament__in=events).values_list(
            "tournament_id", flat=True
        )
    )
    return bool(events) and events <= organised


@dataclass
class ErasureReport:
    """What ``anonymise_player`` changed, for the command's and the page's message."""

    pseudonym: str
    events: list[str] = field(default_factory=list)
    records: int = 0
    registrations: int = 0
    entries: int = 0
    pins: int = 0
    audit_entries: int = 0


@dataclass
class _Terms:
    """What names the person: ``texts`` are replaced wherever they occur in the log's texts (whole words),
    ``values`` only where a value of the log's data is exactly one of them (a family name alone, "Wei",
    may be part of another player's name)."""

    texts: set[str] = field(default_factory=set)
    values: set[str] = field(default_factory=set)

    def add_person(self, name: str, family: str, given: str, ema_id: str = "", email: str = "") -> None:
        for text in (name, f"{given} {family}", f"{family} {given}", f"{family}{given}", ema_id, email):
            if text.strip() and len(text.strip()) > 1:
                self.texts.add(text.strip())
        self.values.update(value for value in (family, given) if value.strip())

    def pattern(self) -> re.Pattern[str] | None:
        if not self.texts:
            return None
        alternatives = []
        for text in sorted(self.texts, key=len, reverse=True):  # the longest first: "Ana Lima" before "Ana"
            before = r"(?<!\w)" if text[0].isascii() and text[0].isalnum() else ""
            after = r"(?!\w)" if text[-1].isascii() and text[-1].isalnum() else ""
            alternatives.append(f"{before}{re.escape(text)}{after}")
        return re.compile("|".join(alternatives), re.IGNORECASE)


def _terms_of(records: list[Player], entries: list[Entry], events: list[Tournament]) -> _Terms:
    terms = _Terms()
    for record in records:
        terms.add_person(record.name, record.family_name, record.given_name, record.ema_id)
    for entry in entries:
        terms.add_person(entry.name, entry.family_name, entry.given_name, entry.ema_id, entry.email)
    _earlier_details(events, records, terms)
    return terms


def _earlier_details(events: list[Tournament], records: list[Player], terms: _Terms) -> None:
    """The names the desk corrected (``tournaments.desk.edit`` logs each change as [before, after])."""
    codes = {
        (event_id, code)
        for event_id, code in Registration.objects.filter(player__in=records).values_list(
            "tournament_id", "code"
        )
    }
    edits = AuditEntry.objects.filter(tournament__in=events, action=AuditAction.EDIT_PLAYER.value)
    for entry in edits.only("tournament_id", "data"):
        if (entry.tournament_id, entry.data.get("code")) not in codes:
            continue
        changed = entry.data.get("changed") or {}
        for key in ("name", "ema_id"):
            terms.texts.update(v for v in changed.get(key, []) if isinstance(v, str) and len(v) > 1)
        for key in ("family_name", "given_name"):
            terms.values.update(v for v in changed.get(key, []) if isinstance(v, str) and v)


def _rewrite(value: Any, pattern: re.Pattern[str], terms: _Terms, replacement: str) -> Any:
    if isinstance(value, str):
        if value in terms.values:
            return replacement
        return pattern.sub(replacement, value)
    if isinstance(value, list):
        return [_rewrite(item, pattern, terms, replacement) for item in value]
    if isinstance(value, dict):
        return {key: _rewrite(item, pattern, terms, replacement) for key, item in value.items()}
    return value


def _rewrite_log(events: list[Tournament], terms: _Terms, replacement: str) -> int:
    """Rewrite the audit log's copies: every entry of the person's events, and the entries of deleted
    events (their ``tournament`` is gone, so any may name the person)."""
    pattern = terms.pattern()
    if pattern is None:
        return 0
    changed = 0
    rows = AuditEntry.objects.filter(Q(tournament__in=events) | Q(tournament=None)).only("summary", "data")
    for entry in rows.iterator(chunk_size=2000):
        summary = _rewrite(entry.summary, pattern, terms, replacement)
        data = _rewrite(entry.data, pattern, terms, replacement)
        if summary != entry.summary or data != entry.data:
            AuditEntry.objects.filter(pk=entry.pk).update(summary=summary[:300], data=data)
            changed += 1
    return changed


def _forget_merged_numbers(records: list[Player]) -> None:
    """A merge stores the EMA number it moved (``PlayerMerge.details``) to put it back on undo: it goes,
    and an undo then leaves both records without one."""
    for merge in PlayerMerge.objects.filter(Q(kept__in=records) | Q(merged__in=records)):
        if "ema_id" in merge.details:
            merge.details.pop("ema_id")
            merge.save(update_fields=["details"])


@transaction.atomic
def anonymise_player(player: Player, *, acting_user: User) -> ErasureReport:
    """Replace the person's identifying data everywhere by ``pseudonym(player.pk)``; every score, table
    point and rank stays. Allowed to :func:`may_erase`'s users (the page asks; the command is the site's
    administrator). Doing it again changes nothing more (the log says it was asked again)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    records = records_of(player)
    entries = entries_of(records)
    events = events_of(player)
    name = pseudonym(player.pk)
    terms = _terms_of(records, entries, events)
    terms.texts.discard(name)
    registrations = Registration.objects.filter(player__in=records)
    report = ErasureReport(
        pseudonym=name,
        events=[event.name for event in events],
        records=len(records),
        registrations=registrations.count(),
        entries=len(entries),
    )
    report.pins, _ = PlayerPin.objects.filter(registration__in=registrations).delete()
    for record in records:
        given, family = pseudonym(record.pk).split(" ", 1)
        Player.objects.filter(pk=record.pk).update(
            name=pseudonym(record.pk), family_name=family, given_name=given, ema_id=""
        )
        terms.texts.discard(pseudonym(record.pk))
    _forget_merged_numbers(records)
    given, family = name.split(" ", 1)
    Entry.objects.filter(pk__in=[entry.pk for entry in entries]).update(
        family_name=family, given_name=given, ema_id="", email=""
    )
    report.audit_entries = _rewrite_log(events, terms, name)
    for event in events:
        bump_standings(event)  # the names on every page and export of the event change
        audit(
            event,
            acting_user,
            AuditAction.ANONYMISE_PLAYER,
            f"Replaced a player's data by the pseudonym {name} (record #{player.pk})",
            player=player.pk,
            records=[record.pk for record in records],
            audit_entries=report.audit_entries,
        )
    return report


# -- A copy of the person's data -----------------------------------------------------------------------------


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _record(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "family_name": player.family_name,
        "given_name": player.given_name,
        "country": player.country,
        "ema_id": player.ema_id,
        "created_at": _when(player.created_at),
        "anonymised": is_anonymised(player),
    }


def _event(event: Tournament) -> dict[str, Any]:
    return {
        "slug": event.slug,
        "name": event.name,
        "start_date": _when(event.start_date),
        "end_date": _when(event.end_date),
    }


def _results(registration: Registration) -> dict[str, Any] | None:
    """The person's row of the event's public standings (its published sessions), if ranked there."""
    rows = standings_rows(registration.tournament)
    row = next((row for row in rows if row.get("player") == registration.code), None)
    return {key: value for key, value in row.items() if key != "name"} if row else None


def _registration(registration: Registration) -> dict[str, Any]:
    return {
        "event": _event(registration.tournament),
        "code": registration.code,
        "team": registration.team,
        "public_name": registration.public_name,  # the player's own narrowing (tournaments.public_names)
        "checked_in": registration.checked_in,
        "is_substitute": registration.is_substitute,
        "fixed_table": registration.fixed_table,
        "kept_apart_from": kept_apart_from(registration),
        "withdrawn_at": _when(registration.withdrawn_at),
        "consent_version": registration.consent_version,
        "consent_at": _when(registration.consent_at),
        "created_at": _when(registration.created_at),
        "results": _results(registration),
    }


def kept_apart_from(registration: Registration) -> list[str]:
    """The codes of the players the seating keeps this one apart from (``tournaments.services.kept_apart``):
    the organiser recorded a relation (family, a couple), which is the person's data too."""
    pairs = KeptApart.objects.filter(Q(first=registration) | Q(second=registration)).values_list(
        "first__code", "second__code"
    )
    return sorted(b if a == registration.code else a for a, b in pairs)


def _entry(entry: Entry) -> dict[str, Any]:
    return {
        "event": _event(entry.tournament),
        "position": entry.position,
        "status": entry.status,
        "family_name": entry.family_name,
        "given_name": entry.given_name,
        "country": entry.country,
        "ema_id": entry.ema_id,
        "team": entry.team,
        "email": entry.email,
        "fee_paid": entry.fee_paid,
        "registration": entry.registration.code if entry.registration else None,
        "consent_version": entry.consent_version,
        "consent_at": _when(entry.consent_at),
        "created_at": _when(entry.created_at),
    }


def _names(entry: AuditEntry, pattern: re.Pattern[str] | None, terms: _Terms, codes: set[Any]) -> bool:
    """Whether a log entry names the person: their name or details in its texts, or their code."""
    if (entry.tournament_id, entry.data.get("code")) in codes:
        return True
    if pattern is None:
        return False
    texts = [entry.summary, entry.data]
    return bool(_rewrite(texts, pattern, terms, "\x00") != texts)


def player_data(player: Player) -> dict[str, Any]:
    """Everything held about the person, as JSON-ready data: their records, registrations with their
    events and results, entries, and the audit log's entries that name them."""
    player = Player.objects.get(pk=player.pk)
    records = records_of(player)
    entries = entries_of(records)
    events = events_of(player)
    registrations = list(
        Registration.objects.filter(player__in=records).select_related("tournament").order_by("pk")
    )
    terms = _terms_of(records, entries, events)
    pattern = terms.pattern()
    codes = {(registration.tournament_id, registration.code) for registration in registrations}
    log = AuditEntry.objects.filter(Q(tournament__in=events) | Q(tournament=None)).order_by(
        "created_at", "pk"
    )
    return {
        "player": _record(player),
        "merged_records": [_record(record) for record in records[1:]],
        "registrations": [_registration(registration) for registration in registrations],
        "entries": [_entry(entry) for entry in entries],
        "audit_entries": [
            {
                "event": entry.event_slug,
                "created_at": _when(entry.created_at),
                "action": entry.action,
                "summary": entry.summary,
                "data": entry.data,
            }
            for entry in log.iterator(chunk_size=2000)
            if _names(entry, pattern, terms, codes)
        ],
    }
