"""``{% consent_notice %}``: the privacy notice registration forms show (``tournaments/consent.py``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.consent import CONSENT_TEXT, CONSENT_VERSION

register = template.Library()


@register.simple_tag
def consent_notice() -> SafeString:
    """The notice with its version, which the registration records."""
    return format_html(
        '<p class="muted small consent" data-consent-version="{}">{}</p>', CONSENT_VERSION, CONSENT_TEXT
    )
