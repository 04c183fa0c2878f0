"""Who the signed-in user is in each event, for the landing page and the navigation.

Every role other than organiser is staff at the tables (referee, and the chief referee and scorer
roles where they exist), so the list is read from ``Role`` rather than written out here."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User

from tournaments.models import EventRole, Role, Tournament


def table_roles() -> list[str]:
    """The roles that work at the tables: every role but organiser."""
    return [value for value in Role.values if value != Role.ORGANISER]


@dataclass(frozen=True)
class UserRoles:
    """A user's roles by event id, plus the site-level rights that decide the navigation."""

    by_event: dict[int, frozenset[str]] = field(default_factory=dict)
    is_superuser: bool = False
    can_create: bool = False

    @property
    def organises(self) -> bool:
        return (
            self.is_superuser or self.can_create or any(Role.ORGANISER in r for r in self.by_event.values())
        )

    @property
    def works_tables(self) -> bool:
        return any(r for r in self.by_event.values())

    def in_event(self, tournament: Tournament) -> frozenset[str]:
        if self.is_superuser:
            return frozenset(Role.values)
        return self.by_event.get(tournament.pk, frozenset())

    def organises_event(self, tournament: Tournament) -> bool:
        return Role.ORGANISER in self.in_event(tournament)

    def works_tables_of(self, tournament: Tournament) -> bool:
        return bool(self.in_event(tournament))


def roles_of(user: User | AnonymousUser) -> UserRoles:
    """One query for all of a user's event roles."""
    if not user.is_authenticated:
        return UserRoles()
    by_event: dict[int, set[str]] = {}
    for event_id, role in EventRole.objects.filter(user=user).values_list("tournament_id", "role"):
        by_event.setdefault(event_id, set()).add(role)
    return UserRoles(
        by_event={key: frozenset(value) for key, value in by_event.items()},
        is_superuser=bool(getattr(user, "is_superuser", False)),
        can_create=user.has_perm("tournaments.add_tournament"),
    )
