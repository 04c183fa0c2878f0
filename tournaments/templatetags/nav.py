"""The navigation shows only what the user's roles may use (``templates/base.html``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament
from tournaments.roles import UserRoles, roles_of

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_roles(context: dict[str, Any]) -> UserRoles:
    """The user's roles, looked up once per request (base.html and the page may both ask)."""
    request = context.get("request")
    if request is None:
        return UserRoles()
    kept = getattr(request, "_nav_roles", None)
    if kept is None:
        kept = roles_of(request.user)
        request._nav_roles = kept
    return kept


@register.filter
def organises_event(roles: UserRoles, tournament: Any) -> bool:
    return isinstance(tournament, Tournament) and roles.organises_event(tournament)


@register.filter
def works_tables_of(roles: UserRoles, tournament: Any) -> bool:
    return isinstance(tournament, Tournament) and roles.works_tables_of(tournament)
