"""How a player appears to the public: the one rule every public surface asks (pages and their
fragments, the projector, find-a-player, the player's history, the prints shown to the hall, the
standings downloads and the public read API). Staff pages and the EMA file show full names.

The event's setting ``public.names`` (``tournaments.event_settings.PRIVACY_SETTINGS``) says full name,
given name and family initial, or player id; a player's own ``Registration.public_name`` can only
narrow it (a player may choose the id in a full-name event, never a full name in an id event)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpResponse

from scoring.rules.settings import lookup
from tournaments.event_settings import PUBLIC_NAMES
from tournaments.models import Registration, Tournament

FULL, INITIAL, CODE = PUBLIC_NAMES


def event_policy(tournament: Tournament) -> str:
    """The event's ``public.names``: "full" (the default, as before the setting), "initial" or "code"."""
    value = lookup(tournament.settings, "public.names", FULL)
    return value if value in PUBLIC_NAMES else CODE  # an unknown value shows the least


def policy(registration: Registration, *, event: str | None = None) -> str:
    """The narrower of the event's policy and the player's own choice."""
    event = event_policy(registration.tournament) if event is None else event
    return narrowest(event, registration.public_name)


def initial_name(name: str, given_name: str = "", family_name: str = "") -> str:
    """Given name and family initial ("María García" -> "María G."): the federation's split when the
    desk typed it, else the display name's first word and its last word's initial; a name of one word
    keeps only its initial."""
    given, family = given_name.strip(), family_name.strip()
    if not (given and family):
        words = name.split()
        if len(words) < 2:
            return f"{name.strip()[:1]}." if name.strip() else ""
        given, family = words[0], words[-1]
    return f"{given} {family[:1]}."


def name_under(registration: Registration, rule: str) -> str:
    """The registration's name as ``rule`` ("full", "initial", "code") shows it."""
    player = registration.player
    return shown_name(rule, registration.code, player.name, player.given_name, player.family_name)


def shown_name(rule: str, code: str, name: str, given_name: str = "", family_name: str = "") -> str:
    """``name_under`` from plain values (a search reads them with ``values_list``)."""
    if rule == FULL:
        return name
    if rule == INITIAL:
        return initial_name(name, given_name, family_name)
    return code


def narrowest(event: str, own: str) -> str:
    """The narrower of the event's policy and a player's own choice ("" or unknown: the event's)."""
    own = own if own in PUBLIC_NAMES else FULL
    return PUBLIC_NAMES[max(PUBLIC_NAMES.index(event), PUBLIC_NAMES.index(own))]


def public_name(registration: Registration, tournament: Tournament | None = None) -> str:
    """What the public sees of this player in this event (pages, prints for the hall, downloads, API).
    Pass the event when showing many seats, so its setting is read without loading each one's event."""
    event = None if tournament is None else event_policy(tournament)
    return name_under(registration, policy(registration, event=event))


def shows_full_name(registration: Registration) -> bool:
    """Whether the public may see (and search) this player's full name."""
    return policy(registration) == FULL


def public_names(tournament: Tournament) -> dict[str, str]:
    """Every registration's public name by code, in one query (for rows of standings and the like)."""
    event = event_policy(tournament)
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
    return {r.code: name_under(r, policy(r, event=event)) for r in registrations}


def public_rows(tournament: Tournament, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows in the spec's standings shape (``player``: code, ``name``) with the public names; a row
    whose player is unknown shows the code, never the name it carried."""
    names = public_names(tournament)
    return [{**row, "name": names.get(row["player"], row["player"])} for row in rows]


def indexable(tournament: Tournament) -> bool:
    """Whether search engines may index the players' pages (``public.indexing``; off by default)."""
    return lookup(tournament.settings, "public.indexing", False) is True


def history_names(player_ids: Iterable[int]) -> dict[int, str]:
    """Each player's name on the pages across events (``/players/<id>/``), in one query: the narrowest
    policy of their published events, so a name hidden in one event is hidden there too; under "code", the
    id of their latest event. A player with no published event is left out."""
    rows = (
        Registration.objects.filter(
            player_id__in=set(player_ids),
            tournament__published_at__isnull=False,
            tournament__rehearsal_of__isnull=True,
        )
        .select_related("player", "tournament")
        .order_by("-tournament__start_date", "-tournament__created_at")
    )
    rules: dict[int, str] = {}
    latest: dict[int, Registration] = {}
    for registration in rows:
        latest.setdefault(registration.player_id, registration)
        rule = policy(registration)
        if PUBLIC_NAMES.index(rule) > PUBLIC_NAMES.index(rules.get(registration.player_id, FULL)):
            rules[registration.player_id] = rule
        else:
            rules.setdefault(registration.player_id, rule)
    return {pk: name_under(latest[pk], rules[pk]) for pk in latest}


def noindex(response: HttpResponse, *, indexable: bool) -> HttpResponse:
    """Ask search engines not to index a player's page (``X-Robots-Tag``; the page's ``noindex`` context
    adds the meta tag) unless the event allows it. Pages across events (``/players/<id>/``) never allow
    it: the setting belongs to one event."""
    if not indexable:
        response["X-Robots-Tag"] = "noindex"
    return response
