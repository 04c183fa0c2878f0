"""Side rankings and team standings for the public pages, computed once per standings version from
the confirmed tables only (as the standings are). The ranking logic is plain Python
(``scoring.rules.side``, ``scoring.exports.data.team_standings``); this module loads the rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.exports.data import TeamRow, team_standings
from scoring.models import Hand
from scoring.rules.ruleset import HandRecord
from scoring.rules.side import SideHand, SideRanking, side_rankings
from scoring.services.rulings import unranked_players
from scoring.services.standings import confirmed_tables
from scoring.standings_cache import cached_standings_rows, standings_cache_key
from tournaments.event_settings import team_best
from tournaments.models import Seat, Table, Tournament
from tournaments.public_names import public_rows
from tournaments.public_read import computed_once
from tournaments.release import counted_rounds

SIDE_TITLES = {
    "best_hand": _("Best single hand"),
    "hands_won": _("Most hands won"),
    "self_drawn": _("Most self-drawn wins"),
    "games_won": _("Most games won"),
    "jokerless_wins": _("Most jokerless wins"),
}
SIDE_VALUES = {
    "best_hand": _("Points"),
    "hands_won": _("Hands won"),
    "self_drawn": _("Self-drawn"),
    "games_won": _("Games won"),
    "jokerless_wins": _("Jokerless"),
}
UNITS = {"fan": _("Fan points"), "points": _("Points")}
"""How the pages word each ranking (the rule sets name them by key only: no translation in rules)."""

SIDE_LIMIT = 10
"""Each side ranking lists the first ten places (a tie at tenth is listed whole)."""


def _version_key(tournament: Tournament, what: str) -> str:
    version = Tournament.objects.filter(pk=tournament.pk).values_list("public_version", flat=True).first()
    return f"{what}:{standings_cache_key(tournament)}:{version}"


def counted_hands(tournament: Tournament) -> list[SideHand]:
    """Every current hand won at a confirmed table, with its winner's registration code (substitutes
    fill seats but are not ranked, so their wins are left out; so are withdrawn players and players out of
    the ranking by a ruling, MCR 77e-f and 89). Seven queries."""
    # Only sessions the public standings count: results published, not after a frozen session.
    counted = confirmed_tables(tournament) & set(
        Table.objects.filter(
            round__tournament=tournament, round__number__in=counted_rounds(tournament)
        ).values_list("id", flat=True)
    )
    if not counted:
        return []

    unranked = unranked_players(tournament)  # loss of rank, disqualification (MCR 77e-f, 89)
    winners = {
        (table_id, wind): code
        for table_id, wind, code, substitute, withdrawn_at in Seat.objects.filter(
            table_id__in=counted
        ).values_list(
            "table_id",
            "wind",
            "registration__code",
            "registration__is_substitute",
            "registration__withdrawn_at",
        )
        if not substitute
        and withdrawn_at is None  # withdrawn players are not ranked either
        and code not in unranked
    }
    hands = []
    for table_id, round_number, table_number, number, winner, discarder, fan, data, tiles in (
        Hand.objects.in_force()
        .filter(table_id__in=counted)
        .exclude(winner="")
        .values_list(
            "table_id",
            "table__round__number",
            "table__number",
            "number",
            "winner",
            "discarder",
            "fan",
            "data",
            "tiles",
        )
    ):
        code = winners.get((table_id, winner))
        if code is None:
            continue
        record = HandRecord(winner=winner, discarder=discarder or None, fan=fan, data=data or {})
        hands.append(
            SideHand(
                winner=code,
                round_number=round_number,
                table_number=table_number,
                hand_number=number,
                record=record,
                tiles=tiles,
            )
        )
    return hands


def event_side_rankings(tournament: Tournament) -> list[SideRanking]:
    """The rankings the event's rule set offers, computed once per public version (they count what the
    public standings count; ``computed_once``, as the standings themselves)."""
    rules = tournament.rule_set
    return computed_once(
        _version_key(tournament, "side-rankings"),
        lambda: side_rankings(
            rules.side_rankings,
            counted_hands(tournament),
            counts=rules.side_counts,
            value=rules.hand_value,
            limit=SIDE_LIMIT,
        ),
    )


def event_team_standings(tournament: Tournament, rows: list[dict[str, Any]] | None = None) -> list[TeamRow]:
    """Teams ranked over the confirmed tables (the members' standings rows summed), the members by their
    public names (the public team page)."""
    if rows is None:
        rows = public_rows(tournament, cached_standings_rows(tournament))
    teams = dict(tournament.registrations.exclude(team="").values_list("code", "team"))
    return team_standings(rows, teams, tournament.uses_table_points, best=team_best(tournament))
