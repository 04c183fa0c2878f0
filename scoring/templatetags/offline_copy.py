"""The per-user id of the referee pages' offline copies, for the logout form (``templates/base.html``) that
clears them and the queue of entries keyed by it (``static/js/site.js``, ``static/js/offline-entry.js``)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.offline_copy import owner_id

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_owner(context: dict[str, Any]) -> str:
    request = context.get("request")
    return owner_id(request.user) if request is not None else ""
